"""The frames of a match replay, and the job that renders one in a worker process.

A replay replays the match log from its options and takes one frame per action (a
player's move with the moves the rules then forced, or one chance move), captioned with
the move.  Every position frame is drawn from the PUBLIC view of that position, and
secret moves are captioned without their text, so a replay of a running match shows
only what the channel has seen.  Only after the end (`ReplayJob.ended`) are the hidden
parts revealed, in the last frames: each seat's private picture of the final position.

With a finished match's analysis (`ReplayJob.marks`), the moves it found costly are marked
in their captions (`⚠ mistake, the computer preferred ...`), held longer, and always kept.

Long games are thinned to at most `MAX_FRAMES` positions, spread evenly and always with the
first, the last and the marked ones, which bounds both the render time and the file size (Discord accepts
8 MB); the caption of a frame that stands for several moves says how many it skipped.

`render_replay` is a plain function of a picklable `ReplayJob`, so the cogs can run it in a
process pool: replaying and drawing hold the GIL for a second or more.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from bot.games import CHANCE, GAMES, GameState
from bot.games.base import LogEntry
from bot.i18n import DEFAULT, Locale, tr, tr_n
from bot.records.move_log import TAKEBACK_SEAT
from bot.records.replay import ReplayJob
from renderers.language import say, speaking
from renderers.replay import HOLD_MS, STEP_MS, Frame, animate

MAX_FRAMES = 60
MARK_MS = 2 * STEP_MS
"""How long a marked move's frame is shown: long enough to read its note."""


def _caption(game: str, entries: Sequence[LogEntry], ply: int) -> str:
    names = GAMES[game].info.seat_names
    first = entries[0]
    who = tr("Chance") if first.seat == CHANCE else names[first.seat]
    parts = [e.move if e.public else say(tr("(secret)")) for e in entries]
    return f"{ply}. {say(who)}: {' · '.join(parts)}"


def replay_frames(job: ReplayJob, *, max_frames: int = MAX_FRAMES) -> list[Frame]:
    """Every frame of the replay, in order (position frames thinned to `max_frames`)."""
    rules = GAMES[job.game]
    state = rules.start(options=job.options)
    positions: list[Frame] = [Frame(state.view(None), say(tr("Start")))]
    index = 0
    log = job.log
    before: list[tuple[int, GameState]] = []  # (first ply of each applied group, the state before it)
    marks = dict(job.marks)
    marked: set[int] = set()  # positions whose move is marked
    while index < len(log):
        entry = log[index]
        if entry.seat == TAKEBACK_SEAT:  # back to the position before the withdrawn ply (bot.records.move_log)
            first = int(entry.move.split()[-1])
            while before and before[-1][0] >= first:
                state = before.pop()[1]
            withdrawn = tr("{n}. Takeback: the moves from ply {first} withdrawn", n=index + 1, first=first)
            positions.append(Frame(state.view(None), say(withdrawn)))
            index += 1
            continue
        before.append((index, state))
        state = state.play(entry.seat, entry.move)
        count = len(state.applied)
        caption = _caption(job.game, log[index : index + count], index + 1)
        note = next((marks[i] for i in range(index, index + count) if i in marks), None)
        if note is not None:
            marked.add(len(positions))
            positions.append(Frame(state.view(None), f"⚠ {caption} · {note}", hold_ms=MARK_MS))
        else:
            positions.append(Frame(state.view(None), caption))
        index += count
    frames = thin(positions, max_frames, keep=marked)
    last = frames[-1]
    outcome = state.outcome
    final = job.ended or outcome is not None
    if len(frames) > 1:
        ending = tr("final position") if final else tr("position now")
        caption = f"{last.caption} · {say(ending)}"
    else:
        caption = say(tr("Final position") if final else tr("Position now"))
    frames[-1] = Frame(last.view, caption, hold_ms=HOLD_MS)
    if job.ended and rules.info.has_private_info:
        for seat in (0, 1):
            revealed = say(tr("Revealed: {seat}'s secrets", seat=rules.info.seat_names[seat]))
            frames.append(Frame(state.view(seat), revealed, seat, HOLD_MS))
    return frames


def thin(positions: Sequence[Frame], limit: int, keep: Collection[int] = ()) -> list[Frame]:
    """At most `limit` frames evenly spread over `positions`, the first and last always kept,
    and those at `keep` (fewer than half the limit of them, the earliest); a kept frame's caption
    notes the moves between it and the previous kept one."""
    if len(positions) <= limit:
        return list(positions)
    kept_marks = sorted(keep)[: max(0, limit // 2 - 1)]
    spread = limit - len(kept_marks)
    picks = sorted({round(i * (len(positions) - 1) / (spread - 1)) for i in range(spread)} | set(kept_marks))
    kept: list[Frame] = []
    previous = 0
    for pick in picks:
        frame = positions[pick]
        skipped = pick - previous - 1
        if skipped > 0:
            earlier = say(tr_n("(+{n} earlier)", "(+{n} earlier)", skipped))
            frame = Frame(frame.view, f"{frame.caption} {earlier}", frame.seat, frame.hold_ms)
        kept.append(frame)
        previous = pick
    return kept


def render_replay(job: ReplayJob, locale: Locale = DEFAULT) -> bytes:
    """The replay as an animated GIF (CPU-bound: run it in a worker process), its captions
    and pictures in `locale`."""
    with speaking(locale):
        return animate(job.game, replay_frames(job), job.players, locale)
