"""The tournament's records: players, pairings (series) and their games, all JSON-able.

Everything here is plain data with an explicit `dump` / `load`, so the store can keep a
tournament as one JSON document and a test can round-trip it at every step.  Player ids
are the callers' ints (Discord user ids); a slot that is filled with None holds *nobody*
(a bye), which is different from a slot not filled yet (its source is still undecided).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Self

from bot.i18n import tr

MatchRef = int | str | None
"""Whatever the caller uses to find the match that plays a game (kept, never read)."""

PLAYED, BYE, FORFEIT, HOST, UNNEEDED = "games", "bye", "forfeit", "host", "unneeded"
AUTOMATIC = (BYE, FORFEIT, UNNEEDED)
"""Ways a pairing ends without anyone playing or reporting: these may be redone."""


class TournamentError(ValueError):
    """A request the tournament cannot honour; the message is for the host or player."""


@dataclass(slots=True)
class Player:
    id: int
    name: str
    seed: int
    rating: float | None = None
    dropped: bool = False
    items: list[str] = field(default_factory=list)

    def dump(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "seed": self.seed,
            "rating": self.rating,
            "dropped": self.dropped,
            "items": list(self.items),
        }

    @classmethod
    def load(cls, data: dict[str, Any]) -> Self:
        return cls(data["id"], data["name"], data["seed"], data["rating"], data["dropped"], list(data["items"]))


@dataclass(slots=True)
class Game:
    """One game of a series: player ids in seat order and, once over, the winner (None: a draw)."""

    seats: tuple[int, int]
    match: MatchRef = None
    finished: bool = False
    winner: int | None = None

    def dump(self) -> dict[str, Any]:
        return {"seats": list(self.seats), "match": self.match, "finished": self.finished, "winner": self.winner}

    @classmethod
    def load(cls, data: dict[str, Any]) -> Self:
        seats = data["seats"]
        return cls((seats[0], seats[1]), data["match"], data["finished"], data["winner"])


@dataclass(slots=True)
class Pairing:
    """Two players' series.  `players[i]` is meaningful only once `filled[i]` is true."""

    id: int
    round: int
    bracket: str
    players: list[int | None]
    filled: list[bool]
    sources: list[str] = field(default_factory=list)
    stage: int = 0
    first: int | None = None
    """Who sits in seat 0 in the series' first game (seats then alternate)."""
    games: list[Game] = field(default_factory=list)
    finished: bool = False
    winner: int | None = None
    method: str = ""

    @property
    def ready(self) -> bool:
        """Both players known and real: the series can be (or is being) played."""
        return all(self.filled) and None not in self.players

    @property
    def participants(self) -> list[int]:
        return [p for p, f in zip(self.players, self.filled, strict=True) if f and p is not None]

    @property
    def loser(self) -> int | None:
        """The participant who did not win a finished pairing (None for a draw, a bye, an unneeded reset)."""
        if not self.finished or self.winner is None or self.method == UNNEEDED:
            return None
        others = [p for p in self.participants if p != self.winner]
        return others[0] if others else None

    def opponent(self, player: int) -> int | None:
        others = [p for p in self.participants if p != player]
        return others[0] if others else None

    def open_game(self) -> Game | None:
        return self.games[-1] if self.games and not self.games[-1].finished else None

    def seats_for(self, number: int) -> tuple[int, int]:
        """Seat order of game `number` (1-based): `first` in seat 0 of the odd games."""
        first = self.first
        other = self.opponent(first) if first is not None else None
        if first is None or other is None:
            raise TournamentError(tr("Pairing {id} has no two players yet.", id=self.id))
        return (first, other) if number % 2 else (other, first)

    def dump(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "round": self.round,
            "bracket": self.bracket,
            "players": list(self.players),
            "filled": list(self.filled),
            "sources": list(self.sources),
            "stage": self.stage,
            "first": self.first,
            "games": [g.dump() for g in self.games],
            "finished": self.finished,
            "winner": self.winner,
            "method": self.method,
        }

    @classmethod
    def load(cls, data: dict[str, Any]) -> Self:
        return cls(
            id=data["id"],
            round=data["round"],
            bracket=data["bracket"],
            players=list(data["players"]),
            filled=list(data["filled"]),
            sources=list(data["sources"]),
            stage=data["stage"],
            first=data["first"],
            games=[Game.load(g) for g in data["games"]],
            finished=data["finished"],
            winner=data["winner"],
            method=data["method"],
        )
