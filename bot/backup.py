"""`python -m bot backup PATH`: a consistent copy of the database, taken while the bot runs.

Why SQLite's online backup API rather than copying the file: the bot writes at any moment, and
in WAL mode the committed state is spread over the database file and its `-wal` file; `cp`
of either can catch a transaction half-way.  `sqlite3.Connection.backup` copies every page
in one step inside one read transaction, so the copy is exactly the database as of one
commit, and in WAL mode the bot's writers are not blocked while it reads.

The copy is written beside PATH under a temporary name, checked (`PRAGMA quick_check`),
switched to a single self-contained file (journal mode DELETE: no `-wal` to forget), flushed
to disk and only then renamed onto PATH, so PATH is always either the old backup or a whole
new one.  Restoring is described in the README (Operations -> Backups).
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path


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


def backup(database: Path, target: Path) -> BackupReport:
    """Copy `database` to `target` (a file or a directory); raises BackupFailed with one line."""
    database = database.expanduser().absolute()
    target = backup_target(target)
    if not database.is_file():
        raise BackupFailed(f"there is no database at {database} (check DATABASE_PATH)")
    if target == database:
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
        schema_version, matches = _copy(database, partial)
        with partial.open("rb") as written:
            os.fsync(written.fileno())
        partial.replace(target)
    except sqlite3.Error as exc:
        raise BackupFailed(f"backup of {database} failed: {exc}") from None
    finally:
        with contextlib.suppress(FileNotFoundError):
            partial.unlink()
    return BackupReport(target, target.stat().st_size, schema_version, matches)


def _copy(database: Path, partial: Path) -> tuple[int, int]:
    # mode=rw: never create an empty database where the real one was expected.
    source = sqlite3.connect(f"{database.as_uri()}?mode=rw", uri=True, timeout=30)
    try:
        copy = sqlite3.connect(partial)
        try:
            source.backup(copy)  # pages=-1: all pages in one step, one snapshot
            copy.execute("PRAGMA journal_mode = DELETE")
            (verdict,) = copy.execute("PRAGMA quick_check").fetchone()
            if verdict != "ok":
                raise sqlite3.DatabaseError(f"the copy failed its integrity check: {verdict}")
            (schema_version,) = copy.execute("PRAGMA user_version").fetchone()
            has_matches = copy.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'matches'")
            matches = copy.execute("SELECT count(*) FROM matches").fetchone()[0] if has_matches.fetchone() else 0
        finally:
            copy.close()
    finally:
        source.close()
    return int(schema_version), int(matches)
