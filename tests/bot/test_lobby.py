"""The lobby and agreements services on a real SQLite file: venues, expiry, settings,
takeback records that replays honour, and the takebacks that must be refused."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

import pytest

from bot.games import CHANCE, GAMES
from bot.records.format import RecordError, RecordMove, format_record, parse_record
from bot.records.move_log import TAKEBACK_SEAT, effective, takeback_record
from bot.records.verify import verify_text
from bot.services.matches import (
    Agreements,
    Lobby,
    MatchService,
    Offered,
    ServiceError,
    build_record,
    job_for,
    parse_expiry,
)
from bot.store import Store
from renderers.replay_frames import replay_frames
from tests.bot.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD
from tests.bot.match_driver import start_match


@dataclass(frozen=True)
class Entry:
    ply: int
    seat: int
    move: str


def test_effective_log_drops_what_each_takeback_record_withdrew() -> None:
    log = [
        Entry(0, 0, "a"),
        Entry(1, 1, "b"),
        Entry(2, 0, "c"),
        Entry(3, TAKEBACK_SEAT, takeback_record(2)),
        Entry(4, 0, "d"),
        Entry(5, 1, "e"),
        Entry(6, TAKEBACK_SEAT, takeback_record(4)),
        Entry(7, TAKEBACK_SEAT, takeback_record(1)),
        Entry(8, 1, "f"),
    ]
    assert [e.move for e in effective(log)] == ["a", "f"]
    assert [e.move for e in effective(log[:6])] == ["a", "b", "d", "e"]
    with pytest.raises(ValueError, match="malformed"):
        effective([Entry(0, TAKEBACK_SEAT, "undo")])


def test_challenge_lifetimes() -> None:
    assert parse_expiry(None) == 24 * 3600 and parse_expiry("90m") == 5400
    for bad in ("30s", "31d", "soon"):
        with pytest.raises(ServiceError):
            parse_expiry(bad)


async def test_thread_challenges_share_a_channel_that_channel_challenges_hold(service: MatchService) -> None:
    lobby = Lobby(service)
    first = await lobby.challenge(
        game="focus", channel_id=CHANNEL, guild_id=GUILD, challenger_id=ALICE, opponent_id=None, threads_possible=True
    )
    second = await lobby.challenge(
        game="focus", channel_id=CHANNEL, guild_id=GUILD, challenger_id=BOB, opponent_id=None, threads_possible=True
    )
    held = await lobby.challenge(
        game="focus", channel_id=CHANNEL, guild_id=GUILD, challenger_id=CAROL, opponent_id=None
    )
    with pytest.raises(ServiceError, match="already has a match"):
        await lobby.challenge(game="focus", channel_id=CHANNEL, guild_id=GUILD, challenger_id=ALICE, opponent_id=None)
    assert [r.id for r, _ in await lobby.open_challenges(GUILD)] == [first.id, second.id, held.id]
    started = await lobby.accept(first.id, CAROL, thread_id=7001)
    assert started.match.channel_id == 7001 and (await lobby.placement(first.id)).lobby_channel_id == CHANNEL
    with pytest.raises(ServiceError, match="already has a match"):  # no thread: the channel is held
        await lobby.accept(second.id, CAROL, thread_id=None)
    assert (await service.get(second.id)).status == "challenge"


async def test_settings_default_clock_and_expiry(service: MatchService) -> None:
    lobby = Lobby(service)
    assert (await lobby.settings(GUILD)).venue == "threads" and (await lobby.settings(GUILD)).default_clock == "daily"
    with pytest.raises(ServiceError, match="not a duration"):
        await lobby.configure(GUILD, clock="soon")
    assert (await lobby.configure(GUILD, venue="channel", clock="2h+1d")).default_clock == "2h+1d"
    row = await lobby.challenge(
        game="focus", channel_id=CHANNEL, guild_id=GUILD, challenger_id=ALICE, opponent_id=BOB, expires="1h"
    )
    assert row.clock is not None and row.clock["control"]["per_move"] == 7200
    unclocked = await lobby.challenge(
        game="focus", channel_id=CHANNEL + 1, guild_id=GUILD, challenger_id=ALICE, opponent_id=BOB, clock="none"
    )
    assert unclocked.clock is None
    deadline = (await lobby.placement(row.id)).expires_at
    assert deadline is not None and abs(deadline - (time.time() + 3600)) < 60
    assert await lobby.expire_due() == []
    await lobby.store.set_expiry(row.id, time.time() - 1)
    with pytest.raises(ServiceError, match="expired"):
        await lobby.accept(row.id, BOB, thread_id=None)
    assert [r.id for r in await lobby.expire_due()] == [row.id]
    assert (await service.get(row.id)).status == "cancelled"


async def test_a_challenge_is_stored_with_its_deadline_in_one_write(
    service: MatchService, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The deadline is part of the challenge's own insert: a crash right after creating the
    challenge cannot leave one that never expires (no second write is made for it)."""
    lobby = Lobby(service)
    writes: list[str] = []
    real = store.transaction

    def counted(*args: object, **kwargs: object) -> object:
        writes.append("transaction")
        return real(*args, **kwargs)  # type: ignore[arg-type]

    async def no_second_write(*_args: object) -> None:
        raise AssertionError("the deadline must not need a write of its own")

    monkeypatch.setattr(store, "transaction", counted)
    monkeypatch.setattr(lobby.store, "set_expiry", no_second_write)
    row = await lobby.challenge(
        game="domineering", channel_id=CHANNEL, guild_id=GUILD, challenger_id=ALICE, opponent_id=BOB, expires="2h"
    )
    assert writes == ["transaction"]
    deadline = (await lobby.placement(row.id)).expires_at
    assert deadline is not None and abs(deadline - (time.time() + 7200)) < 60


