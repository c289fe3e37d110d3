"""A seat that MAY act without being asked (`state.may_act`) through the match service.

The contract (bot/games/base.py): `turn` is who MUST act, `may_act` adds who may act unasked
(a Wonderland opponent's abilities during the active player's action step).  The service
lets every seat in `may_act` play and suggests it moves; clocks follow `turn` only, so the
active player's clock keeps running and the other seat's does not start.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar, Self

import pytest

from bot.clocks import ClockState
from bot.games import GAMES, GameInfo, GameState, IllegalMove, Outcome, Rules
from bot.games.base import OptionValue
from bot.services.matches import ClockResult, MatchService, NotYourTurn, attach_clocks, clock_of
from bot.store import Store
from tests.bot.conftest import ALICE, BOB, CHANNEL, GUILD
from tests.bot.settling_time import SettlingTime

T0 = 1_000_000.0


class CheerState(GameState):
    """Players add 1 or 2 to a count in turn (5 wins); the seat not to move may `cheer` meanwhile."""

    def __init__(self, count: int = 0, to_move: int = 0, cheers: int = 0) -> None:
        self.count, self.to_move, self.cheers = count, to_move, cheers

    @property
    def turn(self) -> frozenset[int]:
        return frozenset() if self.count >= 5 else frozenset((self.to_move,))

    @property
    def may_act(self) -> frozenset[int]:
        return frozenset() if self.count >= 5 else frozenset((1 - self.to_move,))

    @property
    def outcome(self) -> Outcome | None:
        return Outcome(frozenset((1 - self.to_move,)), "Reached five.") if self.count >= 5 else None

    def legal_moves(self, seat: int) -> list[str]:
        if seat not in self.turn and seat not in self.may_act:
            return []
        return ["add", "double"] if seat in self.turn else ["cheer"]

    def _apply(self, seat: int, move: str) -> Self:
        if move.strip().lower() not in self.legal_moves(seat):
            raise IllegalMove("Play `add` or `double` on your turn, `cheer` otherwise.")
        if seat in self.turn:
            return type(self)(self.count + (2 if "double" in move else 1), 1 - seat, self.cheers)
        return type(self)(self.count, self.to_move, self.cheers + 1)

    def view(self, seat: int | None) -> dict[str, Any]:
        public = {**self.public_base(), "count": self.count, "cheers": self.cheers, "last_move": None, "ply": 0}
        return self.seat_view(public, seat, {})

    def dump(self) -> dict[str, Any]:
        return {"count": self.count, "to_move": self.to_move, "cheers": self.cheers}


class CheerRules(Rules):
    info: ClassVar[GameInfo] = GameInfo(
        key="cheer",
        name="Cheer",
        seat_names=("Left", "Right"),
        blurb="A test game.",
        how_to_play="Add, double or cheer.",
    )

    def _start(self, options: dict[str, OptionValue]) -> GameState:
        return CheerState()

    def load(self, data: Mapping[str, Any]) -> GameState:
        return CheerState(int(data["count"]), int(data["to_move"]), int(data["cheers"]))


CheerState.rules = CheerRules()


async def _ignore(result: ClockResult) -> None:
    return None


@pytest.fixture
def time() -> SettlingTime:
    return SettlingTime(T0)


async def test_a_seat_that_may_act_plays_unasked_and_its_clock_does_not_start(
    tmp_path: Path, time: SettlingTime
) -> None:
    store = await Store.open(tmp_path / "boneyard.sqlite3")
    service = MatchService(store, cache_size=4, games={**GAMES, "cheer": CheerRules()})
    keeper = attach_clocks(service, _ignore, now=time.now, sleep=time.sleep)
    time.keepers.append(keeper)
    await keeper.start()
    try:
        row = await service.challenge(
            game="cheer",
            channel_id=CHANNEL,
            guild_id=GUILD,
            challenger_id=ALICE,
            opponent_id=BOB,
            seat_pref="first",
            clock="blitz",
        )
        await service.accept(row.id, BOB)
        await time.advance(10)
        assert await service.legal_moves(row.id, BOB) == ["cheer"]
        assert await service.suggest_moves(row.id, BOB, "ch") == ["cheer"]
        update = await service.play(row.id, BOB, "cheer")  # Alice must act; Bob may
        assert update.public_view["cheers"] == 1
        assert update.to_move == (ALICE,)
        assert update.prompt == ()  # nobody is asked to do anything new
        await time.advance(10)
        clock = clock_of(await service.get(row.id))
        assert isinstance(clock, ClockState)
        assert clock.running_seats == frozenset({0})  # Alice's clock runs on, Bob's never started
        assert clock.remaining(0, time.now()) == (40, 180)  # 20 s of Alice's minute are gone
        with pytest.raises((IllegalMove, NotYourTurn)):
            await service.play(row.id, BOB, "add")  # only Alice must (and may) add
        await service.play(row.id, ALICE, "add")
        clock = clock_of(await service.get(row.id))
        assert clock is not None and clock.running_seats == frozenset({1})
    finally:
        time.keepers.remove(keeper)
        await keeper.close()
        await store.close()
