"""The layer contracts hold, and a wrong import breaks them (pyproject.toml, [tool.importlinter]).

`lint-imports` runs in CI on the tree as it is; these tests also prove that the contracts are
not toothless: the same tree with one deliberately wrong import, copied aside, is refused with
the contract that import breaks.
"""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("bot", "cogs", "renderers", "bench", "tools", "tests")


def _lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    lint = Path(sys.executable).with_name("lint-imports")
    return subprocess.run(
        [str(lint), "--no-cache"], cwd=root, capture_output=True, text=True, env={"PYTHONPATH": str(root)}, check=False
    )


def _copy_tree(target: Path) -> Path:
    shutil.copy(ROOT / "pyproject.toml", target / "pyproject.toml")
    for package in PACKAGES:
        shutil.copytree(ROOT / package, target / package, ignore=shutil.ignore_patterns("__pycache__", "*.png"))
    return target


def test_the_tree_keeps_every_contract() -> None:
    result = _lint_imports(ROOT)
    assert result.returncode == 0, result.stdout[-3000:]
    assert "BROKEN" not in result.stdout


def test_no_cog_reaches_the_store_through_an_attribute() -> None:
    """The contracts see imports only; `bot.store.moves(...)` needs no import.  Every use of
    the store from a cog goes through a service, so no cog names a `store` attribute."""
    found = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for path in sorted((ROOT / "cogs").rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Attribute) and node.attr == "store"
    ]
    assert found == []


@pytest.fixture(scope="module")
def copied_tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One copy of the tree for the wrong-import cases (each puts its file back): copying it
    took a sixth of a second of CPU, seven times."""
    return _copy_tree(tmp_path_factory.mktemp("tree"))


@pytest.mark.parametrize(
    ("module", "wrong_import", "contract"),
    [
        ("cogs/help.py", "from bot.store import Store", "Cogs reach the store only through the services"),
        ("bot/games/focus.py", "import discord", "Pure packages: no Discord, no pictures, no database, no network"),
        ("bot/services/ratings.py", "import cogs.help", "Layers: wiring, commands, use cases, storage, pure models"),
        ("renderers/focus.py", "import bot.store", "Layers: wiring, commands, use cases, storage, pure models"),
        (
            "bot/services/computer.py",
            "import bench.moves",
            "The product never imports benchmarks, developer tools or tests",
        ),
        ("cogs/lobby.py", "import tools.catalogues", "The product never imports benchmarks, developer tools or tests"),
        ("cogs/ui/buttons.py", "import cogs.out.presenter", "No import loops between sibling modules"),
    ],
)
def test_a_deliberately_wrong_import_breaks_its_contract(
    copied_tree: Path, module: str, wrong_import: str, contract: str
) -> None:
    source = copied_tree / module
    text = source.read_text()
    head, marker, rest = text.partition("from __future__ import annotations\n")
    assert marker, f"{module} has no __future__ import to add the wrong import after"
    source.write_text(f"{head}{marker}{wrong_import}\n{rest}")
    try:
        result = _lint_imports(copied_tree)
    finally:
        source.write_text(text)  # the copy is the tree as it is again, for the next case
    assert result.returncode != 0
    assert f"{contract} BROKEN" in result.stdout
