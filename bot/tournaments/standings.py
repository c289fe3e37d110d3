"""Standings and tie-breaks, computed from the pairings every time (never stored).

Match points: a series won 1, drawn ½, lost 0 (a forfeit counts as played).  A Swiss bye
is worth 1 point; a round-robin rest round is worth nothing (everyone gets the same
number of them).  Tie-breaks:

- Swiss: Buchholz (the sum of the final points of every opponent met), then
  Sonneborn-Berger (the points of each opponent beaten, plus half those of each opponent
  drawn).  A bye has no opponent and adds nothing to either.
- Round robin: Sonneborn-Berger (Buchholz is the same for everyone), then series won.
- Brackets: the stage reached (champion first, then the final's loser, then each round's
  losers sharing a place); exact once the bracket is over, a progress report before.

Players equal on every criterion share a place; the list is then ordered by seed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.tournaments.model import BYE, UNNEEDED, Pairing, Player


@dataclass(frozen=True, slots=True)
class Standing:
    place: int
    player: int
    name: str
    points: float
    wins: int
    draws: int
    losses: int
    byes: int
    buchholz: float
    sonneborn_berger: float
    stage: int
    dropped: bool


@dataclass(slots=True)
class _Tally:
    points: float = 0.0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    byes: int = 0
    stage: int = 0


def match_points(players: Sequence[Player], pairings: Sequence[Pairing], *, bye_points: float) -> dict[int, float]:
    """Each player's match points from the finished pairings."""
    return {pid: tally.points for pid, tally in _tallies(players, pairings, bye_points).items()}


def _tallies(players: Sequence[Player], pairings: Sequence[Pairing], bye_points: float) -> dict[int, _Tally]:
    tallies = {p.id: _Tally() for p in players}
    for pairing in pairings:
        for pid in pairing.participants:
            tallies[pid].stage = max(tallies[pid].stage, pairing.stage)
        if not pairing.finished or pairing.method == UNNEEDED:
            continue
        if pairing.method == BYE:
            for pid in pairing.participants:
                tallies[pid].byes += 1
                tallies[pid].points += bye_points
            continue
        if len(pairing.participants) < 2:
            continue
        for pid in pairing.participants:
            tally = tallies[pid]
            if pairing.winner is None:
                tally.draws += 1
                tally.points += 0.5
            elif pairing.winner == pid:
                tally.wins += 1
                tally.points += 1.0
            else:
                tally.losses += 1
    return tallies


def compute(
    players: Sequence[Player],
    pairings: Sequence[Pairing],
    *,
    kind: str,
    bye_points: float,
    champion: int | None,
) -> list[Standing]:
    """Standings for `kind` in ("swiss", "round_robin", "bracket")."""
    tallies = _tallies(players, pairings, bye_points)
    buchholz = dict.fromkeys(tallies, 0.0)
    berger = dict.fromkeys(tallies, 0.0)
    for pairing in pairings:
        if not pairing.finished or pairing.method in (BYE, UNNEEDED) or len(pairing.participants) < 2:
            continue
        a, b = pairing.participants
        for me, other in ((a, b), (b, a)):
            buchholz[me] += tallies[other].points
            if pairing.winner == me:
                berger[me] += tallies[other].points
            elif pairing.winner is None:
                berger[me] += tallies[other].points / 2
    if champion is not None:
        tallies[champion].stage += 1

    def criteria(p: Player) -> tuple[float, ...]:
        t = tallies[p.id]
        if kind == "swiss":
            return (-t.points, -buchholz[p.id], -berger[p.id])
        if kind == "round_robin":
            return (-t.points, -berger[p.id], -t.wins)
        return (-t.stage,)

    ordered = sorted(players, key=lambda p: (criteria(p), p.seed))
    standings: list[Standing] = []
    for index, p in enumerate(ordered):
        tied = index > 0 and criteria(ordered[index - 1]) == criteria(p)
        place = standings[-1].place if tied else index + 1
        t = tallies[p.id]
        standings.append(
            Standing(
                place=place,
                player=p.id,
                name=p.name,
                points=t.points,
                wins=t.wins,
                draws=t.draws,
                losses=t.losses,
                byes=t.byes,
                buchholz=buchholz[p.id],
                sonneborn_berger=berger[p.id],
                stage=t.stage,
                dropped=p.dropped,
            )
        )
    return standings
