"""Which cases of a parametrized test stay out of the developer loop (`pytest -m "not slow"`).

The loop still checks each property on the other cases; the full suite (and CI) runs all."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Any

import pytest


def slow_cases(values: Iterable[Any], slow: Collection[Any]) -> list[Any]:
    """`values` for `parametrize`, those in `slow` marked `slow` (they cost a second or more)."""
    return [pytest.param(value, marks=pytest.mark.slow) if value in slow else value for value in values]
