"""`python -m bot backup PATH`: a consistent copy while writes go on, and the README's restore."""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

from bot.store import MIGRATIONS, Store
from tests.bot.test_startup import HANG, migrated_database
from tests.subprocess_env import clean_environment


def run_backup(cwd: Path, database: Path, *target: str) -> subprocess.CompletedProcess[str]:
    """The command as an operator types it: no token needed, DATABASE_PATH from the environment."""
    return subprocess.run(
        [sys.executable, "-m", "bot", "backup", *target],
        cwd=cwd,
        env=clean_environment(DATABASE_PATH=str(database)),
        capture_output=True,
        text=True,
        timeout=HANG,
        check=False,
    )


class MoveWriter:
    """Commits moves as fast as it can, each with its match's version in the same transaction,
    so any consistent copy has `version == number of moves`, and a torn one does not."""

    def __init__(self, database: Path) -> None:
        self.database = database
        self.commits = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run)

    def __enter__(self) -> MoveWriter:
        self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        with contextlib.closing(sqlite3.connect(self.database, isolation_level=None, timeout=30)) as db:
            db.execute("PRAGMA journal_mode = WAL")
            db.execute(
                "INSERT INTO matches (id, game, options, channel_id, status, challenger_id, seed, seed_hash, "
                "created_at, updated_at) VALUES (1, 'focus', '{}', 1, 'active', 1, 's', 'h', 0, 0)"
            )
            ply = 0
            while not self._stop.is_set():
                db.execute("BEGIN IMMEDIATE")
                db.execute(
                    "INSERT INTO moves (match_id, ply, seat, move, public, forced, at) VALUES (1, ?, 0, ?, 1, 0, 0)",
                    (ply, "x" * 2000),  # pages fill quickly: the copy has real work to do
                )
                db.execute("UPDATE matches SET version = ? WHERE id = 1", (ply + 1,))
                db.execute("COMMIT")
                ply += 1
                self.commits = ply


def moves_and_version(path: Path) -> tuple[int, int]:
    with contextlib.closing(sqlite3.connect(path)) as db:
        assert db.execute("PRAGMA quick_check").fetchone() == ("ok",)
        (moves,) = db.execute("SELECT count(*) FROM moves WHERE match_id = 1").fetchone()
        (version,) = db.execute("SELECT version FROM matches WHERE id = 1").fetchone()
    return int(moves), int(version)


def test_backups_taken_during_writes_are_consistent_snapshots(tmp_path: Path) -> None:
    database = migrated_database(tmp_path / "boneyard.sqlite3")
    copies = tmp_path / "backups"
    copies.mkdir()
    seen: list[int] = []
    with MoveWriter(database) as writer:
        while writer.commits < 200:
            time.sleep(0.01)
        for number in range(4):
            before = writer.commits
            target = copies / f"copy-{number}.sqlite3"
            result = run_backup(tmp_path, database, str(target))
            assert result.returncode == 0, result.stderr
            assert result.stdout.startswith(f"backed up {database} to {target} (")
            assert f"schema version {len(MIGRATIONS)}, 1 matches)" in result.stdout
            assert writer.commits > before, "the writer committed while the backup ran"
            moves, version = moves_and_version(target)
            assert moves == version, f"torn copy: {moves} moves but version {version}"
            assert moves >= before
            seen.append(moves)
    assert seen == sorted(seen) and len(set(seen)) == len(seen), seen
    assert not [p for p in copies.iterdir() if p.name.endswith(".partial")], "no half-written file is left"
    assert not list(copies.glob("*-wal")), "each copy is one self-contained file"


def test_a_directory_target_gets_a_timestamped_file(tmp_path: Path) -> None:
    database = migrated_database(tmp_path / "boneyard.sqlite3")
    result = run_backup(tmp_path, database, ".")
    assert result.returncode == 0, result.stderr
    (made,) = tmp_path.glob("boneyard-*.sqlite3")
    assert f" to {made} (" in result.stdout
    with contextlib.closing(sqlite3.connect(made)) as db:
        assert db.execute("PRAGMA user_version").fetchone() == (len(MIGRATIONS),)


def test_a_missing_database_is_not_created_by_a_backup(tmp_path: Path) -> None:
    database = tmp_path / "typo.sqlite3"
    result = run_backup(tmp_path, database, "copy.sqlite3")
    assert result.returncode == 3
    assert result.stderr.strip().splitlines() == [f"boneyard: there is no database at {database} (check DATABASE_PATH)"]
    assert not database.exists() and not (tmp_path / "copy.sqlite3").exists()


def test_the_readme_restore_brings_the_copy_back(tmp_path: Path) -> None:
    """README, Backups: stop the bot, delete the database's -wal and -shm files, copy the backup
    over DATABASE_PATH, start the bot."""
    database = migrated_database(tmp_path / "boneyard.sqlite3")
    with MoveWriter(database) as writer:
        while writer.commits < 50:
            time.sleep(0.01)
        assert run_backup(tmp_path, database, "backup.sqlite3").returncode == 0
    saved, _ = moves_and_version(tmp_path / "backup.sqlite3")
    assert moves_and_version(database)[0] > saved, "the live database moved on after the backup"

    for leftover in (tmp_path / "boneyard.sqlite3-wal", tmp_path / "boneyard.sqlite3-shm"):
        leftover.unlink(missing_ok=True)
    shutil.copyfile(tmp_path / "backup.sqlite3", database)

    async def reopened() -> tuple[int, int | None]:
        store = await Store.open(database)
        try:
            row = await store.get_match(1)
            return await store.move_count(1), None if row is None else row.version
        finally:
            await store.close()

    assert asyncio.run(reopened()) == (saved, saved)
