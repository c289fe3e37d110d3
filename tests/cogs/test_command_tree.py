"""A meta-test over every cog: command names unique and within Discord's limits."""

from __future__ import annotations

import re
from collections import Counter

from discord import app_commands

from bot.app.client import EXTENSIONS, Boneyard
from bot.app.config import Settings

NAME = re.compile(r"^[a-z0-9_-]{1,32}$")


async def _tree() -> list[app_commands.Command[..., ..., object] | app_commands.Group]:
    bot = Boneyard(Settings.load(environ={"DISCORD_TOKEN": "x"}, dotenv=None))
    try:
        for extension in EXTENSIONS:
            await bot.load_extension(extension)
        return list(bot.tree.get_commands())  # type: ignore[arg-type]
    finally:
        await bot.close()


def _walk(
    items: list[app_commands.Command[..., ..., object] | app_commands.Group], prefix: str = ""
) -> list[tuple[str, str]]:
    found = []
    for item in items:
        found.append((prefix + item.name, item.description))
        if isinstance(item, app_commands.Group):
            found.extend(_walk(list(item.commands), prefix + item.name + " "))  # type: ignore[arg-type]
    return found


async def test_no_two_commands_share_a_name() -> None:
    names = [name for name, _ in _walk(await _tree())]
    assert names, "no commands registered"
    duplicates = [name for name, count in Counter(names).items() if count > 1]
    assert duplicates == []


async def test_names_and_descriptions_fit_discord_limits() -> None:
    for name, description in _walk(await _tree()):
        assert all(NAME.match(part) for part in name.split()), name
        assert 1 <= len(description) <= 100, name


async def test_the_documented_commands_exist() -> None:
    names = {name for name, _ in _walk(await _tree())}
    for wanted in ("play", "move", "board", "hand", "resign", "abort", "matches", "match info", "games", "rules"):
        assert wanted in names
    assert {"clock", "pause", "resume"} <= names


WORK_IN_DMS = {
    "games",
    "rules",
    "help",
    "matches",
    "stats",
    "history",
    "export",
    "replay",
    "moves",
    "notify",
    "analyse",
}
"""Commands that need no server (the records ones take a match number, or default to your
latest match): everything else acts on a channel's match, a server's ratings or
tournaments, and is hidden in DMs (`guild_only`).  `/notify` is a player's own choice, for
every server."""


async def test_commands_that_need_a_server_are_guild_only() -> None:
    tree = await _tree()
    assert {item.name for item in tree} >= WORK_IN_DMS
    for item in tree:
        assert item.guild_only == (item.name not in WORK_IN_DMS), item.name


async def test_help_lists_every_command() -> None:
    from cogs.help import listed_commands

    top_level = {item.name for item in await _tree()}
    listed = listed_commands()
    assert top_level <= {name.split()[0] for name in listed}, top_level - listed
    assert "match info" in listed
