"""Closing the bot leaves nothing running behind it.

discord.py starts a task on READY that waits `guild_ready_timeout` (2 s) for further guilds and
then dispatches `on_ready`.  `Client.close()` does not cancel it: a bot closed within those two
seconds (a quick test, or a SIGTERM right after connecting) had the task wake up later, dispatch
into the closed client and die with "Task exception was never retrieved ... _delay_ready",
which surfaced as a flaky teardown error in the end-to-end tests when the machine was loaded.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from bot.app.client import Boneyard
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


async def test_a_harness_bot_is_ready_only_once_every_guild_has_arrived(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The harness ends discord.py's wait for more guilds on a condition, not a timeout
    (`ready_once_every_guild_arrived`): `on_ready` still comes after every guild of READY.

    The second guild's GUILD_CREATE is held back until the bot waits for more guilds (or
    announced itself ready without it, which is the fault this test is for)."""
    fake = harness.fake
    late = fake.add_guild("Second Hall")
    at_ready: list[dict[int, bool]] = []

    def record(bot: Boneyard) -> None:
        async def on_ready() -> None:
            at_ready.append({guild.id: guild.unavailable for guild in bot.guilds})

        bot.add_listener(on_ready, "on_ready")

    real = fake.gateway.dispatch

    async def holding(event: str, data: dict[str, Any], *, session: Any = None) -> int:
        if event == "GUILD_CREATE" and int(data["id"]) == late.id:
            waiting = _waiting_for_guilds(harness)
            for _ in range(1000):  # a bound: the bot reads READY within a few turns of the loop
                if waiting():
                    break
                await asyncio.sleep(0.01)
        return await real(event, data, session=session)

    monkeypatch.setattr(fake.gateway, "dispatch", holding)
    harness.prepare.append(record)
    bot = await harness.restart()
    await asyncio.wait_for(bot.wait_until_ready(), 10)
    await harness.wait_for_handlers()
    assert at_ready == [dict.fromkeys(fake.world.guilds, False)]


def _waiting_for_guilds(harness: Harness) -> Callable[[], bool]:
    def waiting() -> bool:
        bot = harness.bot
        state = bot._connection
        queue = state._ready_states.get(0)
        ready = state._ready_tasks.get(0)
        return (queue is not None and bool(queue._getters)) or (ready is not None and ready.done()) or bot.is_ready()

    return waiting
