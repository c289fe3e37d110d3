"""Match records: a stable text format for one match, and its parse/format round trip.

Pure formatting and parsing (no I/O, no database, no Discord): `format_record` turns a
`Record` into text, `parse_record` turns text back into the same `Record`, and
`format_record(parse_record(text)) == text` for every text this module writes.  Building a
record from a stored match is `bot.services.matches.records`; checking one is `bot.records.verify`.

The format is PGN-like: a header of tags, a blank line, then the move log, one move a line
(the move lines below are samples of each kind, not one real game):

    [Boneyard "2"]
    [Game "focus"]
    [Options "drops=anywhere ply_limit=400 repetitions=3 setup=standard"]
    [Match "42"]
    [Site "https://discord.com/channels/900/500"]
    [Player0 "alice"]
    [Player0Id "1001"]
    [Player1 "bob"]
    [Player1Id "1002"]
    [Start "2026-11-23T13:00:00Z"]
    [End "2026-11-23T13:41:07Z"]
    [Status "finished"]
    [Result "1-0"]
    [Reason "Blue resigned."]
    [SeedHash "5d41402abc4b2a76b9719d911017c592..."]
    [Seed "0f3c..."]

    -1 seats challenger 1002 seat 1
    0 0 d2-d1
    1 1 c2-c1
    2 chance roll 3 5
    3 0 pick 2-5 {secret}
    4 1 {withheld}
    5 1 done {forced}
    6 takeback 4
    7 complete 1
    8 1 pick 3-3 {secret}
    9 end resign 1
    ; a comment: readers keep it and no checker reads it

Tags, in this order (a reader must accept and keep tags it does not know, after these):

- `Boneyard`: the format version, `2`; a reader refuses a version it does not know.  Version 1
  (before the seat draw was a line naming the challenger) is still read: it had the tag
  `SeatDraw` (`challenger 0` or `challenger 1`, the challenger's seat) instead of the `-1 seats`
  line, and records written before its ending lines existed have none (see below).
- `Game`: the game key (`focus`, `domineering`, `dominance`, `domino_wars`, `wonderland`).
- `Options`: the engine options the match was started with, `name=value` pairs sorted by
  name (per-seat words such as `me` already turned into seat numbers).
- `Match`, `Site`: the match number and a link to where it was played (both optional).
- `Player0`, `Player1` (display names) and `Player0Id`, `Player1Id` (Discord user ids).
- `Start`, `End`: UTC times in ISO 8601 (`End` is `-` while the match runs).
- `Status`: `active`, `finished` or `aborted`.
- `Result`: `1-0` (seat 0 won), `0-1`, `1/2-1/2` (draw), `*` (running), `-` (aborted).
- `Reason` (how it ended), `Scores` (space-separated, when the game keeps scores): optional.
- `SeedHash`: SHA-256 of the match's secret seed, published when the match started.
- `Seed`: the seed itself, present only after the end.

Tag values are in double quotes; a backslash escapes `"`, `\\` and a newline (`\\n`).

The seat draw: when a challenge left the seats to chance, the first line after the header is
`-1 seats challenger <user id> seat <seat>`: the challenger (a Discord user id, one of the
`Player0Id`/`Player1Id`) got the seat `chance_rng(seed, -1).randrange(2)`, the seed's decision
numbered -1 because it comes before ply 0.  There is no such line when the seats were chosen.

Move lines: `<ply> <who> <move> [{secret}] [{forced}]`.  `ply` counts from 0 and is the
number `bot.records.fairness.chance_rng(seed, ply)` takes for a chance move; `who` is `0`, `1` or
`chance`; `{secret}` marks a move the engine logs as not public (a draft pick, a shuffle),
`{forced}` one the engine applied itself because it was the only legal choice.  While a
match runs, a secret move is written `<ply> <who> {withheld}`, without its text or flags.
`<ply> takeback <n>` is an agreed takeback: the moves from ply `n` up to it are withdrawn
(they stay in the record); replaying reads the lines in order and, at each takeback line,
drops the moves it withdrew (`bot.records.move_log.effective`).
A line starting with `;` (PGN's comment to the end of the line) is a comment about the move
line above it (or the whole game, before the first move line): the computer's analysis
(`bot.records.annotations`) is written so.  Comments never change what the record proves:
the checker does not read them, and a reader keeps them (`Record.comments`) so the round
trip loses nothing.
`<ply> complete <seat>` says that seat's draft ran out of time: the picks that follow it,
while the seat must still pick, were drawn from the seed (`chance_rng(seed, <this ply>)`, one
`rng.choice(sorted(legal picks))` each), and the checker redraws them.
`<ply> end <how>` ends a match outside the game's rules, and is then its last line:
`end resign <seat>`, `end timeout <seat> <clock>` (the loser's stopped clock, e.g. `0:00` or
`0:00+0:00`; `-` without a clock, or when not known), `end draw agreed`, `end abort` (both players agreed) or
`end abort moderator`.  Why a line and not only the header: the header is the exporter's
word, the lines are what the checker replays, so a result must follow from the lines alone
(`bot.records.verify`).  Records written before these lines existed have none; the checker
then cannot prove an ending the moves do not reach, and says so.  The bot's own database got
the line of every such match whose stored outcome proves it (store migration 8, with the clock
reading `-`), so exporting the match again gives a record that proves its ending.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from bot.games import CHANCE
from bot.records.move_log import (
    COMPLETION_SEAT,
    ENDING_SEAT,
    TAKEBACK_SEAT,
    completed_seat,
    completion_record,
    is_ending_text,
    takeback_record,
    undone_from,
)

FORMAT_VERSION = 2
"""The version this module writes; `READABLE_VERSIONS` are the ones it reads."""
READABLE_VERSIONS = (1, 2)
RESULTS = ("1-0", "0-1", "1/2-1/2", "*", "-")
STATUSES = ("active", "finished", "aborted")
RUNNING = "-"
"""The `End` tag of a match that has not ended."""

_KNOWN_TAGS = (
    "Boneyard",
    "Game",
    "Options",
    "Match",
    "Site",
    "Player0",
    "Player0Id",
    "Player1",
    "Player1Id",
    "Start",
    "End",
    "Status",
    "Result",
    "Reason",
    "Scores",
    "SeedHash",
    "Seed",
    "SeatDraw",
)
_REQUIRED_TAGS = ("Boneyard", "Game", "Options", "Player0", "Player1", "Start", "End", "Status", "Result", "SeedHash")
_TAG_LINE = re.compile(r'\[([A-Za-z][A-Za-z0-9_]*) "((?:[^"\\]|\\.)*)"\]')
_MOVE_LINE = re.compile(r"(\d{1,9}) (0|1|chance|takeback|complete|end) (.*)")
_SEATS_LINE = re.compile(r"-1 seats challenger ([0-9]{1,20}) seat ([01])")
SEATS_PLY = -1
"""The number of the seat draw: `chance_rng(seed, -1)` draws it, before ply 0."""
_PLY = re.compile(r"[0-9]{1,9}")
_FLAGS = ("{secret}", "{forced}")
COMMENT = ";"
WITHHELD = "{withheld}"


QUOTE_LIMIT = 80
"""At most this many characters of a record are echoed back in a sentence."""


def quote(text: str, limit: int = QUOTE_LIMIT) -> str:
    """`text` fit to be echoed inside a sentence: control, format and bidi characters (a BOM,
    a right-to-left override, a zero-width space) and backticks dropped, runs of white space
    made one space, cut to `limit` characters with `…`.  Why: a checker's sentence must show
    what it refuses, and must not be made to lie by what it shows, nor flood a terminal."""
    kept = "".join(
        " " if char.isspace() else char
        for char in text[: limit * 4]
        if char == " " or (char != "`" and unicodedata.category(char) not in ("Cc", "Cf", "Cs", "Co", "Cn"))
    )
    kept = " ".join(kept.split())
    return kept if len(kept) <= limit and len(text) <= limit * 4 else kept[: limit - 1] + "…"


class RecordError(ValueError):
    """A text that is not a valid record; the message says which line and why."""


@dataclass(frozen=True, slots=True)
class RecordMove:
    """One line of the move log.  `move` is None for a secret move withheld while the match runs."""

    ply: int
    seat: int
    move: str | None
    public: bool = True
    forced: bool = False

    @property
    def withheld(self) -> bool:
        return self.move is None


@dataclass(frozen=True)
class Record:
    """Everything a record holds; `moves` in ply order from 0."""

    game: str
    options: dict[str, str]
    players: tuple[str, str]
    start: str
    end: str
    status: str
    result: str
    seed_hash: str
    moves: tuple[RecordMove, ...] = ()
    player_ids: tuple[int | None, int | None] = (None, None)
    match_id: int | None = None
    site: str | None = None
    reason: str | None = None
    scores: tuple[int, ...] | None = None
    seed: str | None = None
    seat_draw: int | None = None
    """The challenger's seat when it was drawn from the seed (the `-1 seats` line), else None."""
    challenger_id: int | None = None
    """Who challenged, when the seats were drawn (the `-1 seats` line; None in version 1)."""
    extra: tuple[tuple[str, str], ...] = field(default=())
    """Tags this version does not know, kept in order so a round trip loses nothing."""
    comments: tuple[tuple[int, str], ...] = field(default=())
    """(ply, one line of text): a comment after the move line of that ply (-1: before the
    first move line), in the record's order."""
    version: int = FORMAT_VERSION

    @property
    def ended(self) -> bool:
        return self.status != "active"

    @property
    def withheld(self) -> int:
        """How many secret moves this record leaves out."""
        return sum(1 for m in self.moves if m.withheld)


