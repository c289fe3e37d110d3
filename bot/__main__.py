"""`python -m bot`: configure logging once, read settings, run the bot."""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from pathlib import Path

import discord

from bot.client import Boneyard
from bot.config import ConfigError, Settings


def configure_logging(level: str) -> None:
    logging.basicConfig(
        level=level,
        format="%(asctime)s %(levelname)-7s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    logging.getLogger("discord.gateway").setLevel(max(logging.getLevelName(level), logging.INFO))


async def run(settings: Settings) -> None:
    async with Boneyard(settings) as bot:
        await bot.start(settings.token)


def main() -> int:
    if sys.argv[1:2] == ["migrate"]:  # python -m bot migrate --to postgresql://... (bot/migrate.py)
        from bot.migrate import main as migrate

        return migrate(sys.argv[2:], Path(os.environ.get("DATABASE_PATH", "boneyard.sqlite3")))
    try:
        settings = Settings.load()
    except ConfigError as exc:
        print(f"boneyard: {exc}", file=sys.stderr)
        return 2
    configure_logging(settings.log_level)
    try:
        asyncio.run(run(settings))
    except discord.LoginFailure:
        logging.getLogger("bot").error("Discord refused the token: check DISCORD_TOKEN in .env.")
        return 1
    except discord.PrivilegedIntentsRequired:
        logging.getLogger("bot").error(
            "Discord refused the Message Content intent. Enable it in the Developer Portal "
            "(Bot -> Privileged Gateway Intents) or set TYPED_MOVES=off."
        )
        return 1
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
