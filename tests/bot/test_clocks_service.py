"""Time controls through the match service: reminders, timeouts, restarts, pause/resume.

Real SQLite files, a real `ClockKeeper`, and a fake wall clock (`tests.clocks.fake_time`)
injected as the keeper's `now`/`sleep`, so minutes of match time pass in milliseconds.
A restart is a new Store + MatchService + keeper on the same file.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any, ClassVar, Self

import pytest

from bot.app.config import ConfigError, Settings
from bot.clocks import ClockKeeper, ClockState
from bot.games import GAMES, GameInfo, GameState, IllegalMove, Outcome, Rules
from bot.games.base import OptionValue
from bot.records.format import format_record
from bot.records.move_log import COMPLETION_SEAT
from bot.records.verify import verify
from bot.services.matches import (
    ClockNotice,
    ClockResult,
    MatchService,
    ServiceError,
    Update,
    attach_clocks,
    build_record,
    clock_of,
)
from bot.store import MIGRATIONS, Store
from bot.store.clocks import MatchClockStore
from tests.bot.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD
from tests.bot.settling_time import SettlingTime
from tests.bot.test_fair_dice_readme import rederive

T0 = 1_000_000.0


# --- a tiny game that offers `pass` (none of the five real games does) ------------------


class TallyState(GameState):
    """Players add 1 to a shared count or pass; whoever reaches 5 wins."""

    def __init__(self, count: int = 0, to_move: int = 0) -> None:
        self.count, self.to_move = count, to_move

    @property
    def turn(self) -> frozenset[int]:
        return frozenset() if self.count >= 5 else frozenset((self.to_move,))

    @property
    def outcome(self) -> Outcome | None:
        return Outcome(frozenset((1 - self.to_move,)), "Reached five.") if self.count >= 5 else None

    def legal_moves(self, seat: int) -> list[str]:
        return ["add", "pass"] if seat in self.turn else []

    def _apply(self, seat: int, move: str) -> Self:
        if move.strip().lower() not in ("add", "pass"):
            raise IllegalMove("Play `add` or `pass`.")
        return type(self)(self.count + (move.strip().lower() == "add"), 1 - seat)

    def view(self, seat: int | None) -> dict[str, Any]:
        return self.seat_view({**self.public_base(), "count": self.count, "last_move": None, "ply": 0}, seat, {})

    def dump(self) -> dict[str, Any]:
        return {"count": self.count, "to_move": self.to_move}


class TallyRules(Rules):
    info: ClassVar[GameInfo] = GameInfo(
        key="tally", name="Tally", seat_names=("Left", "Right"), blurb="A test game.", how_to_play="Add or pass."
    )

    def _start(self, options: dict[str, OptionValue]) -> GameState:
        return TallyState()

    def load(self, data: Mapping[str, Any]) -> GameState:
        return TallyState(int(data["count"]), int(data["to_move"]))


TallyState.rules = TallyRules()
GAMES_WITH_TALLY: dict[str, Rules] = {**GAMES, "tally": TallyRules()}


# --- the harness: one "process" of the bot ------------------------------------------------


class Bot:
    """Store + service + keeper on one file, recording what would be announced and when."""

    def __init__(self, path: Path, time: SettlingTime, *, forgive: float | None = None) -> None:
        self.path, self.time, self.forgive = path, time, forgive
        self.announced: list[tuple[float, str, int, str]] = []
        self.updates: list[Update] = []

    async def __aenter__(self) -> Bot:
        self.store = await Store.open(self.path)
        self.service = MatchService(self.store, cache_size=4, games=GAMES_WITH_TALLY)
        self.keeper: ClockKeeper = attach_clocks(
            self.service, self.record, now=self.time.now, sleep=self.time.sleep, forgive_downtime_over=self.forgive
        )
        self.time.keepers.append(self.keeper)
        await self.keeper.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.time.keepers.remove(self.keeper)
        await self.keeper.close()
        await self.store.close()

    async def record(self, result: ClockResult) -> None:
        at = self.time.now() - T0
        if isinstance(result, ClockNotice):
            self.announced.append((at, "remind", result.user_id, result.text))
        else:
            self.updates.append(result)
            reason = result.outcome.reason if result.outcome else f"played {result.played}"
            self.announced.append((at, str(result.note), -1, reason))

    async def start(
        self,
        game: str = "focus",
        clock: str | None = "blitz",
        opponent: int = BOB,
        options: dict[str, str] | None = None,
    ) -> int:
        row = await self.service.challenge(
            game=game,
            options=options,
            channel_id=CHANNEL,
            guild_id=GUILD,
            challenger_id=ALICE,
            opponent_id=opponent,
            seat_pref="first",
            clock=clock,
        )
        await self.service.accept(row.id, opponent)
        return row.id

    async def clock(self, match_id: int) -> ClockState:
        clock = clock_of(await self.service.get(match_id))
        assert clock is not None
        return clock


@pytest.fixture
def time() -> SettlingTime:
    return SettlingTime(T0)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "boneyard.sqlite3"


async def _move(bot: Bot, match_id: int, user: int) -> Update:
    return await bot.service.play(match_id, user, (await bot.service.legal_moves(match_id, user))[0])


# --- blitz: reminders, reserve, loss on time ------------------------------------------------


async def test_blitz_player_who_lets_time_run_is_reminded_then_loses_on_time(db: Path, time: SettlingTime) -> None:
    async with Bot(db, time) as bot:
        match_id = await bot.start()
        await time.advance(1000)
        row = await bot.service.get(match_id)
    reminders = [(at, text) for at, kind, user, text in bot.announced if kind == "remind" and user == ALICE]
    assert reminders == [
        (30, "30 s left"),
        (45, "15 s left"),
        (55, "5 s left"),
        (60, "entering reserve"),
        (90, "2:30 of reserve left"),
        (120, "2:00 of reserve left"),
        (150, "1:30 of reserve left"),
        (180, "1:00 of reserve left"),
        (210, "0:30 of reserve left"),
    ]
    assert [a for a in bot.announced if a[1] != "remind"] == [(240, "timeout", -1, "Orange ran out of time")]
    assert row.status == "finished"
    assert row.outcome is not None and row.outcome["winners"] == [1]
    assert bot.updates[0].outcome is not None and bot.updates[0].outcome.winners == frozenset({1})
    final = clock_of(row)
    assert final is not None and final.running_seats == frozenset()
    assert len(bot.keeper) == 0  # forgotten: nothing more will fire


async def test_a_move_in_time_stops_the_movers_reminders_and_starts_the_opponents(db: Path, time: SettlingTime) -> None:
    async with Bot(db, time) as bot:
        match_id = await bot.start()
        await time.advance(40)  # Alice got "30 s left"
        await _move(bot, match_id, ALICE)
        await time.advance(31)
        clock = await bot.clock(match_id)
        header = bot.service.clock_header(await bot.service.get(match_id))
    assert [(at, user, text) for at, _, user, text in bot.announced] == [
        (30, ALICE, "30 s left"),
        (70, BOB, "30 s left"),
    ]
    assert clock.running_seats == frozenset({1})
    assert clock.remaining(0, time.now()) == (60, 180)  # Alice's 40 s came from her move time
    assert header == ("1:00 + 3:00", "0:29 + 3:00")


async def test_a_move_after_the_flag_fell_loses_on_time_even_before_the_keeper_noticed(
    db: Path, time: SettlingTime
) -> None:
    store = await Store.open(db)
    service = MatchService(store, cache_size=4)
    keeper = attach_clocks(service, _ignore, now=time.now, sleep=time.sleep)  # attached, never started
    row = await service.challenge(
        game="focus", channel_id=CHANNEL, guild_id=GUILD, challenger_id=ALICE, opponent_id=BOB, clock="blitz"
    )
    update = await service.accept(row.id, BOB)
    first = update.match.seats[0] if update.match.seats else ALICE
    time.t += 241
    moves = await service.legal_moves(row.id, first)
    result = await service.play(row.id, first, moves[0])
    await keeper.close()
    assert result.note == "timeout" and result.outcome is not None
    assert result.outcome.reason.endswith("ran out of time")
    logged = await store.moves(row.id)  # the late move was not played: the log holds the ending only
    assert [(m.seat, m.move.split()[:2]) for m in logged] == [(-3, ["timeout", str(update.match.seats.index(first))])]
    await store.close()


async def _ignore(result: ClockResult) -> None:
    return None


async def test_a_claim_succeeds_only_when_the_bot_missed_the_opponents_timeout(db: Path, time: SettlingTime) -> None:
    store = await Store.open(db)
    service = MatchService(store, cache_size=4)
    keeper = attach_clocks(service, _ignore, now=time.now, sleep=time.sleep)  # attached, never started: it "misses"
    row = await service.challenge(
        game="focus", channel_id=CHANNEL, guild_id=GUILD, challenger_id=ALICE, opponent_id=BOB, clock="blitz"
    )
    await service.accept(row.id, BOB)  # seat 0 is to move; seat 1 waits
    mover = (await service.get(row.id)).seats
    assert mover is not None
    waiting = mover[1]
    with pytest.raises(ServiceError, match="still has time"):
        await service.claim_time(row.id, waiting)
    with pytest.raises(ServiceError, match="not playing"):
        await service.claim_time(row.id, CAROL)
    assert (await service.get(row.id)).status == "active"
    time.t += 241  # one minute a move plus three of reserve, and a second more
    update = await service.claim_time(row.id, waiting)
    await keeper.close()
    assert update.outcome is not None and update.outcome.winners == {1}
    assert update.outcome.reason.endswith("ran out of time")
    assert (await service.get(row.id)).status == "finished"
    await store.close()


# --- timeout=pass ---------------------------------------------------------------------------


async def test_timeout_pass_plays_pass_for_the_seat_and_the_opponents_clock_starts(
    db: Path, time: SettlingTime
) -> None:
    async with Bot(db, time) as bot:
        match_id = await bot.start(game="tally", clock="1m timeout=pass remind=off")
        await time.advance(61)
        row = await bot.service.get(match_id)
        clock = await bot.clock(match_id)
        moves = await bot.store.moves(match_id)
        replayed = await bot.service.replay(match_id)
    assert [(at, kind) for at, kind, _, _ in bot.announced] == [(60, "timeout")]
    assert bot.updates[0].played == ((0, "pass"),) and bot.updates[0].outcome is None
    assert row.status == "active"
    assert [(m.seat, m.move, m.forced) for m in moves] == [(0, "pass", False)]
    assert replayed.dump() == {"count": 0, "to_move": 1}
    assert clock.running_seats == frozenset({1}) and clock.remaining(1, time.now()) == (59, 0)


async def test_timeout_pass_without_a_pass_move_loses(db: Path, time: SettlingTime) -> None:
    async with Bot(db, time) as bot:
        match_id = await bot.start(clock="1m timeout=pass remind=off")
        await time.advance(61)
        row = await bot.service.get(match_id)
    assert row.status == "finished"
    assert row.outcome is not None and row.outcome["reason"] == "Orange ran out of time"


# --- restarts -------------------------------------------------------------------------------


async def test_restart_rearms_and_never_sends_a_reminder_twice(db: Path, time: SettlingTime) -> None:
    async with Bot(db, time) as first:
        match_id = await first.start()
        await time.advance(35)  # "30 s left" sent
    await time.advance(5)  # down 5 s: it counts as thinking time
    async with Bot(db, time, forgive=60) as second:
        await time.advance(19)
        clock = await second.clock(match_id)
    assert [(at, text) for at, _, _, text in first.announced] == [(30, "30 s left")]
    assert [(at, text) for at, _, _, text in second.announced] == [(45, "15 s left"), (55, "5 s left")]
    assert clock.remaining(0, time.now()) == (1, 180)


async def test_restart_after_a_long_outage_forgives_the_downtime_beyond_the_setting(
    db: Path, time: SettlingTime
) -> None:
    async with Bot(db, time) as first:
        match_id = await first.start()
        await time.advance(35)
    await time.advance(465)  # down 465 s: only 60 s of it count
    async with Bot(db, time, forgive=60) as second:
        clock = await second.clock(match_id)
        assert clock.remaining(0, time.now()) == (0, 145)
        await time.advance(200)
        row = await second.service.get(match_id)
    assert second.announced[0] == (500, "remind", ALICE, "2:30 of reserve left")  # overdue ones collapsed
    assert second.announced[-1] == (645, "timeout", -1, "Orange ran out of time")
    assert row.status == "finished"


async def test_restart_after_a_long_outage_without_forgiveness_ends_the_match_on_time(
    db: Path, time: SettlingTime
) -> None:
    async with Bot(db, time) as first:
        match_id = await first.start()
        await time.advance(35)
    await time.advance(465)
    async with Bot(db, time, forgive=None) as second:
        await time.settle()
        row = await second.service.get(match_id)
    assert second.announced == [(500, "timeout", -1, "Orange ran out of time")]
    assert row.status == "finished" and row.outcome is not None and row.outcome["winners"] == [1]


async def _kill(bot: Bot) -> None:
    """What SIGKILL leaves behind: no closing heartbeat, nothing more written."""
    bot.time.keepers.remove(bot.keeper)
    await bot.keeper._scheduler.close()
    await bot.store.close()


@pytest.mark.parametrize(("forgive", "charged"), [(0, 0), (60, 60)])
async def test_a_crash_forgives_only_the_time_the_bot_was_down(
    db: Path, time: SettlingTime, forgive: float, charged: float
) -> None:
    """Alice is 5 s into her reserve when the bot is killed; it comes back 10 minutes later.
    She keeps what she had (to within the heartbeat: the record is at most 2 s old), plus
    at most `forgive` seconds of the outage are charged: never the full move time back."""
    bot = Bot(db, time, forgive=forgive)
    await bot.__aenter__()
    match_id = await bot.start()
    await time.advance(65)
    assert (await bot.clock(match_id)).remaining(0, time.now()) == (0, 175)
    beat = await MatchClockStore(bot.store).load_heartbeat()
    assert beat is not None and time.now() - beat <= 2
    await _kill(bot)
    await time.advance(600)
    async with Bot(db, time, forgive=forgive) as second:
        move, reserve = (await second.clock(match_id)).remaining(0, time.now())
    assert move == 0
    assert 175 - charged <= reserve <= 177 - charged


async def test_with_every_clock_paused_the_heartbeat_rests(db: Path, time: SettlingTime) -> None:
    async with Bot(db, time) as bot:
        match_id = await bot.start()
        assert (await bot.service.pause(match_id, CAROL, moderator=True)).done
        await time.advance(10)
        clocks = MatchClockStore(bot.store)
        rested = await clocks.load_heartbeat()
        await time.advance(3600)
        assert await clocks.load_heartbeat() == rested
        assert (await bot.service.resume(match_id, CAROL, moderator=True)).done
        await time.advance(3)
        beat = await clocks.load_heartbeat()
        assert beat is not None and time.now() - beat <= 2


# --- pause / resume -------------------------------------------------------------------------


async def test_pause_and_resume_need_both_players_and_freeze_the_clock(db: Path, time: SettlingTime) -> None:
    async with Bot(db, time) as bot:
        match_id = await bot.start()
        await time.advance(20)
        asked = await bot.service.pause(match_id, ALICE)
        assert not asked.done and asked.waiting_for == BOB
        with pytest.raises(ServiceError, match="not playing"):
            await bot.service.pause(match_id, CAROL)
        paused = await bot.service.pause(match_id, BOB)
        assert paused.done and paused.clock.paused
        await time.advance(10_000)
        assert bot.announced == []
        assert (await bot.clock(match_id)).remaining(0, time.now()) == (40, 180)
        assert not (await bot.service.resume(match_id, BOB)).done
        with pytest.raises(ServiceError, match="already paused"):
            await bot.service.pause(match_id, ALICE)
        resumed = await bot.service.resume(match_id, ALICE)
        assert resumed.done and not resumed.clock.paused
        await time.advance(30)
    assert [(at, text) for at, _, _, text in bot.announced] == [(10_030, "30 s left"), (10_045, "15 s left")]


async def test_a_pause_survives_a_restart_and_a_moderator_resumes_alone(db: Path, time: SettlingTime) -> None:
    async with Bot(db, time) as first:
        match_id = await first.start()
        await time.advance(10)
        assert (await first.service.pause(match_id, CAROL, moderator=True)).done
    await time.advance(3600)
    async with Bot(db, time, forgive=None) as second:
        await time.advance(100)
        assert second.announced == []
        assert (await second.service.resume(match_id, CAROL, moderator=True)).done
        await time.advance(21)
    assert [(at, text) for at, _, _, text in second.announced] == [(3730, "30 s left")]


async def test_pause_is_refused_without_a_clock(db: Path, time: SettlingTime) -> None:
    async with Bot(db, time) as bot:
        match_id = await bot.start(clock=None)
        with pytest.raises(ServiceError, match="no clock"):
            await bot.service.pause(match_id, ALICE)
        assert bot.service.clock_header(await bot.service.get(match_id)) is None


# --- challenges and drafts ------------------------------------------------------------------


async def test_a_bad_time_control_is_refused_at_challenge_time(db: Path, time: SettlingTime) -> None:
    async with Bot(db, time) as bot:
        with pytest.raises(ServiceError, match="not a duration"):
            await bot.service.challenge(
                game="focus", channel_id=CHANNEL, guild_id=GUILD, challenger_id=ALICE, opponent_id=BOB, clock="soon"
            )
        assert await bot.store.open_match_in_channel(CHANNEL) is None
        row = await bot.service.challenge(
            game="focus", channel_id=CHANNEL, guild_id=GUILD, challenger_id=ALICE, opponent_id=BOB, clock="none"
        )
        assert row.clock is None


async def test_a_simultaneous_draft_starts_both_clocks_with_the_draft_time(db: Path, time: SettlingTime) -> None:
    async with Bot(db, time) as bot:
        match_id = await bot.start(game="domino_wars")
        clock = await bot.clock(match_id)
        await _move(bot, match_id, ALICE)  # one pick: the draft clock keeps running
        await time.advance(95)
    assert clock.running_seats == frozenset({0, 1})
    assert clock.header(time.now() - 95) == ("2:00 + 3:00", "2:00 + 3:00")
    assert sorted((at, user) for at, _, user, _ in bot.announced) == [(90, ALICE), (90, BOB)]


async def test_when_the_draft_time_runs_out_the_missing_picks_are_completed_at_random(
    db: Path, time: SettlingTime
) -> None:
    """Domino Wars ruling: 2 minutes to submit the draft, a hard limit of its own (not move
    time plus reserve); the missing picks are completed at random and the channel is told."""
    async with Bot(db, time) as bot:
        match_id = await bot.start(game="domino_wars")
        for _ in range(3):  # Alice picks three tiles herself; Bob picks nothing
            await bot.service.play(match_id, ALICE, (await bot.service.legal_moves(match_id, ALICE))[-1])
        mine = (await bot.service.view(match_id, ALICE))["private"]["draft"]
        await time.advance(119)
        assert (await bot.service.view(match_id, None))["phase"] == "draft"
        await time.advance(2)
        alice = (await bot.service.view(match_id, ALICE))["private"]["draft"]
        bob = (await bot.service.view(match_id, BOB))["private"]["draft"]
        public = await bot.service.view(match_id, None)
        clock = await bot.clock(match_id)
        replayed = await bot.service.replay(match_id)
        await bot.service.resign(match_id, ALICE)
        row = await bot.service.get(match_id)
        record = build_record(row, await bot.service.log(match_id), ("alice", "bob"))
    # The record marks each completed draft and the checker redraws its picks from the seed.
    markers = [i for i, m in enumerate(record.moves) if m.seat == COMPLETION_SEAT]
    assert sorted(record.moves[i].move or "" for i in markers) == ["complete 0", "complete 1"]
    assert verify(record).ok, verify(record).sentence
    seeded = rederive(format_record(record))  # the README's words alone give the service's picks
    assert sum(recorded.startswith("pick ") for _, recorded, _ in seeded) == 16 - 3
    assert all(recorded == derived for _, recorded, derived in seeded), seeded
    at = markers[0] + 1
    picked = record.moves[at]
    other = next(f"pick {t}" for t in ("0-0", "0-1", "0-2") if f"pick {t}" != picked.move)
    moves = list(record.moves)
    moves[at] = replace(picked, move=other)
    refused = verify(replace(record, moves=tuple(moves)))
    assert not refused.ok and refused.sentence.startswith(f"Ply {picked.ply}: the draft completed at random from ply")
    assert len(alice) == len(bob) == 8 and set(mine) <= set(alice)
    assert len(set(alice)) == len(set(bob)) == 8  # neither seat holds Domino Repeat
    assert public["phase"] != "draft" and public["outcome"] is None  # nobody lost on time
    completed = [u for u in bot.updates if u.note == "draft_timeout"]
    assert sorted(u.completed_for for u in completed if u.completed_for is not None) == [0, 1]
    assert all(not u.played for u in completed)  # the picks stay secret
    assert all(seat.reserve == 180 for seat in clock.seats)  # the reserve was never touched
    assert replayed.view(0)["private"]["draft"] == alice  # the log holds the random picks


async def test_the_last_drafter_keeps_the_hard_draft_limit_after_the_other_has_finished(
    db: Path, time: SettlingTime
) -> None:
    """Ruling: the draft has 2 minutes of its own.  When Bob has drafted, Alice is the only
    seat left to act, and her single picks are still picks of one draft on one hard clock,
    not moves with a fresh minute and the reserve each."""
    async with Bot(db, time) as bot:
        match_id = await bot.start(game="domino_wars")
        while BOB_SEAT in await _drafters(bot, match_id):
            await _move(bot, match_id, BOB)
        await time.advance(20)
        for _ in range(3):
            await bot.service.play(match_id, ALICE, "pick " + (await _tiles(bot, match_id, ALICE))[0])
            await time.advance(20)
        assert (await bot.service.view(match_id, None))["phase"] == "draft"
        await time.advance(41)  # 2:01 since the draft began
        public = await bot.service.view(match_id, None)
        clock = await bot.clock(match_id)
    assert public["phase"] != "draft" and public["outcome"] is None
    assert [u.completed_for for u in bot.updates if u.note == "draft_timeout"] == [ALICE_SEAT]
    assert all(seat.reserve == 180 for seat in clock.seats)  # no pick touched the reserve


async def test_a_mulligan_decision_is_a_move_not_a_draft(db: Path, time: SettlingTime) -> None:
    """Both seats decide on their hands at once, but a keep/mulligan decision is one move:
    it gets the move time and the reserve, and running out of it is a timeout, never a
    random completion."""
    async with Bot(db, time) as bot:
        match_id = await bot.start(game="domino_wars", options={"mulligan": "both"})
        for user in (ALICE, BOB):
            await bot.service.play(match_id, user, "draft " + " ".join(await _tiles(bot, match_id, user)))
        assert (await bot.service.view(match_id, None))["phase"] == "mulligan"
        clock = await bot.clock(match_id)
    assert clock.running_seats == frozenset({0, 1})
    assert not any(seat.hard or seat.draft for seat in clock.seats)
    assert clock.header(time.now()) == ("1:00 + 3:00", "1:00 + 3:00")


ALICE_SEAT, BOB_SEAT = 0, 1


async def _drafters(bot: Bot, match_id: int) -> frozenset[int]:
    return frozenset([s for s, user in enumerate((ALICE, BOB)) if await bot.service.legal_moves(match_id, user)])


async def _tiles(bot: Bot, match_id: int, user: int) -> list[str]:
    """Eight distinct tiles `user` may draft (from its single-pick moves)."""
    picks = [m.removeprefix("pick ") for m in await bot.service.legal_moves(match_id, user) if m.startswith("pick ")]
    return picks[:8]


# --- the store side -------------------------------------------------------------------------


async def test_migration_2_adds_clocks_to_an_existing_database(db: Path) -> None:
    import aiosqlite

    async with aiosqlite.connect(db, isolation_level=None) as raw:
        await raw.executescript(f"BEGIN;\n{MIGRATIONS[0]}\nPRAGMA user_version = 1;\nCOMMIT;")
    store = await Store.open(db)
    assert await store.schema_version() == len(MIGRATIONS) >= 2
    clocks = MatchClockStore(store)
    assert await clocks.load_heartbeat() is None
    await clocks.save_heartbeat(T0 + 0.25)
    assert await clocks.load_heartbeat() == T0 + 0.25
    assert await clocks.load_all() == []
    await store.close()


async def test_the_clock_is_committed_with_the_move_and_only_active_matches_are_loaded(
    db: Path, time: SettlingTime
) -> None:
    async with Bot(db, time) as bot:
        match_id = await bot.start()
        await time.advance(10)
        await _move(bot, match_id, ALICE)
        loaded = dict(await MatchClockStore(bot.store).load_all())
        assert loaded[match_id] == bot.keeper.get(match_id) == await bot.clock(match_id)
        assert loaded[match_id].running_seats == frozenset({1})
        await bot.service.resign(match_id, BOB)
        assert await MatchClockStore(bot.store).load_all() == []
        assert bot.keeper.get(match_id) is None


# --- the setting ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "seconds"), [("", 300.0), ("10", 600.0), ("0", 0.0), ("1.5", 90.0), ("off", None), ("never", None)]
)
def test_forgive_downtime_setting(raw: str, seconds: float | None) -> None:
    env = {"DISCORD_TOKEN": "x", "FORGIVE_DOWNTIME_MINUTES": raw}
    assert Settings.load(environ=env, dotenv=None).forgive_downtime_seconds == seconds


@pytest.mark.parametrize("raw", ["-1", "soon", "inf", "nan"])
def test_a_bad_forgive_downtime_setting_names_itself(raw: str) -> None:
    with pytest.raises(ConfigError, match="FORGIVE_DOWNTIME_MINUTES"):
        Settings.load(environ={"DISCORD_TOKEN": "x", "FORGIVE_DOWNTIME_MINUTES": raw}, dotenv=None)


# --- the bench ------------------------------------------------------------------------------


async def test_the_bench_restarts_clocks_from_sqlite(tmp_path: Path) -> None:
    from bench.sections import SECTIONS, sqlite_clock_restart

    assert {"clocks", "tournaments"} <= set(SECTIONS)
    assert 0 < await sqlite_clock_restart(tmp_path, count=200) < 5
