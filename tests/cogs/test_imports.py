"""The cogs import one way: what posts (cogs/out) uses the components (cogs/ui), never back.

A circle (buttons -> common -> presenter -> buttons) once worked only while every import of it
happened in a lucky order; each module must import on its own in a fresh interpreter, and a
component reaches the presenter through the bot (`Boneyard.presenter`), not by importing it.
The import contracts in pyproject.toml check the same for every module (`lint-imports`).
"""

from __future__ import annotations

import subprocess
import sys

import pytest


def _modules_after_importing(module: str) -> set[str]:
    code = f"import sys, {module}; print(' '.join(sorted(m for m in sys.modules if m.startswith('cogs'))))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return set(result.stdout.split())


@pytest.mark.parametrize("module", ["cogs.ui.buttons", "cogs.ui.lobby_buttons", "cogs.ui.private", "cogs.playing"])
def test_components_import_without_the_presenter_or_the_outbox(module: str) -> None:
    loaded = _modules_after_importing(module)
    assert module in loaded
    assert not {m for m in loaded if m.startswith("cogs.out")}


@pytest.mark.parametrize("module", ["cogs.ui.buttons", "cogs.common", "cogs.out.presenter", "cogs.moves", "cogs.play"])
def test_each_cog_module_imports_first_in_a_fresh_interpreter(module: str) -> None:
    assert module in _modules_after_importing(module)
