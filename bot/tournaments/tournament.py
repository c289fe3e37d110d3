"""The Tournament: players, format, pairings and how results move the event forward.

A `Tournament` is a mutable object over JSON-able records (`dump` / `load`); the store
keeps the dump, the service drives it under its own lock.  It never opens a match itself:
it tells the caller which games to open and is told their results.

The flow, the same for every format::

    t = Tournament.new(Format.SWISS, [(id, name), ...], best_of=3, ratings={id: 1620.0})
    for game in t.pairings_to_start():       # GameToStart: pairing, game number, seats, options
        match = open_match(game)             # the caller's business
        t.mark_started(game.pairing_id, match)
    t.record_result(pairing_id, winner_seat) # seat of that game (0 or 1), None for a draw
    if t.needs_next_round:                   # Swiss and round robin play in rounds
        t.next_round()
    t.standings(), t.finished, t.winner

Round formats (Swiss, round robin) release one round at a time; the first round is paired
by `new`.  Bracket formats (single and double elimination, deathmatch) are built whole at
the start from slot sources (see `brackets`), and a pairing becomes startable as soon as
both its players are known, so a fast half of the bracket never waits for a slow one.

Seats: in a series' first game seat 0 goes to the player who had seat 0 in fewer first
games so far (the better seed on a tie); seats then alternate game by game.

Drops: a dropped player forfeits every series in progress (the opponent wins it), is
paired no more in Swiss, forfeits the rest of a round-robin schedule as it is released,
and in a bracket any later pairing of theirs is a walkover (they never drop to the losers
bracket).  Host `report` sets or corrects a series result; in a bracket it is refused once
a later pairing fed by it has started.
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Self

from bot.i18n import tr
from bot.tournaments import brackets, standings, swiss
from bot.tournaments.model import (
    AUTOMATIC,
    BYE,
    FORFEIT,
    HOST,
    PLAYED,
    UNNEEDED,
    Game,
    MatchRef,
    Pairing,
    Player,
    TournamentError,
)
from bot.tournaments.roundrobin import circle_schedule
from bot.tournaments.series import ALLOWED_BEST_OF, DEATHMATCH_BEST_OF, series_result
from bot.tournaments.standings import Standing

OptionValue = str | int
ITEM_NAME = re.compile(r"[a-z][a-z0-9_]{0,31}")
MAX_PLAYERS = 1024


class Format(StrEnum):
    SINGLE_ELIMINATION = "single_elimination"
    DOUBLE_ELIMINATION = "double_elimination"
    ROUND_ROBIN = "round_robin"
    SWISS = "swiss"
    DEATHMATCH = "deathmatch"

    @property
    def is_bracket(self) -> bool:
        return self in (Format.SINGLE_ELIMINATION, Format.DOUBLE_ELIMINATION, Format.DEATHMATCH)


@dataclass(frozen=True, slots=True)
class GameToStart:
    """A game the caller should open: players in seat order and the match options to use."""

    pairing_id: int
    round: int
    bracket: str
    game_number: int
    seats: tuple[int, int]
    options: dict[str, OptionValue] = field(default_factory=dict)


def item_options(seat_items: Sequence[Collection[str]]) -> dict[str, str]:
    """Per-seat items as match options: `tie` held by seat 1 gives `{"tie": "1"}`.

    An item both seats hold gives `"both"`; an item nobody holds is left out, so the game's
    own default (no item) applies.
    """
    holders: dict[str, list[int]] = {}
    for seat, items in enumerate(seat_items):
        for item in items:
            holders.setdefault(item, []).append(seat)
    return {item: "both" if len(seats) > 1 else str(seats[0]) for item, seats in sorted(holders.items())}


class Tournament:
    """One event.  Mutable; every public method keeps the records consistent."""

    def __init__(
        self,
        *,
        format: Format,
        best_of: int,
        players: list[Player],
        pairings: list[Pairing],
        rounds: int,
        round: int,
        bracket_reset: bool,
        game: str,
        options: dict[str, OptionValue],
        schedule: list[list[list[int | None]]],
    ) -> None:
        self.format = format
        self.best_of = best_of
        self.players = players
        self.pairings = pairings
        self.rounds = rounds
        self.round = round
        self.bracket_reset = bracket_reset
        self.game = game
        self.options = options
        self.schedule = schedule
        self._by_id = {p.id: p for p in players}

    # ----------------------------------------------------------------- creation and storage

    @classmethod
    def new(
        cls,
        format: Format | str,
        players: Sequence[tuple[int, str]],
        *,
        best_of: int = 1,
        rounds: int | None = None,
        ratings: Mapping[int, float] | None = None,
        bracket_reset: bool = True,
        game: str = "",
        options: Mapping[str, OptionValue] | None = None,
    ) -> Tournament:
        """Start an event; players come in seed order unless `ratings` seeds them (highest first).

        Raises TournamentError for a bad format, player list, best-of or number of rounds.
        """
        fmt = _parse_format(format)
        _check_players(fmt, players)
        _check_best_of(fmt, best_of)
        if rounds is not None and fmt is not Format.SWISS:
            raise TournamentError(tr("Only a Swiss event takes a number of rounds; the format fixes the others."))
        ranked = list(players)
        if ratings is not None:
            ranked.sort(key=lambda p: -ratings.get(p[0], -math.inf))
        roster = [
            Player(pid, name, seed, None if ratings is None else ratings.get(pid))
            for seed, (pid, name) in enumerate(ranked, 1)
        ]
        t = cls(
            format=fmt,
            best_of=best_of,
            players=roster,
            pairings=[],
            rounds=0,
            round=0,
            bracket_reset=bracket_reset,
            game=game,
            options=dict(options or {}),
            schedule=[],
        )
        t._build(rounds)
        return t

    def _build(self, rounds: int | None) -> None:
        n = len(self.players)
        if self.format.is_bracket:
            if self.format is Format.DOUBLE_ELIMINATION:
                slots = brackets.build_double(n, reset=self.bracket_reset)
            else:
                slots = brackets.build_single(n)
            self.pairings = [
                Pairing(i, s.round, s.bracket, [None, None], [False, False], list(s.sources), s.stage)
                for i, s in enumerate(slots, 1)
            ]
            self.rounds = max(p.round for p in self.pairings if p.bracket in (brackets.MAIN, brackets.WINNERS))
            self.round = 1
            self._resolve()
            return
        if self.format is Format.ROUND_ROBIN:
            schedule = circle_schedule([p.id for p in self.players])
            self.schedule = [[[a, b] for a, b in round_] for round_ in schedule]
            self.rounds = len(schedule)
        else:
            most = n - 1 if n % 2 == 0 else n
            self.rounds = rounds if rounds is not None else max(1, math.ceil(math.log2(n)))
            if not 1 <= self.rounds <= most:
                raise TournamentError(
                    tr(
                        "A Swiss event of {n} players has 1 to {most} rounds, not {rounds}.",
                        n=n,
                        most=most,
                        rounds=self.rounds,
                    )
                )
        self.next_round()

    def dump(self) -> dict[str, Any]:
        return {
            "format": self.format.value,
            "best_of": self.best_of,
            "players": [p.dump() for p in self.players],
            "pairings": [p.dump() for p in self.pairings],
            "rounds": self.rounds,
            "round": self.round,
            "bracket_reset": self.bracket_reset,
            "game": self.game,
            "options": dict(self.options),
            "schedule": [[list(pair) for pair in round_] for round_ in self.schedule],
        }

    @classmethod
    def load(cls, data: dict[str, Any]) -> Self:
        return cls(
            format=Format(data["format"]),
            best_of=data["best_of"],
            players=[Player.load(p) for p in data["players"]],
            pairings=[Pairing.load(p) for p in data["pairings"]],
            rounds=data["rounds"],
            round=data["round"],
            bracket_reset=data["bracket_reset"],
            game=data["game"],
            options=dict(data["options"]),
            schedule=[[list(pair) for pair in round_] for round_ in data["schedule"]],
        )

    # ----------------------------------------------------------------- lookups

    def player(self, player_id: int) -> Player:
        try:
            return self._by_id[player_id]
        except KeyError:
            raise TournamentError(tr("Player {player_id} is not in this tournament.", player_id=player_id)) from None

    def pairing(self, pairing_id: int) -> Pairing:
        if not 1 <= pairing_id <= len(self.pairings):
            raise TournamentError(tr("There is no pairing {pairing_id}.", pairing_id=pairing_id))
        return self.pairings[pairing_id - 1]

    def pairings_of(self, player_id: int) -> list[Pairing]:
        return [p for p in self.pairings if player_id in p.participants]

    # ----------------------------------------------------------------- playing

    def pairings_to_start(self) -> list[GameToStart]:
        """The games to open now: the next game of every live series without an open game."""
        return [self._next_game(p) for p in self.pairings if p.ready and not p.finished and p.open_game() is None]

    def _next_game(self, pairing: Pairing) -> GameToStart:
        number = len(pairing.games) + 1
        seats = pairing.seats_for(number)
        return GameToStart(pairing.id, pairing.round, pairing.bracket, number, seats, self._options_for(seats))

    def mark_started(self, pairing_id: int, match: MatchRef = None) -> GameToStart:
        """Record that the caller opened the pairing's next game (as `match`); returns that game."""
        pairing = self._live(pairing_id)
        if pairing.open_game() is not None:
            raise TournamentError(tr("Pairing {pairing_id} already has a game in progress.", pairing_id=pairing_id))
        game = self._next_game(pairing)
        pairing.games.append(Game(game.seats, match))
        return game

    def record_result(self, pairing_id: int, winner_seat: int | None) -> Pairing:
        """Record the open game's result: the winning seat of that game, None for a draw.

        If no game was marked started, the result is for the series' next game.  Returns the
        pairing (finished once the series is decided).  Raises TournamentError for a pairing
        that is over or not ready, or a seat other than 0, 1 or None.
        """
        if winner_seat not in (0, 1, None):
            raise TournamentError(
                tr("A game's winner is seat 0 or 1 (or None for a draw), not {winner_seat}.", winner_seat=winner_seat)
            )
        pairing = self._live(pairing_id)
        game = pairing.open_game()
        if game is None:
            self.mark_started(pairing_id)
            game = pairing.games[-1]
        game.finished = True
        game.winner = None if winner_seat is None else game.seats[winner_seat]
        index = {pid: i for i, pid in enumerate(pairing.players) if pid is not None}
        outcome = series_result(
            [None if g.winner is None else index[g.winner] for g in pairing.games if g.finished],
            self.best_of,
            draws_replayed=self.format.is_bracket,
        )
        if outcome.finished:
            self._finish(pairing, None if outcome.winner is None else pairing.players[outcome.winner], PLAYED)
        return pairing

    def void_game(self, pairing_id: int) -> Game:
        """Forget the series' open game (its match was aborted): the game is played again,
        with the same number and seats.  Raises TournamentError if no game is open."""
        pairing = self._live(pairing_id)
        game = pairing.open_game()
        if game is None:
            raise TournamentError(tr("Pairing {pairing_id} has no game in progress.", pairing_id=pairing_id))
        pairing.games.pop()
        return game

    def report(self, pairing_id: int, winner: int | None) -> Pairing:
        """Host override: set (or correct) a series result; `winner` is a player id, None a draw.

        A game still open in the series is left to the caller to abort.  Raises
        TournamentError if the pairing is not ready, the winner is not one of its players,
        a bracket series would be drawn, or later pairings fed by it have started.
        """
        pairing = self.pairing(pairing_id)
        if not pairing.ready or pairing.method == UNNEEDED:
            raise TournamentError(tr("Pairing {pairing_id} has no series to report on.", pairing_id=pairing_id))
        if winner is not None and winner not in pairing.participants:
            raise TournamentError(
                tr("Player {winner} does not play in pairing {pairing_id}.", winner=winner, pairing_id=pairing_id)
            )
        if winner is None and self.format.is_bracket:
            raise TournamentError(tr("A bracket series cannot end in a draw: name the winner."))
        if pairing.finished and pairing.winner != winner and self.format.is_bracket:
            self._rewind_dependents(pairing)
        pairing.finished = False
        self._finish(pairing, winner, HOST)
        return pairing

    def drop(self, player_id: int) -> list[int]:
        """Withdraw a player: returns the ids of the series they forfeited (abort their games)."""
        player = self.player(player_id)
        if player.dropped:
            raise TournamentError(tr("{name} has already left the tournament.", name=player.name))
        player.dropped = True
        forfeited = []
        for pairing in self.pairings:
            if pairing.ready and not pairing.finished and player_id in pairing.participants:
                forfeited.append(pairing.id)
                self._finish(pairing, self._forfeit_winner(pairing), FORFEIT)
        if self.format.is_bracket:
            self._resolve()
        return forfeited

    def _live(self, pairing_id: int) -> Pairing:
        pairing = self.pairing(pairing_id)
        if pairing.finished:
            raise TournamentError(tr("Pairing {pairing_id} is already decided.", pairing_id=pairing_id))
        if not pairing.ready:
            raise TournamentError(tr("Pairing {pairing_id} is still waiting for its players.", pairing_id=pairing_id))
        return pairing

    def _forfeit_winner(self, pairing: Pairing) -> int | None:
        """The participant who did not drop (None if both did)."""
        standing = [p for p in pairing.participants if not self._by_id[p].dropped]
        return standing[0] if len(standing) == 1 else None

    def _finish(self, pairing: Pairing, winner: int | None, method: str) -> None:
        pairing.finished = True
        pairing.winner = winner
        pairing.method = method
        if self.format.is_bracket:
            self._resolve()

    # ----------------------------------------------------------------- brackets

    def _resolve(self) -> None:
        """Fill every slot whose source is decided and settle byes, walkovers and resets."""
        changed = True
        while changed:
            changed = False
            for pairing in self.pairings:
                if pairing.finished:
                    continue
                changed |= self._fill(pairing)
                if all(pairing.filled):
                    changed |= self._settle_automatically(pairing)

    def _fill(self, pairing: Pairing) -> bool:
        changed = False
        for slot, source in enumerate(pairing.sources):
            if pairing.filled[slot]:
                continue
            kind, _, ref = source.partition(":")
            number = int(ref)
            if kind == "seed":
                pairing.players[slot] = self.players[number - 1].id if number <= len(self.players) else None
            else:
                feeder = self.pairings[number - 1]
                if not feeder.finished:
                    continue
                pairing.players[slot] = feeder.winner if kind == "winner" else self._bracket_loser(feeder)
            pairing.filled[slot] = True
            changed = True
        if pairing.ready and pairing.first is None:
            pairing.first = self._first_seat(pairing.participants)
        return changed

    def _bracket_loser(self, pairing: Pairing) -> int | None:
        """Who a finished pairing sends to the losers bracket: nobody if the loser dropped."""
        loser = pairing.loser
        return None if loser is None or self._by_id[loser].dropped else loser

    def _settle_automatically(self, pairing: Pairing) -> bool:
        a, b = pairing.players
        if pairing.bracket == brackets.RESET:
            final = self.pairings[int(pairing.sources[0].partition(":")[2]) - 1]
            if final.winner is not None and final.winner == final.players[0]:
                self._close(pairing, final.winner, UNNEEDED)
                return True
        if a is None or b is None:
            self._close(pairing, a if b is None else b, BYE)
            return True
        if self._by_id[a].dropped or self._by_id[b].dropped:
            self._close(pairing, self._forfeit_winner(pairing), FORFEIT)
            return True
        return False

    @staticmethod
    def _close(pairing: Pairing, winner: int | None, method: str) -> None:
        pairing.finished, pairing.winner, pairing.method = True, winner, method

    def _dependents(self, pairing: Pairing) -> list[tuple[Pairing, int]]:
        refs = (f"winner:{pairing.id}", f"loser:{pairing.id}")
        return [(p, slot) for p in self.pairings for slot, s in enumerate(p.sources) if s in refs]

    def _rewind_dependents(self, pairing: Pairing) -> None:
        """Undo what a corrected result fed forward; refuse if any of it was played."""
        blocked = self._played_downstream(pairing)
        if blocked is not None:
            raise TournamentError(
                tr("Pairing {blocked} already started with the old result; it cannot be changed now.", blocked=blocked)
            )
        for dependent, slot in self._dependents(pairing):
            if dependent.finished:
                self._rewind_dependents(dependent)
                dependent.finished, dependent.winner, dependent.method = False, None, ""
            dependent.filled[slot], dependent.players[slot], dependent.first = False, None, None

    def _played_downstream(self, pairing: Pairing) -> int | None:
        for dependent, _ in self._dependents(pairing):
            if dependent.games or (dependent.finished and dependent.method not in AUTOMATIC):
                return dependent.id
            if dependent.finished:
                blocked = self._played_downstream(dependent)
                if blocked is not None:
                    return blocked
        return None

    # ----------------------------------------------------------------- rounds

    @property
    def current_round(self) -> int:
        """Round formats: the latest released round.  Brackets: the earliest undecided main round."""
        if not self.format.is_bracket:
            return self.round
        open_rounds = [
            p.round for p in self.pairings if p.bracket in (brackets.MAIN, brackets.WINNERS) and not p.finished
        ]
        return min(open_rounds, default=self.rounds)

    def is_round_complete(self, round: int | None = None) -> bool:
        """Every pairing of `round` (default: the current one) is decided.

        In a bracket, rounds number the main (winners) bracket; losers-bracket pairings keep
        their own numbering in `Pairing.round` and are not part of this check.
        """
        number = self.current_round if round is None else round
        kinds = (brackets.MAIN, brackets.WINNERS)
        return all(p.finished for p in self.pairings if p.round == number and p.bracket in kinds)

    @property
    def needs_next_round(self) -> bool:
        """A round format whose round is over with rounds still to play: call `next_round`."""
        return (
            not self.format.is_bracket
            and self.is_round_complete()
            and self.round < self.rounds
            and len(self._active()) >= 2
        )

    def next_round(self) -> list[Pairing]:
        """Pair the next round (Swiss) or release it (round robin); returns its pairings.

        Raises TournamentError in a bracket (it advances by itself), while the round is
        still being played, or after the last round.
        """
        if self.format.is_bracket:
            raise TournamentError(tr("A bracket advances by itself: open what pairings_to_start() lists."))
        if self.round and not self.is_round_complete():
            raise TournamentError(tr("Round {round} is still being played.", round=self.round))
        if self.round >= self.rounds or len(self._active()) < 2:
            raise TournamentError(tr("The last round has been played."))
        self.round += 1
        if self.format is Format.ROUND_ROBIN:
            pairs, bye = [(a, b) for a, b in self.schedule[self.round - 1]], None
        else:
            swiss_pairs, bye = self._pair_swiss()
            pairs = [(a, b) for a, b in swiss_pairs]
        created = [self._add_round_pairing(a, b) for a, b in pairs]
        if bye is not None:
            created.append(self._add_round_pairing(bye, None))
        return created

    def _pair_swiss(self) -> tuple[list[tuple[int, int]], int | None]:
        active = self._active()
        points = standings.match_points(self.players, self.pairings, bye_points=1.0)
        ranked = sorted(active, key=lambda p: (-points[p.id], p.seed))
        opponents: dict[int, set[int]] = {p.id: set() for p in self.players}
        had_bye = set()
        for pairing in self.pairings:
            if pairing.method == BYE:
                had_bye.update(pairing.participants)
            elif len(pairing.participants) == 2:
                a, b = pairing.participants
                opponents[a].add(b)
                opponents[b].add(a)
        return swiss.pair_round([p.id for p in ranked], points, opponents, had_bye)

    def _add_round_pairing(self, a: int | None, b: int | None) -> Pairing:
        if a is None:
            a, b = b, a
        pairing = Pairing(len(self.pairings) + 1, self.round, brackets.MAIN, [a, b], [True, True])
        self.pairings.append(pairing)
        if b is None:
            self._close(pairing, a, BYE)
        elif a is not None:
            pairing.first = self._first_seat([a, b])
            if self._by_id[a].dropped or self._by_id[b].dropped:
                self._close(pairing, self._forfeit_winner(pairing), FORFEIT)
        return pairing

    def _active(self) -> list[Player]:
        return [p for p in self.players if not p.dropped]

    def _first_seat(self, pair: Sequence[int]) -> int:
        """Seat 0 of the first game: whoever had it less often; the better seed on a tie."""
        counts = dict.fromkeys(pair, 0)
        for pairing in self.pairings:
            if pairing.first in counts and pairing.ready:
                counts[pairing.first] += 1
        return min(pair, key=lambda pid: (counts[pid], self._by_id[pid].seed))

    # ----------------------------------------------------------------- results

    @property
    def finished(self) -> bool:
        if self.format.is_bracket:
            return all(p.finished for p in self.pairings)
        last_round_over = self.round >= self.rounds or len(self._active()) < 2
        return self.round > 0 and last_round_over and self.is_round_complete()

    @property
    def winner(self) -> int | None:
        """The champion once the event is over.

        In round formats it is the top of the standings; players level on points and every
        tie-break are separated by seed (a play-off, if wanted, is the host's call).
        """
        if not self.finished:
            return None
        if self.format.is_bracket:
            return self.pairings[-1].winner
        return self.standings()[0].player

    def standings(self) -> list[Standing]:
        kind = "bracket" if self.format.is_bracket else self.format.value
        champion = self.pairings[-1].winner if self.format.is_bracket and self.finished else None
        bye_points = 1.0 if self.format is Format.SWISS else 0.0
        return standings.compute(self.players, self.pairings, kind=kind, bye_points=bye_points, champion=champion)

    # ----------------------------------------------------------------- items

    def give_item(self, player_id: int, item: str) -> None:
        """Give a game item (e.g. Domino Wars `tie`) to a player; the game validates the name."""
        name = item.strip().lower()
        if not ITEM_NAME.fullmatch(name):
            raise TournamentError(tr("`{item}` is not an item name.", item=item))
        player = self.player(player_id)
        if name not in player.items:
            player.items = sorted([*player.items, name])

    def take_item(self, player_id: int, item: str) -> None:
        player = self.player(player_id)
        name = item.strip().lower()
        if name not in player.items:
            raise TournamentError(tr("{name} holds no `{item}`.", name=player.name, item=item))
        player.items = [i for i in player.items if i != name]

    def match_options(self, pairing_id: int, game_number: int | None = None) -> dict[str, OptionValue]:
        """The match options of a pairing's game (default: its next one): base options + items."""
        pairing = self.pairing(pairing_id)
        number = len(pairing.games) + 1 if game_number is None else game_number
        return self._options_for(pairing.seats_for(number))

    def _options_for(self, seats: tuple[int, int]) -> dict[str, OptionValue]:
        return {**self.options, **item_options([self._by_id[pid].items for pid in seats])}


