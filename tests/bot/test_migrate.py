"""`python -m bot migrate`: a SQLite database copied into PostgreSQL, counted and replayed."""

from __future__ import annotations

import io
import json
import random
import sqlite3
from pathlib import Path

from bot.app.migrate import migrate
from bot.services.matches import MatchService
from bot.services.notices import Holidays, NoticeService
from bot.services.private_messages import PrivateMessage, PrivateMessages
from bot.services.ratings import RatingBook
from bot.services.tournaments import TournamentService
from bot.store import Store
from bot.store.analyses import AnalysisStore
from bot.store.copy import NOT_COPIED, TABLES, counts
from bot.store.languages import LanguageStore
from bot.store.lobby import LobbyStore
from bot.store.notices import Vacation
from tests.bot.conftest import ALICE, BOB, CAROL, GUILD
from tests.conftest import fresh_database
from tests.postgres import PostgresServer


async def _community(path: Path) -> dict[int, object]:
    """A SQLite database with something in every table; returns every match row by id."""
    store = await Store.open(path)
    service = MatchService(store)
    ratings = RatingBook(store)
    service.finish_listeners.append(ratings.record)
    rng = random.Random(5)
    for number, game in enumerate(["focus", "domineering", "dominance", "domino_wars", "focus"]):
        row = await service.challenge(
            game=game,
            channel_id=600 + number,
            guild_id=GUILD,
            challenger_id=ALICE,
            opponent_id=BOB,
            seat_pref="first",
            clock="blitz" if number % 2 else None,
        )
        update = await service.accept(row.id, BOB)
        if number == 1:
            await service.abort(row.id, ALICE)  # one vote: kept, the match goes on
            await service.pause(row.id, ALICE)  # the same for a pause
            await store.first_dm_notice(row.id, BOB)
            shown = PrivateMessage(row.id, 1, 2**61 + 1, 2**61 + 2, row.version, "shown", True)
            await PrivateMessages(store).keep(shown)
        for _ in range(rng.randrange(3, 12)):
            if update.outcome is not None or not update.to_move:
                break
            user = update.to_move[0]
            update = await service.play(row.id, user, rng.choice(await service.legal_moves(row.id, user)))
        if number == 0:
            await service.resign(row.id, BOB)
    await service.challenge(game="focus", channel_id=700, guild_id=GUILD, challenger_id=CAROL, opponent_id=None)
    tournaments = TournamentService(service, ratings)
    cup = await tournaments.create(
        guild_id=GUILD, channel_id=800, host_id=CAROL, name="Cup", game="focus", format="swiss"
    )
    await tournaments.join(cup.id, ALICE, "alice")
    duel = await tournaments.create(
        guild_id=GUILD, channel_id=801, host_id=CAROL, name="Duel", game="focus", format="deathmatch"
    )
    for player, name in ((ALICE, "alice"), (BOB, "bob")):
        await tournaments.join(duel.id, player, name)
    await tournaments.begin(duel.id, host=True)
    (game,) = (await tournaments.sync(duel.id)).to_open
    await tournaments.open_game(duel.id, game, channel_id=802, intro="Duel!", title="Final")
    await store.set_meta("clock_heartbeat", "123.5")
    lobby = LobbyStore(store)  # the lobby's tables: server settings and a standing draw offer
    await lobby.save_guild_settings(GUILD, "channel", "rapid")
    await LanguageStore(store).save_guild_language(GUILD, "pt_BR")  # languages: the server's and a user's
    await LanguageStore(store).save_user_language(ALICE, "de")
    running = (await store.active_matches())[0]
    await lobby.put_offer(running.id, "draw", ALICE, running.version)
    notices = NoticeService(service)  # notices, vacations and nudges (migration 11)
    await notices.choose(ALICE, mode="digest", zone="Europe/Berlin", hour=8, quiet="22-7")
    await notices.configure_server(GUILD, mode="dm", vacation_days=10)
    await notices.hold(ALICE, running.id, 1000.0)
    await Holidays(service, notices).start(GUILD, BOB, 2)
    await notices.store.pause_for_vacation(running.id, BOB, None)
    over = Vacation(GUILD, CAROL, 0.0, 86400.0)
    await notices.store.start_vacation(over)
    await notices.store.end_vacation(over, 1970, 1)
    await notices.store.nudge(running.id, ALICE, 2000.0, 0.0)
    judged = [[0, 0, "a1-a2", "b1-b2", 0.5, 0.25, False]]
    await AnalysisStore(store).put(1, {"game": "focus", "wide": 1, "focused": 1, "judgements": judged}, 2.5)
    rows = {r[0]: await store.get_match(r[0]) for r in await store.fetch_all("SELECT id FROM matches")}
    await store.close()
    return rows


