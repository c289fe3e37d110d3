"""The cogs import one way: what posts (cogs/out) uses the components (cogs/ui), never back.

A circle (buttons -> common -> presenter -> buttons) once worked only while every import of it
happened in a lucky order; each module must import on its own in an interpreter where nothing
of the project was imported yet, and a component reaches the presenter through the bot
(`Boneyard.presenter`), not by importing it.  The import contracts in pyproject.toml check the
same for every module (`lint-imports`).

Why one interpreter forked per module rather than one interpreter per module: the
interpreters started anew each spent 0.3 s of CPU, most of it importing discord.py, aiohttp
and Pillow again.  One interpreter imports those libraries (none of the project: it checks)
and forks a child per module, which imports the module alone and reports the cogs loaded.
"""

from __future__ import annotations

import functools
import json
import subprocess
import sys

import pytest

COMPONENTS = ["cogs.ui.buttons", "cogs.ui.lobby_buttons", "cogs.ui.private", "cogs.playing"]
FIRST_IMPORTS = ["cogs.ui.buttons", "cogs.common", "cogs.out.presenter", "cogs.moves", "cogs.play"]
LIBRARIES = ["discord", "discord.ext.commands", "aiohttp", "PIL.Image", "aiosqlite", "asyncpg"]
OURS = ("bot", "cogs", "renderers")

FORKING = """
import json, os, sys, traceback
for name in LIBRARIES:
    __import__(name)
early = sorted(m for m in sys.modules if m.split(".")[0] in OURS)
assert not early, f"the libraries imported the project: {early}"
loaded = {}
for module in MODULES:
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            os.close(read)
            __import__(module)
            cogs = " ".join(sorted(m for m in sys.modules if m.startswith("cogs")))
            os.write(write, cogs.encode())
            code = 0
        except BaseException:
            traceback.print_exc()
        finally:
            sys.stderr.flush()
            os._exit(code)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        said = pipe.read().decode()
    _, status = os.waitpid(pid, 0)
    loaded[module] = said.split() if os.waitstatus_to_exitcode(status) == 0 else None
print(json.dumps(loaded))
"""


@functools.cache
def _modules_after_importing_each() -> tuple[dict[str, list[str] | None], str]:
    """For each module of the tests, the cogs modules loaded after importing it alone (None
    when importing it failed), and what the children wrote to stderr (their tracebacks)."""
    modules = sorted({*COMPONENTS, *FIRST_IMPORTS})
    code = f"LIBRARIES = {LIBRARIES!r}\nOURS = {OURS!r}\nMODULES = {modules!r}\n{FORKING}"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr[-3000:]
    loaded: dict[str, list[str] | None] = json.loads(result.stdout)
    return loaded, result.stderr


def _modules_after_importing(module: str) -> set[str]:
    loaded, errors = _modules_after_importing_each()
    found = loaded[module]
    assert found is not None, f"importing {module} alone failed:\n{errors[-3000:]}"
    return set(found)


@pytest.mark.parametrize("module", COMPONENTS)
def test_components_import_without_the_presenter_or_the_outbox(module: str) -> None:
    loaded = _modules_after_importing(module)
    assert module in loaded
    assert not {m for m in loaded if m.startswith("cogs.out")}


@pytest.mark.parametrize("module", FIRST_IMPORTS)
def test_each_cog_module_imports_first_in_a_fresh_interpreter(module: str) -> None:
    assert module in _modules_after_importing(module)
