"""Playing the computer through the real bot: a whole match, watched by a spectator.

The computer thinks in a real process pool; its search size is fixed small here
(`ComputerPlayer.iterations`) so the match is quick.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import cast

import pytest

from cogs.computer import ComputerCog
from tests.e2e.harness import Harness, board_png

pytestmark = pytest.mark.e2e


def computer_of(harness: Harness) -> ComputerCog:
    cog = cast(ComputerCog, harness.bot.get_cog("ComputerCog"))  # the loader's own copy of the class
    assert cog is not None and cog.player is not None
    cog.player.iterations = 8
    return cog


async def until(check: Callable[[], Awaitable[bool]], what: str, timeout: float = 60.0) -> None:  # noqa: ASYNC109
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not await check():
        if loop.time() > end:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.05)


async def test_a_whole_match_against_the_computer_with_a_spectator(harness: Harness) -> None:
    fake = harness.fake
    alice, _bob, carol = fake.players
    computer_of(harness)
    service = harness.bot.service
    mark = fake.mark()
    started = await harness.command("play", {"game": "domineering", "computer": "easy", "seat": "first"}, user=alice)
    intro = fake.original_response(started)
    assert intro is not None and not started.ephemeral
    assert "plays the computer (**easy**" in intro.content and "Unrated." in intro.content
    board = await fake.wait_for_message(fake.channel, lambda m: bool(m.attachments), since=mark)
    board_png(board)
    row = await service.match_in_channel(fake.channel.id)
    assert row.status == "active" and row.seats == (alice.id, fake.bot.id) and not row.rated

    async def alice_or_over() -> bool:
        current = await service.get(row.id)
        return current.status != "active" or alice.id in await harness.to_move(row.id)

    alice_moves = 0
    while True:
        await until(alice_or_over, "alice's turn or the end")
        if (await service.get(row.id)).status != "active":
            break
        before = await harness.move_count(row.id)
        legal = await service.legal_moves(row.id, alice.id)
        reply = await harness.slash_move(alice, legal[0])
        assert f"played `{legal[0]}`" in reply.content
        assert await harness.move_count(row.id) > before
        alice_moves += 1
        if carol is not None and alice_moves == 1:
            refused = await harness.error_reply("move", {"notation": legal[-1]}, user=carol)
            assert "not" in refused.lower()
    final = await service.get(row.id)
    assert final.status == "finished" and final.outcome is not None
    assert alice_moves >= 1
    # The result is announced after it committed: wait for that message, then read them all.
    # (Its exact markers: Domineering's "Drawn tile: ..." lines also contain "Draw".)
    ending = await fake.wait_for_message(fake.channel, lambda m: "** wins: " in m.content or "**Draw**: " in m.content)
    board_png(ending)
    bot_name = fake.bot.name
    posted = [m.content for m in fake.bot_messages(fake.channel)]
    assert any(f"{bot_name} (" in text and "played `" in text for text in posted), posted
    # Every move in the log is legal by construction; the spectator was sent nothing private.
    assert fake.dms_to(carol) == [] and fake.dms_to(alice) == []
    assert await harness.bot.service.store.get_meta(f"computer_level:{row.id}") == "easy"


async def test_challenging_the_bot_itself_starts_at_once_and_resigning_ends_it(harness: Harness) -> None:
    fake = harness.fake
    alice = fake.players[0]
    computer = computer_of(harness)
    mark = fake.mark()
    await harness.command("play", {"game": "focus", "opponent": fake.bot, "seat": "second"}, user=alice)
    await fake.wait_for_message(fake.channel, lambda m: bool(m.attachments), since=mark)
    row = await harness.bot.service.match_in_channel(fake.channel.id)
    assert row.seats == (fake.bot.id, alice.id)
    assert computer.player is not None and await computer.player.level_of(row.id) == "normal"

    moved = await fake.wait_for_message(fake.channel, lambda m: f"{fake.bot.name} (Orange) played" in m.content)
    assert f"{alice.mention} to move" in moved.content
    assert await harness.move_count(row.id) == 1
    ask = await harness.command("resign", user=alice)
    confirm = fake.original_response(ask)
    assert confirm is not None
    mark = fake.mark()
    click = await fake.click_button(confirm, f"boneyard:resign:{row.id}", user=alice)
    await fake.wait_for_response(click)
    outcome = await fake.wait_for_message(fake.channel, lambda m: bool(m.attachments), since=mark)
    assert "wins" in outcome.content and "Ratings" not in outcome.content
    assert (await harness.bot.service.get(row.id)).status == "finished"
