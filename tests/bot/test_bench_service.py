"""`python -m bench service` measures the memory of a fresh interpreter holding stored matches.

The measuring child imports the bench by name; when the benchmarks moved out of the product
into `bench/`, the child still imported the old module and the section failed.  A handful of
matches keeps this a check that the child runs, not a measurement."""

from __future__ import annotations

from bench.sections import memory_in_fresh_process


def test_the_memory_probe_runs_in_a_fresh_interpreter_and_reports_megabytes() -> None:
    resident = memory_in_fresh_process(count=20)
    assert 10 < resident < 2_000
