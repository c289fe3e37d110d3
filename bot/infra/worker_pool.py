"""A pool of worker processes for CPU-heavy work: board, DM and tournament pictures, rating
charts, animated replays and the dice check of a record (`python -m bot.verify`'s, for the button).

Why processes and not threads: Pillow holds the GIL for most of a render, so a render in a
worker thread still stalls the event loop (27–63 ms per burst under load, measured with
`python -m bench`), and every interaction and heartbeat waits behind it.  In a
separate process a render costs the loop only the pickling of a view and of the PNG bytes.

Why the `forkserver` start method: forking the bot itself would copy a process that runs
aiosqlite's and discord.py's threads (a fork only keeps the calling thread, so a lock held
by another one stays held forever in the child); `spawn` would import Pillow and the
renderers again in every worker.  The fork server is a clean process started once, which
imports `preload` once and forks each worker from that state.

The bot owns one pool (`Boneyard.pictures`): started in `setup_hook`, shut down in `close`.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import select
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any, TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")

WORKER_NICENESS = 10
"""Workers run at a lower CPU priority than the bot: when the machine is busy, the event loop
(heartbeats, acknowledgements) is scheduled before the next picture."""


def start_worker(bot_pid: int, niceness: int = WORKER_NICENESS) -> None:
    """Runs first in every worker (this pool's and the computer's): lower its priority, and
    end it when the bot process ends.

    Why the watch: nothing tells a worker that a killed bot (SIGKILL, the out-of-memory
    killer) is gone: a fork server's worker is not even the bot's child, and a spawned one
    blocks on its queue all the same.  Each would wait forever, and every crash would leave
    its workers (and their memory) behind."""
    os.nice(niceness)
    threading.Thread(target=_exit_with, args=(bot_pid,), name="bot-watch", daemon=True).start()


def _exit_with(bot_pid: int) -> None:
    """Block until process `bot_pid` ends, then end this worker at once."""
    try:
        watched = os.pidfd_open(bot_pid)  # Linux: readable once the process has ended
    except ProcessLookupError:
        os._exit(0)
    except (AttributeError, OSError):  # no pidfd here: ask every second
        while _alive(bot_pid):
            time.sleep(1.0)
        os._exit(0)
    select.select([watched], [], [])
    os._exit(0)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def machine_workers() -> int:
    """One worker per CPU this process may run on (at least one)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


class WorkerPool:
    """A `ProcessPoolExecutor` that asyncio code awaits (`await pool.run(fn, *args)`).

    `fn` must be a module-level function and its arguments and result picklable (views are
    JSON-able dicts, pictures are bytes).  A worker that dies (killed, out of memory) breaks
    a `ProcessPoolExecutor` for good; the pool then starts a fresh executor and runs the
    call once more, so one crash does not take every later picture with it.

    `preload` names the modules the fork server imports once (the renderers), so that no
    worker pays for importing them on its first call.
    """

    def __init__(
        self, workers: int | None = None, *, preload: Sequence[str] = (), niceness: int = WORKER_NICENESS
    ) -> None:
        self.workers = workers or machine_workers()
        self._preload = list(preload)
        self.niceness = niceness
        """How much lower than the bot's the workers' CPU priority is (`os.nice` increment)."""
        self._executor: ProcessPoolExecutor | None = None
        self.in_flight = 0
        """Calls submitted and not yet returned (a clean shutdown waits for them)."""

    @property
    def running(self) -> bool:
        return self._executor is not None

    def start(self) -> None:
        """Create the executor (its processes start on first use); idempotent."""
        if self._executor is not None:
            return
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(self._preload)
        self._executor = ProcessPoolExecutor(
            max_workers=self.workers,
            mp_context=context,
            initializer=start_worker,
            initargs=(os.getpid(), self.niceness),
        )
        log.info("started a pool of %d worker processes", self.workers)

    async def warm(self) -> set[int]:
        """Start workers now (one trivial call per worker), so the first picture after a
        start-up does not wait for the fork server; returns the pids that answered (a fast
        worker may answer several calls, and the pool starts the others when needed)."""
        self.start()
        return set(await asyncio.gather(*(self.run(os.getpid) for _ in range(self.workers))))

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """`fn(*args)` in a worker process; raises what `fn` raised."""
        if self._executor is None:
            self.start()
        assert self._executor is not None
        loop = asyncio.get_running_loop()
        self.in_flight += 1
        try:
            try:
                return await loop.run_in_executor(self._executor, fn, *args)
            except BrokenProcessPool:
                log.warning("a worker process died; starting a new pool and retrying once")
                await self._replace()
                assert self._executor is not None
                return await loop.run_in_executor(self._executor, fn, *args)
        finally:
            self.in_flight -= 1

    def cpu_seconds(self) -> float | None:
        """CPU time (user + system) the live workers have used so far, from /proc: a bench
        figure that does not depend on how busy the machine is (None where there is no /proc)."""
        executor = self._executor
        if executor is None:
            return 0.0
        total = 0.0
        for pid in list(executor._processes or {}):
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                return None
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime
        return total

    async def _replace(self) -> None:
        broken, self._executor = self._executor, None
        if broken is not None:
            await asyncio.to_thread(broken.shutdown, wait=False, cancel_futures=True)
        self.start()

    async def close(self) -> None:
        """Stop the workers (waiting for running calls; queued ones are cancelled)."""
        executor, self._executor = self._executor, None
        if executor is not None:
            await asyncio.to_thread(executor.shutdown, wait=True, cancel_futures=True)
