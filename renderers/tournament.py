"""Tournament pictures: the bracket (or a round format's table and pairings) and the standings.

Input is one JSON-able dict built by `picture_data` (the tournament's dump, its standings,
whether it is over and who won), so a caller has exactly one way to ask for a picture and a
test can build the same dict without Discord or the store.  The dump is loaded back into a
`Tournament` only to read its records (pairings, players); nothing is mutated.

Representation chosen:

- A *pairing* is a box of two rows (seed, name, games won when the series is longer than one
  game).  The winner's row is tinted green, the loser's text muted, a dropped player struck
  through, a slot nobody fills reads "bye", a slot still waiting for its player "…" (with
  "loser of #N" when it comes from the other bracket, since no line shows that).  Above each
  box sits its pairing number (what a host types to report) and, when a game is open, a
  vermillion LIVE badge.
- A *bracket* is columns per round: the main (or winners) bracket on top, the losers bracket
  below it, the grand final and its reset to the right.  The first shown column is stacked;
  every later box sits at the mean height of the boxes that feed it, so the elbow lines
  between them draw the tree.  Byes in the first shown column are one-row chips in half a
  box's room (a 33-player bracket is 31 byes and one real first-round pairing).  Box sizes
  scale with the number of stacked boxes.  When the picture would exceed `MAX_SIDE` pixels,
  decided rounds are left out first, then a smaller style is tried, then further early
  rounds go; the subtitle line says from which round on the picture starts.
- A bracket of one pairing (a deathmatch) adds a strip of chips, one per game played.
- Swiss and round robin have no tree: `bracket_png` draws the standings table (top
  `TABLE_ROWS`, then "+N more") followed by the current round's pairings as a grid of boxes.
- Names are drawn as written: the kit's fonts cover Latin, Greek, Cyrillic, the scripts of
  South Asia, South-East Asia, the Middle East and the Caucasus (shaped, right to left where
  they read so), CJK and emoji, with per-character fallback; a name too long for its box is
  cut between characters with an ellipsis at its logical end.
"""

from __future__ import annotations

import dataclasses
import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bot.i18n import DEFAULT, Locale, tr, tr_n
from bot.tournaments import Format, Pairing, Player, Standing, Tournament
from bot.tournaments.brackets import FINAL, LOSERS, MAIN, RESET, WINNERS
from bot.tournaments.model import BYE, FORFEIT, HOST, PLAYED, UNNEEDED
from renderers.bidi import isolate
from renderers.kit import PALETTE, Color, fit_text, fixed_palette, line_height, phone_size, text_width, to_png, wrap
from renderers.kit import text as kit_text
from renderers.language import say, speaking

MAX_SIDE = 4000
"""Largest width or height of a bracket picture before early rounds are left out."""
TABLE_ROWS = 32
MAX_ROUND_PAIRINGS = 30
MIN_WIDTH = 800
PAD = 28
STANDINGS_WIDTH = 900
"""Standings and round pictures are this wide, so their text is sized for a phone once."""

Draw = ImageDraw.ImageDraw


def _blend(a: Color, b: Color, t: float) -> Color:
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


BOX_FILL = PALETTE.panel
BOX_EDGE = _blend(PALETTE.panel, PALETTE.text, 0.22)
DIM_EDGE = _blend(PALETTE.panel, PALETTE.background, 0.5)
DIM_TEXT = _blend(PALETTE.muted, PALETTE.panel, 0.35)
WON_FILL = _blend(PALETTE.panel, PALETTE.good, 0.6)
LINE = _blend(PALETTE.background, PALETTE.muted, 0.35)
LINE_DECIDED = _blend(PALETTE.background, PALETTE.muted, 0.75)
STRIPE = _blend(PALETTE.background, PALETTE.panel, 0.55)
CHAMPION_FILL = _blend(PALETTE.panel, PALETTE.highlight, 0.18)
LIVE = PALETTE.bad


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """Every colour these pictures draw with, and the anti-aliased edges between them: PNGs of
    tall brackets encode ~3x faster than with a palette found per picture."""
    solids = [
        PALETTE.background, PALETTE.panel, PALETTE.text, PALETTE.muted, PALETTE.highlight, PALETTE.accent,
        PALETTE.good, PALETTE.bad, BOX_FILL, BOX_EDGE, DIM_EDGE, DIM_TEXT, WON_FILL, LINE, LINE_DECIDED, STRIPE,
        CHAMPION_FILL, LIVE,
    ]  # fmt: skip
    inks = [PALETTE.text, PALETTE.muted, DIM_TEXT, PALETTE.highlight, PALETTE.accent, BOX_EDGE, LINE, LINE_DECIDED]
    inks.append(PALETTE.bad)
    grounds = [PALETTE.background, PALETTE.panel, WON_FILL, STRIPE, CHAMPION_FILL, LIVE]
    return fixed_palette(solids, inks, grounds)


# ----------------------------------------------------------------------------- public API


def picture_data(t: Tournament, title: str, subtitle: str, locale: Locale = DEFAULT) -> dict[str, Any]:
    """The dict both pictures are drawn from (JSON-able: it may be stored or sent to a worker),
    their words in `locale`."""
    return {
        "locale": locale,
        "title": title,
        "subtitle": subtitle,
        "tournament": t.dump(),
        "standings": [dataclasses.asdict(s) for s in t.standings()],
        "finished": t.finished,
        "winner": t.winner,
    }


def bracket_png(data: dict[str, Any], *, whole: bool | None = None) -> bytes:
    """The bracket of an elimination event, or table plus current pairings of a round format.

    A bracket wider than two columns is, unless `whole` is true, drawn as what a player
    needs now: the round being played and the next one, at phone size (`focused_bracket`);
    `whole=True` gives every round (the `/tournament bracket whole:True` picture)."""
    with speaking(data.get("locale", DEFAULT)):
        return _bracket_png(data, whole)


