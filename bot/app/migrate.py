"""`python -m bot migrate --to postgresql://...`: move a community from SQLite to PostgreSQL.

Stop the bot first.  The SQLite file (DATABASE_PATH, or `--from PATH`) is copied into the
empty PostgreSQL database (bot/store/copy.py), then checked: the same number of rows in
every table, and every started match replayed from its move log to the very position its
stored snapshot holds.  Only then is the copy reported good; set DATABASE_URL to use it.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path
from typing import TextIO

from bot.games import SnapshotMismatch
from bot.services.matches import MatchService
from bot.store import Store
from bot.store.copy import CopyRefused, copy_into, counts


async def check_replays(store: Store) -> list[int]:
    """Ids of started matches whose move log does not rebuild their snapshot (none, normally)."""
    service = MatchService(store, cache_size=1)
    wrong = []
    for match_id in await store.started_match_ids():
        row = await service.get(match_id)
        assert row.snapshot is not None
        replayed = await service.replay(match_id)
        row, later = await service.snapshot_moves(row)
        assert row.snapshot is not None
        try:
            stored = service.games[row.game].load(row.snapshot, later)
        except SnapshotMismatch:
            wrong.append(match_id)
            continue
        if replayed != stored:  # the whole state, history the snapshot leaves to the log included
            wrong.append(match_id)
    return wrong


async def migrate(source_path: Path, url: str, *, out: TextIO = sys.stdout) -> int:
    """Copy and check; returns a process exit code (0: the copy is good).  `source_path`
    must exist (`main` checks; opening would create an empty file)."""

    def say(text: str) -> None:
        print(text, file=out)

    source = await Store.open(source_path)
    target = await Store.open(url)
    try:
        try:
            copied = await copy_into(source, target)
        except CopyRefused as exc:
            say(f"boneyard migrate: {exc}")
            return 2
        before, after = await counts(source), await counts(target)
        for table, number in copied.items():
            say(f"{table:20} {number:>8} rows")
        if before != after:
            say(f"boneyard migrate: row counts differ after the copy: {before} vs {after}")
            return 1
        wrong = await check_replays(target)
        if wrong:
            say(f"boneyard migrate: matches whose log does not replay to their position: {wrong}")
            return 1
        say(f"copied and checked: {sum(after.values())} rows, every match replays. Set DATABASE_URL to use it.")
        return 0
    finally:
        await source.close()
        await target.close()


def main(argv: list[str], default_source: Path) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot migrate", description=__doc__.splitlines()[0])
    parser.add_argument("--to", required=True, help="the empty PostgreSQL database: postgresql://user:pw@host/db")
    parser.add_argument("--from", dest="source", type=Path, default=default_source, help="the SQLite file")
    args = parser.parse_args(argv)
    if not args.to.startswith(("postgresql://", "postgres://")):
        parser.error("--to must be a postgresql:// URL")
    if not args.source.is_file():
        print(f"boneyard migrate: no SQLite database at {args.source.resolve()}", file=sys.stderr)
        return 2
    return asyncio.run(migrate(args.source, args.to))
