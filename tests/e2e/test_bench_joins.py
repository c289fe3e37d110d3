"""`python -m bench joins` still runs: its bot process is started the way the crash tests start
theirs (forked from a zygote), which the bench must set up itself outside a test.  Five joins
check that every join is answered, not how fast."""

from __future__ import annotations

import pytest

from bench.joins import burst_of_joins

pytestmark = [pytest.mark.e2e, pytest.mark.slow]  # a real bot process


async def test_the_joins_bench_answers_every_join_of_a_small_burst() -> None:
    figures = await burst_of_joins(count=5)
    assert figures["answered"] == 5
    assert 0 < figures["p50"] <= figures["max"]
