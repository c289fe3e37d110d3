"""Focus and Domineering played to their end as two players and a spectator see them.

Moves go in every way a player makes them (/move, typed messages); the spectator looks at
the board and tries to interfere.  At the end each person's transcript (the channel, their
private answers, their DMs) is read back: every move is answered by a new board naming who
is to move, the end names the result and reveals the seed, the spectator is refused
privately and changes nothing, and nobody gets a DM in games without secrets.
"""

from __future__ import annotations

import random

import pytest

from bot.games import GAMES
from tests.e2e.harness import Harness, assert_board_for, board_png
from tests.fake_discord import FakeMessage, FakeUser

pytestmark = pytest.mark.e2e


def transcript(harness: Harness, user: FakeUser) -> list[str]:
    """What `user` saw: the channel (public), their ephemeral answers, their DMs."""
    fake = harness.fake
    lines = []
    for message in fake.messages_in(fake.channel, include_ephemeral=True):
        if message.ephemeral and _asker(harness, message) != user.id:
            continue
        who = "bot" if message.author_id == fake.bot.id else fake.world.users[message.author_id].name
        files = f" [{', '.join(message.files())}]" if message.attachments else ""
        lines.append(f"{'(only you) ' if message.ephemeral else ''}{who}: {message.content}{files}")
    lines += [f"DM: {m.content}" for m in fake.dms_to(user)]
    return lines


def _asker(harness: Harness, message: FakeMessage) -> int | None:
    for interaction in harness.fake.world.interactions.values():
        if message.id in (interaction.original_message_id, *interaction.followup_ids):
            return interaction.user_id
    return None


async def _play_to_the_end(
    harness: Harness, match_id: int, players: dict[int, FakeUser], rng: random.Random
) -> FakeMessage:
    service = harness.bot.service
    fake = harness.fake
    carol = fake.players[2]
    last: FakeMessage | None = None
    turn = 0
    spectated = False
    while (await service.get(match_id)).status == "active":
        (mover_id,) = await harness.to_move(match_id)
        mover = players[mover_id]
        move = rng.choice(await service.legal_moves(match_id, mover_id))
        before = await harness.move_count(match_id)
        last = await (harness.slash_move(mover, move) if turn % 2 == 0 else harness.typed_move(mover, move))
        assert await harness.move_count(match_id) > before
        assert f"{mover.name} (" in last.content and f"played `{move}`" in last.content, last.content
        if (await service.get(match_id)).status == "active":
            (next_id,) = await harness.to_move(match_id)
            assert_board_for(last, players[next_id])
        if turn >= 2 and not spectated and (await service.get(match_id)).status == "active":
            # the spectator looks, then tries to move: refused privately, nothing changes
            spectated = True
            shown = await harness.public_reply(await harness.command("board", user=carol))
            assert board_png(shown) == board_png(last)
            played = await harness.move_count(match_id)
            legal = await service.legal_moves(match_id, (await harness.to_move(match_id))[0])
            refusal = await harness.error_reply("move", {"notation": legal[0]}, user=carol)
            assert "not playing in this match" in refusal
            assert await harness.move_count(match_id) == played
        turn += 1
    assert last is not None and spectated, "the match ended before the spectator could act: choose another seed"
    return last


@pytest.mark.parametrize(("game", "options"), [("focus", "ply_limit=12"), ("domineering", None)])
async def test_a_game_to_its_end_as_two_players_and_a_spectator_see_it(
    harness: Harness, monkeypatch: pytest.MonkeyPatch, game: str, options: str | None
) -> None:
    # A fixed seed: Domineering's drawn tiles can end a game after two moves, before the
    # spectator's turn, and a test must not depend on the luck of the draw.
    monkeypatch.setattr("bot.services.matches.service.secrets.token_hex", lambda n: "fixed-seed-as-people-see-them")
    fake = harness.fake
    alice, bob, carol = fake.players
    match_id, first = await harness.start_match(game, alice, bob, options=options)
    assert first.content.startswith(f"Match #{match_id} · seed hash")
    final = await _play_to_the_end(harness, match_id, {alice.id: alice, bob.id: bob}, random.Random(game))
    row = await harness.bot.service.get(match_id)
    assert row.status == "finished"
    assert ("🏆" in final.content or "🤝 **Draw**" in final.content) and "to move" not in final.content
    assert f"Secret seed (check every roll and draw): `{row.seed}`" in final.content
    dice_check = [f"boneyard:verify:{match_id}"] if GAMES[game].info.has_chance else []
    moves = f"boneyard:moves:{match_id}:0:f"
    assert final.custom_ids == [*dice_check, moves, f"boneyard:lbrematch:{match_id}"], (
        "a finished match offers no move buttons, only the dice check (where there are dice) and a rematch"
    )

    seen = {user.name: transcript(harness, user) for user in (alice, bob, carol)}
    for name, lines in seen.items():
        print(f"\n--- what {name} saw ---\n" + "\n".join(lines))
    assert seen["alice"][-1] == seen["bob"][-1] == seen["carol"][-1], "everyone sees the same end"
    assert not any(line.startswith("DM:") for lines in seen.values() for line in lines)
    private = [line for line in seen["carol"] if line.startswith("(only you)")]
    assert private and all("not playing in this match" in line for line in private)
    assert not any("not playing" in line for line in seen["alice"] + seen["bob"])
