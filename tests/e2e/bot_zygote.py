"""`python -m tests.e2e.bot_zygote`: starts bot processes for the crash tests by forking one
process that has already imported the bot, instead of starting `python -m bot` afresh.

Why: the crash tests start the bot about 130 times, and each `python -m bot` spends about
0.4 s of CPU importing discord.py, aiohttp and the bot before it does anything; on a 2-core
machine shared by a whole test run that import, not the waiting, was most of their cost.
A child forked here runs the very same `bot.__main__.main()` in a process of its own (its
own environment, working directory, log, crash point, exit status); only the imports are
done once.  Start-up itself (`python -m bot` from nothing) keeps its own tests
(tests/bot/test_startup.py and others start the real command).

Safe to fork: this process imports modules and nothing else: no thread, no event loop,
no open connection.  The one module that reads the environment on import,
`bot.infra.crashpoints`, is read again in each child.  One difference from `python -m bot`,
as for the in-process e2e bots: `on_ready` comes as soon as the fake's guilds all arrived.

Protocol, one JSON object a line.  In (stdin): `{"env": {...}, "cwd": "...", "log": "..."}`
starts a bot with that environment and working directory, its stdout and stderr appended
to `log`.  Out (stdout): `{"ready": true}` once the imports are done, `{"started": pid}`
for each start (in order), and `{"ended": pid, "returncode": n}` when a child ends (`n` as
`subprocess` reports it: negative for a signal).  End of stdin: every child still running
is killed and the zygote exits.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import json
import os
import select
import signal
import sys
from collections.abc import AsyncIterator, Mapping
from contextvars import ContextVar
from pathlib import Path
from typing import Any

Request = dict[str, Any]


def preload() -> None:
    """Import what `python -m bot` imports before it connects (and the cogs it loads)."""
    import bot.__main__  # noqa: F401  # the entry point and its settings
    from bot.app import client

    for extension in client.EXTENSIONS:
        importlib.import_module(extension)


def say(message: dict[str, Any]) -> None:
    os.write(1, (json.dumps(message) + "\n").encode())


def serve() -> Request | None:
    """Answer requests until stdin ends (then None); returns a request in the forked child."""
    children: dict[int, int] = {}  # pidfd -> pid
    pending = b""
    say({"ready": True})
    while True:
        readable, _, _ = select.select([0, *children], [], [])
        for fd in readable:
            if fd != 0:
                pid = children.pop(fd)
                os.close(fd)
                _, status = os.waitpid(pid, 0)
                say({"ended": pid, "returncode": os.waitstatus_to_exitcode(status)})
                continue
            data = os.read(0, 65536)
            if not data:
                for fd, pid in children.items():
                    os.kill(pid, signal.SIGKILL)
                    os.waitpid(pid, 0)
                    os.close(fd)
                return None
            pending += data
            while b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                request: Request = json.loads(line)
                pid = os.fork()
                if pid == 0:
                    for child in children:
                        os.close(child)
                    return request
                children[os.pidfd_open(pid)] = pid
                say({"started": pid})


def become(request: Request) -> None:
    """Turn this forked child into what `python -m bot` in `cwd` with `env` would be."""
    os.environ.clear()
    os.environ.update(request["env"])
    os.chdir(request["cwd"])
    log = os.open(request["log"], os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    os.dup2(log, 1)
    os.dup2(log, 2)
    os.close(log)
    nothing = os.open(os.devnull, os.O_RDONLY)
    os.dup2(nothing, 0)
    os.close(nothing)
    sys.argv = [sys.argv[0]]
    from bot.infra import crashpoints

    importlib.reload(crashpoints)  # the crash point armed for THIS child (read on import)
    ready_when_every_guild_arrived()


def ready_when_every_guild_arrived() -> None:
    """Every bot this child builds announces `on_ready` once the fake's guilds all arrived,
    not 2 s after the last one, as the in-process bots of the e2e harness do
    (`ready_once_every_guild_arrived`): a tournament case waits for `on_ready` four times,
    and discord.py's 2 s each were most of its time.  No crash case may depend on that
    wait (its outcome must not hang on whether a request came before or after `on_ready`).
    The product's own wait keeps its test (tests/e2e/test_shutdown.py)."""
    from bot.app.client import Boneyard
    from bot.app.config import Settings
    from tests.e2e.harness import ready_once_every_guild_arrived

    built = Boneyard.__init__

    def build(bot: Boneyard, settings: Settings, *, sole_process: bool = False) -> None:
        built(bot, settings, sole_process=sole_process)
        ready_once_every_guild_arrived(bot)

    setattr(Boneyard, "__init__", build)  # noqa: B010  # in this child only


