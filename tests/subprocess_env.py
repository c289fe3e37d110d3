"""The environment of a subprocess that runs the code under test (`python -m bot …`)."""

from __future__ import annotations

import os
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parents[1]


def clean_environment(**values: str) -> dict[str, str]:
    """PATH, `values`, and nothing of the developer's `.env` or shell, but PYTHONPATH set to
    this checkout: without it the child imports whichever checkout the virtualenv installed
    (a shared one, say), not the code these tests are testing."""
    return {"PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(CHECKOUT), **values}