def _parse_format(value: Format | str) -> Format:
    try:
        return Format(value)
    except ValueError:
        names = ", ".join(f"`{f.value}`" for f in Format)
        raise TournamentError(
            tr("`{value}` is not a tournament format; choose one of {names}.", value=value, names=names)
        ) from None


def _check_players(fmt: Format, players: Sequence[tuple[int, str]]) -> None:
    ids = [pid for pid, _ in players]
    if len(set(ids)) != len(ids):
        raise TournamentError(tr("A player is listed twice."))
    if fmt is Format.DEATHMATCH and len(ids) != 2:
        raise TournamentError(tr("A deathmatch is between exactly two players, not {count}.", count=len(ids)))
    if not 2 <= len(ids) <= MAX_PLAYERS:
        raise TournamentError(
            tr("A tournament takes 2 to {max_players} players, not {count}.", max_players=MAX_PLAYERS, count=len(ids))
        )


def _check_best_of(fmt: Format, best_of: int) -> None:
    allowed = DEATHMATCH_BEST_OF if fmt is Format.DEATHMATCH else ALLOWED_BEST_OF
    if best_of not in allowed:
        choices = ", ".join(str(n) for n in allowed)
        raise TournamentError(tr("Series are best of {choices}, not {best_of}.", choices=choices, best_of=best_of))