def result_of(status: str, winners: list[int] | tuple[int, ...] | None) -> str:
    """The `Result` tag for a match in `status` whose outcome names `winners`."""
    if status == "active":
        return "*"
    if status == "aborted" or winners is None:
        return "-"
    if not winners:
        return "1/2-1/2"
    return "1-0" if winners[0] == 0 else "0-1"


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def _unescape(value: str, line: int) -> str:
    out, chars = [], iter(value)
    for char in chars:
        if char != "\\":
            out.append(char)
            continue
        nxt = next(chars, "")
        if nxt == "n":
            out.append("\n")
        elif nxt in ('"', "\\"):
            out.append(nxt)
        else:
            raise RecordError(f"Line {line}: unknown escape `\\{nxt}` in a tag value.")
    return "".join(out)


def format_options(options: dict[str, str]) -> str:
    return " ".join(f"{name}={options[name]}" for name in sorted(options))


def parse_options(text: str, line: int = 0) -> dict[str, str]:
    options: dict[str, str] = {}
    for word in text.split():
        name, sep, value = word.partition("=")
        if not sep or not name or not value:
            raise RecordError(f"Line {line}: options are `name=value` pairs, not `{quote(word)}`.")
        options[name] = value
    return options


def _who(seat: int) -> str:
    return "chance" if seat == CHANCE else str(seat)


