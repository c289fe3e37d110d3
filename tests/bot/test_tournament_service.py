"""TournamentService over a real SQLite file: whole events driven through real matches.

Matches are decided by resignation (the quickest real way to end one), so every result
reaches the tournament exactly as in production: through the match service's finish
listener and `sync`, which folds the stored matches into the tournament.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from bot.services.matches import MatchService, ServiceError
from bot.services.outbox import CHAMPION, TOURNAMENT_PROGRESS, Announcement
from bot.services.ratings import RatingBook
from bot.services.tournaments import NotHost, Progress, TournamentService, loaded
from bot.store import Store
from bot.store.tournaments import LinkedGame, TournamentRow
from bot.tournaments import Format

HOST, CHANNEL, GUILD = 4000, 700, 900
PLAYERS = [5001 + i for i in range(8)]


class Event:
    """A tournament service as the cog drives it: every game opens in a fresh 'thread'."""

    def __init__(self, service: MatchService) -> None:
        self.matches = service
        self.ratings = RatingBook(service.store)
        self.service = TournamentService(service, self.ratings)
        service.finish_listeners.append(self.ratings.record)
        self._thread = 10_000
        self.progress: list[Progress] = []

    async def create(self, fmt: str, players: list[int], **kwargs: object) -> TournamentRow:
        game = str(kwargs.pop("game", "focus"))
        row = await self.service.create(
            guild_id=GUILD, channel_id=CHANNEL, host_id=HOST, name=f"{fmt} cup", game=game, format=fmt, **kwargs
        )  # type: ignore[arg-type]
        for player in players:
            await self.service.join(row.id, player, f"P{player}")
        return row

    async def advance(self, tournament_id: int) -> Progress:
        """Sync and open every game due, as the cog does after each event."""
        progress = await self.service.sync(tournament_id)
        self.progress.append(progress)
        for game in progress.to_open:
            self._thread += 1
            await self.service.open_game(tournament_id, game, channel_id=self._thread)
        return progress

    async def live_matches(self, tournament_id: int) -> list[int]:
        return [g.match_id for g in await self.service.store.games(tournament_id) if g.status == "active"]

    async def decide(self, match_id: int, winner: int) -> None:
        """The loser resigns (seat lookup by the stored match)."""
        row = await self.matches.get(match_id)
        assert row.seats is not None and winner in row.seats
        loser = row.seats[1 - row.seats.index(winner)]
        await self.matches.resign(match_id, loser)


@pytest.fixture
def event(store: Store) -> Event:
    """On each backend (the `store` fixture runs every test on SQLite and PostgreSQL)."""
    return Event(MatchService(store, cache_size=8))


async def _play_out(event: Event, tournament_id: int, pick: random.Random, better: bool = True) -> int:
    """Play every game to the end (the lower id wins when `better`, else at random); returns games played."""
    played = 0
    await event.advance(tournament_id)
    for _ in range(500):
        live = await event.live_matches(tournament_id)
        if not live:
            row = await event.service.store.get(tournament_id)
            assert row is not None
            if row.status == "finished":
                return played
            await event.advance(tournament_id)
            assert await event.live_matches(tournament_id), "a running tournament with nothing to play"
            continue
        match = await event.matches.get(live[0])
        assert match.seats is not None
        winner = min(match.seats) if better else pick.choice(match.seats)
        await event.decide(live[0], winner)
        played += 1
        await event.advance(tournament_id)
    raise AssertionError("the tournament never finished")


async def test_six_player_swiss_runs_to_a_champion_without_rematches(event: Event) -> None:
    row = await event.create("swiss", PLAYERS[:6], rounds=3)
    started = await event.service.begin(row.id, host=True)
    assert started.status == "running"
    played = await _play_out(event, row.id, random.Random(3), better=False)
    assert played == 9  # 3 rounds x 3 pairings, no byes with 6 players
    final = await event.service.store.get(row.id)
    assert final is not None and final.status == "finished"
    tournament = loaded(final)
    assert tournament is not None and tournament.finished
    pairs = [frozenset(p.participants) for p in tournament.pairings]
    assert len(pairs) == len(set(pairs)), "a Swiss event of 6 over 3 rounds needs no rematch"
    champion = [p for p in event.progress if p.just_finished]
    assert len(champion) == 1 and champion[0].champion == tournament.standings()[0].player


async def test_eight_player_double_elimination_crowns_the_unbeaten_top_seed(event: Event) -> None:
    row = await event.create("double_elimination", PLAYERS)
    await event.service.begin(row.id, host=True)
    played = await _play_out(event, row.id, random.Random(0), better=True)
    final = await event.service.store.get(row.id)
    assert final is not None
    tournament = loaded(final)
    assert tournament is not None
    # the lowest id always wins; it is never beaten, so the bracket reset is not played
    assert tournament.winner == min(PLAYERS)
    assert played == 14  # 7 winners-bracket + 6 losers-bracket + the grand final
    assert next(p for p in event.progress if p.just_finished).champion == min(PLAYERS)


async def test_deathmatch_best_of_three_with_items_opens_each_game_with_them(event: Event) -> None:
    a, b = PLAYERS[:2]
    row = await event.create("deathmatch", [a, b], game="domino_wars", best_of=3, clock="blitz")
    await event.service.give_item(row.id, a, "repeat", host=True)
    await event.service.give_item(row.id, b, "tie", host=True)
    await event.service.begin(row.id, host=True)
    await event.advance(row.id)
    (match_id,) = await event.live_matches(row.id)
    match = await event.matches.get(match_id)
    assert match.seats is not None
    seat_a = match.seats.index(a)
    assert match.options == {"repeat": str(seat_a), "tie": str(1 - seat_a)}
    assert match.clock is not None, "the tournament's time control is on every game"
    await event.decide(match_id, a)
    await event.advance(row.id)
    (second,) = await event.live_matches(row.id)
    assert second != match_id
    swapped = await event.matches.get(second)
    assert swapped.seats == (match.seats[1], match.seats[0]), "seats alternate game by game"
    await event.decide(second, a)
    progress = await event.advance(row.id)
    assert progress.just_finished and progress.champion == a


async def test_tie_is_unique_but_repeat_may_be_held_by_both(event: Event) -> None:
    a, b = PLAYERS[:2]
    row = await event.create("deathmatch", [a, b], game="domino_wars")
    await event.service.give_item(row.id, a, "tie", host=True)
    with pytest.raises(ServiceError, match="Only one player can hold `tie`"):
        await event.service.give_item(row.id, b, "tie", host=True)
    await event.service.give_item(row.id, a, "repeat", host=True)
    await event.service.give_item(row.id, b, "repeat", host=True)
    with pytest.raises(ServiceError, match="no item `sword`"):
        await event.service.give_item(row.id, a, "sword", host=True)


async def test_host_only_actions_are_refused_to_players(event: Event) -> None:
    row = await event.create("single_elimination", PLAYERS[:4])
    with pytest.raises(NotHost):
        await event.service.begin(row.id, host=False)
    with pytest.raises(NotHost):
        await event.service.cancel(row.id, host=False)
    with pytest.raises(NotHost):
        await event.service.drop(row.id, PLAYERS[1], host=False, by=PLAYERS[0])
    still = await event.service.store.get(row.id)
    assert still is not None and still.status == "open"
    assert len(await event.service.entries(row.id)) == 4


async def test_restart_mid_round_resumes_from_the_database(tmp_path: Path) -> None:
    path = tmp_path / "restart.sqlite3"
    store = await Store.open(path)
    first = Event(MatchService(store))
    row = await first.create("single_elimination", PLAYERS[:4])
    await first.service.begin(row.id, host=True)
    await first.advance(row.id)
    live = await first.live_matches(row.id)
    assert len(live) == 2
    # one semi-final ends while the bot is "down": the result is stored, no sync ran
    await first.decide(live[0], min((await first.matches.get(live[0])).seats or ()))
    await store.close()

    store = await Store.open(path)
    second = Event(MatchService(store))
    progress = await second.advance(row.id)
    assert len(progress.decided) == 1, "the result stored before the restart is folded in"
    played = await _play_out(second, row.id, random.Random(1))
    assert played == 2  # the other semi-final and the final
    final = await second.service.store.get(row.id)
    assert final is not None and final.status == "finished"
    await store.close()


async def test_an_aborted_game_is_replayed_with_the_same_seats(event: Event) -> None:
    a, b = PLAYERS[:2]
    row = await event.create("deathmatch", [a, b])
    await event.service.begin(row.id, host=True)
    await event.advance(row.id)
    (match_id,) = await event.live_matches(row.id)
    old = await event.matches.get(match_id)
    await event.matches.abort(match_id, HOST, moderator=True)
    progress = await event.advance(row.id)
    assert progress.replayed == (1,)
    (replay,) = await event.live_matches(row.id)
    assert replay != match_id and (await event.matches.get(replay)).seats == old.seats


async def test_dropping_a_player_mid_match_forfeits_the_series(event: Event) -> None:
    row = await event.create("single_elimination", PLAYERS[:2])
    await event.service.begin(row.id, host=True)
    await event.advance(row.id)
    (match_id,) = await event.live_matches(row.id)
    to_end = await event.service.drop(row.id, PLAYERS[1], host=False, by=PLAYERS[1])
    assert to_end == [match_id]
    await event.matches.resign(match_id, PLAYERS[1])
    progress = await event.advance(row.id)
    assert progress.just_finished and progress.champion == PLAYERS[0]


async def test_host_report_overrides_and_the_bracket_moves_on(event: Event) -> None:
    row = await event.create("single_elimination", PLAYERS[:4])
    await event.service.begin(row.id, host=True)
    await event.advance(row.id)
    tournament = loaded(await _row(event, row.id))
    assert tournament is not None
    first_pairing = next(p for p in tournament.pairings if p.ready)
    winner = max(first_pairing.participants)
    open_ids = await event.service.report(row.id, first_pairing.id, winner, host=True)
    assert len(open_ids) == 1  # the running game of that series, for the cog to abort
    for match_id in open_ids:
        await event.matches.abort(match_id, HOST, moderator=True)
    await event.advance(row.id)
    after = loaded(await _row(event, row.id))
    assert after is not None
    assert after.pairing(first_pairing.id).winner == winner
    assert not [p for p in event.progress if p.replayed], "a game of a decided series is not replayed"


async def test_finished_tournament_matches_update_ratings_once(event: Event) -> None:
    a, b = PLAYERS[:2]
    row = await event.create("deathmatch", [a, b])
    await event.service.begin(row.id, host=True)
    await event.advance(row.id)
    (match_id,) = await event.live_matches(row.id)
    await event.decide(match_id, a)
    winner = await event.ratings.rating(a, "focus")
    loser = await event.ratings.rating(b, "focus")
    assert winner.rating.value > 1500 > loser.rating.value
    assert (winner.wins, loser.losses) == (1, 1)
    assert await event.ratings.record(await event.matches.get(match_id)) is None, "never rated twice"
    assert await event.ratings.catch_up() == 0


async def test_checkin_window_starts_with_checked_in_players_only(event: Event) -> None:
    row = await event.create("round_robin", PLAYERS[:4], checkin_minutes=10)
    opened = await event.service.begin(row.id, host=True, now=1000.0)
    assert opened.status == "checkin" and opened.checkin_until == 1000.0 + 600
    for player in PLAYERS[:3]:
        await event.service.check_in(row.id, player)
    assert await event.service.due_checkins(now=1599.0) == []
    (due,) = await event.service.due_checkins(now=1600.0)
    started = await event.service.close_checkin(due.id)
    assert started is not None and started.status == "running"
    tournament = loaded(started)
    assert tournament is not None
    assert sorted(p.id for p in tournament.players) == PLAYERS[:3]
    assert tournament.format is Format.ROUND_ROBIN


async def test_sign_up_rules(event: Event) -> None:
    row = await event.create("single_elimination", [], max_players=2)
    await event.service.join(row.id, PLAYERS[0], "A")
    with pytest.raises(ServiceError, match="already joined"):
        await event.service.join(row.id, PLAYERS[0], "A")
    await event.service.join(row.id, PLAYERS[1], "B")
    with pytest.raises(ServiceError, match="full"):
        await event.service.join(row.id, PLAYERS[2], "C")
    with pytest.raises(ServiceError, match="already runs a tournament"):
        await event.create("swiss", [])
    await event.service.leave(row.id, PLAYERS[1])
    with pytest.raises(ServiceError, match="needs at least 2 players"):
        await event.service.begin(row.id, host=True)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"format": "ladder"}, "not a format"),
        ({"format": "swiss", "best_of": 2}, "best of"),
        ({"format": "single_elimination", "rounds": 3}, "Only a Swiss"),
        ({"format": "swiss", "options": {"setup": "sideways"}}, "setup"),
        ({"format": "swiss", "clock": "forever and a day"}, "not a duration"),
        ({"format": "swiss", "game": "domino_wars", "options": {"tie": "0"}}, "Items are given"),
    ],
)
async def test_bad_settings_are_refused_at_create(event: Event, kwargs: dict[str, object], message: str) -> None:
    settings: dict[str, object] = {"game": "focus", **kwargs}
    with pytest.raises(ServiceError, match=message):
        await event.service.create(guild_id=GUILD, channel_id=CHANNEL, host_id=HOST, name="x", **settings)  # type: ignore[arg-type]
    assert await event.service.store.latest_in_channel(CHANNEL) is None


async def _row(event: Event, tournament_id: int) -> TournamentRow:
    row = await event.service.store.get(tournament_id)
    assert row is not None
    return row


async def _legacy_open(event: Event, tournament_id: int) -> int:
    """Open the due game as versions before the one-transaction opening did: a challenge
    linked to the game, never accepted (the crash came between the two steps)."""
    progress = await event.service.sync(tournament_id)
    (game,) = progress.to_open
    row = await event.matches.challenge(
        game="focus",
        channel_id=20_000,
        guild_id=GUILD,
        challenger_id=game.seats[0],
        opponent_id=game.seats[1],
        seat_pref="first",
        tournament_game=(tournament_id, game.pairing_id, game.game_number),
    )
    return row.id


async def test_a_game_left_as_a_challenge_is_started_by_the_next_sync(event: Event) -> None:
    a, b = PLAYERS[:2]
    row = await event.create("deathmatch", [a, b])
    await event.service.begin(row.id, host=True)
    match_id = await _legacy_open(event, row.id)
    progress = await event.service.sync(row.id)  # what start-up does
    started = await event.matches.get(match_id)
    assert started.status == "active" and set(started.seats or ()) == {a, b}
    keys = set(progress.announcements)
    boards = [r for r in await event.matches.store.unsent_announcements() if r.match_id == match_id]
    assert len(boards) == 1 and boards[0].key in keys  # its board is announced
    assert progress.to_open == ()  # and the game is not opened a second time
    await event.decide(match_id, a)
    assert (await event.service.sync(row.id)).just_finished


async def test_a_withdrawn_tournament_challenge_is_played_again_not_left_hanging(event: Event) -> None:
    a, b = PLAYERS[:2]
    row = await event.create("deathmatch", [a, b])
    await event.service.begin(row.id, host=True)
    match_id = await _legacy_open(event, row.id)
    await event.matches.cancel(match_id, a)
    progress = await event.advance(row.id)
    assert progress.replayed and len(progress.to_open) == 1
    (live,) = await event.live_matches(row.id)
    assert live != match_id


async def _announcements_of(event: Event, tournament_id: int) -> list[Announcement]:
    """The tournament's announcements stored so far (this test posts none)."""
    return [a for a in await event.matches.store.unsent_announcements() if a.tournament_id == tournament_id]


