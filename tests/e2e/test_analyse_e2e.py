"""/analyse through the real bot: a finished match analysed in the worker processes, a progress
message replaced by the picture and the text, kept (a second request is answered at once), and
carried into /export as comments the checker ignores; a running match is refused."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from bot.records.verify import verify_text
from renderers import analysis as picture
from tests.e2e.harness import Harness
from tests.fake_discord import FakeMessage

pytestmark = pytest.mark.e2e


def _files(message: FakeMessage | None) -> dict[str, bytes]:
    """The message's attachments (none while there is no message yet)."""
    return dict(message.files()) if message is not None else {}


async def test_analyse_a_finished_match_then_export_it(harness: Harness) -> None:
    fake, service = harness.fake, harness.bot.service
    alice, bob, carol = fake.players
    match_id, _ = await harness.start_match("domineering", alice, bob)
    # What is tested here is the path through Discord, not the computer's judgement (tests/ai):
    # 8 and 4 search iterations instead of the product's 200 and 100 cut the worker's part
    # from about a second to a few hundredths.
    harness.bot.analyses.wide, harness.bot.analyses.focused = 8, 4
    refused = await harness.error_reply("analyse", {"match": match_id}, user=carol)
    assert "once it has finished" in refused

    rng = random.Random(8)
    while (await service.get(match_id)).status == "active":
        waiting = await harness.to_move(match_id)
        user = next(u for u in (alice, bob) if u.id in waiting)
        await harness.slash_move(user, rng.choice(await service.legal_moves(match_id, user.id)))

    # A spectator of the server asks: a private progress message, replaced by the result.
    asked = await fake.slash_command("analyse", {"match": match_id}, user=carol)
    await fake.wait_until(
        lambda: any(name.endswith(".png") for name in _files(fake.original_response(asked))),
        "the analysis picture",
        timeout=120,
    )
    result = fake.original_response(asked)
    assert result is not None and result.ephemeral
    assert result.content.startswith(f"🔍 **The computer's analysis of match #{match_id}** (Domineering)")
    assert "accuracy" in result.content and "from each player's own information" in result.content
    (name, png), *_ = _files(result).items()
    assert name == f"boneyard-analysis-{match_id}.png"
    assert Image.open(io.BytesIO(png)).size == (picture.WIDTH, picture.HEIGHT)
    stored = await harness.bot.analyses.stored(match_id)
    assert stored is not None and stored.judgements

    # Asked again: kept, so answered at once with the same text, no progress message.
    again = await harness.command("analyse", {"match": match_id}, user=alice)
    answer = await fake.wait_for_answer(again, ephemeral=True)
    assert answer.content == result.content and "Analysing" not in answer.content
    assert harness.bot.analyses.queue.waiting() == 0

    # The export carries it as comments; the record still verifies.
    export = await harness.command("export", {"match": match_id}, user=bob)
    exported = fake.original_response(export)
    assert exported is not None and "analysis is in it as comments" in exported.content
    text = next(iter(_files(exported).values())).decode()
    assert "; Analysis by the Boneyard computer" in text and "; Accuracy: Black" in text
    assert verify_text(text).ok
