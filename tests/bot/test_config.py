"""Settings: `.env` files read the way shells and Compose read them, and every bad value named."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.app.config import ConfigError, Settings, database_setting

TOKEN = "MTIz.secret-token-value"


def load_file(tmp_path: Path, text: str, environ: dict[str, str] | None = None) -> Settings:
    dotenv = tmp_path / ".env"
    dotenv.write_text(text)
    return Settings.load(environ=environ or {}, dotenv=dotenv)


def test_inline_comments_quotes_and_export_lines(tmp_path: Path) -> None:
    settings = load_file(
        tmp_path,
        f"export DISCORD_TOKEN={TOKEN}\n"
        "TYPED_MOVES=off   # no Message Content intent\n"
        "DATABASE_PATH='data/my # file.sqlite3'\n"
        'TOURNAMENT_HOST_ROLES="Tournament Staff, 123456789012345678"  # two roles\n'
        "STATE_CACHE_SIZE = 64\n"
        "OWNER_IDS=\n"
        "# LOG_LEVEL=DEBUG\n",
    )
    assert settings.token == TOKEN
    assert settings.typed_moves is False
    assert settings.database == Path("data/my # file.sqlite3")
    assert settings.host_roles == frozenset({"tournament staff", "123456789012345678"})
    assert settings.state_cache_size == 64
    assert settings.owner_ids == frozenset()
    assert settings.log_level == "INFO"


def test_the_environment_wins_over_the_file(tmp_path: Path) -> None:
    settings = load_file(
        tmp_path, f"DISCORD_TOKEN={TOKEN}\nLOG_LEVEL=debug\n", environ={"LOG_LEVEL": "warning", "DISCORD_TOKEN": "x"}
    )
    assert (settings.log_level, settings.token) == ("WARNING", "x")


def test_defaults_with_only_a_token() -> None:
    settings = Settings.load(environ={"DISCORD_TOKEN": TOKEN}, dotenv=None)
    assert settings.database == Path("boneyard.sqlite3")
    assert settings.sync_commands == ""
    assert settings.api_base is None
    assert settings.typed_moves is True
    assert settings.state_cache_size == 256
    assert settings.forgive_downtime_minutes == 5.0
    assert settings.log_level == "INFO"


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("DISCORD_TOKEN", ""),
        ("DISCORD_TOKEN", "two words"),
        ("DATABASE_PATH", "data/"),
        ("SYNC_COMMANDS", "my server"),
        ("SYNC_COMMANDS", "12"),
        ("OWNER_IDS", "123456789012345678, alice"),
        ("TYPED_MOVES", "maybe"),
        ("STATE_CACHE_SIZE", "0"),
        ("STATE_CACHE_SIZE", "lots"),
        ("FORGIVE_DOWNTIME_MINUTES", "-3"),
        ("LOG_LEVEL", "verbose"),
        ("DISCORD_API_BASE", "localhost:8080"),
    ],
)
def test_a_bad_value_is_refused_naming_its_setting(name: str, value: str) -> None:
    environ = {"DISCORD_TOKEN": TOKEN, name: value}
    with pytest.raises(ConfigError, match=name) as refused:
        Settings.load(environ=environ, dotenv=None)
    assert TOKEN not in str(refused.value)


def test_every_bad_setting_is_reported_at_once() -> None:
    with pytest.raises(ConfigError) as refused:
        Settings.load(environ={"TYPED_MOVES": "maybe", "LOG_LEVEL": "loud", "STATE_CACHE_SIZE": "-1"}, dotenv=None)
    message = str(refused.value)
    for name in ("DISCORD_TOKEN", "TYPED_MOVES", "LOG_LEVEL", "STATE_CACHE_SIZE"):
        assert name in message
    assert "\n" not in message


@pytest.mark.parametrize(
    ("raw", "expected"), [("on", True), ("YES", True), ("1", True), ("False", False), ("0", False)]
)
def test_switch_words(raw: str, expected: bool) -> None:
    assert Settings.load(environ={"DISCORD_TOKEN": TOKEN, "TYPED_MOVES": raw}, dotenv=None).typed_moves is expected


def test_sync_and_owner_ids_take_discord_ids() -> None:
    settings = Settings.load(
        environ={
            "DISCORD_TOKEN": TOKEN,
            "SYNC_COMMANDS": "123456789012345678",
            "OWNER_IDS": "123456789012345678,223456789012345678 323456789012345678",
        },
        dotenv=None,
    )
    assert settings.sync_commands == "123456789012345678"
    assert settings.owner_ids == {123456789012345678, 223456789012345678, 323456789012345678}
    assert Settings.load(environ={"DISCORD_TOKEN": TOKEN, "SYNC_COMMANDS": "Global"}, dotenv=None).sync_commands == (
        "global"
    )


def test_maintenance_commands_need_no_token(tmp_path: Path) -> None:
    dotenv = tmp_path / ".env"
    dotenv.write_text("DATABASE_PATH=/srv/boneyard/db.sqlite3  # the volume\n")
    assert database_setting(environ={}, dotenv=dotenv) == Path("/srv/boneyard/db.sqlite3")


def test_the_example_file_loads_once_a_token_is_filled_in(tmp_path: Path) -> None:
    example = (Path(__file__).resolve().parents[2] / ".env.example").read_text()
    settings = load_file(tmp_path, example.replace("DISCORD_TOKEN=", f"DISCORD_TOKEN={TOKEN}", 1))
    assert settings.token == TOKEN
    assert settings.database == Path("boneyard.sqlite3")


@pytest.mark.parametrize(
    ("name", "value", "wanted"),
    [
        ("COMPUTER_RATED", "maybe", "COMPUTER_RATED must be `on` or `off`"),
        ("COMPUTER_ITERATIONS", "0", "COMPUTER_ITERATIONS"),
    ],
)
def test_computer_settings_are_checked_and_named(name: str, value: str, wanted: str) -> None:
    with pytest.raises(ConfigError, match=wanted):
        Settings.load(environ={"DISCORD_TOKEN": "abc", name: value}, dotenv=None)
