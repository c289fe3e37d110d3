"""At start-up a full disk, a disk I/O error or a busy file is named as what it is, never
"damaged" (bot/store/health.py `FAULTS`), and is marked for a restart (exit 75)."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.app.startup import StartupRefused, check_database
from bot.store import MIGRATIONS, health


class _Failing:
    """A connection whose every statement fails the way a full disk makes SQLite fail."""

    def __init__(self, real: sqlite3.Connection, error: str) -> None:
        self.real = real
        self.error = error

    def execute(self, sql: str, *args: Any) -> Any:
        raise sqlite3.OperationalError(self.error)

    def close(self) -> None:
        self.real.close()


@pytest.mark.parametrize(
    ("error", "named", "retry"),
    [
        ("database or disk is full", "is full", True),
        ("disk I/O error", "failed to read or write", True),
        ("database is locked", "is busy", True),
        ("attempt to write a readonly database", "is read-only", False),
    ],
)
def test_a_fault_of_the_disk_is_named_not_called_damage(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, error: str, named: str, retry: bool
) -> None:
    database = tmp_path / "boneyard.sqlite3"
    sqlite3.connect(database).close()
    real_connect = sqlite3.connect
    monkeypatch.setattr(health.sqlite3, "connect", lambda *a, **k: _Failing(real_connect(*a, **k), error))
    with pytest.raises(StartupRefused) as refused:
        check_database(database, len(MIGRATIONS))
    assert named in str(refused.value) and "damaged" not in str(refused.value)
    assert refused.value.retry is retry
