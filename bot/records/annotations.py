"""The computer's analysis written into a record, as comment lines (`; ...`) no checker reads.

Why comments: the record proves the result from its move lines alone (bot.records.verify);
an opinion about the moves must not be able to change that, and a reader that knows
nothing of analyses keeps the lines and verifies the record all the same.  One comment
before the first move says where the figures come from and each player's accuracy; one
after each costly move (`bot.ai.analysis.INACCURACY` or more lost) says what it cost and
what the computer preferred.
"""

from __future__ import annotations

from dataclasses import replace

from bot.ai.analysis import Analysis
from bot.games import GAMES
from bot.records.format import Record


def annotated(record: Record, analysis: Analysis) -> Record:
    """`record` with `analysis` as comments (any comments it had are kept, first)."""
    names = GAMES[record.game].info.seat_names
    said = []
    for seat in (0, 1):
        accuracy = analysis.accuracy(seat)
        figure = f"{accuracy:.0f} %" if accuracy is not None else "no choice judged"
        said.append(f"{names[seat]} ({record.players[seat]}) {figure}")
    notes: list[tuple[int, str]] = [
        (-1, f"Analysis by the Boneyard computer ({analysis.budget}), from each player's own information."),
        (-1, f"Accuracy: {', '.join(said)}."),
    ]
    for j in analysis.judgements:
        if j.label is None:
            continue
        notes.append(
            (
                j.ply,
                f"{j.label}: {names[j.seat]}'s winning chance {j.before:.0%} -> {j.after:.0%};"
                f" the computer preferred {j.best}",
            )
        )
    return replace(record, comments=record.comments + tuple(notes))
