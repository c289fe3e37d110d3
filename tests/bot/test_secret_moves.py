"""The service keeps secret moves out of public places and says what happened in words."""

from __future__ import annotations

import pytest

from bot.games import IllegalMove
from bot.services.matches import MatchService, SecretMove
from tests.bot.conftest import ALICE, BOB, CHANNEL, GUILD
from tests.bot.match_driver import start_match


async def _start(service: MatchService, game: str, **options: str) -> int:
    """A started match with Alice in seat 0."""
    return await start_match(service, game, seat_pref="first", **options)


async def _snapshot(service: MatchService, match_id: int) -> tuple[int, int, object]:
    row = await service.get(match_id)
    return row.version, await service.store.move_count(match_id), row.snapshot


async def test_a_secret_move_sent_in_public_is_refused_legal_or_not_and_changes_nothing(
    service: MatchService,
) -> None:
    match_id = await _start(service, "domino_wars")
    before = await _snapshot(service, match_id)
    pick = (await service.legal_moves(match_id, ALICE))[0]
    with pytest.raises(SecretMove) as legal:
        await service.play(match_id, ALICE, pick, in_public=True)
    assert legal.value.legal and pick.split()[1] not in str(legal.value)
    taken = [m for m in await service.legal_moves(match_id, ALICE) if m != pick]
    with pytest.raises(SecretMove) as illegal:  # an illegal pick gets the same answer, no reason
        await service.play(match_id, ALICE, "pick 9-9", in_public=True)
    assert not illegal.value.legal and str(illegal.value) == str(legal.value)
    assert await _snapshot(service, match_id) == before
    # privately it is a move like any other, and a public move in public is played
    update = await service.play(match_id, ALICE, taken[0])
    assert update.secret_move and update.quiet and not update.played


async def test_a_public_move_in_public_is_played_and_an_illegal_one_explained(service: MatchService) -> None:
    match_id = await _start(service, "focus")
    with pytest.raises(IllegalMove):
        await service.play(match_id, ALICE, "z9-z9", in_public=True)
    move = (await service.legal_moves(match_id, ALICE))[0]
    update = await service.play(match_id, ALICE, move, in_public=True)
    assert update.played and not update.secret_move and not update.quiet


async def test_a_secret_draft_is_quiet_until_play_starts(service: MatchService) -> None:
    match_id = await _start(service, "domino_wars")
    updates = []
    for user in (ALICE, BOB):
        for _ in range(8):
            updates.append(await service.play(match_id, user, (await service.legal_moves(match_id, user))[0]))
    told = [t.text for u in updates for t in u.told if t.text]
    assert told == ["Orange has drafted.", "Blue has drafted."]
    assert all(u.quiet for u in updates[:-1]), "every pick but the last posts no board"
    assert not updates[-1].quiet and updates[-1].public_view["phase"] != "draft"


async def test_chance_is_told_in_words(service: MatchService) -> None:
    dominance = await service.accept(
        (
            await service.challenge(
                game="dominance",
                channel_id=CHANNEL,
                guild_id=GUILD,
                challenger_id=ALICE,
                opponent_id=BOB,
            )
        ).id,
        BOB,
    )
    setup = [t.text for t in dominance.told if t.text]
    assert setup and all(t.startswith("Setup roll for ") for t in setup[:4])
    assert any(t.startswith(("Orange rolls ", "Blue rolls ")) for t in setup)


async def test_domineering_draws_are_told_in_words(service: MatchService) -> None:
    match_id = await _start(service, "domineering")
    draws = []
    for _ in range(6):
        view = await service.view(match_id, None)
        if view["outcome"] is not None:
            break
        user = ALICE if 0 in view["turn"] else BOB
        update = await service.play(match_id, user, (await service.legal_moves(match_id, user))[0])
        draws += [t for t in update.told if t.seat < 0]
    assert draws, "a drawn tile after some move"
    for told in draws:
        assert told.public and told.text in (
            f"Drawn tile: {told.move.split()[-1]} (for Black)",
            f"Drawn tile: {told.move.split()[-1]} (for White)",
        )
