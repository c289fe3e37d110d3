"""The worker pool renders in other processes, survives a dead worker, and shuts down."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import renderers
from bot.games import GAMES
from bot.infra.worker_pool import WORKER_NICENESS, WorkerPool, machine_workers

MAX_NICENESS = 19
"""Linux's lowest priority: `os.nice` stops there."""


@pytest.fixture
async def pool() -> WorkerPool:
    return WorkerPool(2, preload=("renderers", "renderers.focus"))


async def test_a_picture_rendered_in_the_pool_is_the_same_png_as_in_this_process(pool: WorkerPool) -> None:
    view = GAMES["focus"].start(options={}).view(None)
    header = renderers.Header(players=("alice", "bob"), ply=0)
    try:
        workers = await pool.warm()
        png = await pool.run(renderers.render, "focus", view, header)
    finally:
        await pool.close()
    assert os.getpid() not in workers and 1 <= len(workers) <= 2
    assert png == renderers.render("focus", view, header)
    assert not pool.running and pool.in_flight == 0


async def test_an_error_in_a_worker_reaches_the_caller(pool: WorkerPool) -> None:
    try:
        with pytest.raises(ValueError, match="no renderer"):
            await pool.run(renderers.render, "chess", {}, None)
    finally:
        await pool.close()


async def test_a_killed_worker_is_replaced_and_the_call_retried(pool: WorkerPool) -> None:
    try:
        for pid in await pool.warm():
            os.kill(pid, signal.SIGKILL)
        assert await pool.run(abs, -3) == 3
        assert os.getpid() not in await pool.warm()
    finally:
        await pool.close()


def test_the_pool_is_sized_for_the_machine() -> None:
    assert machine_workers() == len(os.sched_getaffinity(0))
    assert WorkerPool().workers == machine_workers()


async def test_workers_run_at_a_lower_priority_than_the_bot(pool: WorkerPool) -> None:
    try:
        niceness = await pool.run(os.nice, 0)
    finally:
        await pool.close()
    assert niceness == min(os.nice(0) + WORKER_NICENESS, MAX_NICENESS)  # a suite run under `nice` too


KILLED_BOT = """
import os, signal, sys
from bot.services.computer import make_pool
from bot.infra.worker_pool import WorkerPool
import asyncio

async def pictures() -> set[int]:
    return await WorkerPool(2, preload=("json",)).warm()

if __name__ == "__main__":
    searches = make_pool()
    pids = asyncio.run(pictures()) | {searches.submit(os.getpid).result()}
    with open(sys.argv[1], "w") as out:
        out.write(" ".join(map(str, sorted(pids))))
    os.kill(os.getpid(), signal.SIGKILL)
"""


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_the_workers_end_when_the_bot_is_killed(tmp_path: Path) -> None:
    """A SIGKILLed bot (the out-of-memory killer, `kill -9`) must not leave its picture and
    search workers behind: before this, every crash leaked them with their memory."""
    script = tmp_path / "killed_bot.py"
    script.write_text(KILLED_BOT)
    pids = tmp_path / "workers.txt"
    done = subprocess.run(  # no pipes: a leaked worker holding one would stall the run itself
        [sys.executable, str(script), str(pids)], timeout=120, cwd=Path(__file__).parents[2]
    )
    assert done.returncode == -signal.SIGKILL
    workers = [int(p) for p in pids.read_text().split()]
    assert len(workers) >= 2
    deadline = time.monotonic() + 30  # a generous bound on the OS, not a speed target
    while any(_running(p) for p in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert [p for p in workers if _running(p)] == []


async def test_the_cpu_the_workers_used_is_counted() -> None:
    """The bench's load-independent figure: CPU time burnt in a worker shows in `cpu_seconds`.

    Workers at this process's priority: at the product's lower one, the half second of CPU
    waited seconds behind the other test worker on a busy machine (the priority itself is
    checked above)."""
    pool = WorkerPool(2, preload=("renderers", "renderers.focus"), niceness=0)
    assert pool.cpu_seconds() == 0.0  # not started
    try:
        await pool.warm()
        before = pool.cpu_seconds()
        assert before is not None
        own_before = os.times()
        await pool.run(sum, range(40_000_000))  # a few hundred ms of CPU in one worker
        after = pool.cpu_seconds()
        own_after = os.times()
    finally:
        await pool.close()
    assert after is not None
    burnt = after - before
    assert burnt >= 0.1
    assert (own_after.user - own_before.user) < burnt  # it was the worker's CPU, not this process's
