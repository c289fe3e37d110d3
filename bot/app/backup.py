"""`python -m bot backup PATH`: a consistent copy of the database, taken while the bot runs.

The copy is one SQLite file, whichever backend the bot uses: SQLite's online backup of the
file, or a logical dump of PostgreSQL read in one snapshot (bot/store/dump.py says how and
why).  Either way it is exactly the database as of one commit.

The copy is written beside PATH under a temporary name, checked (`PRAGMA quick_check`),
switched to a single self-contained file (journal mode DELETE: no `-wal` to forget), flushed
to disk and only then renamed onto PATH, so PATH is always either the old backup or a whole
new one.  Restoring is described in the README (Operations -> Backups): copy the file back
for SQLite, `python -m bot migrate --from FILE --to postgresql://...` into an empty database
for PostgreSQL.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from bot.store.database import public_url
from bot.store.dump import postgres_backup, sqlite_backup
from bot.store.health import Unusable


class BackupFailed(RuntimeError):
    """The backup could not be made; the message is the single line to show."""


@dataclass(frozen=True)
class BackupReport:
    target: Path
    size: int
    schema_version: int
    matches: int


def backup_target(target: Path, now: float | None = None) -> Path:
    """PATH itself, or for a directory a new timestamped file inside it (handy from cron)."""
    target = target.expanduser().absolute()
    if target.is_dir():
        stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(time.time() if now is None else now))
        return target / f"boneyard-{stamp}.sqlite3"
    return target


def backup(database: Path | str, target: Path) -> BackupReport:
    """Copy `database` (a SQLite file, or a `postgresql://` URL) to `target` (a file or a
    directory); raises BackupFailed with one line."""
    postgres = isinstance(database, str) and database.startswith(("postgresql://", "postgres://"))
    where = public_url(str(database)) if postgres else str(Path(database).expanduser().absolute())
    target = backup_target(target)
    if not postgres and not Path(where).is_file():
        raise BackupFailed(f"there is no database at {where} (check DATABASE_PATH)")
    if target == Path(where):
        raise BackupFailed("the backup must not overwrite the database itself")
    if not target.parent.is_dir():
        raise BackupFailed(f"the backup directory {target.parent} does not exist")
    try:
        descriptor, partial_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".partial", dir=target.parent)
    except OSError as exc:
        raise BackupFailed(f"cannot write in {target.parent}: {exc.strerror}") from None
    os.close(descriptor)
    partial = Path(partial_name)
    try:
        if postgres:
            schema_version, matches = asyncio.run(postgres_backup(str(database), partial))
        else:
            schema_version, matches = sqlite_backup(Path(where), partial)
        with partial.open("rb") as written:
            os.fsync(written.fileno())
        partial.replace(target)
    except Unusable as exc:
        raise BackupFailed(str(exc)) from None
    except (sqlite3.Error, OSError) as exc:
        raise BackupFailed(f"backup of {where} failed: {' '.join(str(exc).split())}") from None
    finally:
        with contextlib.suppress(FileNotFoundError):
            partial.unlink()
    return BackupReport(target, target.stat().st_size, schema_version, matches)