def _bracket_png(data: dict[str, Any], whole: bool | None) -> bytes:
    event = Event.load(data)
    if not event.tournament.format.is_bracket:
        return to_png(_rounds_picture(event), _palette())
    if whole is None:
        sections, finals = bracket_sections(event.tournament)
        whole = max((len(s.columns) for s in sections), default=0) + len(finals) <= 2
    return to_png(_bracket_picture(event) if whole else focused_bracket(event), _palette())


def standings_png(data: dict[str, Any]) -> bytes:
    """The standings table; the champion on top with a trophy once the event is over."""
    with speaking(data.get("locale", DEFAULT)):
        return _standings_png(data)


def _standings_png(data: dict[str, Any]) -> bytes:
    event = Event.load(data)
    table = standings_table(event)
    width = max(STANDINGS_WIDTH, table.width + 2 * PAD)
    header = _Header(event, width, phone=True)
    img = Image.new("RGB", (width, header.height + table.height + PAD), PALETTE.background)
    draw = ImageDraw.Draw(img)
    header.draw(draw)
    table.draw(draw, (width - table.width) // 2, header.height)
    return to_png(img, _palette())


def describe(data: dict[str, Any], *, standings: bool) -> str:
    """Alt text of the bracket or standings picture: the event, the champion or the games
    being played, and the top of the table (short enough for an attachment description)."""
    with speaking(data.get("locale", DEFAULT)):
        return _describe(data, standings=standings)


def _describe(data: dict[str, Any], *, standings: bool) -> str:
    event = Event.load(data)
    t = event.tournament
    kind = tr("Standings of {title}: {subtitle}") if standings else tr("Bracket of {title}: {subtitle}")
    parts = [say(tr(kind, title=event.title, subtitle=say(event.subtitle)))]
    if event.finished and event.winner is not None:
        parts.append(say(tr("Champion: {name}", name=_player_name(event.player(event.winner)))))
    else:
        names = round_names(t)
        live = [p for p in t.pairings if p.ready and not p.finished and p.method not in (BYE, UNNEEDED)]
        for p in live[:6]:
            a, b = (_player_name(event.player(x)) if x is not None else say(tr("bye")) for x in p.players)
            parts.append(f"{say(names[p.id])} #{p.id}: {a} v {b}")
        if len(live) > 6:
            parts.append(say(tr_n("and {n} more pairing", "and {n} more pairings", len(live) - 6)))
    top = [f"{s.place}. {s.name}" for s in event.standings[:8]]
    parts.append(say(tr("Standings: {top}", top=", ".join(top))))
    text = ". ".join(parts) + "."
    return text if len(text) <= 1000 else text[:999] + "…"


# ----------------------------------------------------------------------------- names


def _player_name(player: Player) -> str:
    """The name as the player wrote it: the kit's fonts draw every script and emoji."""
    return player.name.strip() or tr("Player {n}", n=player.seed)


# ----------------------------------------------------------------------------- the event


@dataclass(frozen=True, slots=True)
class Event:
    """The picture data, typed: the tournament's records and its standings."""

    title: str
    subtitle: str
    tournament: Tournament
    standings: list[Standing]
    finished: bool
    winner: int | None

    @classmethod
    def load(cls, data: dict[str, Any]) -> Event:
        return cls(
            title=data["title"],
            subtitle=data["subtitle"],
            tournament=Tournament.load(data["tournament"]),
            standings=[Standing(**s) for s in data["standings"]],
            finished=data["finished"],
            winner=data["winner"],
        )

    def player(self, player_id: int) -> Player:
        return self.tournament.player(player_id)


def round_names(t: Tournament) -> dict[int, str]:
    """A human name for the round of every pairing ("Semi-finals", "Losers R3", "Grand final")."""
    if not t.format.is_bracket:
        return {p.id: tr("Round {n}", n=p.round) for p in t.pairings}
    last = {
        kind: max((p.round for p in t.pairings if p.bracket == kind), default=0) for kind in (MAIN, WINNERS, LOSERS)
    }
    names: dict[int, str] = {}
    for p in t.pairings:
        if t.format is Format.DEATHMATCH:
            names[p.id] = tr("Deathmatch")
        elif p.bracket == MAIN:
            names[p.id] = _main_round_name(p.round, last[MAIN])
        elif p.bracket == WINNERS:
            names[p.id] = tr("Winners final") if p.round == last[WINNERS] else tr("Winners R{n}", n=p.round)
        elif p.bracket == LOSERS:
            names[p.id] = tr("Losers final") if p.round == last[LOSERS] else tr("Losers R{n}", n=p.round)
        else:
            names[p.id] = tr("Grand final") if p.bracket == FINAL else tr("Bracket reset")
    return names


def _main_round_name(number: int, last: int) -> str:
    from_end = last - number
    return (
        (tr("Final"), tr("Semi-finals"), tr("Quarter-finals"))[from_end] if from_end < 3 else tr("Round {n}", n=number)
    )


def _games_won(pairing: Pairing, player: int) -> int:
    return sum(1 for g in pairing.games if g.finished and g.winner == player)


# ----------------------------------------------------------------------------- shared pieces


def _points(value: float) -> str:
    """2.0 -> "2", 2.5 -> "2.5", 5.75 -> "5.75" (Sonneborn-Berger halves half points)."""
    return f"{value:g}"


def trophy(draw: Draw, centre: tuple[float, float], size: float, colour: Color = PALETTE.highlight) -> None:
    """A cup with handles on a stand: the champion's mark (the bundled font has no trophy glyph)."""
    cx, cy = centre
    s = size
    draw.rectangle((cx - 0.36 * s, cy - 0.46 * s, cx + 0.36 * s, cy - 0.3 * s), fill=colour)
    draw.pieslice((cx - 0.36 * s, cy - 0.7 * s, cx + 0.36 * s, cy + 0.14 * s), 0, 180, fill=colour)
    handle = max(2, round(s * 0.09))
    draw.arc((cx - 0.58 * s, cy - 0.44 * s, cx - 0.16 * s, cy - 0.02 * s), 90, 270, fill=colour, width=handle)
    draw.arc((cx + 0.16 * s, cy - 0.44 * s, cx + 0.58 * s, cy - 0.02 * s), 270, 90, fill=colour, width=handle)
    draw.rectangle((cx - 0.06 * s, cy + 0.1 * s, cx + 0.06 * s, cy + 0.3 * s), fill=colour)
    draw.rounded_rectangle((cx - 0.26 * s, cy + 0.28 * s, cx + 0.26 * s, cy + 0.44 * s), radius=2, fill=colour)


def _badge(draw: Draw, right: float, bottom: float, text: str, size: int) -> None:
    """A small pill ending at (`right`, `bottom`): white text on vermillion."""
    width = text_width(text, size) + size
    height = round(size * 1.4)
    draw.rounded_rectangle((right - width, bottom - height, right, bottom), radius=height // 2, fill=LIVE)
    kit_text(draw, (right - width / 2, bottom - height / 2), text, size, PALETTE.text, anchor="mm")


class _Header:
    """Title, subtitle (with any note the picture adds) and, once over, the champion's line."""

    TITLE = 34
    SUBTITLE = 20
    CHAMPION = 28
    """Sizes for a whole bracket (made for a big screen); `phone` raises them to phone size."""

    def __init__(self, event: Event, width: int, note: str = "", *, phone: bool = False) -> None:
        self.event, self.width = event, width
        if phone:  # every text >= 11 px, the champion >= 14 px, when shown 400 px wide
            self.title_size = max(self.TITLE, phone_size(width, 14))
            self.subtitle_size = phone_size(width)
            self.champion_size = max(self.CHAMPION, phone_size(width, 14))
        else:
            self.title_size, self.subtitle_size, self.champion_size = self.TITLE, self.SUBTITLE, self.CHAMPION
        subtitle = "  ·  ".join(part for part in (event.subtitle, note) if part)
        self.subtitles = wrap(subtitle, self.subtitle_size, width - 2 * PAD) if subtitle else []
        self.champion = (
            _player_name(event.player(event.winner)) if event.finished and event.winner is not None else None
        )
        self.height = (
            PAD
            + line_height(self.title_size)
            + len(self.subtitles) * line_height(self.subtitle_size)
            + (line_height(self.champion_size) + 16 if self.champion else 0)
            + 16
        )

    def draw(self, draw: Draw) -> None:
        inner = self.width - 2 * PAD
        room = (0, 0, self.width, self.height)
        y = PAD
        title = fit_text(self.event.title, self.title_size, inner)
        kit_text(draw, (PAD, y), title, self.title_size, PALETTE.text, box=room)
        y += line_height(self.title_size)
        for line in self.subtitles:
            kit_text(draw, (PAD, y), line, self.subtitle_size, PALETTE.muted, box=room)
            y += line_height(self.subtitle_size)
        if self.champion:
            middle = y + 8 + line_height(self.champion_size) / 2
            trophy(draw, (PAD + 18, middle), 36)
            text = fit_text(tr("Champion: {name}", name=isolate(self.champion)), self.champion_size, inner - 50)
            kit_text(draw, (PAD + 48, middle), text, self.champion_size, PALETTE.highlight, anchor="lm", box=room)


# ----------------------------------------------------------------------------- pairing boxes


@dataclass(frozen=True, slots=True)
class BoxStyle:
    """Sizes of one pairing box and of the gaps around it; bigger for smaller brackets."""

    name_size: int
    row: int
    width: int
    column_gap: int
    label_size: int
    gap: int
    """Space above a box: its pairing number and LIVE badge sit there."""

    @property
    def height(self) -> int:
        return 2 * self.row

    @property
    def pitch(self) -> int:
        return self.height + self.gap


XL = BoxStyle(name_size=32, row=58, width=560, column_gap=60, label_size=20, gap=40)
LARGE = BoxStyle(name_size=26, row=44, width=380, column_gap=56, label_size=17, gap=34)
MEDIUM = BoxStyle(name_size=22, row=37, width=310, column_gap=48, label_size=15, gap=30)
SMALL = BoxStyle(name_size=18, row=29, width=250, column_gap=40, label_size=14, gap=25)
TINY = BoxStyle(name_size=16, row=25, width=220, column_gap=34, label_size=13, gap=21)
"""Only to keep the round being played in the picture when SMALL would not fit."""
STYLES = (XL, LARGE, MEDIUM, SMALL, TINY)
PHONE = BoxStyle(
    name_size=phone_size(STANDINGS_WIDTH),
    row=line_height(phone_size(STANDINGS_WIDTH)) + 12,
    width=390,
    column_gap=44,
    label_size=phone_size(STANDINGS_WIDTH),
    gap=line_height(phone_size(STANDINGS_WIDTH)) + 10,
)
"""Round pictures and the focused bracket: every text >= 11 px when shown 400 px wide."""


def _style_for(stacked: int) -> BoxStyle:
    """The preferred style for `stacked` boxes in the tallest shown column(s)."""
    if stacked <= 1:
        return XL
    if stacked <= 3:
        return LARGE
    return MEDIUM if stacked <= 8 else SMALL


class PairingBox:
    """Draws pairings in one style for one event."""

    def __init__(self, event: Event, style: BoxStyle, *, show_seed: bool = True) -> None:
        self.event, self.style = event, style
        t = event.tournament
        digits = len(str(len(t.players)))
        self.seed_width = round(style.name_size * (0.62 * digits + 0.9)) if show_seed else 0
        self.score_width = round(style.name_size * 1.6) if t.best_of > 1 else 0
        self.seed_size = max(round(style.name_size * 0.8), style.label_size)
        self.bye = tr("rest") if t.format is Format.ROUND_ROBIN else tr("bye")  # a round robin's odd one out rests

    def draw(self, draw: Draw, pairing: Pairing, left: int, top: int) -> None:
        s = self.style
        box = (left, top, left + s.width, top + s.height)
        open_game = pairing.open_game()
        dim = pairing.method in (BYE, UNNEEDED)
        edge = PALETTE.highlight if open_game else DIM_EDGE if dim else BOX_EDGE
        draw.rounded_rectangle(box, radius=8, fill=BOX_FILL, outline=edge, width=3 if open_game else 2)
        for slot in (0, 1):
            self._row(draw, pairing, slot, left, top + slot * s.row, dim=dim)
        draw.line((left + 2, top + s.row, left + s.width - 2, top + s.row), fill=DIM_EDGE if dim else BOX_EDGE)
        self._label(draw, pairing, left, top)
        if open_game:
            live = say(tr("LIVE"))
            text = f"{live}  G{len(pairing.games)}" if self.event.tournament.best_of > 1 else live
            _badge(draw, left + s.width, top - 3, text, s.label_size)

    def draw_bye(self, draw: Draw, pairing: Pairing, left: int, top: int) -> None:
        """A bye as a one-row chip: whoever advances (or nobody), and the word "bye"."""
        s = self.style
        draw.rounded_rectangle(
            (left, top, left + s.width, top + s.row), radius=8, fill=BOX_FILL, outline=DIM_EDGE, width=2
        )
        middle = top + s.row / 2
        kit_text(draw, (left + s.width - 12, middle), self.bye, s.label_size, DIM_TEXT, anchor="rm")
        room = s.width - 36 - self.seed_width - text_width(self.bye, s.label_size)
        if pairing.winner is None:
            kit_text(draw, (left + 12 + self.seed_width, middle), tr("nobody"), s.name_size, DIM_TEXT, anchor="lm")
            return
        who = self.event.player(pairing.winner)
        if self.seed_width:
            kit_text(draw, (left + 10, middle), str(who.seed), self.seed_size, DIM_TEXT, anchor="lm")
        name = fit_text(_player_name(who), s.name_size, room)
        kit_text(draw, (left + 12 + self.seed_width, middle), name, s.name_size, PALETTE.muted, anchor="lm")

    def _label(self, draw: Draw, pairing: Pairing, left: int, top: int) -> None:
        notes = {BYE: self.bye, UNNEEDED: tr("not needed"), FORFEIT: tr("forfeit"), HOST: tr("reported")}
        note = notes.get(pairing.method, "")
        if pairing.finished and pairing.winner is None and pairing.method in (PLAYED, HOST):
            note = tr("draw")
        text = f"#{pairing.id}" + (f"  ·  {say(note)}" if note else "")
        kit_text(draw, (left + 4, top - 4), text, self.style.label_size, PALETTE.muted, anchor="ld")

    def _row(self, draw: Draw, pairing: Pairing, slot: int, left: int, top: int, *, dim: bool) -> None:
        s = self.style
        middle = top + s.row / 2
        player = pairing.players[slot] if pairing.filled[slot] else None
        won = player is not None and pairing.finished and pairing.winner == player and not dim
        if won:
            corners = (True, True, False, False) if slot == 0 else (False, False, True, True)
            draw.rounded_rectangle(
                (left + 2, top + 2 - slot, left + s.width - 2, top + s.row - 1 + slot),
                radius=6,
                fill=WON_FILL,
                corners=corners,
            )
        name_left = left + 12 + self.seed_width
        name_room = s.width - 24 - self.seed_width - self.score_width
        if not pairing.filled[slot]:
            source = pairing.sources[slot] if slot < len(pairing.sources) else ""
            hint = tr("loser of #{n}", n=source.partition(":")[2]) if source.startswith("loser:") else ""
            kit_text(draw, (name_left, middle), "…", s.name_size, PALETTE.muted, anchor="lm")
            if hint:
                room = name_room - 30
                kit_text(
                    draw, (name_left + 30, middle), fit_text(hint, s.label_size, room), s.label_size, DIM_TEXT,
                    anchor="lm",
                )  # fmt: skip
            return
        if player is None:
            kit_text(draw, (name_left, middle), self.bye, s.name_size, DIM_TEXT, anchor="lm")
            return
        who = self.event.player(player)
        lost = pairing.finished and pairing.winner is not None and not won
        colour = DIM_TEXT if dim or who.dropped else PALETTE.muted if lost else PALETTE.text
        if self.seed_width:
            seed_colour = PALETTE.text if won else DIM_TEXT
            kit_text(draw, (left + 10, middle), str(who.seed), self.seed_size, seed_colour, anchor="lm")
        name = fit_text(_player_name(who), s.name_size, name_room)
        drawn = kit_text(draw, (name_left, middle), name, s.name_size, colour, anchor="lm")
        if who.dropped:
            draw.line((name_left, middle, name_left + drawn, middle), fill=colour, width=2)
        if self.score_width and pairing.games and pairing.method not in (BYE, UNNEEDED, FORFEIT):
            score = str(_games_won(pairing, player))
            kit_text(
                draw, (left + s.width - 14, middle), score, s.name_size, PALETTE.text if won else colour, anchor="rm"
            )


# ----------------------------------------------------------------------------- bracket layout


@dataclass(slots=True)
class Section:
    """One bracket drawn as columns (main/winners, or losers); `start` = first column shown."""

    title: str
    columns: list[list[Pairing]]
    start: int = 0

    @property
    def shown(self) -> list[list[Pairing]]:
        return self.columns[self.start :]


@dataclass(slots=True)
class Layout:
    style: BoxStyle
    width: int
    height: int
    boxes: dict[int, tuple[int, int]]
    """Pairing id -> top-left corner of its box."""
    texts: list[tuple[int, int, str, int, Color]]
    """(x, y, text, size, colour) of section titles and column headers."""
    compact: set[int]
    """Byes of a first shown column: drawn as one-row chips in half the room of a box."""

    def centre_y(self, pairing_id: int) -> float:
        top = self.boxes[pairing_id][1]
        return top + (self.style.row if pairing_id in self.compact else self.style.height) / 2


def bracket_sections(t: Tournament) -> tuple[list[Section], list[Pairing]]:
    """The tree sections (main or winners, then losers) and the finals column(s)."""
    sections = []
    for kind, title in ((MAIN, ""), (WINNERS, tr("Winners bracket")), (LOSERS, tr("Losers bracket"))):
        rounds = sorted({p.round for p in t.pairings if p.bracket == kind})
        if rounds:
            columns = [[p for p in t.pairings if p.bracket == kind and p.round == r] for r in rounds]
            sections.append(Section(title, columns))
    finals = [p for p in t.pairings if p.bracket in (FINAL, RESET)]
    return sections, finals


def _winner_feeders(pairing: Pairing) -> list[int]:
    return [int(s.partition(":")[2]) for s in pairing.sources if s.startswith("winner:")]


SECTION_TITLE = 24
COLUMN_HEADER = 18


def layout_bracket(
    sections: Sequence[Section],
    finals: Sequence[Pairing],
    style: BoxStyle,
    top: int,
    names: dict[int, str],
    *,
    title_size: int | None = None,
) -> Layout:
    """Place every shown box: first shown columns stacked, later boxes between their feeders.
    `title_size` sets the section titles and column headers (default: the whole bracket's)."""
    section_title = title_size or SECTION_TITLE
    column_header = title_size or COLUMN_HEADER
    centres: dict[int, float] = {}
    boxes: dict[int, tuple[int, int]] = {}
    texts: list[tuple[int, int, str, int, Color]] = []
    compact: set[int] = set()
    step = style.width + style.column_gap
    y = top
    columns_used = 0
    for section in sections:
        if section.title:
            texts.append((PAD, y, section.title, section_title, PALETTE.accent))
            y += line_height(section_title) + 4
        header_y = y
        y += line_height(column_header)
        section_top = y
        y = math.ceil(_stack(section.shown[0], style, y, centres, boxes, compact))
        for c, column in enumerate(section.shown):
            x = PAD + c * step
            if c:
                y = max(y, math.ceil(_place_column(column, style, x, section_top, centres, boxes)))
            label = fit_text(names[column[0].id], column_header, style.width)
            texts.append((x, header_y, label, column_header, PALETTE.muted))
        y += 26
        columns_used = max(columns_used, len(section.shown))
    bottom = y - 26
    final_header = column_header + 2
    lowest = top + line_height(final_header) + style.gap + style.height / 2
    for k, pairing in enumerate(finals):
        feeders = [centres[f] for f in _winner_feeders(pairing) if f in centres]
        centre = max(statistics.fmean(feeders) if feeders else lowest, lowest)
        centres[pairing.id] = centre
        box_top = round(centre - style.height / 2)
        boxes[pairing.id] = ((columns_used + k) * step + PAD, box_top)
        label = fit_text(names[pairing.id], final_header, style.width)
        label_y = box_top - style.gap - line_height(final_header)
        texts.append((boxes[pairing.id][0], label_y, label, final_header, PALETTE.accent))
        bottom = max(bottom, box_top + style.height)
    columns = columns_used + len(finals)
    width = 2 * PAD + columns * style.width + (columns - 1) * style.column_gap
    return Layout(style, width, bottom + PAD, boxes, texts, compact)


def _place_column(
    column: list[Pairing],
    style: BoxStyle,
    x: int,
    top: float,
    centres: dict[int, float],
    boxes: dict[int, tuple[int, int]],
) -> float:
    """Place a later column: each box between the boxes that feed it, then pushed down
    where two would come closer than a pitch (a losers round fed by one winner each, or a
    box whose feeders are not shown).  Returns the column's bottom."""
    wanted: list[tuple[float, int, Pairing]] = []
    previous = top + style.gap + style.height / 2
    for order, pairing in enumerate(column):
        feeders = [centres[f] for f in _winner_feeders(pairing) if f in centres]
        centre = statistics.fmean(feeders) if feeders else previous
        wanted.append((centre, order, pairing))
        previous = centre + style.pitch
    lowest = top + style.gap + style.height / 2
    bottom = top
    for centre, _, pairing in sorted(wanted, key=lambda w: (w[0], w[1])):
        centre = max(centre, lowest)
        centres[pairing.id] = centre
        boxes[pairing.id] = (x, round(centre - style.height / 2))
        lowest = centre + style.pitch
        bottom = centre + style.height / 2
    return bottom


def _stack(
    column: list[Pairing],
    style: BoxStyle,
    top: float,
    centres: dict[int, float],
    boxes: dict[int, tuple[int, int]],
    compact: set[int],
) -> float:
    """Stack a first shown column from `top`; byes take half a box's room.  Returns its bottom.

    Half is exactly enough: a later box sits between two feeders, so even two byes in a row
    leave one full pitch between the boxes they feed.
    """
    y = top
    for pairing in column:
        if pairing.method == BYE:
            compact.add(pairing.id)
            y += style.pitch / 2
            centres[pairing.id] = y - style.row / 2
            boxes[pairing.id] = (PAD, round(y - style.row))
        else:
            y += style.pitch
            centres[pairing.id] = y - style.height / 2
            boxes[pairing.id] = (PAD, round(y - style.height))
    return y


def _too_big(layout: Layout) -> bool:
    return layout.width > MAX_SIDE or layout.height > MAX_SIDE


def _trim(sections: list[Section], layout: Layout) -> bool:
    """Leave out one more early column where it helps most; False when nothing is left to cut."""
    candidates = [s for s in sections if len(s.shown) > 1]
    if not candidates:
        return False
    if layout.height > MAX_SIDE:
        worst = max(candidates, key=lambda s: len(s.shown[0]))
    else:
        worst = max(candidates, key=lambda s: len(s.shown))
    worst.start += 1
    return True


def fit_bracket(sections: list[Section], finals: list[Pairing], top: int, names: dict[int, str]) -> tuple[Layout, bool]:
    """The layout to draw and whether early rounds were left out to keep within `MAX_SIDE`.

    In order: the whole bracket; without its decided rounds (the picture then starts at the
    round being played); the same in the TINY style; then without more early columns, the
    tallest or widest section first, until it fits.
    """
    layout = _preferred_layout(sections, finals, top, names, SMALL)
    if not _too_big(layout):
        return layout, False
    for section in sections:
        open_columns = [i for i, column in enumerate(section.columns) if not all(p.finished for p in column)]
        section.start = open_columns[0] if open_columns else len(section.columns) - 1
    layout = _preferred_layout(sections, finals, top, names, TINY)
    while _too_big(layout) and _trim(sections, layout):
        layout = _preferred_layout(sections, finals, top, names, TINY)
    return layout, any(section.start for section in sections)


def _preferred_layout(
    sections: list[Section], finals: list[Pairing], top: int, names: dict[int, str], smallest: BoxStyle
) -> Layout:
    """The biggest style down to `smallest` that fits, from the one the number of stacked boxes suggests."""
    stacked = round(sum(0.5 if p.method == BYE else 1 for s in sections for p in s.shown[0]))
    preferred = STYLES.index(_style_for(stacked))
    layout = layout_bracket(sections, finals, STYLES[preferred], top, names)
    for style in STYLES[preferred + 1 : STYLES.index(smallest) + 1]:
        if not _too_big(layout):
            break
        layout = layout_bracket(sections, finals, style, top, names)
    return layout


def focused_window(t: Tournament) -> tuple[list[Section], list[Pairing]]:
    """The two columns a player needs: each section's round being played (its pairings
    still to decide) and its next, or, when a section has no next round left, its current
    round and the grand final.  Once every section is decided, the final rounds: a single
    bracket's last two, each section's last round and the grand final, or the grand final
    and its reset when the reset was played."""
    sections, finals = bracket_sections(t)
    opens = []
    for section in sections:
        open_columns = [i for i, column in enumerate(section.columns) if not all(p.finished for p in column)]
        opens.append(open_columns[0] if open_columns else None)
    live = [(s, o) for s, o in zip(sections, opens, strict=True) if o is not None]
    if not live:  # two columns at most, so that it reads on a phone
        played = [p for p in finals[:2] if p.method != UNNEEDED]
        if len(played) == 2:
            return [], played
        for section in sections:
            section.start = max(0, len(section.columns) - (1 if played else 2))
        return sections, played
    room = min(len(s.columns) - o for s, o in live)
    for section, start in live:
        section.start = start
        section.columns = section.columns[: start + min(2, room)]
        current = section.columns[start]  # its decided pairings live on in the next round's boxes
        section.columns[start] = [p for p in current if not p.finished]
    return [s for s, _ in live], (finals[:1] if room < 2 else [])


def focused_bracket(event: Event) -> Image.Image:
    """The round being played and the next, in the phone style (see `focused_window`)."""
    t = event.tournament
    sections, finals = focused_window(t)
    names = round_names(t)
    probe = _Header(event, STANDINGS_WIDTH, phone=True)
    layout = layout_bracket(sections, finals, PHONE, probe.height, names, title_size=PHONE.name_size)
    note = tr("the final rounds") if event.finished else tr("the round being played and the next")
    return _draw_bracket(event, layout, note, phone=True)


def _bracket_picture(event: Event) -> Image.Image:
    t = event.tournament
    sections, finals = bracket_sections(t)
    names = round_names(t)
    probe = _Header(event, MIN_WIDTH)
    layout, trimmed = fit_bracket(sections, finals, probe.height, names)
    note = ""
    if trimmed:
        firsts = " / ".join(say(names[s.shown[0][0].id]) for s in sections)
        note = tr("earlier rounds not shown: from {firsts} on", firsts=firsts)
    return _draw_bracket(event, layout, note, phone=False)


def _draw_bracket(event: Event, layout: Layout, note: str, *, phone: bool) -> Image.Image:
    t = event.tournament
    probe = _Header(event, STANDINGS_WIDTH if phone else MIN_WIDTH, phone=phone)
    single = len(t.pairings) == 1
    strip = _GameStrip(event, t.pairings[0], layout.style) if single else None
    width = max(MIN_WIDTH, layout.width)
    height = layout.height + (strip.height if strip else 0)
    header = _Header(event, width, note, phone=phone)
    shift_y = header.height - probe.height
    shift_x = (width - layout.width) // 2
    img = Image.new("RGB", (width, height + shift_y), PALETTE.background)
    draw = ImageDraw.Draw(img)
    header.draw(draw)
    layout.boxes = {pid: (x + shift_x, y + shift_y) for pid, (x, y) in layout.boxes.items()}
    boxes = layout.boxes
    _draw_connectors(draw, t, layout)
    for x, y, text, size, colour in layout.texts:
        kit_text(draw, (x + shift_x, y + shift_y), text, size, colour)
    painter = PairingBox(event, layout.style)
    for pairing in t.pairings:
        if pairing.id in layout.compact:
            painter.draw_bye(draw, pairing, *boxes[pairing.id])
        elif pairing.id in boxes:
            painter.draw(draw, pairing, *boxes[pairing.id])
    if strip:
        x, y = boxes[t.pairings[0].id]
        strip.draw(draw, x, y + layout.style.height + 30, layout.style.width)
    return img


def _draw_connectors(draw: Draw, t: Tournament, layout: Layout) -> None:
    """Elbow lines from each shown feeder into the row its winner fills."""
    boxes, style = layout.boxes, layout.style
    for pairing in t.pairings:
        if pairing.id not in boxes:
            continue
        x, y = boxes[pairing.id]
        for slot, source in enumerate(pairing.sources):
            kind, _, ref = source.partition(":")
            feeder = int(ref) if kind == "winner" else 0
            if feeder not in boxes:
                continue
            start = (boxes[feeder][0] + style.width, layout.centre_y(feeder))
            end_y = y + style.row / 2 + slot * style.row
            elbow = x - style.column_gap / 2
            colour = LINE_DECIDED if t.pairing(feeder).finished else LINE
            width = 3 if t.pairing(feeder).finished else 2
            draw.line([start, (elbow, start[1]), (elbow, end_y), (x, end_y)], fill=colour, width=width, joint="curve")


class _GameStrip:
    """Under a single series (a deathmatch): one chip per game with who won it."""

    PER_ROW = 3

    def __init__(self, event: Event, pairing: Pairing, style: BoxStyle) -> None:
        self.event, self.pairing = event, pairing
        self.size = max(16, style.label_size + 2)
        self.chip_h = self.size + 22
        rows = max(1, -(-len(pairing.games) // self.PER_ROW))
        self.height = 30 + 34 + rows * (self.chip_h + 12) if event.tournament.best_of > 1 else 0

    def draw(self, draw: Draw, left: int, top: int, width: int) -> None:
        if not self.height:
            return
        best_of = self.event.tournament.best_of
        intro = tr("Best of {n}: first to {wins} game wins", n=best_of, wins=best_of // 2 + 1)
        kit_text(draw, (left, top), intro, self.size, PALETTE.muted)
        chip_w = (width - (self.PER_ROW - 1) * 12) / self.PER_ROW
        for i, game in enumerate(self.pairing.games):
            row, col = divmod(i, self.PER_ROW)
            x0 = left + col * (chip_w + 12)
            y0 = top + 34 + row * (self.chip_h + 12)
            box = (x0, y0, x0 + chip_w, y0 + self.chip_h)
            if not game.finished:
                text, fill, edge = "live", BOX_FILL, PALETTE.highlight
            elif game.winner is None:
                text, fill, edge = "draw", BOX_FILL, BOX_EDGE
            else:
                text, fill, edge = _player_name(self.event.player(game.winner)), WON_FILL, WON_FILL
            draw.rounded_rectangle(box, radius=8, fill=fill, outline=edge, width=2)
            label = f"G{i + 1}"
            label_w = kit_text(draw, (x0 + 10, y0 + self.chip_h / 2), label, self.size, PALETTE.muted, anchor="lm")
            room = chip_w - 30 - label_w
            kit_text(
                draw, (x0 + 20 + label_w, y0 + self.chip_h / 2), fit_text(text, self.size, room), self.size,
                PALETTE.text, anchor="lm",
            )  # fmt: skip


# ----------------------------------------------------------------------------- tables


@dataclass(frozen=True, slots=True)
class Column:
    title: str
    width: int
    align: str = "right"


@dataclass(frozen=True, slots=True)
class Row:
    """One drawn line of the standings: its cells in column order and how to paint it."""

    cells: tuple[str, ...]
    player: int
    champion: bool = False
    dropped: bool = False


NAME = Column(tr("Player"), 0, "left")


@dataclass(slots=True)
class StandingsTable:
    columns: list[Column]
    rows: list[Row]
    more: int
    """Players left out below the last row (shown as "+N more")."""

    SIZE = phone_size(STANDINGS_WIDTH)
    ROW = line_height(SIZE) + 8
    HEAD = line_height(SIZE) + 4
    name_width: int = 360
    """Set by `fit_to` to what the picture's width leaves the name column."""

    def fit_to(self, width: int) -> None:
        """Give the name column the room `width` leaves after the other columns."""
        others = sum(c.width for c in self.columns if c.width) + 16 * len(self.columns)
        self.name_width = max(160, width - others)

    @property
    def width(self) -> int:
        return sum(c.width or self.name_width for c in self.columns) + 16 * len(self.columns)

    @property
    def height(self) -> int:
        return self.HEAD + len(self.rows) * self.ROW + (self.ROW if self.more else 0)

    def draw(self, draw: Draw, left: int, top: int) -> None:
        xs = self._column_lefts(left)
        for column, x in zip(self.columns, xs, strict=True):
            self._cell(draw, column, x, top + self.HEAD / 2, column.title, self.SIZE, PALETTE.muted)
        draw.line((left, top + self.HEAD - 1, left + self.width, top + self.HEAD - 1), fill=BOX_EDGE, width=2)
        for i, row in enumerate(self.rows):
            y = top + self.HEAD + i * self.ROW
            fill = CHAMPION_FILL if row.champion else STRIPE if i % 2 else None
            if fill:
                draw.rectangle((left, y, left + self.width, y + self.ROW - 1), fill=fill)
            colour = DIM_TEXT if row.dropped else PALETTE.text
            for column, x, text in zip(self.columns, xs, row.cells, strict=True):
                self._cell(draw, column, x, y + self.ROW / 2, text, self.SIZE, colour)
            if row.champion:
                trophy(draw, (xs[0] + self.columns[0].width / 2, y + self.ROW / 2 + 1), 28)
        if self.more:
            more_y = top + self.HEAD + len(self.rows) * self.ROW + self.ROW / 2
            more = tr("+{n} more", n=self.more)
            kit_text(draw, (xs[1], more_y), more, self.SIZE, PALETTE.muted, anchor="lm")

    def _column_lefts(self, left: int) -> list[int]:
        xs, x = [], left + 8
        for column in self.columns:
            xs.append(x)
            x += (column.width or self.name_width) + 16
        return xs

    def _cell(self, draw: Draw, column: Column, x: int, y: float, text: str, size: int, colour: Color) -> None:
        width = column.width or self.name_width
        text = fit_text(text, size, width)
        if column.align == "left":
            kit_text(draw, (x, y), text, size, colour, anchor="lm")
        elif column.align == "centre":
            kit_text(draw, (x + width / 2, y), text, size, colour, anchor="mm")
        else:
            kit_text(draw, (x + width, y), text, size, colour, anchor="rm")


def standings_table(event: Event, limit: int = TABLE_ROWS) -> StandingsTable:
    """The rows the standings picture draws, champion first (also what tests inspect)."""
    t = event.tournament
    ordered = list(event.standings)
    champion = event.winner if event.finished else None
    if champion is not None:
        ordered.sort(key=lambda s: s.player != champion)  # stable: only the champion moves
    columns, cells = _columns_for(event)
    rows = [
        Row(cells(s), s.player, champion=s.player == champion, dropped=s.dropped or t.player(s.player).dropped)
        for s in ordered[:limit]
    ]
    table = StandingsTable(columns, rows, max(0, len(ordered) - limit))
    table.fit_to(STANDINGS_WIDTH - 2 * PAD)
    return table


def _columns_for(event: Event) -> tuple[list[Column], Callable[[Standing], tuple[str, ...]]]:
    t = event.tournament
    place = Column("#", 60, "centre")

    def name(s: Standing) -> str:
        player = t.player(s.player)
        text = s.name.strip() or tr("Player {n}", n=player.seed)
        return tr("{name} (left)", name=text) if s.dropped else text

    def wdl(s: Standing) -> str:
        return f"{s.wins}-{s.draws}-{s.losses}"

    def place_text(s: Standing) -> str:
        return "" if s.player == event.winner and event.finished else str(s.place)

    if t.format is Format.SWISS:
        swiss = [Column("Pts", 70), Column("W-D-L", 104), Column("Byes", 74), Column("Buchholz", 124), Column("SB", 64)]

        def swiss_cells(s: Standing) -> tuple[str, ...]:
            numbers = (_points(s.points), wdl(s), str(s.byes), _points(s.buchholz), _points(s.sonneborn_berger))
            return (place_text(s), name(s), *numbers)

        return [place, NAME, *swiss], swiss_cells
    if t.format is Format.ROUND_ROBIN:
        league = [Column("Pts", 70), Column("W-D-L", 110), Column("SB", 70)]

        def league_cells(s: Standing) -> tuple[str, ...]:
            return (place_text(s), name(s), _points(s.points), wdl(s), _points(s.sonneborn_berger))

        return [place, NAME, *league], league_cells
    names = round_names(t)

    def bracket_cells(s: Standing) -> tuple[str, ...]:
        return (place_text(s), name(s), f"{s.wins}-{s.losses}", bracket_status(event, s.player, names))

    return [place, NAME, Column("W-L", 76), Column(tr("Stage"), 260, "left")], bracket_cells


def bracket_status(event: Event, player: int, names: dict[int, str]) -> str:
    """Where a player stands in a bracket: champion, out in a round, or the round they are in."""
    if event.finished and player == event.winner:
        return tr("Champion")
    own = [p for p in event.tournament.pairings if player in p.participants and p.method != UNNEEDED]
    if not own:
        return ""
    latest = own[-1]  # later pairings always have higher ids than the pairings feeding them
    where = names[latest.id]
    if event.player(player).dropped:
        return tr("Left in {where}", where=where)
    if latest.finished and latest.winner != player:
        return tr("Out in {where}", where=where)
    if latest.open_game() is not None:
        return tr("Live: {where}", where=where)
    return where if latest.ready else tr("Waiting: {where}", where=where)


# ----------------------------------------------------------------------------- round formats


def _rounds_picture(event: Event) -> Image.Image:
    """Swiss and round robin: the standings table, then the current round's pairings."""
    t = event.tournament
    table = standings_table(event)
    per_row = 2  # boxes ~400 px wide: names stay readable at phone size
    gap = 24
    style = dataclasses.replace(PHONE, width=(table.width - (per_row - 1) * gap) // per_row, column_gap=gap)
    current = [p for p in t.pairings if p.round == t.round]
    shown = current[:MAX_ROUND_PAIRINGS]
    grid_rows = -(-len(shown) // per_row)
    width = max(STANDINGS_WIDTH, table.width + 2 * PAD)
    header = _Header(event, width, phone=True)
    left = (width - table.width) // 2
    round_top = header.height + table.height + 30
    grid_top = round_top + line_height(PHONE.name_size) + 4
    more = len(current) - len(shown)
    height = grid_top + grid_rows * style.pitch + (40 if more else 0) + PAD
    img = Image.new("RGB", (width, height), PALETTE.background)
    draw = ImageDraw.Draw(img)
    header.draw(draw)
    table.draw(draw, left, header.height)
    if t.is_round_complete():
        title = tr("Round {n} of {rounds}: results", n=t.round, rounds=t.rounds)
    else:
        title = tr("Round {n} of {rounds}: pairings", n=t.round, rounds=t.rounds)
    kit_text(draw, (left, round_top), title, PHONE.name_size, PALETTE.accent)
    painter = PairingBox(event, style)
    for i, pairing in enumerate(shown):
        row, col = divmod(i, per_row)
        painter.draw(
            draw, pairing, left + col * (style.width + style.column_gap), grid_top + row * style.pitch + style.gap
        )
    if more:
        y = grid_top + grid_rows * style.pitch + 20
        kit_text(draw, (left, y), f"+{more} more pairings", PHONE.name_size, PALETTE.muted, anchor="lm")
    return img
