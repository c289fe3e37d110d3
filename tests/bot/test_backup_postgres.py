"""`python -m bot backup PATH` with DATABASE_URL: a PostgreSQL database dumped, as of one
snapshot, into one SQLite file, and restored from it by `python -m bot migrate`."""

from __future__ import annotations

import asyncio
import contextlib
import io
import sqlite3
import sys
from pathlib import Path

import pytest

from bot.app.migrate import migrate
from bot.store import MIGRATIONS, Store
from bot.store.copy import TABLES, counts
from tests.bot.test_backup import moves_and_version
from tests.bot.test_migrate import _community
from tests.bot.test_startup import HANG
from tests.conftest import fresh_database
from tests.postgres import PostgresServer
from tests.subprocess_env import clean_environment


async def run_backup(cwd: Path, url: str, *target: str) -> tuple[int, str, str]:
    """The command as an operator types it: no token needed, DATABASE_URL from the environment."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "backup",
        *target,
        cwd=cwd,
        env=clean_environment(DATABASE_URL=url),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(process.communicate(), HANG)
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


def names(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir())


async def everything(store: Store) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every table, in a stable order (floats compared as stored)."""
    return {table: sorted(await store.fetch_all(f"SELECT * FROM {table}"), key=repr) for table in TABLES}


@pytest.mark.slow  # backups of PostgreSQL taken while writers commit moves
async def test_a_backup_is_one_snapshot_while_moves_are_committed(tmp_path: Path, postgres_url: str) -> None:
    """Each commit adds a move and bumps the match's version together: any consistent copy
    has `version == number of moves`, a torn one (tables read at different moments) not."""
    store = await Store.open(postgres_url)
    await store.db.execute(
        "INSERT INTO matches (id, game, options, channel_id, status, challenger_id, seed, seed_hash, "
        "created_at, updated_at) VALUES (1, 'focus', '{}', 1, 'active', 1, 's', 'h', 0, 0)"
    )
    commits = 0
    stop, warmed_up = asyncio.Event(), asyncio.Event()

    async def writer() -> None:
        nonlocal commits
        while not stop.is_set():
            async with store.transaction() as tx:
                await tx.execute(
                    "INSERT INTO moves (match_id, ply, seat, move, public, forced, at) VALUES (1, ?, 0, ?, 1, 0, 0)",
                    (commits, "x" * 2000),
                )
                await tx.execute("UPDATE matches SET version = ? WHERE id = 1", (commits + 1,))
            commits += 1
            if commits >= 200:
                warmed_up.set()

    writing = asyncio.create_task(writer())
    seen = []
    try:
        await asyncio.wait_for(warmed_up.wait(), HANG)
        for number in range(3):
            before = commits
            target = tmp_path / f"copy-{number}.sqlite3"
            status, out, err = await run_backup(tmp_path, postgres_url, str(target))
            assert status == 0, err
            assert out.startswith(f"backed up {postgres_url} to {target} (")
            assert f"schema version {len(MIGRATIONS)}, 1 matches)" in out
            assert commits > before, "the writer committed while the backup ran"
            moves, version = moves_and_version(target)
            assert moves == version, f"torn copy: {moves} moves but version {version}"
            assert moves >= before
            seen.append(moves)
    finally:
        stop.set()
        await writing
        await store.close()
    assert seen == sorted(seen) and len(set(seen)) == len(seen), seen
    assert names(tmp_path) == [f"copy-{n}.sqlite3" for n in range(3)], "one file each, nothing half-written"


async def test_a_backup_restores_into_an_empty_database_row_for_row(
    tmp_path: Path, postgres_server: PostgresServer
) -> None:
    """README, Backups (PostgreSQL): `python -m bot migrate --from FILE --to URL` into an empty
    database brings back every row of every table; the file also runs the bot as it is."""
    async with fresh_database(postgres_server) as url:
        await _community(url)  # something in every table, made by the services on PostgreSQL
        status, out, err = await run_backup(tmp_path, url, ".")
        assert status == 0, err
        (made_name,) = names(tmp_path)
        made = tmp_path / made_name
        assert made_name.startswith("boneyard-") and made_name.endswith(".sqlite3")
        assert f" to {made} (" in out
        original = await Store.open(url)
        before = await everything(original)
        await original.close()
    assert all(before[table] for table in TABLES), {t: len(r) for t, r in before.items()}

    with contextlib.closing(sqlite3.connect(made)) as db:
        assert db.execute("PRAGMA user_version").fetchone() == (len(MIGRATIONS),)
        assert db.execute("PRAGMA journal_mode").fetchone() == ("delete",)
    as_file = await Store.open(made)
    try:
        assert await counts(as_file) == {table: len(rows) for table, rows in before.items()}
    finally:
        await as_file.close()

    async with fresh_database(postgres_server) as empty:
        report = io.StringIO()
        assert await migrate(made, empty, out=report) == 0, report.getvalue()
        assert "every match replays" in report.getvalue()
        restored = await Store.open(empty)
        try:
            assert await everything(restored) == before
        finally:
            await restored.close()


async def test_an_unreachable_server_is_refused_in_one_line_and_writes_nothing(tmp_path: Path) -> None:
    url = "postgresql://boneyard:hunter2@127.0.0.1:9/boneyard"
    status, out, err = await run_backup(tmp_path, url, "copy.sqlite3")
    assert status == 3
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(
        "boneyard: cannot connect to the database postgresql://boneyard:***@127.0.0.1:9/boneyard: "
    ), err
    assert "hunter2" not in err + out
    assert names(tmp_path) == []


async def test_a_database_without_boneyard_tables_is_refused(tmp_path: Path, postgres_url: str) -> None:
    status, _, err = await run_backup(tmp_path, postgres_url, "copy.sqlite3")
    assert status == 3
    assert err.strip() == f"boneyard: {postgres_url} holds no Boneyard database (no schema_version table)"
    assert names(tmp_path) == []
