"""`python -m bot`: check the database, configure logging once, run the bot until SIGTERM/Ctrl-C.
`python -m bot backup PATH`: a consistent copy of the database, safe while the bot runs.
`python -m bot migrate --to postgresql://...`: copy the SQLite database into PostgreSQL (bot/app/migrate.py).

Every way start-up can fail ends in ONE line on stderr (`boneyard: ...`) and an exit status a
supervisor can act on, never a traceback and a hang:

- 0: stopped cleanly (SIGTERM, as sent by systemd and `docker stop`, or Ctrl-C);
- 1: Discord refused the token or the intents, or could not be reached;
- 2: a setting is wrong (`.env` or the environment; the message names it);
- 3: the database cannot be used (damaged, read-only, newer schema, another bot on it, or
  another live process runs these shards: bot/services/shard_leases.py);
- 75: the database file is intact but cannot be used now (a full disk, a disk I/O error, a
  lock held by another program): a restart later can work.

Restarting cannot fix 2 or 3, so the example systemd unit does not restart on them; it
restarts on 75.
Heavy imports (discord.py) are deferred so `backup` starts quickly.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import signal
import sqlite3
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from bot.app.config import ConfigError, Settings, database_location_setting, database_setting

if TYPE_CHECKING:
    from bot.app.client import Boneyard

EXIT_OK = 0
EXIT_DISCORD = 1
EXIT_SETTINGS = 2
EXIT_DATABASE = 3
EXIT_RETRY = 75
"""EX_TEMPFAIL: the database cannot be used NOW (a full disk, a busy file); the systemd unit
restarts the bot for it (deploy/boneyard.service prevents restarts for 2 and 3 only)."""


def fail(message: object, status: int) -> int:
    print(f"boneyard: {message}", file=sys.stderr, flush=True)
    return status


def configure_logging(level: str) -> None:
    logging.basicConfig(
        level=level,
        format="%(asctime)s %(levelname)-7s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    logging.getLogger("discord.gateway").setLevel(max(logging.getLevelName(level), logging.INFO))


def lowest_priority() -> None:
    """Give the calling thread (Linux: a thread has its own nice value) the lowest CPU priority."""
    with contextlib.suppress(AttributeError, OSError):  # not on every platform; then as is
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 19)


def stop_on_sigterm(bot: Boneyard) -> list[asyncio.Task[None]]:
    """SIGTERM closes the bot like Ctrl-C does: clocks stop with a last heartbeat, the store
    closes, the process exits 0.  Without it SIGTERM kills the process mid-write, and as PID 1
    in a container it is ignored altogether until Docker sends SIGKILL.  Returns the closing
    tasks, which the caller awaits: `bot.start()` returns as soon as the gateway is closed,
    half-way through `close()`, and the rest (the store) must not be cancelled."""
    loop = asyncio.get_running_loop()
    closing: list[asyncio.Task[None]] = []  # a reference, so the task is not collected mid-way
    with contextlib.suppress(NotImplementedError):  # Windows event loops have no signal handlers
        loop.add_signal_handler(signal.SIGTERM, lambda: closing.append(loop.create_task(bot.close())))
    return closing


async def run(settings: Settings, scan: Path | None = None, *, sole_process: bool = False) -> None:
    """Run the bot until it is closed.  `scan`: a large SQLite file whose full check was left
    for after start (bot/store/health.py); if it finds damage, the bot stops and
    `StartupRefused` carries the one line.  `sole_process`: this process holds the SQLite
    file's lock, so no other live process can hold a shard lease (bot/services/shard_leases.py)."""
    import discord

    from bot.app.client import Boneyard

    # Boneyard has no voice features: discord.py's two start-up warnings about missing voice
    # libraries would only hide the lines an operator needs to read.
    discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
    damage: list[str] = []
    async with Boneyard(settings, sole_process=sole_process) as bot:
        closing = stop_on_sigterm(bot)
        checking = None if scan is None else asyncio.create_task(stop_if_damaged(bot, scan, damage))
        try:
            await bot.start(settings.token)
            await asyncio.gather(*closing)
        except Exception:
            if not damage:  # closed mid-login for the damage: that is the one thing to say
                raise
        finally:
            if checking is not None:
                if not damage:  # else it is closing the bot: let it finish
                    checking.cancel()
                await asyncio.gather(checking, return_exceptions=True)
    if damage:
        from bot.app.startup import StartupRefused

        raise StartupRefused(damage[0])