def format_move(move: RecordMove) -> str:
    if move.seat == TAKEBACK_SEAT and move.move is not None:
        return f"{move.ply} takeback {undone_from(move)}"
    if move.seat == ENDING_SEAT and move.move is not None:
        return f"{move.ply} end {move.move}"
    if move.seat == COMPLETION_SEAT and move.move is not None:
        return f"{move.ply} complete {completed_seat(move)}"
    if move.move is None:
        return f"{move.ply} {_who(move.seat)} {WITHHELD}"
    text = f"{move.ply} {_who(move.seat)} {' '.join(move.move.split())}"
    if not move.public:
        text += " {secret}"
    if move.forced:
        text += " {forced}"
    return text


def format_record(record: Record) -> str:
    """The record as text (ends with a newline)."""
    tags: list[tuple[str, str | None]] = [
        ("Boneyard", str(record.version)),
        ("Game", record.game),
        ("Options", format_options(record.options)),
        ("Match", str(record.match_id) if record.match_id is not None else None),
        ("Site", record.site),
        ("Player0", record.players[0]),
        ("Player0Id", str(record.player_ids[0]) if record.player_ids[0] is not None else None),
        ("Player1", record.players[1]),
        ("Player1Id", str(record.player_ids[1]) if record.player_ids[1] is not None else None),
        ("Start", record.start),
        ("End", record.end),
        ("Status", record.status),
        ("Result", record.result),
        ("Reason", record.reason),
        ("Scores", " ".join(map(str, record.scores)) if record.scores is not None else None),
        ("SeedHash", record.seed_hash),
        ("Seed", record.seed),
        ("SeatDraw", _seat_draw_tag(record)),
        *record.extra,
    ]
    lines = [f'[{name} "{_escape(value)}"]' for name, value in tags if value is not None]
    lines.append("")
    seats = seats_line(record)
    if seats is not None:
        lines.append(seats)
    notes: dict[int, list[str]] = {}
    for ply, note in record.comments:
        notes.setdefault(ply, []).append(f"{COMMENT} {' '.join(note.split())}")
    lines.extend(notes.pop(-1, []))
    for m in record.moves:
        lines.append(format_move(m))
        lines.extend(notes.pop(m.ply, []))
    return "\n".join(lines) + "\n"