@pytest.mark.parametrize("seed", range(4))
async def test_a_sync_that_finds_nothing_new_writes_nothing(event: Event, seed: int) -> None:
    """Each restart syncs every running tournament: with nothing new it must not write (no
    new version, no announcement), while a sync after a result does."""
    pick = random.Random(seed)
    fmt = pick.choice(["single_elimination", "double_elimination", "round_robin", "swiss"])
    players = pick.sample(PLAYERS, pick.randint(3, 6))
    row = await event.create(fmt, players, **({"rounds": 2} if fmt == "swiss" else {}))
    await event.service.begin(row.id, host=True)
    await event.advance(row.id)
    for _ in range(100):
        live = await event.live_matches(row.id)
        if not live:
            break
        before = await _row(event, row.id)
        said = await _announcements_of(event, row.id)
        restarted = TournamentService(event.matches, event.ratings)  # a restarted bot's resume
        again = await restarted.sync(row.id)
        assert (again.to_open, again.decided, again.announcements) == ((), (), ())
        assert (await _row(event, row.id)).version == before.version
        assert await _announcements_of(event, row.id) == said

        match = await event.matches.get(pick.choice(live))
        assert match.seats is not None
        await event.decide(match.id, pick.choice(match.seats))
        assert (await event.advance(row.id)).decided, "every game here decides its best-of-1 series"
        assert (await _row(event, row.id)).version > before.version
    assert (await _row(event, row.id)).status == "finished"


