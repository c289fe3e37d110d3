"""Each of the five games played to its end through the fake Discord by a German player
(alice's Discord is in German) and an English one (bob), watched by a Spanish spectator
(carol), on a server whose Discord language is Brazilian Portuguese.

What each person is promised: the channel (board posts, the result) speaks the server's
language; a player's private answers and DMs speak that player's language; the spectator's
refusals speak hers; the public picture is described in the server's language and a
player's own DM board in theirs.  Moves are random legal ones from random seeds; Wonderland,
whose games run to hundreds of actions, is played for a while and then resigned.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.games import GAMES
from tests.e2e.harness import Harness, challenge_match_id, unexpected_errors
from tests.fake_discord import FakeDiscord, FakeMessage, FakeUser

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

GAMES_AND_OPTIONS = [
    ("focus", "ply_limit=10"),
    ("domineering", None),
    ("dominance", "turn_limit=3"),
    ("domino_wars", None),
    ("wonderland", None),
]
MOVE_BUDGET = 60
"""Moves played before the German player resigns a game that has not ended (Wonderland)."""


@pytest.fixture
async def harness(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> AsyncIterator[Harness]:
    async with FakeDiscord() as fake:
        fake.guild.preferred_locale = "pt-BR"  # before the bot connects: it reads it from GUILD_CREATE
        alice, _bob, carol = fake.players
        alice.locale, carol.locale = "de", "es-ES"
        running = Harness(fake, tmp_path / "boneyard.sqlite3")
        try:
            await running.start()
            yield running
        finally:
            await running.stop()
        fake.assert_clean()
    errors = unexpected_errors(running, caplog.get_records("setup") + caplog.get_records("call") + caplog.records)
    assert not errors, "\n".join(errors)


async def _move(harness: Harness, user: FakeUser, notation: str) -> list[FakeMessage]:
    """`/move` through Discord; the interaction's answers (public board or private note)."""
    interaction = await harness.command("move", {"notation": notation}, user=user)
    await harness.settled(interaction)
    await harness.fake.wait_until_idle()
    return harness._answers(interaction)


async def _resign(harness: Harness, user: FakeUser, match_id: int) -> None:
    ask = await harness.command("resign", user=user)
    confirm = harness.fake.original_response(ask)
    assert confirm is not None
    assert "Wirklich aufgeben?" in confirm.content  # alice's own confirmation, in German
    click = await harness.fake.click_button(confirm, f"boneyard:resign:{match_id}", user=user)
    await harness.fake.wait_for_response(click)
    await harness.fake.wait_until_idle()
    assert harness.fake.message(confirm.id).content == "Du hast aufgegeben."


@pytest.mark.parametrize(("game", "options"), GAMES_AND_OPTIONS)
async def test_each_person_sees_their_language_through_a_whole_game(
    harness: Harness, game: str, options: str | None
) -> None:
    fake, service = harness.fake, harness.bot.service
    alice, bob, carol = fake.players
    players = {alice.id: alice, bob.id: bob}
    rng = random.Random(f"languages {game}")
    name = GAMES[game].info.name
    challenge = await harness.challenge(game, alice, bob, options=options)
    assert f"🎲 {alice.mention} desafia {bob.mention} para **{name}**!" in challenge.content  # public: the server's
    match_id = challenge_match_id(challenge)
    mark = fake.mark()
    click = await fake.click_button(challenge, f"boneyard:accept:{match_id}", user=bob)
    await fake.wait_for_response(click)
    await fake.wait_for_message(fake.channel, lambda m: bool(m.attachments), since=mark)
    assert challenge.content.startswith(f"✅ {bob.mention} aceitou. A partida #{match_id} começa!"), challenge.content

    refused_out_of_turn = spectator_refused = False
    beside: set[str] = set()
    played = 0
    while (await service.get(match_id)).status == "active":
        if played >= MOVE_BUDGET:
            await _resign(harness, alice, match_id)
            break
        movers = await harness.to_move(match_id)
        if not refused_out_of_turn and movers == [bob.id]:
            refusal = await harness.error_reply("move", {"notation": "c3"}, user=alice)
            assert "Du bist nicht am Zug." in refusal, refusal
            refused_out_of_turn = True
        if not spectator_refused:
            refusal = await harness.error_reply("move", {"notation": "c3"}, user=carol)
            assert "No juegas en esta partida." in refusal, refusal
            # she looks at the board: a public answer, so in the server's language
            shown = await harness.public_reply(await harness.command("board", user=carol))
            assert shown.attachments[0].description.startswith(f"Tabuleiro de {name}")
            spectator_refused = True
        mover = players[rng.choice(movers)]
        move = rng.choice(await service.legal_moves(match_id, mover.id))
        for answer in await _move(harness, mover, move):
            if answer.ephemeral:  # a secret move, or one added to the turn's post: the mover's language
                expected = "gespielt (nur du siehst diese Antwort)" if mover is alice else "(only you see this reply)"
                assert expected in answer.content, answer.content
        played += 1
        # the board beside her controls (her DM is edited in place: look at it as it is now)
        beside |= {a.description or "" for m in fake.dms_to(alice) for a in m.attachments if a.filename == "board.png"}
    row = await service.get(match_id)
    assert row.status == "finished" and spectator_refused

    # The channel: every board post since the start speaks Portuguese, none English.
    boards = [m for m in fake.bot_messages(fake.channel) if m.id > mark.snowflake and m.attachments]
    assert boards, "no board was posted"
    for board in boards[:-1]:
        assert ("Vez de <@" in board.content or "vez de <@" in board.content) and " to move." not in board.content, (
            board.content
        )
        assert all(
            a.description and a.description.startswith(f"Tabuleiro de {GAMES[game].info.name}")
            for a in board.attachments
        )
    final = boards[-1].content
    assert ("vence:" in final or "🤝 **Empate**" in final) and "Semente secreta (para conferir" in final, final
    assert "wins" not in final and "Secret seed" not in final

    # DMs: each player's private view in their own language, the board beside it in theirs.
    if GAMES[game].info.has_private_info:
        mine, theirs = fake.dms_to(alice), fake.dms_to(bob)
        assert mine and theirs
        assert all("Das ist deine private Ansicht: nur du kannst sie sehen." in m.content for m in mine), [
            m.content for m in mine
        ]
        assert all("This is your private view: only you can see it." in m.content for m in theirs), [
            m.content for m in theirs
        ]
        if game == "domino_wars":
            assert beside and all(d.startswith("Domino Wars-Brett") for d in beside), beside
    else:
        assert not fake.dms_to(alice) and not fake.dms_to(bob)
