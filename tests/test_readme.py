"""The README's two set-up commands are the product's front door: keep them true."""

from __future__ import annotations

import re
from pathlib import Path

from bot.app.config import DEFAULT_FORGIVE_DOWNTIME_MINUTES
from tests.cogs.test_command_tree import _tree

ROOT = Path(__file__).resolve().parents[1]


def _setup_commands() -> list[str]:
    lines = (ROOT / "README.md").read_text().splitlines()
    start = lines.index("```sh") + 1
    end = lines.index("```", start)
    return [line.split("  #")[0].strip() for line in lines[start:end] if line.strip()]


def test_readme_opens_with_exactly_two_commands() -> None:
    commands = _setup_commands()
    assert len(commands) == 2
    assert commands[0].endswith("python -m bot")
    assert commands[1].endswith("python -m pytest")


def test_ci_runs_the_readme_test_command_word_for_word() -> None:
    ci = (ROOT / ".ci" / "run").read_text()
    assert _setup_commands()[1] in ci.splitlines()


def _table_rows(heading: str) -> list[str]:
    text = (ROOT / "README.md").read_text()
    section = text.split(f"## {heading}\n", 1)[1].split("\n## ", 1)[0]
    return [line for line in section.splitlines() if line.startswith("| `")]


async def test_every_slash_command_is_in_the_command_table() -> None:
    table = "\n".join(_table_rows("Commands"))
    missing = [command.name for command in await _tree() if f"`/{command.name}" not in table]
    assert not missing, f"commands missing from the README's table: {missing}"


def test_the_settings_table_lists_every_setting_with_the_real_default() -> None:
    example = (ROOT / ".env.example").read_text()
    settings = set(re.findall(r"^([A-Z_]+)=", example, re.MULTILINE))
    rows = {row.split("`")[1]: row for row in _table_rows("Configuration")}
    assert set(rows) == settings
    default = f"{DEFAULT_FORGIVE_DOWNTIME_MINUTES:g}"
    assert rows["FORGIVE_DOWNTIME_MINUTES"].split("|")[2].strip() == f"`{default}`"
    assert f"FORGIVE_DOWNTIME_MINUTES={default}\n" in example