# --- the test's side ------------------------------------------------------------------------


class ForkedBot:
    """A bot started by the zygote: what the crash tests use of `asyncio.subprocess.Process`."""

    def __init__(self, pid: int, ended: asyncio.Future[int]) -> None:
        self.pid = pid
        self._ended = ended

    @property
    def returncode(self) -> int | None:
        return self._ended.result() if self._ended.done() else None

    async def wait(self) -> int:
        return await asyncio.shield(self._ended)

    def kill(self) -> None:
        if not self._ended.done():
            with contextlib.suppress(ProcessLookupError):  # ended, not yet reported
                os.kill(self.pid, signal.SIGKILL)


class Zygote:
    """The zygote process, seen from the test's event loop."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self._process = process
        self._starting: asyncio.Queue[int] = asyncio.Queue()
        self._endings: dict[int, asyncio.Future[int]] = {}
        self._lock = asyncio.Lock()
        self._reader = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        assert self._process.stdout is not None
        async for line in self._process.stdout:
            message = json.loads(line)
            if "started" in message:
                await self._starting.put(message["started"])
            elif "ended" in message:
                self._ending(message["ended"]).set_result(message["returncode"])
        for ending in self._endings.values():  # the zygote is gone: nobody will report these
            if not ending.done():
                ending.set_exception(RuntimeError("the zygote ended before this bot"))

    def _ending(self, pid: int) -> asyncio.Future[int]:
        return self._endings.setdefault(pid, asyncio.get_running_loop().create_future())

    async def start(self, env: Mapping[str, str], cwd: Path, log: Path) -> ForkedBot:
        """`python -m bot` with `env` in `cwd`, its output appended to `log` (`on_ready` as
        soon as every guild arrived: `ready_when_every_guild_arrived`)."""
        assert self._process.stdin is not None
        async with self._lock:  # one start at a time: the answers come in order
            request = {"env": dict(env), "cwd": str(cwd), "log": str(log)}
            self._process.stdin.write((json.dumps(request) + "\n").encode())
            await self._process.stdin.drain()
            pid = await asyncio.wait_for(self._starting.get(), STARTED_TIMEOUT)
        return ForkedBot(pid, self._ending(pid))


STARTED_TIMEOUT = 30.0
"""How long a fork may take before the test fails (it takes milliseconds)."""

_current: ContextVar[Zygote] = ContextVar("zygote")


@contextlib.asynccontextmanager
async def running_zygote() -> AsyncIterator[Zygote]:
    """A zygote for the tasks started within (`current_zygote()`), closed afterwards with
    every bot it started."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", __name__, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE
    )
    assert process.stdout is not None
    ready = await asyncio.wait_for(process.stdout.readline(), STARTED_TIMEOUT)
    assert json.loads(ready) == {"ready": True}, ready
    zygote = Zygote(process)
    token = _current.set(zygote)
    try:
        yield zygote
    finally:
        _current.reset(token)
        assert process.stdin is not None
        process.stdin.close()
        await process.wait()
        await asyncio.gather(zygote._reader, return_exceptions=True)


def current_zygote() -> Zygote:
    return _current.get()


if __name__ == "__main__":
    preload()
    request = serve()
    if request is None:
        sys.exit(0)
    become(request)
    from bot.__main__ import main

    sys.exit(main())
