"""`python -m bench threads`: how long a player waits from `/play` to the first board in
the match's new thread, through the real bot and the protocol-level fake Discord.

Measured per match: the `/play` interaction until its challenge message exists, plus the
Accept click until the first board is posted in the new thread (thread creation, the
service's transaction and the render included).  Matches run one after another in the same
channel, so each new thread joins a channel already holding the earlier ones.

The fake Discord lives in `tests/` (a developer tool like this bench), so it is imported
only when the section runs; the running bot never imports it.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path


async def play_to_first_board(samples: int = 40) -> list[float]:
    """Milliseconds from `/play` to the first board in the thread, one per match."""
    from tests.e2e.harness import running_bot  # dev-only: the fake Discord

    timings: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        async with running_bot(Path(tmp) / "bench.sqlite3", venue="threads") as harness:
            fake = harness.fake
            alice, bob, _ = fake.players
            for _ in range(samples):
                start = time.perf_counter()
                ask = await harness.command("play", {"game": "focus", "opponent": bob, "seat": "first"}, user=alice)
                message = fake.original_response(ask)
                assert message is not None
                match_id = int(message.custom_ids[0].rsplit(":", 1)[1])
                click = await fake.click_button(message, f"boneyard:accept:{match_id}", user=bob)
                await harness.settled(click)  # acknowledged first: the thread exists once it is answered
                row = await harness.bot.service.get(match_id)
                thread = fake.world.channels[row.channel_id]
                await fake.wait_for_message(thread, lambda m: bool(m.attachments))
                timings.append((time.perf_counter() - start) * 1000)
                await harness.wait_for_handlers()
    return timings
