"""`python -m bot` refuses a database it cannot use in one line and a non-zero exit, within seconds.

Each case runs the real entry point in a subprocess, as a supervisor would, with a timeout that
catches a hang.  DISCORD_API_BASE points at a closed local port (or at the fake Discord), so no
case can reach discord.com.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import os
import signal
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.app.startup import StartupRefused, hold_process_lock
from bot.store import MIGRATIONS, Store
from tests.fake_discord import FakeDiscord
from tests.subprocess_env import clean_environment

CLOSED_PORT = "http://127.0.0.1:9"  # discard: nothing listens, so a login fails at once
HANG = 30  # seconds: far beyond a refusal, short enough to fail a hanging start-up


def bot_environment(database: Path, **extra: str) -> dict[str, str]:
    """A clean environment: nothing of the developer's own `.env` or shell leaks in."""
    return clean_environment(
        **{"DISCORD_TOKEN": "dummy", "DATABASE_PATH": str(database), "DISCORD_API_BASE": CLOSED_PORT, **extra}
    )


def run_bot(
    cwd: Path, environment: dict[str, str], preexec: Callable[[], None] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=cwd,
        env=environment,
        capture_output=True,
        text=True,
        timeout=HANG,
        preexec_fn=preexec,
        check=False,
    )


def single_line(result: subprocess.CompletedProcess[str]) -> str:
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("boneyard: "), lines[0]
    return lines[0]


def migrated_database(path: Path, version: int | None = None) -> Path:
    """A database as the bot leaves it (WAL mode, every migration), optionally claiming another version."""
    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as db:
        db.execute("PRAGMA journal_mode = WAL")
        for number, script in enumerate(MIGRATIONS, start=1):
            db.executescript(f"BEGIN;\n{script}\nPRAGMA user_version = {number};\nCOMMIT;")
        if version is not None:
            db.execute(f"PRAGMA user_version = {version}")
    return path


