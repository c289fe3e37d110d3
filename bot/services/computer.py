"""The computer opponent: plays the bot's own seat in matches against it.

Why a driver beside the service rather than inside it: the service stays the one place
that applies moves (the computer's go through `MatchService.play` like anyone's, with the
same lock, clock and log), and the search never runs on the event loop.

* The search (`bot.ai.think`) runs in a process pool sized for the machine, given the
  match's snapshot (with the log moves it leaves out, so a Focus search knows which positions
  already recurred), the computer's seat, the level and a seed; it determinizes from the
  seat's view, so the opponent's secrets never steer it.
* After every update (the cogs call `consider`) and at start-up (`resume`), a match whose
  seat to move is the computer's gets one thinking task.  If the match changed while it
  thought (a resignation, a timeout), the move is dropped and the task looks again; a
  restart in the middle of a search simply starts it again.
* The level is kept in the store's `meta` table (`computer_level:<match id>`), which
  needs no new column; a match without one plays `normal`.
* Thinking time is the level's budget (iterations and CPU seconds), and at most a share of
  the computer's clock in wall time when the match has a time control.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import zlib
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Final

from bot.ai.levels import DEFAULT_LEVEL, LEVELS, think_for
from bot.games import IllegalMove
from bot.games.base import shown
from bot.i18n import tr
from bot.infra.worker_pool import start_worker
from bot.services.matches import MatchService, ServiceError, Update, clock_of
from bot.store import MatchRow, MatchStatus

log = logging.getLogger(__name__)

LEVEL_KEY: Final = "computer_level:{}"
CLOCK_SHARE: Final = 30
"""With a clock, think at most 1/30 of the time left (move time plus reserve)."""
MIN_SECONDS: Final = 0.05
WORKER_NICENESS: Final = 10

Announce = Callable[[Update], Awaitable[None]]


def pool_size() -> int:
    """Leave one core for the event loop and rendering; at least one worker."""
    return max(1, (os.cpu_count() or 2) - 1)


def make_pool() -> ProcessPoolExecutor:
    """Worker processes started fresh (`spawn`): the bot's threads and sockets are never
    forked, and a worker imports only the pure search.  Searches are background work, so
    the workers run at a lower priority (the event loop's process answers players first
    when the machine is busy), and they end with the bot (`bot.infra.worker_pool.start_worker`)."""
    return ProcessPoolExecutor(
        max_workers=pool_size(),
        mp_context=multiprocessing.get_context("spawn"),
        initializer=start_worker,
        initargs=(os.getpid(), WORKER_NICENESS),
    )


class ComputerPlayer:
    """Plays every seat that belongs to `user_id` (the bot's own user)."""

    def __init__(
        self,
        service: MatchService,
        user_id: int,
        announce: Announce,
        *,
        executor: Executor | None = None,
        iterations: int | None = None,
        owns: Callable[[int | None], bool] | None = None,
    ) -> None:
        self.service = service
        self.user_id = user_id
        self.announce = announce
        self.executor = executor or make_pool()
        self.iterations = iterations
        """Tests: a fixed iteration budget instead of the level's (deterministic, fast)."""
        self.owns = owns or (lambda _guild_id: True)
        """Whether this process plays for a guild (its shard is this process's, bot/services/shard_leases.py)."""
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()

    async def set_level(self, match_id: int, level: str) -> None:
        if level not in LEVELS:
            raise ServiceError(
                tr("The computer plays `{levels}`, not {level}.", levels="`, `".join(LEVELS), level=shown(level))
            )
        await self.service.store.set_meta(LEVEL_KEY.format(match_id), level)

    async def level_of(self, match_id: int) -> str:
        level = await self.service.store.get_meta(LEVEL_KEY.format(match_id))
        return level if level in LEVELS else DEFAULT_LEVEL

    async def resume(self) -> None:
        """At start-up: take up every active match where the computer must move (a match of
        another process's shard is dropped when it is looked at, `_think`)."""
        for match_id in await self.service.store.active_match_ids_of(self.user_id):
            self.consider(match_id)

    def consider(self, match_id: int) -> None:
        """Look at a match after an update; starts thinking if the computer must move."""
        task = self._tasks.get(match_id)
        if task is not None and not task.done():
            self._again.add(match_id)
            return
        self._tasks[match_id] = asyncio.create_task(self._run(match_id), name=f"computer-{match_id}")

    async def idle(self) -> None:
        """Wait until no match has a thinking task (tests and shutdown)."""
        while any(not t.done() for t in self._tasks.values()):
            await asyncio.gather(*self._tasks.values(), return_exceptions=True)

    def close(self) -> None:
        for task in self._tasks.values():
            task.cancel()
        self.executor.shutdown(wait=False, cancel_futures=True)

    async def _run(self, match_id: int) -> None:
        try:
            while True:
                self._again.discard(match_id)
                played = await self._move_once(match_id)
                if not played and match_id not in self._again:
                    return
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the computer could not move in match %d", match_id)

    async def _move_once(self, match_id: int) -> bool:
        """Think and play one move if the computer must act now; False when it need not."""
        row = await self.service.get(match_id)
        seat = row.seat_of(self.user_id)
        if row.status != MatchStatus.ACTIVE or seat is None or row.snapshot is None or not self.owns(row.guild_id):
            return False
        row, later = await self.service.snapshot_moves(row)  # the history the snapshot leaves to the log
        assert row.snapshot is not None
        if seat not in _turn(self.service, row, later):
            return False
        level = await self.level_of(match_id)
        seconds = self._seconds(row, seat, level)
        seed = zlib.crc32(f"{row.seed}:{row.version}".encode())
        loop = asyncio.get_running_loop()
        move = await loop.run_in_executor(
            self.executor, think_for, row.game, row.snapshot, seat, level, seed, seconds, self.iterations, later
        )
        latest = await self.service.get(match_id)
        if latest.version != row.version:
            return True  # the match moved on while we thought: look again
        try:
            update = await self.service.play(match_id, self.user_id, move)
        except (ServiceError, IllegalMove) as exc:
            log.warning("the computer's move %r in match %d was refused: %s", move, match_id, exc)
            return False
        await self.announce(update)
        return True

    def _seconds(self, row: MatchRow, seat: int, level: str) -> float | None:
        """The wall-clock cap of a search: a share of the computer's clock (None without a
        clock; the level's own cap is CPU time, `bot.ai.search.Budget`)."""
        clock = clock_of(row)
        if clock is None or clock.control.unlimited:
            return None
        move_left, reserve = clock.remaining(seat, self.service.now())
        return max(MIN_SECONDS, (move_left + reserve) / CLOCK_SHARE)


def _turn(service: MatchService, row: MatchRow, later: Sequence[str]) -> frozenset[int]:
    """The seats due to act in the match's snapshot (with `later`, the log moves it leaves out)."""
    assert row.snapshot is not None
    return service.games[row.game].load(row.snapshot, later).turn
