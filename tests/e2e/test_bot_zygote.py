"""The zygote that forks the crash tests' bots (tests/e2e/bot_zygote.py) gives each child the
environment, working directory and log it was asked for, and reports each exit status as
`python -m bot`'s own: a child that kept the zygote's environment, or a status mixed up
between children, would make the crash tests test something else."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

import pytest

from tests.e2e.bot_zygote import running_zygote
from tests.subprocess_env import clean_environment

pytestmark = pytest.mark.slow  # a process importing the bot, and children of it

WAIT = 30.0


async def test_each_forked_bot_runs_with_its_own_settings_log_and_exit_status(tmp_path: Path) -> None:
    wrong, waiting = tmp_path / "wrong", tmp_path / "waiting"
    wrong.mkdir()
    waiting.mkdir()
    (waiting / ".env").write_text("DISCORD_TOKEN=dummy\n")  # read from the child's working directory
    reached = asyncio.Event()

    async def never_answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        reached.set()
        await reader.read()  # until the bot's end closes the connection
        writer.close()

    silent = await asyncio.start_server(never_answer, "127.0.0.1", 0)
    port = silent.sockets[0].getsockname()[1]
    try:
        async with running_zygote() as zygote:
            refused = await zygote.start(clean_environment(TYPED_MOVES="maybe"), wrong, wrong / "bot.log")
            # a wrong setting stops the bot before it connects: exit 2, one line, in its own log
            assert await asyncio.wait_for(refused.wait(), WAIT) == 2
            said = (wrong / "bot.log").read_text()
            assert said.startswith("boneyard: ") and said.count("\n") == 1, said
            assert "TYPED_MOVES must be `on` or `off`, not 'maybe'" in said, said

            # valid settings (the token from its own directory's .env): it logs in, and hangs there
            hanging = await zygote.start(
                clean_environment(DISCORD_API_BASE=f"http://127.0.0.1:{port}"), waiting, waiting / "bot.log"
            )
            await asyncio.wait_for(reached.wait(), WAIT)
            assert hanging.returncode is None and hanging.pid != refused.pid
            hanging.kill()
            assert await asyncio.wait_for(hanging.wait(), WAIT) == -signal.SIGKILL
            assert "logging in using static token" in (waiting / "bot.log").read_text()
            assert (waiting / "boneyard.sqlite3").exists()  # its database, in its directory
    finally:
        silent.close()
        await silent.wait_closed()
