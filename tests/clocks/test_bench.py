"""The bench the lead runs from `python -m bench`, on a small scale (real time, ~0.4 s).

What it reports is checked here, not how fast: the timing goals (latency ≤ 1 s, idle CPU
≤ 1 %) are read from `python -m bench clocks`, since a loaded machine makes any real-time
bound in a test flaky."""

from __future__ import annotations

import math

from bench.clocks import bench_idle_clocks


async def test_bench_reports_every_probe_none_early_and_sane_figures() -> None:
    result = await bench_idle_clocks(n=500, seconds=0.4)
    assert result["clocks"] == 500
    assert result["events_fired"] == 5  # every probe's reminder, counted even if late
    # A reminder never fires before it is due, however loaded the machine.
    assert 0 <= result["latency_mean_s"] <= result["latency_max_s"]
    assert math.isfinite(result["latency_max_s"])
    assert result["seconds"] >= 0.4
    assert result["idle_cpu_fraction"] >= 0
    assert result["start_s"] >= 0
