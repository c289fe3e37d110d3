"""The README's two set-up commands are the product's front door: keep them true."""

from __future__ import annotations

from pathlib import Path

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
