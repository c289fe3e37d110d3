"""The computer driver over the real service and SQLite (searches in a thread here; the
process pool is exercised end to end in tests/e2e/test_computer_e2e.py)."""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

from bot.games import GAMES
from bot.games.focus import FocusState
from bot.services.computer import ComputerPlayer
from bot.services.matches import MatchService, Update
from bot.store import Store
from tests.bot.conftest import ALICE, CHANNEL, GUILD

COMPUTER = 4242


async def _versus_computer(service: MatchService, game: str, computer_first: bool) -> int:
    row = await service.challenge(
        game=game,
        channel_id=CHANNEL,
        guild_id=GUILD,
        challenger_id=ALICE,
        opponent_id=COMPUTER,
        seat_pref="second" if computer_first else "first",
    )
    await service.accept(row.id, COMPUTER)
    return row.id


def _player(service: MatchService, announced: list[Update], executor: ThreadPoolExecutor) -> ComputerPlayer:
    async def announce(update: Update) -> None:
        announced.append(update)

    return ComputerPlayer(service, COMPUTER, announce, executor=executor, iterations=5)


async def test_it_moves_when_its_seat_is_due_and_only_then(service: MatchService) -> None:
    announced: list[Update] = []
    with ThreadPoolExecutor(1) as pool:
        player = _player(service, announced, pool)
        match_id = await _versus_computer(service, "domino_wars", computer_first=False)
        await player.set_level(match_id, "easy")
        assert await player.level_of(match_id) == "easy"
        # Secret draft: both seats are due at once; one look and the computer makes all its
        # eight picks (it keeps moving while it is due) while Alice has picked nothing.
        player.consider(match_id)
        await player.idle()
        row = await service.get(match_id)
        state = GAMES["domino_wars"].load(row.snapshot or {})
        assert state.view(1)["drafted"] == [False, True]
        assert announced and all(u.match.id == match_id for u in announced)
        count = await service.store.move_count(match_id)
        player.consider(match_id)  # nothing due: nothing happens
        await player.idle()
        assert await service.store.move_count(match_id) == count
        player.close()


async def test_a_restarted_driver_takes_up_the_match_it_was_due_to_play(tmp_path: Path) -> None:
    path = tmp_path / "boneyard.sqlite3"
    store = await Store.open(path)
    service = MatchService(store)
    match_id = await _versus_computer(service, "focus", computer_first=True)
    await store.close()
    # "Restart": a new store, service and driver on the same file.
    store = await Store.open(path)
    service = MatchService(store)
    announced: list[Update] = []
    with ThreadPoolExecutor(1) as pool:
        player = _player(service, announced, pool)
        await player.resume()
        await player.idle()
        assert await store.move_count(match_id) == 1
        view = await service.view(match_id, None)
        assert view["turn"] == [1] and len(announced) == 1 and announced[0].played[0][0] == 0
        player.close()
    await store.close()


async def test_a_move_thought_about_a_changed_match_is_dropped(service: MatchService) -> None:
    """Alice resigns while the computer thinks: its move is never played."""
    gate = threading.Event()
    announced: list[Update] = []

    class Held(ThreadPoolExecutor):
        def submit(self, fn, /, *args, **kwargs):  # type: ignore[no-untyped-def, override]
            def held():  # type: ignore[no-untyped-def]
                gate.wait(10)
                return fn(*args, **kwargs)

            return super().submit(held)

    with Held(1) as pool:
        player = _player(service, announced, pool)
        match_id = await _versus_computer(service, "focus", computer_first=True)
        player.consider(match_id)
        await asyncio.sleep(0.05)
        await service.resign(match_id, ALICE)
        gate.set()
        await player.idle()
        assert [m.move for m in await service.store.moves(match_id)] == ["resign 1"]  # the ending only
        assert announced == []
        assert (await service.get(match_id)).status == "finished"
        player.close()


async def test_the_computer_plays_only_in_the_guilds_of_its_process_s_shards(service: MatchService) -> None:
    """Two shard processes on one database: each takes up and plays only its own guilds'
    matches (bot.owns), so a computer's move is thought about and announced once."""
    match_id = await _versus_computer(service, "focus", computer_first=True)
    for owned in (False, True):
        announced: list[Update] = []
        with ThreadPoolExecutor(1) as pool:
            player = _player(service, announced, pool)
            player.owns = {GUILD}.__contains__ if owned else set().__contains__
            await player.resume()
            await player.idle()
            player.consider(match_id)  # as after an update relayed to this process
            await player.idle()
            player.close()
        assert await service.store.move_count(match_id) == (1 if owned else 0)
        assert len(announced) == (1 if owned else 0)


class _Recording(ThreadPoolExecutor):
    """A thread pool that keeps the arguments of every search it runs."""

    def __init__(self) -> None:
        super().__init__(1)
        self.calls: list[tuple[Any, ...]] = []

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        self.calls.append(args)
        return super().submit(fn, *args, **kwargs)


async def test_its_focus_search_gets_the_history_the_snapshot_leaves_to_the_log(service: MatchService) -> None:
    """The worker is sent the snapshot and the log moves since the last capture, so the search
    knows which positions already occurred (ruling 9), and the driver keeps playing."""
    rules = GAMES["focus"]
    rng = random.Random(1)
    with _Recording() as pool:
        player = _player(service, [], pool)
        match_id = await _versus_computer(service, "focus", computer_first=False)
        for _ in range(4):
            await service.play(match_id, ALICE, rng.choice(await service.legal_moves(match_id, ALICE)))
            player.consider(match_id)
            await player.idle()
        assert await service.store.move_count(match_id) == 8  # the computer answered each move
        player.close()
    logged = [m.move for m in await service.store.moves(match_id)]
    assert len(pool.calls) == 4
    for game, dump, seat, *_rest, later in pool.calls:
        assert game == "focus" and seat == 1
        needed = rules.log_needed(dump)  # None only right after a capture (then nothing is left out)
        start = len(logged) if needed is None else needed
        assert later == logged[start : start + len(later)] and (needed is None) == (later == [])
        loaded = rules.load(dump, later)  # a snapshot and moves that fit
        assert isinstance(loaded, FocusState) and len(loaded.trail) == 2 * len(later)
    assert pool.calls[0][-1] == logged[:1]  # Alice's first move, before any capture could happen