async def stop_if_damaged(bot: Boneyard, database: Path, damage: list[str]) -> None:
    """Check every page of `database` beside the running bot, once it is ready; on damage,
    note the refusal's line and close the bot.

    The scan runs in a daemon thread of its own at the lowest CPU priority, with its own
    read connection: on a busy 2-core box a scan beside the start-up doubled it, and a daemon
    thread never holds up the exit (SQLite's quick_check cannot be interrupted; killing a
    read-only reader mid-way harms nothing)."""
    from bot.store.health import scan_sqlite_file

    await bot.wait_until_ready()
    loop = asyncio.get_running_loop()
    found: asyncio.Future[str | None] = loop.create_future()

    def tell(verdict: str | None) -> None:
        if not found.done():
            found.set_result(verdict)

    def scan() -> None:
        lowest_priority()
        verdict = scan_sqlite_file(database)
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile: nobody to tell
            loop.call_soon_threadsafe(tell, verdict)

    threading.Thread(target=scan, name="boneyard-scan", daemon=True).start()
    verdict = await found
    if verdict is not None:
        damage.append(verdict)
        logging.getLogger("bot.app.startup").error("%s; stopping", verdict)
        await bot.close()


def run_bot() -> int:
    import aiohttp
    import discord

    from bot.app.startup import StartupRefused, prepare_database
    from bot.services.shard_leases import ShardsTaken
    from bot.store import MIGRATIONS

    try:
        settings = Settings.load()
    except ConfigError as exc:
        return fail(exc, EXIT_SETTINGS)
    configure_logging(settings.log_level)
    try:
        # The SQLite file is checked and locked against a second bot; PostgreSQL, shared by
        # several processes, is checked for reach, schema version and write access.
        lock = prepare_database(settings.database_location, known_version=len(MIGRATIONS))
    except StartupRefused as exc:
        return fail(exc, EXIT_RETRY if exc.retry else EXIT_DATABASE)
    try:
        asyncio.run(run(settings, None if lock is None else lock.scan, sole_process=lock is not None))
    except StartupRefused as exc:
        return fail(exc, EXIT_RETRY if exc.retry else EXIT_DATABASE)
    except discord.LoginFailure:
        return fail("Discord refused the token: check DISCORD_TOKEN in .env.", EXIT_DISCORD)
    except discord.PrivilegedIntentsRequired:
        return fail(
            "Discord refused the Message Content intent. Enable it in the Developer Portal "
            "(Bot -> Privileged Gateway Intents) or set TYPED_MOVES=off.",
            EXIT_DISCORD,
        )
    except (aiohttp.ClientConnectionError, discord.GatewayNotFound) as exc:
        return fail(f"cannot reach Discord: {exc}", EXIT_DISCORD)
    except sqlite3.Error as exc:
        return fail(f"database error on {settings.database.absolute()}: {exc}", EXIT_DATABASE)
    except ShardsTaken as exc:
        return fail(exc, EXIT_DATABASE)
    except KeyboardInterrupt:
        pass
    finally:
        if lock is not None:
            lock.release()
    return EXIT_OK


def run_backup(target: Path) -> int:
    from bot.app.backup import BackupFailed, backup
    from bot.store.database import public_url

    try:
        database = database_location_setting()
    except ConfigError as exc:
        return fail(exc, EXIT_SETTINGS)
    try:
        report = backup(database, target)
    except BackupFailed as exc:
        return fail(exc, EXIT_DATABASE)
    source = public_url(database) if isinstance(database, str) else database.absolute()
    print(
        f"backed up {source} to {report.target} "
        f"({report.size} bytes, schema version {report.schema_version}, {report.matches} matches)"
    )
    return EXIT_OK


def parse_arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bot", description="Run the Boneyard Discord bot.")
    commands = parser.add_subparsers(dest="command", metavar="{backup,migrate}")
    copy = commands.add_parser(
        "backup",
        help="copy the database (DATABASE_URL or DATABASE_PATH) to PATH, a SQLite file; safe while the bot runs",
    )
    copy.add_argument("path", type=Path, help="the backup file, or a directory for a timestamped file in it")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    given = list(sys.argv[1:] if argv is None else argv)
    if given[:1] == ["migrate"]:  # its own options (bot/app/migrate.py)
        from bot.app.migrate import main as migrate

        try:
            database = database_setting()
        except ConfigError as exc:
            return fail(exc, EXIT_SETTINGS)
        return migrate(given[1:], database)
    arguments = parse_arguments(given)
    if arguments.command == "backup":
        return run_backup(arguments.path)
    return run_bot()


if __name__ == "__main__":
    sys.exit(main())
