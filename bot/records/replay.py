"""What a replay is drawn from: a match's game, options, full log and players, as plain data.

A `ReplayJob` crosses into a worker process (renderers/replay_frames.py draws it), so it
holds only picklable values and no store rows.  Pure: standard library and the engines only.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.games.base import LogEntry


@dataclass(frozen=True)
class ReplayJob:
    """What a worker needs to draw a replay: plain data only."""

    game: str
    options: dict[str, str]
    log: tuple[LogEntry, ...]
    """The full move log (secret moves included: the worker needs them to rebuild the
    positions, and shows only public views of them)."""
    players: tuple[str, str]
    ended: bool
    marks: tuple[tuple[int, str], ...] = ()
    """(line of `log`, note): moves the computer's analysis found costly, for the replay to
    mark (a finished match's, so nothing in a note is secret any more)."""
