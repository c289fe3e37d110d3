"""The environment of a bot process a test starts "as an operator would": nothing of the
developer's own `.env` or shell leaks in, except which code runs.

Why PYTHONPATH passes: the shared virtual environment installs one checkout in editable mode,
and a test run from another checkout (a git worktree) sets PYTHONPATH to itself; without it,
the started bot would be the other checkout's code, not the one under test."""

from __future__ import annotations

import os


def clean_environment(**variables: str) -> dict[str, str]:
    """PATH (and PYTHONPATH when set) plus `variables`."""
    kept = {name: os.environ[name] for name in ("PATH", "PYTHONPATH") if name in os.environ}
    return {"PATH": "", **kept, **variables}