async def test_migrate_copies_counts_and_replays_every_match(tmp_path: Path, postgres_server: PostgresServer) -> None:
    source = tmp_path / "old.sqlite3"
    matches = await _community(source)
    async with fresh_database(postgres_server) as url:
        out = io.StringIO()
        assert await migrate(source, url, out=out) == 0, out.getvalue()
        assert "every match replays" in out.getvalue()
        copied = await Store.open(url)
        original = await Store.open(source)
        assert await counts(copied) == await counts(original)
        assert all(n > 0 for n in (await counts(copied)).values()), await counts(copied)
        for match_id, row in matches.items():
            assert await copied.get_match(match_id) == row
        assert await copied.moves(1) == await original.moves(1)
        # the bot goes on on PostgreSQL: new ids follow the copied ones
        fresh = await MatchService(copied).challenge(
            game="focus", channel_id=999, guild_id=GUILD, challenger_id=ALICE, opponent_id=BOB
        )
        assert fresh.id == max(matches) + 1
        await original.close()
        await copied.close()

        # a second copy into the same database is refused and writes nothing
        refused = io.StringIO()
        assert await migrate(source, url, out=refused) == 2
        assert "not empty" in refused.getvalue()


async def test_migrate_reports_a_match_whose_log_does_not_replay(
    tmp_path: Path, postgres_server: PostgresServer
) -> None:
    source = tmp_path / "old.sqlite3"
    await _community(source)
    with sqlite3.connect(source) as db:  # a snapshot that no longer matches its move log
        (snapshot,) = db.execute("SELECT snapshot FROM matches WHERE id = 3").fetchone()
        bent = json.loads(snapshot)
        bent["ply"] = int(bent.get("ply", 0)) + 7
        db.execute("UPDATE matches SET snapshot = ? WHERE id = 3", (json.dumps(bent),))
    async with fresh_database(postgres_server) as url:
        out = io.StringIO()
        assert await migrate(source, url, out=out) == 1
        assert "[3]" in out.getvalue()


def test_every_table_is_copied() -> None:
    with sqlite3.connect(":memory:") as db:
        from bot.store import MIGRATIONS

        for script in MIGRATIONS:
            db.executescript(script)
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert tables == set(TABLES) | set(NOT_COPIED)
    assert not set(TABLES) & set(NOT_COPIED)


def test_the_command_line_refuses_a_bad_target_or_a_missing_file(tmp_path: Path) -> None:
    import subprocess
    import sys

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        env = {
            "PATH": "/usr/bin:/bin",
            "DATABASE_PATH": str(tmp_path / "none.sqlite3"),
            "PYTHONPATH": str(Path(__file__).resolve().parents[2]),  # the code under test
        }
        return subprocess.run(
            [sys.executable, "-m", "bot", "migrate", *args], capture_output=True, text=True, env=env, check=False
        )

    bad = run("--to", "mysql://db")
    assert bad.returncode == 2 and "postgresql://" in bad.stderr
    missing = run("--to", "postgresql://nobody@127.0.0.1:1/none")
    assert missing.returncode == 2 and "no SQLite database at" in missing.stderr
    assert not (tmp_path / "none.sqlite3").exists()  # nothing created by looking
