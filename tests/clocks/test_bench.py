"""The bench the lead runs from `python -m bench`, on a small scale (real time, ~0.6 s)."""

from __future__ import annotations

from bench.clocks import bench_idle_clocks


async def test_bench_reports_idle_cost_and_fires_probes_within_a_second() -> None:
    result = await bench_idle_clocks(n=500, seconds=0.6)
    assert result["events_fired"] == 5
    assert 0 <= result["latency_max_s"] < 1.0
    assert 0 <= result["idle_cpu_fraction"] < 0.5