def _seat_draw_tag(record: Record) -> str | None:
    """Version 1 wrote the seat draw as this tag (the challenger's seat, not who it was)."""
    return f"challenger {record.seat_draw}" if record.seat_draw is not None and record.version < 2 else None


def seats_line(record: Record) -> str | None:
    """The `-1 seats` line of a record whose seats were drawn (version 2 on), else None."""
    if record.seat_draw is None or record.version < 2:
        return None
    if record.challenger_id is None:
        raise ValueError("a drawn seat's line names the challenger")
    return f"{SEATS_PLY} seats challenger {record.challenger_id} seat {record.seat_draw}"


def _parse_move(text: str, line: int, ply: int) -> RecordMove:
    found = _MOVE_LINE.fullmatch(text)
    if found is None:
        raise RecordError(f"Line {line}: a move line is `<ply> <0|1|chance|takeback|end> <move>`, not `{quote(text)}`.")
    number, who, rest = int(found[1]), found[2], found[3]
    if number != ply:
        raise RecordError(f"Line {line}: expected ply {ply}, found ply {number}.")
    if who == "takeback":
        if _PLY.fullmatch(rest) is None or int(rest) >= number:
            raise RecordError(f"Line {line}: a takeback names an earlier ply, not `{quote(rest, 20)}`.")
        return RecordMove(number, TAKEBACK_SEAT, takeback_record(int(rest)))
    if who == "complete":
        if rest not in ("0", "1"):
            raise RecordError(f"Line {line}: a completed draft names seat 0 or 1, not `{quote(rest, 20)}`.")
        return RecordMove(number, COMPLETION_SEAT, completion_record(int(rest)))
    if who == "end":
        if not is_ending_text(rest):
            raise RecordError(
                f"Line {line}: an ending is `resign <seat>`, `timeout <seat> <clock>`, `draw agreed`, `abort` "
                f"or `abort moderator`, not `{quote(rest)}`."
            )
        return RecordMove(number, ENDING_SEAT, rest)
    seat = CHANCE if who == "chance" else int(who)
    if rest == WITHHELD:
        return RecordMove(number, seat, None, public=False)
    words = rest.split(" ")
    flags: set[str] = set()
    while words and words[-1] in _FLAGS:
        flags.add(words.pop())
    move = " ".join(words)
    if not move or "{" in move or "}" in move:
        raise RecordError(f"Line {line}: ply {number} has no readable move (`{quote(rest)}`).")
    return RecordMove(number, seat, move, public="{secret}" not in flags, forced="{forced}" in flags)


