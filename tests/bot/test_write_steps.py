"""`Database.write_steps`: a transaction written in one go, all or nothing, on both backends."""

from __future__ import annotations

import pytest

from bot.store import Conflict, Store
from bot.store.database import Step

INSERT_META = "INSERT INTO meta (key, value) VALUES (?, ?)"


async def meta(store: Store) -> dict[str, str]:
    return {str(k): str(v) for k, v in await store.fetch_all("SELECT key, value FROM meta")}


async def test_every_step_is_written(store: Store) -> None:
    await store.set_meta("a", "1")
    written = await store.db.write_steps(
        [
            Step("UPDATE meta SET value = ? WHERE key = ?", ("2", "a"), exactly_one=True),
            Step(INSERT_META, [("b", "x"), ("c", "y")], many=True),
            Step(INSERT_META, [], many=True),  # nothing to insert is fine
            Step("UPDATE meta SET value = 'z' WHERE key = 'nobody'"),  # changes none, not required to
        ]
    )
    assert written == []
    assert await meta(store) == {"a": "2", "b": "x", "c": "y"}


async def test_a_step_that_must_change_one_row_undoes_everything_before_it(store: Store) -> None:
    await store.set_meta("a", "1")
    written = await store.db.write_steps(
        [
            Step(INSERT_META, [("b", "x")], many=True),
            Step("UPDATE meta SET value = ? WHERE key = ?", ("2", "missing"), exactly_one=True),
            Step(INSERT_META, [("c", "y")], many=True),
        ]
    )
    assert written is None
    assert await meta(store) == {"a": "1"}
    assert await store.db.write_steps([Step(INSERT_META, ("d", "w"))]) == [], "the database is usable after it"


async def test_a_refused_key_undoes_everything_and_says_conflict(store: Store) -> None:
    await store.set_meta("a", "1")
    with pytest.raises(Conflict):
        await store.db.write_steps(
            [
                Step("UPDATE meta SET value = ? WHERE key = ?", ("2", "a"), exactly_one=True),
                Step(INSERT_META, [("b", "x"), ("a", "again")], many=True),
            ]
        )
    assert await meta(store) == {"a": "1"}


async def test_a_returning_step_gives_back_its_rows_once_committed(store: Store) -> None:
    written = await store.db.write_steps(
        [
            Step(INSERT_META, [("b", "x")], many=True),
            Step(
                "INSERT INTO meta (key, value) VALUES (?, ?), (?, ?) RETURNING key",
                ("c", "y", "d", "z"),
                returning=True,
            ),
            Step("UPDATE meta SET value = 'w' WHERE key = 'b'", exactly_one=True),
        ]
    )
    assert written is not None and sorted(written) == [("c",), ("d",)]
    assert await meta(store) == {"b": "w", "c": "y", "d": "z"}


async def test_a_returning_step_is_undone_with_its_transaction(store: Store) -> None:
    written = await store.db.write_steps(
        [
            Step("INSERT INTO meta (key, value) VALUES (?, ?) RETURNING key", ("c", "y"), returning=True),
            Step("UPDATE meta SET value = ? WHERE key = ?", ("2", "missing"), exactly_one=True),
        ]
    )
    assert written is None
    assert await meta(store) == {}