def without_permission_override() -> None:
    """In the child, before exec: drop root's power to ignore file permissions.

    Root passes any permission check through CAP_DAC_OVERRIDE, so a read-only file stays
    writable for a test suite running as root.  Dropping that capability (and
    CAP_DAC_READ_SEARCH) from the bounding set makes the kernel apply the file's mode bits to
    the exec'd bot as to any owner: a 0444 file really cannot be opened for writing.
    """
    if os.geteuid() != 0:
        return
    libc = ctypes.CDLL(None, use_errno=True)
    pr_capbset_drop, cap_dac_override, cap_dac_read_search = 24, 1, 2
    for capability in (cap_dac_override, cap_dac_read_search):
        if libc.prctl(pr_capbset_drop, capability, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")


def test_a_file_that_is_not_a_database_is_refused_in_one_line(tmp_path: Path) -> None:
    database = tmp_path / "boneyard.sqlite3"
    database.write_bytes(os.urandom(4096))
    result = run_bot(tmp_path, bot_environment(database))
    assert result.returncode == 3
    line = single_line(result)
    assert f"the database {database} is damaged or not a SQLite database (file is not a database)" in line
    assert "restore a backup" in line


def test_a_damaged_database_is_refused_in_one_line(tmp_path: Path) -> None:
    database = migrated_database(tmp_path / "boneyard.sqlite3")
    with contextlib.closing(sqlite3.connect(database)) as db:
        db.executemany("INSERT INTO meta (key, value) VALUES (?, ?)", [(f"k{i}", "x" * 500) for i in range(200)])
        db.commit()
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    page_size = 4096
    with database.open("r+b") as file:  # scribble over a page in the middle of the file
        file.seek(page_size * (database.stat().st_size // page_size // 2))
        file.write(b"\xff" * page_size)
    result = run_bot(tmp_path, bot_environment(database))
    assert result.returncode == 3
    assert f"the database {database} is damaged" in single_line(result)


def test_a_read_only_database_is_refused_in_one_line(tmp_path: Path) -> None:
    database = migrated_database(tmp_path / "boneyard.sqlite3")
    database.chmod(0o444)
    tmp_path.chmod(0o777)  # the directory stays writable: only the file itself is read-only
    probe = subprocess.run(
        [sys.executable, "-c", f"open({str(database)!r}, 'r+b')"],
        capture_output=True,
        text=True,
        preexec_fn=without_permission_override,
        check=False,
    )
    assert "PermissionError" in probe.stderr, "the file must really be read-only for the bot's process"

    result = run_bot(tmp_path, bot_environment(database), preexec=without_permission_override)
    assert result.returncode == 3
    assert f"the database {database} is read-only" in single_line(result)


def test_a_newer_schema_is_refused_in_one_line(tmp_path: Path) -> None:
    newer = len(MIGRATIONS) + 1
    database = migrated_database(tmp_path / "boneyard.sqlite3", version=newer)
    result = run_bot(tmp_path, bot_environment(database))
    assert result.returncode == 3
    line = single_line(result)
    assert f"the database {database} has schema version {newer}, newer than this Boneyard knows ({newer - 1})" in line


def test_a_missing_directory_is_refused_in_one_line(tmp_path: Path) -> None:
    database = tmp_path / "nowhere" / "boneyard.sqlite3"
    result = run_bot(tmp_path, bot_environment(database))
    assert result.returncode == 3
    assert f"the database directory {database.parent} does not exist" in single_line(result)
    assert not database.parent.exists()


def test_a_bad_setting_is_refused_in_one_line_naming_it(tmp_path: Path) -> None:
    result = run_bot(tmp_path, bot_environment(tmp_path / "db.sqlite3", TYPED_MOVES="maybe"))
    assert result.returncode == 2
    assert "TYPED_MOVES must be `on` or `off`, not 'maybe'" in single_line(result)
    assert not (tmp_path / "db.sqlite3").exists()


@pytest.mark.slow  # two real bot processes: the first connected to the fake Discord
async def test_a_new_database_is_announced_and_a_second_bot_on_it_is_refused(tmp_path: Path) -> None:
    database = tmp_path / "data" / "boneyard.sqlite3"
    database.parent.mkdir()
    async with FakeDiscord() as fake:
        environment = bot_environment(Path("data/boneyard.sqlite3"), DISCORD_API_BASE=fake.base_url)
        first = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", cwd=tmp_path, env=environment, stderr=asyncio.subprocess.PIPE
        )
        try:
            await fake.wait_until_ready(timeout=HANG)
            with contextlib.closing(sqlite3.connect(database)) as db:
                assert db.execute("PRAGMA user_version").fetchone() == (len(MIGRATIONS),)

            second = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", cwd=tmp_path, env=environment, stderr=asyncio.subprocess.PIPE
            )
            _, refused = await asyncio.wait_for(second.communicate(), HANG)
            assert second.returncode == 3
            lines = refused.decode().strip().splitlines()
            assert lines == [
                f"boneyard: another Boneyard process is already using {database} (it holds {database}.lock); "
                "stop it first: two bots on one database would answer every command twice"
            ]
        finally:
            first.send_signal(signal.SIGTERM)
            _, log = await asyncio.wait_for(first.communicate(), HANG)
    output = log.decode()
    assert first.returncode == 0, output
    assert f"created a new, empty database at {database} (expected on the first start" in output
    assert "Traceback" not in output
    warnings = [line for line in output.splitlines() if " WARNING " in line or " ERROR " in line]
    assert len(warnings) == 1 and "created a new, empty database" in warnings[0], output


def test_the_lock_is_exclusive_and_dies_with_its_process(tmp_path: Path) -> None:
    database = tmp_path / "boneyard.sqlite3"
    lock = hold_process_lock(database)
    with pytest.raises(StartupRefused, match="another Boneyard process is already using"):
        hold_process_lock(database)
    lock.release()

    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time; from bot.app.startup import hold_process_lock; "
            f"lock = hold_process_lock(__import__('pathlib').Path({str(database)!r})); print('held', flush=True); "
            "time.sleep(60)",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        with pytest.raises(StartupRefused):
            hold_process_lock(database)
    finally:
        holder.kill()  # SIGKILL: no clean-up runs in the holder
        holder.wait(HANG)
    hold_process_lock(database).release()  # the kernel dropped the dead process's lock


async def test_a_store_that_fails_to_open_leaves_no_thread_behind(tmp_path: Path) -> None:
    """aiosqlite's worker thread is not a daemon: one left running blocks the interpreter's exit.

    The exception is kept while the threads are checked: its traceback holds the half-opened
    connection, as it does while start-up reports the error, so only an explicit close stops the
    thread (garbage collection would stop it too, later, and only once nothing refers to it)."""
    database = migrated_database(tmp_path / "boneyard.sqlite3", version=len(MIGRATIONS) + 1)
    before = set(threading.enumerate())
    with pytest.raises(sqlite3.DatabaseError, match="newer than this code knows") as refused:
        await Store.open(database)
    left = [thread for thread in set(threading.enumerate()) - before if not thread.daemon]
    for thread in left:
        thread.join(2)
    assert not [thread for thread in left if thread.is_alive()], refused.value


def damaged_in_the_middle(database: Path) -> Path:
    """A migrated database with a page in the middle of the file scribbled over."""
    migrated_database(database)
    with contextlib.closing(sqlite3.connect(database)) as db:
        db.executemany("INSERT INTO meta (key, value) VALUES (?, ?)", [(f"k{i}", "x" * 500) for i in range(200)])
        db.commit()
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    page_size = 4096
    with database.open("r+b") as file:
        file.seek(page_size * (database.stat().st_size // page_size // 2))
        file.write(b"\xff" * page_size)
    return database


def test_a_large_file_is_fully_checked_after_start_instead(tmp_path: Path) -> None:
    """Over FULL_CHECK_BYTES only the header and schema are read before start-up; the page
    scan that finds the damage is `scan_sqlite_file`."""
    from bot.store import health

    database = damaged_in_the_middle(tmp_path / "boneyard.sqlite3")
    with pytest.raises(health.Unusable, match="is damaged"):  # a small file: refused before start-up
        health.check_sqlite_file(database, len(MIGRATIONS))
    saved = health.FULL_CHECK_BYTES
    try:
        health.FULL_CHECK_BYTES = 0
        assert health.check_sqlite_file(database, len(MIGRATIONS)) == (False, True)
    finally:
        health.FULL_CHECK_BYTES = saved
    verdict = health.scan_sqlite_file(database)
    assert verdict is not None and verdict.startswith(f"the database {database} is damaged"), verdict
    assert health.scan_sqlite_file(migrated_database(tmp_path / "sound.sqlite3")) is None


@pytest.mark.slow  # a real bot process connected to the fake Discord, stopped by its own scan
async def test_a_large_damaged_file_stops_the_started_bot_with_exit_3(tmp_path: Path) -> None:
    database = damaged_in_the_middle(tmp_path / "boneyard.sqlite3")
    as_if_large = (
        "import sys; import bot.store.health as health; health.FULL_CHECK_BYTES = 0; "
        "from bot.__main__ import main; sys.exit(main([]))"
    )
    async with FakeDiscord() as fake:
        bot = await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            as_if_large,
            cwd=tmp_path,
            env=bot_environment(database, DISCORD_API_BASE=fake.base_url),
            stderr=asyncio.subprocess.PIPE,
        )
        _, log = await asyncio.wait_for(bot.communicate(), HANG)
    lines = log.decode().strip().splitlines()
    assert bot.returncode == 3, log.decode()
    assert lines[-1].startswith(f"boneyard: the database {database} is damaged"), lines[-1]
    assert any(" ERROR " in line and "is damaged" in line for line in lines[:-1])
    assert "Traceback" not in log.decode()
