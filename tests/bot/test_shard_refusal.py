"""`python -m bot` refuses to run a shard that a live process runs: one line, exit 3.

Two real bot processes on one PostgreSQL database (SQLite is one process by its file lock),
both started with SHARD_COUNT=2 and SHARD_IDS=1, against the fake Discord.  The second waits
for the first's lease to be renewed, then stops before connecting to Discord, naming the
shard; the first, stopped with SIGTERM, gives its lease up so a restart need not wait.
"""

from __future__ import annotations

import asyncio
import signal
import sys
from pathlib import Path

import pytest

from bot.services.shard_leases import RENEW_EVERY
from bot.store import Store
from bot.store.leases import LeaseStore
from tests.fake_discord import FakeDiscord
from tests.subprocess_env import clean_environment

HANG = 60  # seconds: far beyond a refusal, short enough to fail a hanging start-up


@pytest.mark.slow  # two real bot processes; the second waits for the first's lease renewal
async def test_a_second_process_on_a_running_shard_is_refused_in_one_line(tmp_path: Path, postgres_url: str) -> None:
    async with FakeDiscord() as fake:
        environment = clean_environment(
            DISCORD_TOKEN="dummy",
            DISCORD_API_BASE=fake.base_url,
            DATABASE_URL=postgres_url,
            SHARD_COUNT="2",
            SHARD_IDS="1",
        )
        first = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", cwd=tmp_path, env=environment, stderr=asyncio.subprocess.PIPE
        )
        try:
            await fake.wait_for_shards({1}, 2, timeout=HANG)
            second = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", cwd=tmp_path, env=environment, stderr=asyncio.subprocess.PIPE
            )
            started = asyncio.get_running_loop().time()
            _, refused = await asyncio.wait_for(second.communicate(), HANG)
            waited = asyncio.get_running_loop().time() - started
            output = refused.decode()
            assert second.returncode == 3, output
            assert "Traceback" not in output
            last = output.strip().splitlines()[-1]
            assert last.startswith("boneyard: SHARD_IDS: shards [1] are run by another live process"), output
            assert "shards [1] are claimed by another process" in output  # the wait was said
            assert waited < HANG / 2 + RENEW_EVERY and len(fake.gateway.sessions) == 1  # never reached Discord
        finally:
            first.send_signal(signal.SIGTERM)
            _, log = await asyncio.wait_for(first.communicate(), HANG)
    assert first.returncode == 0, log.decode()
    store = await Store.open(postgres_url)
    try:
        assert await LeaseStore(store).leases() == []  # released by the clean stop
    finally:
        await store.close()