@pytest.mark.parametrize("read", [1, 2])
async def test_a_match_ending_while_a_sync_reads_the_games_is_recorded_once(
    event: Event, monkeypatch: pytest.MonkeyPatch, read: int
) -> None:
    """The resume at start-up is not ordered with a match ending: the ending may commit
    right after any read of the games by the resume's sync.  Whichever sync folds it, the
    series is decided once and announced once, and the next game is due once."""
    pick = random.Random(read)
    row = await event.create("single_elimination", pick.sample(PLAYERS, 4))
    await event.service.begin(row.id, host=True)
    await event.advance(row.id)
    live = await event.live_matches(row.id)
    assert len(live) == 2
    ending = await event.matches.get(pick.choice(live))
    assert ending.seats is not None
    winner = pick.choice(ending.seats)

    store = event.service.store
    reads = 0
    games = store.games

    async def games_then_the_ending(tournament_id: int) -> list[LinkedGame]:
        nonlocal reads
        rows = await games(tournament_id)
        reads += 1
        if reads == read:
            await event.decide(ending.id, winner)
        return rows

    monkeypatch.setattr(store, "games", games_then_the_ending)
    resumed = await event.service.sync(row.id)
    monkeypatch.undo()
    assert reads >= read, "the ending was to come after this read of the games"

    after = await event.service.sync(row.id)  # the ending's own sync
    last = await event.service.sync(row.id)
    tournament = loaded(await _row(event, row.id))
    assert tournament is not None
    pairing = next(p for p in tournament.pairings if ending.id in [g.match for g in p.games])
    assert pairing.finished and pairing.winner == winner
    assert [p.id for p in (*resumed.decided, *after.decided, *last.decided)] == [pairing.id]
    progress = [a for a in await _announcements_of(event, row.id) if a.kind == TOURNAMENT_PROGRESS]
    assert [a.payload["decided"] for a in progress] == [[pairing.id]]
    assert last.to_open == () and (resumed.to_open, after.to_open) == ((), ()), "the final waits for the other semi"


async def test_two_syncs_at_once_record_a_result_once(event: Event) -> None:
    """The resume at start-up and a match ending's advance may sync at the same moment: the
    service's lock makes one record the result and the other find nothing new."""
    a, b = random.Random(5).sample(PLAYERS, 2)
    row = await event.create("deathmatch", [a, b])
    await event.service.begin(row.id, host=True)
    await event.advance(row.id)
    (match_id,) = await event.live_matches(row.id)
    await event.decide(match_id, b)
    both = await asyncio.gather(event.service.sync(row.id), event.service.sync(row.id))
    assert [p.just_finished for p in both].count(True) == 1
    assert [p.champion for p in both if p.just_finished] == [b]
    kinds = [a.kind for a in await _announcements_of(event, row.id)]
    assert kinds.count(TOURNAMENT_PROGRESS) == 1 and kinds.count(CHAMPION) == 1
