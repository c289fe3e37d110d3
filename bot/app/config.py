"""Settings from the environment and an optional `.env` file, in one typed, validated object.

Why python-dotenv: a hand-written parser got inline comments (`TYPED_MOVES=off  # no intent`),
quotes with `#` inside and `export` lines subtly wrong; python-dotenv reads them the way
shells and Docker Compose do.  Values already in the environment win over the file, so a
deployment (systemd, Docker) can override it.

Every setting is checked here, before anything starts, and every problem found is reported at
once, each naming its setting: a typo should cost one restart, not one per setting.  The token's
value is never repeated in a message (messages reach logs and terminals).
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from dotenv import dotenv_values

from bot.infra.shards import BadLayout, ShardLayout


class ConfigError(RuntimeError):
    """One or more settings are missing or malformed; the message names each and how to fix it."""


def read_dotenv(path: Path) -> dict[str, str]:
    """The KEY=VALUE pairs of a `.env` file (none if it does not exist); a bare `KEY` counts as empty."""
    if not path.is_file():
        return {}
    return {key: value or "" for key, value in dotenv_values(path, interpolate=False).items()}


DEFAULT_DATABASE = "boneyard.sqlite3"
DEFAULT_FORGIVE_DOWNTIME_MINUTES = 5.0
DEFAULT_STATE_CACHE_SIZE = 256
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
TRUE_WORDS = ("on", "true", "yes", "1")
FALSE_WORDS = ("off", "false", "no", "0")
T = TypeVar("T")
SNOWFLAKE = re.compile(r"[0-9]{15,21}")
"""A Discord id: 15 to 21 digits (ids of 2015 have 17, the 64-bit maximum has 20)."""


def parse_forgive_downtime(raw: str) -> float | None:
    """`FORGIVE_DOWNTIME_MINUTES`: a number of minutes (0 = forgive all downtime), or
    `off` / `never` (charge all of it); empty means the default."""
    text = raw.strip().lower()
    if not text:
        return DEFAULT_FORGIVE_DOWNTIME_MINUTES
    if text in ("off", "never", "none"):
        return None
    try:
        minutes = float(text)
    except ValueError:
        minutes = -1.0
    if not minutes >= 0 or math.isinf(minutes):
        raise ConfigError(
            f"FORGIVE_DOWNTIME_MINUTES must be a number of minutes (0 or more) or `off`, not {raw.strip()!r}."
        )
    return minutes


def parse_switch(name: str, raw: str, default: bool) -> bool:
    text = raw.strip().lower()
    if not text:
        return default
    if text in TRUE_WORDS:
        return True
    if text in FALSE_WORDS:
        return False
    raise ConfigError(f"{name} must be `on` or `off`, not {raw.strip()!r}.")


def parse_sync(raw: str) -> str:
    """`SYNC_COMMANDS`: "" (do not sync), "global", or a guild id."""
    text = raw.strip().lower()
    if text in ("", "off"):
        return ""
    if text == "global" or SNOWFLAKE.fullmatch(text):
        return text
    raise ConfigError(f"SYNC_COMMANDS must be empty, `off`, `global` or a server id, not {raw.strip()!r}.")


def parse_owner_ids(raw: str) -> frozenset[int]:
    words = raw.replace(",", " ").split()
    wrong = [word for word in words if not SNOWFLAKE.fullmatch(word)]
    if wrong:
        raise ConfigError(f"OWNER_IDS takes Discord user ids separated by spaces or commas; not ids: {wrong}.")
    return frozenset(int(word) for word in words)


def parse_cache_size(raw: str) -> int:
    text = raw.strip()
    if not text:
        return DEFAULT_STATE_CACHE_SIZE
    if not text.isdigit() or int(text) < 1:
        raise ConfigError(f"STATE_CACHE_SIZE must be a whole number of game states, 1 or more, not {text!r}.")
    return int(text)


def parse_computer_iterations(raw: str) -> int | None:
    """`COMPUTER_ITERATIONS`: empty for the levels' own budgets, else a fixed search size (tests)."""
    text = raw.strip()
    if not text:
        return None
    if not text.isdigit() or int(text) < 1:
        raise ConfigError(
            f"COMPUTER_ITERATIONS must be empty or a whole number of iterations, 1 or more, not {text!r}."
        )
    return int(text)


def parse_log_level(raw: str) -> str:
    level = raw.strip().upper() or "INFO"
    if level not in LOG_LEVELS:
        raise ConfigError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {raw.strip()!r}.")
    return level


def parse_api_base(raw: str) -> str | None:
    text = raw.strip()
    if not text:
        return None
    if not re.fullmatch(r"https?://[^\s/]+(/\S*)?", text):
        raise ConfigError(f"DISCORD_API_BASE must be an http(s) address such as http://127.0.0.1:8080, not {text!r}.")
    return text


def parse_token(raw: str) -> str:
    token = raw.strip()
    if not token:
        raise ConfigError(
            "DISCORD_TOKEN is not set. Put DISCORD_TOKEN=<your bot token> in a .env file next to "
            "pyproject.toml (see .env.example) or in the environment."
        )
    if any(character.isspace() for character in token):
        raise ConfigError("DISCORD_TOKEN contains spaces; paste the token alone (Bot tab -> Reset Token).")
    return token