async def _focus(service: MatchService, game: str = "focus", **options: str) -> int:
    """A started match with Alice in seat 0."""
    return await start_match(service, game, seat_pref="first", **options)


@pytest.mark.parametrize("seed", range(6))
async def test_random_playouts_with_takebacks_replay_to_the_current_state(service: MatchService, seed: int) -> None:
    rng = random.Random(seed)
    agreements = Agreements(service)
    options = {"setup": rng.choice(["standard", "drop"])}
    match_id = await _focus(service, **options)
    users = (ALICE, BOB)
    taken = 0
    for _ in range(40):
        row = await service.get(match_id)
        if row.status != "active":
            break
        view = await service.view(match_id, None)
        seat = view["turn"][0]
        if rng.random() < 0.25 and await service.store.move_count(match_id) > 0:
            try:
                offered = await agreements.request_takeback(match_id, users[seat])
            except ServiceError:
                continue
            assert isinstance(offered, Offered)
            before = await service.store.move_count(match_id)
            await agreements.answer_takeback(match_id, users[1 - seat], accept=True)
            taken += 1
            assert await service.store.move_count(match_id) == before + 1
            now = await service.view(match_id, None)
            assert seat in now["turn"], "the requester moves again"
        else:
            moves = await service.legal_moves(match_id, users[seat])
            await service.play(match_id, users[seat], rng.choice(moves))
        replayed = await service.replay(match_id)
        current = await service.view(match_id, None)
        assert replayed.view(None) == {k: v for k, v in current.items() if k != "match_id"}
    assert taken > 0
    log = await service.store.moves(match_id)
    assert sum(m.seat == TAKEBACK_SEAT for m in log) == taken

    # Exports, replays and the dice check read the same log the same way.
    final = await service.view(match_id, None)
    if (await service.get(match_id)).status == "active":
        await service.resign(match_id, ALICE)
    row = await service.get(match_id)
    log = await service.store.moves(match_id)  # with its ending line
    text = format_record(build_record(row, log, ("alice", "bob")))
    assert " takeback " in text and format_record(parse_record(text)) == text
    verdict = verify_text(text)
    assert verdict.ok, verdict.sentence
    frames = replay_frames(job_for(row, log, ("alice", "bob")))
    shown = [f.view for f in frames if f.seat is None]
    assert shown[-1] == {k: v for k, v in final.items() if k != "match_id"}
    assert sum("Takeback" in f.caption for f in frames) <= taken


