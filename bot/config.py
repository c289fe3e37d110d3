"""Settings from the environment and an optional `.env` file, in one typed object.

Why no third-party settings library: the bot needs a handful of values, and reading a
`.env` file is a dozen lines; one fewer dependency is one fewer thing to install.
Values already in the environment win over the file, so deployments can override it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from bot.shards import BadLayout, ShardLayout


class ConfigError(RuntimeError):
    """A setting is missing or malformed; the message says which and how to fix it."""


def read_dotenv(path: Path) -> dict[str, str]:
    """KEY=VALUE lines of a `.env` file; blank lines and `#` comments are skipped."""
    values: dict[str, str] = {}
    if not path.is_file():
        return values
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        values[key.strip().removeprefix("export ").strip()] = value
    return values


DEFAULT_FORGIVE_DOWNTIME_MINUTES = 5.0


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
    if not minutes >= 0 or minutes == float("inf"):
        raise ConfigError("FORGIVE_DOWNTIME_MINUTES must be a number of minutes (0 or more) or `off`.")
    return minutes


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
    shards: ShardLayout = field(default_factory=ShardLayout)
    """`SHARD_COUNT` / `SHARD_IDS`: which guilds this process owns (bot/shards.py)."""
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
        """Read settings; raises ConfigError naming the setting to fix."""
        env = {**(read_dotenv(dotenv) if dotenv else {}), **(os.environ if environ is None else environ)}
        token = env.get("DISCORD_TOKEN", "").strip()
        if not token:
            raise ConfigError(
                "DISCORD_TOKEN is not set. Put DISCORD_TOKEN=<your bot token> in a .env file next to "
                "pyproject.toml (see .env.example) or in the environment."
            )
        sync = env.get("SYNC_COMMANDS", "").strip().lower()
        if sync not in ("", "global", "off") and not sync.isdigit():
            raise ConfigError("SYNC_COMMANDS must be empty, `global`, `off` or a guild id.")
        try:
            owners = frozenset(int(x) for x in env.get("OWNER_IDS", "").replace(",", " ").split())
            cache = int(env.get("STATE_CACHE_SIZE", "256"))
        except ValueError as exc:
            raise ConfigError(f"OWNER_IDS and STATE_CACHE_SIZE take numbers: {exc}") from None
        database_url = env.get("DATABASE_URL", "").strip() or None
        if database_url is not None and not database_url.startswith(("postgresql://", "postgres://")):
            raise ConfigError("DATABASE_URL must be a PostgreSQL URL (postgresql://user:password@host/database).")
        try:
            shards = ShardLayout.parse(env.get("SHARD_COUNT", ""), env.get("SHARD_IDS", ""))
        except BadLayout as exc:
            raise ConfigError(str(exc)) from None
        if len(shards.ids) > 1:
            raise ConfigError(
                "SHARD_IDS: give each process one shard id (run one process per shard on the shared database)."
            )
        return cls(
            token=token,
            shards=shards,
            database_url=database_url,
            database=Path(env.get("DATABASE_PATH", "boneyard.sqlite3")),
            sync_commands="" if sync == "off" else sync,
            api_base=env.get("DISCORD_API_BASE", "").strip() or None,
            owner_ids=owners,
            log_level=env.get("LOG_LEVEL", "INFO").upper(),
            state_cache_size=max(1, cache),
            typed_moves=env.get("TYPED_MOVES", "on").strip().lower() not in ("0", "off", "false", "no"),
            forgive_downtime_minutes=parse_forgive_downtime(env.get("FORGIVE_DOWNTIME_MINUTES", "")),
            host_roles=frozenset(
                role.strip().lower() for role in env.get("TOURNAMENT_HOST_ROLES", "").split(",") if role.strip()
            ),
        )
