"""Start-up checks on the database: refuse loudly, in one line, before anything else starts.

Why before the event loop and Discord: a bot that cannot write its database must not log in,
answer a few commands and then lose them.  A supervisor (systemd, Docker) only restarts or alerts
on a process that exits, so every refusal here is one clear line and a non-zero exit within
seconds, never a traceback followed by a hang.

What is refused, for a SQLite file:
- the database's directory is missing, or the file is a directory;
- another Boneyard process already runs on the same file (see `hold_process_lock`);
- the file is not a SQLite database or is damaged (`PRAGMA quick_check`);
- the file cannot be written (read-only file, directory or file system);
- the schema is newer than this code knows (a downgrade would misread it).
A file that does not exist yet is created, and its absolute path announced, so a mistyped
`DATABASE_PATH` shows up as "new database at /wrong/place" in the first line of the log.

For PostgreSQL (`DATABASE_URL`): a server that cannot be reached or refuses the login, a
newer schema, or a database the bot may not write.  Several processes share it by design
(one per shard), so there is no process lock; the shard layout is checked once the store
is open (bot/services/shard_leases.py).

The SQL of these checks lives in the store package (bot/store/health.py).
"""

from __future__ import annotations

import asyncio
import logging
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from bot.store.health import Unusable, check_postgres, check_sqlite_file

log = logging.getLogger(__name__)


class StartupRefused(RuntimeError):
    """The bot must not start; the message is the single line to show.  `retry`: a later start
    can work without a person's help (a full disk freed, a lock released): exit `EXIT_RETRY`."""

    def __init__(self, line: str, *, retry: bool = False) -> None:
        super().__init__(line)
        self.retry = retry


@dataclass
class ProcessLock:
    """An exclusive OS lock on `<database>.lock`, held while this object lives (the process)."""

    path: Path
    handle: IO[bytes]
    scan: Path | None = None
    """The database, when its full check is still due after start (`scan_sqlite_file`)."""

    def release(self) -> None:
        self.handle.close()  # closing the descriptor drops the lock


def lock_path(database: Path) -> Path:
    return database.with_name(database.name + ".lock")


def hold_process_lock(database: Path) -> ProcessLock:
    """Refuse a second bot process on the same database file.

    How: an exclusive, non-blocking `flock` (on Windows `msvcrt.locking`) on the file
    `<database>.lock` beside the database, taken before the database is opened and held until
    the process ends.  The kernel drops the lock when the process exits in any way, SIGKILL and
    power loss included, so a crash never leaves a stale lock behind; the lock file itself may
    stay and means nothing without the lock.  A separate file rather than SQLite's own
    `locking_mode=EXCLUSIVE`: the latter would also shut out `python -m bot backup`, which must
    read while the bot runs.  flock is per open file, so even a second open in the same process
    is refused.
    """
    path = lock_path(database)
    try:
        handle = path.open("a+b")
    except OSError as exc:
        raise StartupRefused(
            f"cannot create the lock file {path}: {exc.strerror} (the directory must be writable)"
        ) from None
    try:
        _lock_exclusively(handle)
    except OSError:
        handle.close()
        raise StartupRefused(
            f"another Boneyard process is already using {database} (it holds {path}); "
            "stop it first: two bots on one database would answer every command twice"
        ) from None
    return ProcessLock(path, handle)


if sys.platform == "win32":  # pragma: no cover - the bot is deployed on Linux; kept usable on Windows
    import msvcrt

    def _lock_exclusively(handle: IO[bytes]) -> None:
        msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)

else:
    import fcntl

    def _lock_exclusively(handle: IO[bytes]) -> None:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)


def check_directory(database: Path) -> None:
    if database.is_dir():
        raise StartupRefused(f"DATABASE_PATH {database} is a directory; name a file inside it")
    if not database.parent.is_dir():
        raise StartupRefused(f"the database directory {database.parent} does not exist; create it or fix DATABASE_PATH")


def check_database(database: Path, known_version: int) -> bool:
    """Open the SQLite file once and refuse what the bot cannot use; returns whether its full
    check is still due (a large file: `scan_sqlite_file` runs beside the bot, see bot/store/health.py).
    `database` must be absolute, so that messages name the real place."""
    try:
        created, scan_later = check_sqlite_file(database, known_version)
    except Unusable as exc:
        raise StartupRefused(str(exc), retry=exc.retry) from None
    if created:
        # WARNING, not INFO: seen at every LOG_LEVEL but ERROR, since a mistyped path loses every match.
        log.warning(
            "created a new, empty database at %s (expected on the first start; if not, check DATABASE_PATH)", database
        )
    return scan_later


def check_server(url: str, known_version: int) -> None:
    """Refuse a PostgreSQL database the bot cannot use (before the bot's own event loop runs)."""
    try:
        asyncio.run(check_postgres(url, known_version))
    except Unusable as exc:
        raise StartupRefused(str(exc)) from None


def prepare_database(location: Path | str, known_version: int) -> ProcessLock | None:
    """Every start-up check, in order; returns the lock to hold for the life of the process
    (None for PostgreSQL, which several processes share)."""
    if isinstance(location, str) and location.startswith(("postgresql://", "postgres://")):
        check_server(location, known_version)
        return None
    database = Path(location).absolute()
    check_directory(database)
    lock = hold_process_lock(database)
    try:
        if check_database(database, known_version):
            lock.scan = database
    except BaseException:
        lock.release()
        raise
    return lock
