"""MatchService: challenges, turns, errors that change nothing, restarts, replays, races."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from bot.games import GAMES, IllegalMove
from bot.records.fairness import chance_rng, seed_hash
from bot.services.matches import ChannelBusy, MatchService, NotInMatch, NotYourTurn, ServiceError, resolve_options
from bot.store import Store
from tests.bot.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD
from tests.bot.match_driver import start_match


async def _start(service: MatchService, game: str = "focus", **options: str) -> int:
    """A started match with Alice in seat 0."""
    return await start_match(service, game, seat_pref="first", **options)


async def test_challenge_accept_assigns_seats_and_starts(service: MatchService) -> None:
    match_id = await _start(service)
    row = await service.get(match_id)
    assert row.status == "active"
    assert row.seats == (ALICE, BOB)
    assert row.seed_hash == seed_hash(row.seed)


async def test_second_challenge_in_a_busy_channel_is_refused(service: MatchService) -> None:
    await _start(service)
    with pytest.raises(ChannelBusy, match="already has a match"):
        await service.challenge(game="focus", channel_id=CHANNEL, guild_id=GUILD, challenger_id=CAROL, opponent_id=None)


async def test_bad_options_are_refused_before_anything_is_stored(service: MatchService) -> None:
    with pytest.raises(ValueError, match="setup"):
        await service.challenge(
            game="focus",
            channel_id=CHANNEL,
            guild_id=GUILD,
            challenger_id=ALICE,
            opponent_id=None,
            options={"setup": "sideways"},
        )
    assert await service.store.open_match_in_channel(CHANNEL) is None


async def test_only_the_challenged_player_may_accept(service: MatchService) -> None:
    row = await service.challenge(
        game="focus", channel_id=CHANNEL, guild_id=GUILD, challenger_id=ALICE, opponent_id=BOB
    )
    with pytest.raises(NotInMatch):
        await service.accept(row.id, CAROL)
    with pytest.raises(ServiceError):
        await service.accept(row.id, ALICE)
    assert (await service.get(row.id)).status == "challenge"


async def test_open_challenge_can_be_accepted_by_anyone(service: MatchService) -> None:
    row = await service.challenge(
        game="focus", channel_id=CHANNEL, guild_id=GUILD, challenger_id=ALICE, opponent_id=None
    )
    update = await service.accept(row.id, CAROL)
    assert set(update.match.seats or ()) == {ALICE, CAROL}


async def test_decline_and_cancel_close_the_challenge(service: MatchService) -> None:
    row = await service.challenge(
        game="focus", channel_id=CHANNEL, guild_id=GUILD, challenger_id=ALICE, opponent_id=BOB
    )
    assert (await service.decline(row.id, BOB)).status == "declined"
    row = await service.challenge(
        game="focus", channel_id=CHANNEL, guild_id=GUILD, challenger_id=ALICE, opponent_id=BOB
    )
    with pytest.raises(NotInMatch):
        await service.cancel(row.id, BOB)
    assert (await service.cancel(row.id, ALICE)).status == "cancelled"


async def test_wrong_player_and_illegal_move_change_nothing(service: MatchService) -> None:
    match_id = await _start(service)
    before = await service.get(match_id)
    with pytest.raises(NotYourTurn):
        await service.play(match_id, BOB, "c3-c4")
    with pytest.raises(NotInMatch):
        await service.play(match_id, CAROL, "c3-c4")
    with pytest.raises(IllegalMove):
        await service.play(match_id, ALICE, "c3-e5")
    after = await service.get(match_id)
    assert after.version == before.version and after.snapshot == before.snapshot
    assert await service.store.move_count(match_id) == 0


async def test_a_move_is_logged_and_announced(service: MatchService) -> None:
    match_id = await _start(service)
    update = await service.play(match_id, ALICE, "D2 - D1")
    assert update.played == ((0, "d2-d1"),)  # logged in canonical notation
    assert update.to_move == (BOB,)
    assert update.public_view["last_move"] == "d2-d1"
    assert [m.move for m in await service.store.moves(match_id)] == ["d2-d1"]


async def test_a_restarted_service_continues_from_sqlite(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    store = await Store.open(path)
    first = MatchService(store)
    match_id = await _start(first)
    await first.play(match_id, ALICE, "d2-d1")
    await store.close()

    store = await Store.open(path)
    second = MatchService(store)
    update = await second.play(match_id, BOB, "c2-c1")
    assert update.public_view["last_move"] == "c2-c1"
    assert await store.move_count(match_id) == 2
    await store.close()


async def test_replaying_the_log_equals_the_snapshot(service: MatchService) -> None:
    match_id = await _start(service)
    rng = random.Random(4)
    for _ in range(60):
        row = await service.get(match_id)
        if row.status != "active":
            break
        view = await service.view(match_id, None)
        user = row.seats[view["turn"][0]] if row.seats else 0
        moves = await service.legal_moves(match_id, user)
        await service.play(match_id, user, rng.choice(moves))
    row = await service.get(match_id)
    assert (await service.replay(match_id)).dump() == row.snapshot


async def test_chance_moves_use_the_match_seed_and_are_logged(service: MatchService) -> None:
    match_id = await _start(service, "domineering")
    row = await service.get(match_id)
    moves = await service.store.moves(match_id)
    assert moves and moves[0].seat == -1
    expected = GAMES["domineering"].start().sample_chance(chance_rng(row.seed, 0))
    assert moves[0].move == expected


async def test_simultaneous_moves_are_serialised(service: MatchService) -> None:
    match_id = await _start(service)
    results = await asyncio.gather(
        service.play(match_id, ALICE, "d2-d1"),
        service.play(match_id, ALICE, "e2-e1"),
        return_exceptions=True,
    )
    errors = [r for r in results if isinstance(r, Exception)]
    assert len(errors) == 1 and isinstance(errors[0], NotYourTurn)
    assert await service.store.move_count(match_id) == 1


async def test_resign_ends_the_match_for_the_opponent(service: MatchService) -> None:
    match_id = await _start(service)
    update = await service.resign(match_id, BOB)
    assert update.outcome is not None and update.outcome.winners == {0}
    assert "resigned" in update.outcome.reason
    assert (await service.get(match_id)).status == "finished"
    with pytest.raises(ServiceError):
        await service.play(match_id, ALICE, "d2-d1")


async def test_abort_needs_both_players_or_a_moderator(service: MatchService) -> None:
    match_id = await _start(service)
    assert await service.abort(match_id, ALICE) is None
    assert (await service.get(match_id)).status == "active"
    update = await service.abort(match_id, BOB)
    assert update is not None and update.outcome is not None and update.outcome.is_draw
    assert (await service.get(match_id)).status == "aborted"


async def test_moderator_abort(service: MatchService) -> None:
    match_id = await _start(service)
    update = await service.abort(match_id, CAROL, moderator=True)
    assert update is not None
    assert (await service.get(match_id)).status == "aborted"


async def test_per_seat_options_follow_the_challenger(service: MatchService) -> None:
    raw = {"drops": "restricted"}
    mapped = resolve_options(GAMES["focus"], raw, challenger_seat=1)
    assert mapped["drops"] == "restricted"


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_every_game_replays_from_its_log_through_the_service(service: MatchService, game: str) -> None:
    """The snapshot is a cache: options + the move log (chance moves included) rebuild it."""
    match_id = await _start(service, game)
    rng = random.Random(8)
    for _ in range(120):
        row = await service.get(match_id)
        if row.status != "active" or row.seats is None:
            break
        view = await service.view(match_id, None)
        seat = rng.choice(view["turn"])
        moves = await service.legal_moves(match_id, row.seats[seat])
        await service.play(match_id, row.seats[seat], rng.choice(moves))
    row = await service.get(match_id)
    assert await service.store.move_count(match_id) > 0
    assert (await service.replay(match_id)).dump() == row.snapshot


async def test_secret_moves_are_logged_but_never_announced(service: MatchService) -> None:
    match_id = await _start(service, "domino_wars")
    row = await service.get(match_id)
    assert row.seats is not None
    moves = await service.legal_moves(match_id, row.seats[0])
    pick = next(m for m in moves if m.startswith("pick"))
    update = await service.play(match_id, row.seats[0], pick)
    assert update.played == ()
    logged = await service.store.moves(match_id)
    assert logged[-1].move == pick and not logged[-1].public
    assert all(not m.public for m in logged if m.move.startswith("shuffle"))


async def test_updates_offer_the_games_button_moves(service: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    """Dominance offers `done` (and returns) as buttons; Focus offers none."""
    monkeypatch.setattr("bot.services.matches.service.secrets.token_hex", lambda n: "fixed-seed-for-buttons")
    update = await service.accept(
        (
            await service.challenge(
                game="dominance", channel_id=CHANNEL, guild_id=GUILD, challenger_id=ALICE, opponent_id=BOB
            )
        ).id,
        BOB,
    )
    pattern = GAMES["dominance"].info.button_moves
    assert pattern is not None
    seats = update.match.seats
    assert seats is not None
    legal = [m for s in update.public_view["turn"] for m in await service.legal_moves(update.match.id, seats[s])]
    assert update.buttons == tuple(m for m in legal if pattern.match(m))[:5]
    assert "done" in update.buttons  # this seed's first turn opens a move phase
    focus = await service.accept(
        (
            await service.challenge(
                game="focus", channel_id=CHANNEL + 1, guild_id=GUILD, challenger_id=ALICE, opponent_id=BOB
            )
        ).id,
        BOB,
    )
    assert focus.buttons == ()


async def test_an_id_past_the_database_range_is_no_such_match(service: MatchService) -> None:
    from bot.services.matches.errors import NoSuchMatch

    for crafted in (2**63, 10**30, 0, -1):
        with pytest.raises(NoSuchMatch):
            await service.get(crafted)
