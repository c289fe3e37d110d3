"""Matches that ended while the ratings were not updated (a crash) are rated at start-up:
the same numbers as rating them one by one, computed off the event loop."""

from __future__ import annotations

import random
import shutil
import threading
from pathlib import Path
from typing import Any

import pytest

import bot.services.ratings
from bot.games import Outcome
from bot.services.ratings import RatingBook
from bot.store import Store
from tests.bot.match_driver import stored_challenge

PLAYERS = [2001, 2002, 2003, 2004, 2005]


async def _finished_matches(store: Store, count: int, rng: random.Random) -> None:
    """`count` finished rated matches between random players, never rated."""
    for number in range(count):
        a, b = rng.sample(PLAYERS, 2)
        match_id = await stored_challenge(
            store, game=rng.choice(["focus", "domineering"]), channel=9000 + number, challenger=a, opponent=b
        )
        started = await store.start_match(match_id, (a, b), {}, [], b)
        winners = rng.choice([frozenset({0}), frozenset({1}), frozenset()])
        await store.commit_moves(
            match_id,
            expected_version=started.version,
            first_ply=0,
            moves=[],
            snapshot={},
            status="finished",
            outcome=Outcome(winners, "test").to_json(),
        )


async def _table(store: Store) -> list[Any]:
    return [
        *await store.fetch_all("SELECT * FROM ratings ORDER BY user_id, game"),
        *await store.fetch_all("SELECT * FROM rated_matches ORDER BY match_id"),
    ]


async def test_catch_up_rates_like_one_by_one_and_off_the_event_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = await Store.open(tmp_path / "a.sqlite3")
    await _finished_matches(first, 60, random.Random(7))
    book = RatingBook(first)
    # one rating already there, as after a partial run before the crash
    (done,) = await first.fetch_all("SELECT id FROM matches ORDER BY updated_at, id LIMIT 1")
    first_match = await first.get_match(done[0])
    assert first_match is not None and await book.record(first_match) is not None
    await first.close()
    shutil.copy(tmp_path / "a.sqlite3", tmp_path / "b.sqlite3")

    threads: list[threading.Thread] = []
    replay = bot.services.ratings.replay_ratings

    def watched(*args: Any) -> Any:
        threads.append(threading.current_thread())
        return replay(*args)

    monkeypatch.setattr(bot.services.ratings, "replay_ratings", watched)
    caught = await Store.open(tmp_path / "a.sqlite3")
    assert await RatingBook(caught).catch_up() == 59
    assert threads and threads[0] is not threading.main_thread()
    assert await RatingBook(caught).catch_up() == 0

    reference = await Store.open(tmp_path / "b.sqlite3")
    one_by_one = RatingBook(reference)
    rows = await reference.fetch_all(
        "SELECT id FROM matches WHERE id NOT IN (SELECT match_id FROM rated_matches) ORDER BY updated_at, id"
    )
    for (match_id,) in rows:
        match = await reference.get_match(match_id)
        assert match is not None
        await one_by_one.record(match)
    assert await _table(caught) == await _table(reference)
    await caught.close()
    await reference.close()