async def test_no_takeback_past_a_chance_move_nor_in_tournaments(service: MatchService, store: Store) -> None:
    agreements = Agreements(service)
    match_id = await _focus(service, "domineering")
    view = await service.view(match_id, None)
    seat = view["turn"][0]
    user = (ALICE, BOB)[seat]
    await service.play(match_id, user, (await service.legal_moves(match_id, user))[0])
    assert any(m.seat == CHANCE for m in await store.moves(match_id))
    with pytest.raises(ServiceError, match="chance move or hidden information"):
        await agreements.request_takeback(match_id, user)

    async with store.transaction() as db:
        tournament_id = await db.insert(
            "INSERT INTO tournaments (channel_id, host_id, name, game, format, best_of, options, status, "
            "created_at, updated_at) VALUES (?, ?, 'cup', 'focus', 'swiss', 1, '{}', 'running', 0, 0)",
            (CHANNEL + 5, ALICE),
        )
    assert tournament_id is not None
    update = await service.open_match(
        game="focus",
        channel_id=CHANNEL + 6,
        guild_id=GUILD,
        seats=(ALICE, BOB),
        options={},
        clock=None,
        rated=True,
        tournament_game=(tournament_id, 1, 1),
    )
    await service.play(update.match.id, ALICE, "d2-d1")
    with pytest.raises(ServiceError, match="Tournament games have no takebacks"):
        await agreements.request_takeback(update.match.id, ALICE)


async def test_draw_by_agreement_is_a_game_rule() -> None:
    assert [key for key, rules in GAMES.items() if rules.info.draw_by_agreement] == ["focus"]


@pytest.mark.parametrize("seed", range(3))
async def test_domino_wars_moves_reveal_hidden_tiles_so_no_takeback(service: MatchService, seed: int) -> None:
    """In Domino Wars every own move is a secret draft pick, followed by a draw, or lays a tile
    from the hand (revealing it): a takeback must be refused after each of them."""
    rng = random.Random(seed)
    agreements = Agreements(service)
    match_id = await _focus(service, "domino_wars")
    users = (ALICE, BOB)
    tried = 0
    for _ in range(30):
        if (await service.get(match_id)).status != "active":
            break
        seat = rng.choice((await service.view(match_id, None))["turn"])
        moves = await service.legal_moves(match_id, users[seat])
        await service.play(match_id, users[seat], rng.choice(moves))
        if (await service.get(match_id)).status != "active":
            break
        before = await service.store.move_count(match_id)
        with pytest.raises(ServiceError, match=r"chance move or hidden information|showed hidden information"):
            await agreements.request_takeback(match_id, users[seat])
        assert await service.store.move_count(match_id) == before
        assert await agreements.store.offer(match_id, "takeback") is None
        tried += 1
    assert tried >= 10


def test_a_record_takeback_line_must_name_an_earlier_ply() -> None:
    header = (
        '[Boneyard "1"]\n[Game "focus"]\n[Options ""]\n[Player0 "a"]\n[Player1 "b"]\n[Start "x"]\n'
        '[End "-"]\n[Status "active"]\n[Result "*"]\n[SeedHash "00"]\n\n0 0 d2-d1\n'
    )
    record = parse_record(header + "1 takeback 0\n")
    assert record.moves[1] == RecordMove(1, TAKEBACK_SEAT, "takeback 0")
    for bad in ("1 takeback 1\n", "1 takeback x\n"):
        with pytest.raises(RecordError, match="earlier ply"):
            parse_record(header + bad)
