"""The cogs import one way: loading the presenter never needs the buttons module.

A circle (buttons -> common -> presenter -> buttons) worked only while every import of it
happened in a lucky order; each module must import on its own in a fresh interpreter.
"""

from __future__ import annotations

import subprocess
import sys

import pytest


def _modules_after_importing(module: str) -> set[str]:
    code = f"import sys, {module}; print(' '.join(sorted(m for m in sys.modules if m.startswith('cogs'))))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return set(result.stdout.split())


def test_the_presenter_imports_without_the_buttons_module() -> None:
    loaded = _modules_after_importing("cogs.out.presenter")
    assert "cogs.out.presenter" in loaded
    assert "cogs.ui.buttons" not in loaded


@pytest.mark.parametrize("module", ["cogs.ui.buttons", "cogs.common", "cogs.out.presenter", "cogs.moves", "cogs.play"])
def test_each_cog_module_imports_first_in_a_fresh_interpreter(module: str) -> None:
    assert module in _modules_after_importing(module)