def parse_database(raw: str) -> Path:
    text = raw.strip() or DEFAULT_DATABASE
    if text.endswith(("/", os.sep)):
        raise ConfigError(f"DATABASE_PATH must name a file, not a directory: {text!r}.")
    return Path(text).expanduser()


def parse_database_url(raw: str) -> str | None:
    text = raw.strip() or None
    if text is not None and not text.startswith(("postgresql://", "postgres://")):
        raise ConfigError("DATABASE_URL must be a PostgreSQL URL (postgresql://user:password@host/database).")
    return text


def parse_shards(env: Mapping[str, str]) -> ShardLayout:
    try:
        shards = ShardLayout.parse(env.get("SHARD_COUNT", ""), env.get("SHARD_IDS", ""))
    except BadLayout as exc:
        raise ConfigError(str(exc)) from None
    return shards


def environment(environ: Mapping[str, str] | None = None, dotenv: Path | None = Path(".env")) -> dict[str, str]:
    """The `.env` file's values overlaid with the environment's (the environment wins)."""
    return {**(read_dotenv(dotenv) if dotenv else {}), **(os.environ if environ is None else environ)}


def database_setting(environ: Mapping[str, str] | None = None, dotenv: Path | None = Path(".env")) -> Path:
    """Only `DATABASE_PATH`, for maintenance commands (backup) that need no token."""
    return parse_database(environment(environ, dotenv).get("DATABASE_PATH", ""))


def database_location_setting(
    environ: Mapping[str, str] | None = None, dotenv: Path | None = Path(".env")
) -> Path | str:
    """The database the bot uses, `DATABASE_URL` over `DATABASE_PATH` (as `Settings.database_location`)."""
    env = environment(environ, dotenv)
    return parse_database_url(env.get("DATABASE_URL", "")) or parse_database(env.get("DATABASE_PATH", ""))


@dataclass(frozen=True)
class Settings:
    token: str
    database: Path
    sync_commands: str  # "", "global" or a guild id
    api_base: str | None  # a fake Discord for tests; None means discord.com
    owner_ids: frozenset[int]
    log_level: str
    state_cache_size: int
    typed_moves: bool
    forgive_downtime_minutes: float | None = DEFAULT_FORGIVE_DOWNTIME_MINUTES
    """Bot downtime beyond this many minutes is not charged to a player's clock (None: all of it is)."""
    host_roles: frozenset[str] = frozenset()
    """Role names or ids whose members host tournaments (besides creators and Manage Server)."""
    computer_rated: bool = False
    """Matches against the computer change ratings (COMPUTER_RATED=on); off by default."""
    computer_iterations: int | None = None
    """COMPUTER_ITERATIONS: a fixed search size for every level (tests); None: the levels'."""
    shards: ShardLayout = field(default_factory=ShardLayout)
    """`SHARD_COUNT` / `SHARD_IDS`: which guilds this process owns (bot/infra/shards.py)."""
    database_url: str | None = None
    """`DATABASE_URL=postgresql://...`: PostgreSQL instead of the SQLite file (several bot processes)."""

    @property
    def database_location(self) -> Path | str:
        """What `Store.open` opens: the PostgreSQL URL when one is set, else the SQLite file."""
        return self.database_url or self.database

    @property
    def forgive_downtime_seconds(self) -> float | None:
        return None if self.forgive_downtime_minutes is None else self.forgive_downtime_minutes * 60

    @classmethod
    def load(cls, environ: Mapping[str, str] | None = None, dotenv: Path | None = Path(".env")) -> Settings:
        """Read and check every setting; raises one ConfigError naming every setting to fix."""
        env = environment(environ, dotenv)
        problems: list[str] = []

        def check(parse: Callable[[str], T], name: str, fallback: T) -> T:
            try:
                return parse(env.get(name, ""))
            except ConfigError as exc:
                problems.append(str(exc))
                return fallback

        settings = cls(
            token=check(parse_token, "DISCORD_TOKEN", ""),
            database=check(parse_database, "DATABASE_PATH", Path(DEFAULT_DATABASE)),
            sync_commands=check(parse_sync, "SYNC_COMMANDS", ""),
            api_base=check(parse_api_base, "DISCORD_API_BASE", None),
            owner_ids=check(parse_owner_ids, "OWNER_IDS", frozenset()),
            log_level=check(parse_log_level, "LOG_LEVEL", "INFO"),
            state_cache_size=check(parse_cache_size, "STATE_CACHE_SIZE", DEFAULT_STATE_CACHE_SIZE),
            typed_moves=check(lambda raw: parse_switch("TYPED_MOVES", raw, True), "TYPED_MOVES", True),
            forgive_downtime_minutes=check(parse_forgive_downtime, "FORGIVE_DOWNTIME_MINUTES", None),
            host_roles=frozenset(
                role.strip().lower() for role in env.get("TOURNAMENT_HOST_ROLES", "").split(",") if role.strip()
            ),
            computer_rated=check(lambda raw: parse_switch("COMPUTER_RATED", raw, False), "COMPUTER_RATED", False),
            computer_iterations=check(parse_computer_iterations, "COMPUTER_ITERATIONS", None),
            shards=check(lambda _raw: parse_shards(env), "SHARD_COUNT", ShardLayout()),
            database_url=check(parse_database_url, "DATABASE_URL", None),
        )
        if problems:
            raise ConfigError(" ".join(problems))
        return settings