def parse_record(text: str) -> Record:
    """The `Record` written in `text`; raises RecordError naming the line at fault."""
    if text.startswith("\ufeff"):  # a byte order mark some editors write: not part of the record
        text = text[1:]
    lines = text.splitlines()
    tags: dict[str, str] = {}
    at: dict[str, int] = {}
    extra: list[tuple[str, str]] = []
    index = 0
    while index < len(lines) and lines[index].strip():
        line = lines[index].strip()
        found = _TAG_LINE.fullmatch(line)
        if found is None:
            raise RecordError(f'Line {index + 1}: a header line is `[Name "value"]`, not `{quote(line)}`.')
        name, value = found[1], _unescape(found[2], index + 1)
        if name in tags or any(name == n for n, _ in extra):
            raise RecordError(f"Line {index + 1}: the tag `{name}` appears twice.")
        at[name] = index + 1
        if name in _KNOWN_TAGS:
            tags[name] = value
        else:
            extra.append((name, value))
        index += 1
    version = _version(tags.get("Boneyard"), at.get("Boneyard", 0))
    if version >= 2 and "SeatDraw" in tags:
        raise RecordError(
            f"Line {at['SeatDraw']}: `SeatDraw` is a version 1 tag; version {version} writes the seat draw "
            "as the line `-1 seats challenger <id> seat <seat>`."
        )
    missing = [name for name in _REQUIRED_TAGS if name not in tags]
    if missing:
        raise RecordError(
            f"Line {index + 1}: the header ends here but lacks the tag{'s' if len(missing) > 1 else ''} "
            f"{', '.join(missing)}."
        )
    if tags["Status"] not in STATUSES:
        raise RecordError(
            f"Line {at['Status']}: `Status` must be one of {', '.join(STATUSES)}, not `{quote(tags['Status'])}`."
        )
    if tags["Result"] not in RESULTS:
        raise RecordError(
            f"Line {at['Result']}: `Result` must be one of {', '.join(RESULTS)}, not `{quote(tags['Result'])}`."
        )
    moves: list[RecordMove] = []
    seats: tuple[int, int] | None = None  # (challenger id, seat) of the `-1 seats` line
    comments: list[tuple[int, str]] = []
    for number, raw in enumerate(lines[index:], start=index + 1):
        text = raw.strip()
        if not text:
            continue
        if text.startswith(COMMENT):
            comments.append((moves[-1].ply if moves else -1, text[1:].strip()))
            continue
        if text.startswith("-"):
            seats = _parse_seats(text, number, version, first=not moves and seats is None)
            continue
        moves.append(_parse_move(text, number, len(moves)))
    seat_draw = seats[1] if seats is not None else _seat_draw(tags.get("SeatDraw"), at.get("SeatDraw", 0))
    return Record(
        version=version,
        game=tags["Game"],
        options=parse_options(tags["Options"], at["Options"]),
        match_id=_int_tag(tags, at, "Match"),
        site=tags.get("Site"),
        players=(tags["Player0"], tags["Player1"]),
        player_ids=(_int_tag(tags, at, "Player0Id"), _int_tag(tags, at, "Player1Id")),
        start=tags["Start"],
        end=tags["End"],
        status=tags["Status"],
        result=tags["Result"],
        reason=tags.get("Reason"),
        scores=_scores(tags.get("Scores"), at.get("Scores", 0)),
        seed_hash=tags["SeedHash"],
        seed=tags.get("Seed"),
        seat_draw=seat_draw,
        challenger_id=seats[0] if seats is not None else None,
        moves=tuple(moves),
        extra=tuple(extra),
        comments=tuple(comments),
    )


def _version(value: str | None, line: int) -> int:
    """The `Boneyard` tag's version; RecordError for one this reader does not know."""
    if value is None:  # a missing tag is named with the other missing ones
        return FORMAT_VERSION
    if value not in {str(v) for v in READABLE_VERSIONS}:
        known = " and ".join(map(str, READABLE_VERSIONS))
        raise RecordError(
            f"Line {line}: this is a version {quote(value, 20)} record; this reader knows versions {known}."
        )
    return int(value)


def _parse_seats(text: str, line: int, version: int, *, first: bool) -> tuple[int, int]:
    """(challenger id, seat) of the seat draw's line, which only version 2 on writes, first."""
    found = _SEATS_LINE.fullmatch(text)
    if found is None:
        raise RecordError(
            f"Line {line}: the only line before ply 0 is `-1 seats challenger <id> seat <seat>`, not `{quote(text)}`."
        )
    if version < 2:
        raise RecordError(f"Line {line}: a version {version} record has no `-1 seats` line (it used `SeatDraw`).")
    if not first:
        raise RecordError(f"Line {line}: the `-1 seats` line is the first line after the header, and only one.")
    return int(found[1]), int(found[2])


def _seat_draw(value: str | None, line: int) -> int | None:
    if value is None:
        return None
    if value not in ("challenger 0", "challenger 1"):
        raise RecordError(f"Line {line}: `SeatDraw` is `challenger 0` or `challenger 1`, not `{quote(value)}`.")
    return int(value[-1])


_WHOLE = re.compile(r"[0-9]{1,20}")
_SCORE = re.compile(r"-?[0-9]{1,9}")


def _int_tag(tags: dict[str, str], at: dict[str, int], name: str) -> int | None:
    value = tags.get(name)
    if value is None:
        return None
    if _WHOLE.fullmatch(value) is None:
        raise RecordError(f"Line {at[name]}: `{name}` must be a whole number, not `{quote(value)}`.")
    return int(value)


def _scores(value: str | None, line: int) -> tuple[int, ...] | None:
    if value is None:
        return None
    if not all(_SCORE.fullmatch(v) for v in value.split()):
        raise RecordError(f"Line {line}: `Scores` must be whole numbers, not `{quote(value)}`.")
    return tuple(int(v) for v in value.split())
