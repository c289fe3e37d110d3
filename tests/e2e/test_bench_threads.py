"""`python -m bench threads` still drives a match from `/play` to its first board in a thread.

The bench reads the match's thread from the database once the Accept click is answered; when
the bot came to acknowledge clicks before its database work, the bench read the row too early
(the parent channel) and waited 30 s for a board that was posted elsewhere.  Two samples keep
the section working without timing anything."""

from __future__ import annotations

import pytest

from bench.thread import play_to_first_board

pytestmark = pytest.mark.e2e


async def test_the_threads_bench_plays_each_sample_to_its_first_board() -> None:
    timings = await play_to_first_board(samples=2)
    assert len(timings) == 2 and all(t > 0 for t in timings)
