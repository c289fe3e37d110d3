"""`python -m bench joins`: 1,000 `/tournament join` at once, and how soon each is acknowledged.

Discord forgets an interaction not acknowledged within 3 s, and its user sees "The application
did not respond".  Measured: the time from the fake Discord sending each INTERACTION_CREATE to
the bot's first callback for it (the fake in this process, the bot a child process as in
production, on the same machine), with every join fired at once, and how many were answered.
The fake's own deadline is off so that a late acknowledgement is measured, not refused.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import tempfile
import time
from pathlib import Path

JOINS = 1000
DEADLINE = 3.0


async def burst_of_joins(count: int = JOINS) -> dict[str, float]:
    from tests.e2e.bot_zygote import running_zygote  # dev-only: bot processes forked for tests
    from tests.e2e.test_crashes import BotProcess  # dev-only: the fake Discord and the bot process
    from tests.fake_discord import FakeDiscord, restore_discord_defaults

    with tempfile.TemporaryDirectory() as tmp:
        async with running_zygote(), FakeDiscord(ack_deadline=None) as fake:
            process = BotProcess(fake, Path(tmp) / "bench.sqlite3")
            try:
                players = [fake.add_member(fake.guild, fake.add_user(f"player{i}")) for i in range(count)]
                await process.start(ready=True)
                host = fake.players[2]
                created = await fake.slash_command(
                    "tournament create", {"name": "Burst", "game": "focus", "format": "swiss"}, user=host
                )
                await fake.wait_for_followup(created, timeout=30)
                load = os.getloadavg()[0]
                joins = [await fake.slash_command("tournament join", user=p) for p in players]
                deadline = time.monotonic() + 300
                for join in joins:
                    with contextlib.suppress(AssertionError, TimeoutError):  # unanswered: counted below
                        await fake.wait_for_followup(join, timeout=max(0.1, deadline - time.monotonic()))
                answered = sum(1 for j in joins if j.followup_ids)
                waits = sorted((j.acknowledged_at or float("inf")) - j.created_at for j in joins)
            finally:
                if process.proc is not None:
                    process.proc.kill()
                    await process.proc.wait()
                restore_discord_defaults()
    return {
        "p50": waits[len(waits) // 2],
        "p99": waits[int(0.99 * (len(waits) - 1))],
        "max": waits[-1],
        "late": float(sum(1 for w in waits if w > DEADLINE)),
        "answered": float(answered),
        "load": load,
    }


def join_rows() -> list[tuple[str, str, str]]:
    figures = asyncio.run(burst_of_joins())
    return [
        (
            f"joins: {JOINS} /tournament join at once, acknowledged p50 / p99 / max",
            f"{figures['p50']:.2f} / {figures['p99']:.2f} / {figures['max']:.2f} s "
            f"(load {figures['load']:.2f}, {os.cpu_count()} cores)",
            "all ≤ 3 s",
        ),
        (
            "joins: acknowledged later than 3 s / answered",
            f"{figures['late']:.0f} / {figures['answered']:.0f} of {JOINS}",
            "0 late, all answered",
        ),
    ]
