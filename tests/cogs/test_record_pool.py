"""The record worker pool: work runs in another process, and a dead worker is replaced."""

from __future__ import annotations

import os
from types import SimpleNamespace

from cogs.verify_button import close_pool, pool_of, run_in_pool


def process_id(_: object) -> int:
    return os.getpid()


async def test_work_runs_in_a_worker_process_and_a_killed_worker_is_replaced() -> None:
    bot = SimpleNamespace(record_pool=None)
    try:
        pool = pool_of(bot)  # type: ignore[arg-type]
        first = await run_in_pool(bot, process_id, None)  # type: ignore[arg-type]
        assert first != os.getpid(), "not on the bot's own process"
        for process in list(pool._processes.values()):  # what the kernel's OOM killer would do
            process.kill()
            process.join()
        second = await run_in_pool(bot, process_id, None)  # type: ignore[arg-type]
        assert second not in (first, os.getpid())
        assert bot.record_pool is not pool, "the broken pool was replaced"
    finally:
        close_pool(bot)  # type: ignore[arg-type]
