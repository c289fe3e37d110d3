"""The real bot on PostgreSQL (DATABASE_URL) through the fake Discord: a match from challenge
to resignation, across a restart, with every board posted once."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.store import Store
from tests.conftest import fresh_database
from tests.e2e.harness import Harness, assert_board_for, board_png
from tests.fake_discord import FakeDiscord, restore_discord_defaults
from tests.postgres import PostgresServer

pytestmark = pytest.mark.e2e


async def test_a_match_with_a_restart_on_postgresql(tmp_path: Path, postgres_server: PostgresServer) -> None:
    async with fresh_database(postgres_server) as url, FakeDiscord() as fake:
        harness = Harness(fake, tmp_path / "unused.sqlite3")
        harness.database_url = url
        try:
            bot = await harness.start()
            assert bot.store.backend == "postgresql"
            alice, bob, _ = fake.players
            match_id, board = await harness.start_match("focus", alice, bob)
            assert_board_for(board, alice)
            assert_board_for(await harness.slash_move(alice, "d2-d1"), bob)
            await harness.restart()
            assert_board_for(await harness.slash_move(bob, "c2-c1"), alice)
            ask = await harness.command("resign", user=bob)
            confirm = fake.original_response(ask)
            assert confirm is not None
            mark = fake.mark()
            await fake.wait_for_response(await fake.click_button(confirm, f"boneyard:resign:{match_id}", user=bob))
            outcome = await fake.wait_for_message(fake.channel, lambda m: bool(m.attachments), since=mark)
            assert not (tmp_path / "unused.sqlite3").exists()  # nothing went to SQLite
            assert "🏆 **alice** wins" in outcome.content and "📈 Ratings: alice 1520 (+20)" in outcome.content
            board_png(outcome)
            await harness.stop()
        finally:
            await harness.stop()
            restore_discord_defaults()
        fake.assert_clean()
        boards = [m for m in fake.bot_messages(fake.channel) if m.attachments]
        assert len(boards) == 4  # start, two moves, the end: each once
        store = await Store.open(url)
        try:
            assert await store.move_count(match_id) == 3  # two moves and the resignation's line
            assert await store.unsent_announcements() == []
            row = await store.get_match(match_id)
            assert row is not None and row.status == "finished"
        finally:
            await store.close()
