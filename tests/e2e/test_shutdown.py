"""Closing the bot leaves nothing running behind it.

discord.py starts a task on READY that waits `guild_ready_timeout` (2 s) for further guilds and
then dispatches `on_ready`.  `Client.close()` does not cancel it: a bot closed within those two
seconds (a quick test, or a SIGTERM right after connecting) had the task wake up later, dispatch
into the closed client and die with "Task exception was never retrieved ... _delay_ready",
which surfaced as a flaky teardown error in the end-to-end tests when the machine was loaded.
"""

from __future__ import annotations

import asyncio

import pytest

from tests.e2e.harness import Harness, ready_once_every_guild_arrived

pytestmark = pytest.mark.e2e


async def test_closing_right_after_ready_leaves_no_ready_task_to_fail_later(harness: Harness) -> None:
    harness.prepare.remove(ready_once_every_guild_arrived)  # the product's 2 s wait for more guilds
    bot = await harness.restart()
    ready_task = bot._connection._ready_task
    assert ready_task is not None and not ready_task.done(), "stopped within guild_ready_timeout of READY"

    await harness.stop()
    assert ready_task.done()
    # Nothing of the kind is left to wake up later (the shard's own announcer neither): no need
    # to wait out guild_ready_timeout to see whether one dies in the closed client.
    assert [t for t in asyncio.all_tasks() if not t.done() and _announces_ready(t)] == []
    assert ready_task.cancelled() or ready_task.exception() is None
    assert bot._connection._ready_task is None


def _announces_ready(task: asyncio.Task[object]) -> bool:
    """A task of discord.py's that waits for more guilds and then dispatches `on_ready`
    (`_delay_ready`, and `_delay_shard_ready` for each shard of a sharded client)."""
    name = getattr(task.get_coro(), "__qualname__", "")
    return name.endswith(("._delay_ready", "._delay_shard_ready"))
