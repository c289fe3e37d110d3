"""TournamentService: tournaments as the bot runs them — sign-up, check-in, start, results.

The pure `Tournament` (bot.tournaments) decides pairings and standings; this service keeps
it in SQLite and feeds it what happened to the matches.  Like `MatchService` it knows
nothing of Discord: the cog creates a thread per game and calls `open_game` with it.

One idea keeps it robust: `sync` derives the tournament's progress from what is STORED.
It folds every linked match into the tournament document (a game opened but not marked,
a result not recorded, an aborted game to replay), pairs the next round when one is due,
and says which games to open.  It is idempotent, so every trigger simply calls it: a match
ending (the service's finish listener), a host's report or drop, a restart.  A crash at
any point between two writes is repaired by the next `sync`, and opening the same game
twice is impossible (the link table's unique key).

Hosts: the creator of a tournament, plus whoever the cog says is one (members with Manage
Server or a configured role); the service only receives `host=True`.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.clocks import InvalidTimeControl, parse_time_control
from bot.games import GAMES, InvalidOptions, Outcome, Rules
from bot.games.base import shown
from bot.i18n import tr
from bot.services.matches import MatchService, ServiceError, Update
from bot.services.outbox import CHAMPION, GAME_LINK, TOURNAMENT_PROGRESS, Announcement
from bot.services.ratings import RatingBook
from bot.store import OPEN_STATUSES, MatchStatus, StaleVersion
from bot.store.tournaments import Entry as Entry  # re-exported: the rows the commands show
from bot.store.tournaments import LinkedGame, TournamentStore
from bot.store.tournaments import TournamentRow as TournamentRow
from bot.tournaments import Format, GameToStart, Pairing, Tournament, TournamentError, item_options
from bot.tournaments.series import ALLOWED_BEST_OF, DEATHMATCH_BEST_OF

log = logging.getLogger(__name__)

MAX_CHECKIN_MINUTES = 24 * 60
STRANDED_INTRO = tr("This tournament game was interrupted while it was being opened; it starts now.")


class NotHost(ServiceError):
    pass


@dataclass(frozen=True)
class Progress:
    """What changed in a tournament, for the cog to announce and act on."""

    tournament: TournamentRow
    to_open: tuple[GameToStart, ...] = ()
    """Games to open now: the cog creates a thread for each and calls `open_game`."""
    decided: tuple[Pairing, ...] = ()
    """Series decided since the last sync (results to announce)."""
    replayed: tuple[int, ...] = ()
    """Pairings whose open game was aborted and will be played again."""
    new_round: int | None = None
    champion: int | None = None
    """Set once, when the event just ended (None for a drawn round-robin top spot too)."""
    just_finished: bool = False
    names: dict[int, str] = field(default_factory=dict)
    announcements: tuple[str, ...] = ()
    """Keys of the outbox rows this sync stored (results, the champion, boards of games it
    had to start): the runner posts them through the dispatcher."""

    def name(self, user_id: int | None) -> str:
        return "nobody" if user_id is None else self.names.get(user_id, f"player {str(user_id)[-4:]}")


@dataclass(frozen=True)
class OpenedGame:
    """A tournament game just opened: its first board, and the keys of the outbox rows to
    post after it (the link in the tournament channel, then whatever the sync stored)."""

    update: Update
    link: str | None
    later: tuple[str, ...] = ()


def item_names(rules: Rules) -> tuple[str, ...]:
    """A game's items: its per-seat options (values are seats `0`/`1`), like Domino Wars' `tie`."""
    return tuple(o.name for o in rules.info.options if {"0", "1"} <= set(o.choices))


class TournamentService:
    def __init__(self, matches: MatchService, ratings: RatingBook) -> None:
        self.matches = matches
        self.ratings = ratings
        """Seeds: players are ranked by their rating in the event's game."""
        self.store = TournamentStore(matches.store)
        self._locks: dict[int, asyncio.Lock] = {}

    def lock(self, tournament_id: int) -> asyncio.Lock:
        return self._locks.setdefault(tournament_id, asyncio.Lock())

    # --- sign-up -----------------------------------------------------------------------

    async def create(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        host_id: int,
        name: str,
        game: str,
        format: str,
        best_of: int = 1,
        rounds: int | None = None,
        options: Mapping[str, str] | None = None,
        clock: str | None = None,
        max_players: int | None = None,
        checkin_minutes: int = 0,
        rated: bool = True,
    ) -> TournamentRow:
        """Open sign-up in a channel.  Everything is validated now, not at start."""
        rules = GAMES.get(game)
        if rules is None:
            raise ServiceError(tr("There is no game called {game}; `/games` lists them.", game=shown(game)))
        fmt = _format(format)
        allowed = DEATHMATCH_BEST_OF if fmt is Format.DEATHMATCH else ALLOWED_BEST_OF
        if best_of not in allowed:
            raise ServiceError(
                tr(
                    "A {value} plays best of {allowed}, not {best_of}.",
                    value=fmt.value.replace("_", " "),
                    allowed=_or(allowed),
                    best_of=best_of,
                )
            )
        if rounds is not None and fmt is not Format.SWISS:
            raise ServiceError(tr("Only a Swiss event takes a number of rounds; the format fixes the others."))
        if max_players is not None and max_players < 2:
            raise ServiceError(tr("A tournament needs room for at least 2 players."))
        if fmt is Format.DEATHMATCH:
            max_players = 2
        if not 0 <= checkin_minutes <= MAX_CHECKIN_MINUTES:
            raise ServiceError(
                tr(
                    "The check-in window is 0 (none) to {max_checkin_minutes} minutes.",
                    max_checkin_minutes=MAX_CHECKIN_MINUTES,
                )
            )
        raw = {k.strip().lower(): str(v).strip().lower() for k, v in (options or {}).items()}
        if set(raw) & set(item_names(rules)):
            raise ServiceError(tr("Items are given to players with `/tournament item give`, not set as options."))
        try:
            rules.resolve_options(raw)
            if clock:
                parse_time_control(clock)
        except (InvalidOptions, InvalidTimeControl) as exc:
            raise ServiceError(str(exc)) from None
        name = " ".join(name.split())[:80] or "Tournament"
        row = await self.store.create(
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            name=name,
            game=game,
            format=fmt.value,
            best_of=best_of,
            rounds=rounds,
            options=raw,
            clock=clock.strip() if clock else None,
            max_players=max_players,
            checkin_minutes=checkin_minutes,
            rated=rated,
        )
        if row is None:
            raise ServiceError(
                tr("This channel already runs a tournament; finish or cancel it, or use another channel.")
            )
        return row

    async def join(self, tournament_id: int, user_id: int, name: str) -> int:
        """Sign `user_id` up; returns how many players are signed up with them.  Counted, not
        listed: a burst of a thousand joins would otherwise read the growing list twice each."""
        async with self.lock(tournament_id):
            row = await self._get(tournament_id)
            if row.status not in ("open", "checkin"):
                raise ServiceError(tr("Sign-up is closed: the tournament has started."))
            players, joined = await self.store.signed_up(tournament_id, user_id)
            if joined:
                raise ServiceError(tr("You have already joined."))
            if row.max_players is not None and players >= row.max_players:
                raise ServiceError(tr("The tournament is full ({max_players} players).", max_players=row.max_players))
            await self.store.add_entry(tournament_id, user_id, name)
            if row.status == "checkin":
                await self.store.check_in(tournament_id, user_id)  # joining during check-in is checking in
            return players + 1

    async def leave(self, tournament_id: int, user_id: int) -> None:
        async with self.lock(tournament_id):
            row = await self._get(tournament_id)
            if row.status not in ("open", "checkin"):
                raise ServiceError(tr("The tournament has started: ask the host to `/tournament drop` you."))
            if not await self.store.remove_entry(tournament_id, user_id):
                raise ServiceError(tr("You are not signed up."))

    async def check_in(self, tournament_id: int, user_id: int) -> None:
        async with self.lock(tournament_id):
            row = await self._get(tournament_id)
            if row.status != "checkin":
                raise ServiceError(tr("Check-in is not open."))
            if not await self.store.check_in(tournament_id, user_id):
                raise ServiceError(tr("You are not signed up: `/tournament join` first."))

    async def entries(self, tournament_id: int) -> list[Entry]:
        return await self.store.entries(tournament_id)

    # --- items -------------------------------------------------------------------------

    async def give_item(self, tournament_id: int, user_id: int, item: str, *, host: bool) -> TournamentRow:
        """Give a game item to a player (before or during the event; it applies to games
        opened from then on).  An item the game cannot grant to both seats (Domino Wars'
        `tie`) is unique: only one player may hold it."""
        async with self.lock(tournament_id):
            row = await self._get(tournament_id)
            self._check_host(row, host)
            if not row.is_open:
                raise ServiceError(tr("The tournament is over."))
            rules = GAMES[row.game]
            name = item.strip().lower()
            items = item_names(rules)
            if name not in items:
                offered = _or(items) if items else "none"
                raise ServiceError(
                    tr(
                        "{name} has no item `{item}`; its items are {offered}.",
                        name=rules.info.name,
                        item=item[:30],
                        offered=offered,
                    )
                )
            holders = await self._holders(row, name)
            if user_id in holders:
                raise ServiceError(tr("That player already holds this item."))
            if holders and not _both_allowed(rules, row.options, name):
                raise ServiceError(tr("Only one player can hold `{name}`, and someone already does.", name=name))
            if row.status == "running":
                await self._mutate(row, lambda t: t.give_item(user_id, name))
            else:
                entry = await self._entry(row, user_id)
                await self.store.set_items(tournament_id, user_id, [*entry.items, name])
            return row

    async def take_item(self, tournament_id: int, user_id: int, item: str, *, host: bool) -> None:
        async with self.lock(tournament_id):
            row = await self._get(tournament_id)
            self._check_host(row, host)
            name = item.strip().lower()
            if row.status == "running":
                await self._mutate(row, lambda t: t.take_item(user_id, name))
                return
            entry = await self._entry(row, user_id)
            if name not in entry.items:
                raise ServiceError(tr("That player holds no `{name}`.", name=name))
            await self.store.set_items(tournament_id, user_id, [i for i in entry.items if i != name])

    async def _holders(self, row: TournamentRow, item: str) -> set[int]:
        if row.status == "running" and row.state is not None:
            return {p.id for p in Tournament.load(row.state).players if item in p.items}
        return {e.user_id for e in await self.store.entries(row.id) if item in e.items}

    async def _entry(self, row: TournamentRow, user_id: int) -> Entry:
        for entry in await self.store.entries(row.id):
            if entry.user_id == user_id:
                return entry
        raise ServiceError(tr("That member has not joined this tournament."))

    # --- starting ----------------------------------------------------------------------

    async def begin(self, tournament_id: int, *, host: bool, now: float | None = None) -> TournamentRow:
        """The host's `start`: opens check-in if the event has a window (and it is not open
        yet), otherwise starts the event with the players present.  Returns the new row."""
        async with self.lock(tournament_id):
            row = await self._get(tournament_id)
            self._check_host(row, host)
            if row.status == "open" and row.checkin_minutes > 0:
                until = (now or time.time()) + row.checkin_minutes * 60
                await self.store.set_status(tournament_id, "checkin", expected=("open",), checkin_until=until)
                return await self._get(tournament_id)
            return await self._start(row)

    async def close_checkin(self, tournament_id: int) -> TournamentRow | None:
        """The check-in window ended: start with those who checked in (None if it was not due)."""
        async with self.lock(tournament_id):
            row = await self._get(tournament_id)
            if row.status != "checkin":
                return None
            return await self._start(row)

    async def due_checkins(self, now: float | None = None) -> list[TournamentRow]:
        moment = now or time.time()
        return [
            r
            for r in await self.store.with_status("checkin")
            if r.checkin_until is not None and r.checkin_until <= moment
        ]

    async def _start(self, row: TournamentRow) -> TournamentRow:
        if row.status not in ("open", "checkin"):
            raise ServiceError(tr("The tournament has already started."))
        entries = await self.store.entries(row.id)
        players = [e for e in entries if e.checked_in or row.status == "open"]
        fmt = Format(row.format)
        if len(players) < 2 or (fmt is Format.DEATHMATCH and len(players) != 2):
            if row.status == "checkin":
                await self.store.set_status(row.id, "cancelled", expected=("checkin",))
                raise ServiceError(
                    tr("Only {count} player(s) checked in: the tournament was cancelled.", count=len(players))
                )
            wanted = "exactly 2 players" if fmt is Format.DEATHMATCH else "at least 2 players"
            raise ServiceError(
                tr("This tournament needs {wanted} to start; {count} joined.", wanted=wanted, count=len(players))
            )
        ratings = {p.user_id: (await self.ratings.rating(p.user_id, row.game)).rating.value for p in players}
        try:
            tournament = Tournament.new(
                fmt,
                [(p.user_id, p.name) for p in players],
                best_of=row.best_of,
                rounds=row.rounds,
                ratings=ratings,
                game=row.game,
                options=row.options,
            )
        except TournamentError as exc:
            raise ServiceError(str(exc)) from None
        for player in players:
            for item in player.items:
                tournament.give_item(player.user_id, item)
        await self.store.save_state(row.id, tournament.dump(), expected_version=row.version, status="running")
        return await self._get(row.id)

    # --- running -----------------------------------------------------------------------

    async def sync(self, tournament_id: int) -> Progress:
        """Fold the stored matches into the tournament and say what to do next (idempotent).

        A sync that finds nothing new writes nothing: every trigger calls it (each restart
        resumes every running tournament), and a write that changes nothing would still be
        a transaction, a new version and a copy of the whole document each time."""
        async with self.lock(tournament_id):
            row = await self._get(tournament_id)
            if row.status != "running" or row.state is None:
                return Progress(row)
            tournament = Tournament.load(row.state)
            before = tournament.dump()
            decided_before = {p.id for p in tournament.pairings if p.finished}
            started = await self._start_stranded(tournament_id)
            replayed: list[int] = []
            unlink: list[int] = []
            for game in await self.store.games(tournament_id):
                if self._fold(tournament, game):
                    unlink.append(game.match_id)
                    replayed.append(game.pairing_id)
            new_round = None
            while tournament.needs_next_round:
                tournament.next_round()
                new_round = tournament.round
            finished = tournament.finished
            decided = tuple(p for p in tournament.pairings if p.finished and p.id not in decided_before)
            announce = self._announcements(row, decided, replayed, new_round, finished, tournament.winner)
            state = tournament.dump()
            if state != before or unlink or announce or finished:
                await self.store.save_state(
                    tournament_id,
                    state,
                    expected_version=row.version,
                    status="finished" if finished else None,
                    unlink=unlink,
                    announce=announce,
                )
                row = await self._get(tournament_id)
            return Progress(
                row,
                to_open=() if finished else tuple(tournament.pairings_to_start()),
                decided=decided,
                replayed=tuple(replayed),
                new_round=new_round,
                champion=tournament.winner if finished else None,
                just_finished=finished,
                names={p.id: p.name for p in tournament.players},
                announcements=(*started, *(a.key for a in announce)),
            )

    @staticmethod
    def _announcements(
        row: TournamentRow,
        decided: tuple[Pairing, ...],
        replayed: list[int],
        new_round: int | None,
        finished: bool,
        winner: int | None,
    ) -> list[Announcement]:
        """The outbox rows of a sync: results (with a new round), then the champion."""
        rows = []
        if decided or replayed or (new_round is not None and not finished):
            payload = {
                "decided": [p.id for p in decided],
                "replayed": replayed,
                "new_round": None if finished else new_round,
            }
            rows.append(Announcement(TOURNAMENT_PROGRESS, row.channel_id, row.guild_id, payload, tournament_id=row.id))
        if finished:
            payload = {"champion": winner}
            rows.append(Announcement(CHAMPION, row.channel_id, row.guild_id, payload, tournament_id=row.id))
        return rows

    async def _start_stranded(self, tournament_id: int) -> list[str]:
        """Start the tournament games left as challenges (opened before games were opened in
        one transaction, and interrupted between creating and starting them): nobody is
        there to accept them.  Returns the keys of their boards' announcements."""
        keys = []
        for game in await self.store.games(tournament_id):
            if game.status != MatchStatus.CHALLENGE:
                continue
            row = await self.matches.get(game.match_id)
            if row.opponent_id is None:
                continue
            try:
                update = await self.matches.accept(row.id, row.opponent_id, intro=STRANDED_INTRO)
            except ServiceError as exc:
                log.warning("tournament %d: could not start match %d: %s", tournament_id, row.id, exc)
                continue
            if update.announcement is not None:
                keys.append(update.announcement)
        return keys

    @staticmethod
    def _fold(tournament: Tournament, game: LinkedGame) -> bool:
        """Bring one stored match into the tournament; True if it was aborted (to replay)."""
        pairing = tournament.pairing(game.pairing_id)
        if pairing.finished or not pairing.ready:
            return False  # decided otherwise (report, drop): the match no longer counts
        if len(pairing.games) == game.game_number - 1 and pairing.open_game() is None:
            tournament.mark_started(pairing.id, game.match_id)
        if len(pairing.games) < game.game_number:
            return False
        played = pairing.games[game.game_number - 1]
        if played.finished or played.match != game.match_id:
            return False
        if game.status in (MatchStatus.ABORTED, MatchStatus.CANCELLED, MatchStatus.DECLINED):
            # no result: played again (a cancelled or declined one is a challenge that was
            # withdrawn; left alone it would hold the pairing forever)
            tournament.void_game(pairing.id)
            return True
        if game.status == MatchStatus.FINISHED and game.outcome is not None and game.seats is not None:
            outcome = Outcome.from_json(game.outcome)
            winner = None if outcome.is_draw else min(outcome.winners)
            tournament.record_result(pairing.id, winner)
        return False

    async def open_game(
        self,
        tournament_id: int,
        game: GameToStart,
        *,
        channel_id: int,
        intro: str | None = None,
        title: str | None = None,
    ) -> OpenedGame:
        """Open a tournament game's match in `channel_id` (a thread the cog created for it).

        The match, its board (with `intro`) and, with `title`, the link posted in the
        tournament channel are stored in one transaction."""
        row = await self._get(tournament_id)
        if row.status != "running":
            raise ServiceError(tr("The tournament is not running."))
        links = []
        if title is not None:
            payload = {"title": title, "thread_id": channel_id}
            links.append(Announcement(GAME_LINK, row.channel_id, row.guild_id, payload, tournament_id=row.id))

        def link(_match_id: int) -> list[Announcement]:
            return links

        update = await self.matches.open_match(
            game=row.game,
            channel_id=channel_id,
            guild_id=row.guild_id,
            seats=game.seats,
            options=game.options,
            clock=row.clock,
            rated=row.rated,
            tournament_game=(tournament_id, game.pairing_id, game.game_number),
            intro=intro,
            also_announce=link,
        )
        progress = await self.sync(tournament_id)  # marks the game started
        return OpenedGame(update, links[0].key if links else None, progress.announcements)

    async def report(self, tournament_id: int, pairing_id: int, winner: int | None, *, host: bool) -> list[int]:
        """Host override of a series result; returns the match ids of open games to abort."""
        async with self.lock(tournament_id):
            row = await self._get(tournament_id)
            self._check_host(row, host)
            if row.status != "running":
                raise ServiceError(tr("The tournament is not running."))
            await self._mutate(row, lambda t: t.report(pairing_id, winner))
        return await self._open_matches(tournament_id, {pairing_id})

    async def drop(self, tournament_id: int, user_id: int, *, host: bool, by: int) -> list[int]:
        """Withdraw a player (the host, or the player themself); returns the match ids of the
        games they forfeit, for the caller to end as resignations."""
        async with self.lock(tournament_id):
            row = await self._get(tournament_id)
            if by != user_id:
                self._check_host(row, host)
            if row.status in ("open", "checkin"):
                if not await self.store.remove_entry(tournament_id, user_id):
                    raise ServiceError(tr("That member has not joined this tournament."))
                return []
            if row.status != "running":
                raise ServiceError(tr("The tournament is over."))
            forfeited: list[int] = []
            await self._mutate(row, lambda t: forfeited.extend(t.drop(user_id)))
        return await self._open_matches(tournament_id, set(forfeited))

    async def cancel(self, tournament_id: int, *, host: bool) -> list[int]:
        """End the event without a result; returns the match ids still running (to abort)."""
        async with self.lock(tournament_id):
            row = await self._get(tournament_id)
            self._check_host(row, host)
            if not row.is_open:
                raise ServiceError(tr("The tournament is already over."))
            await self.store.set_status(tournament_id, "cancelled", expected=(row.status,))
        return await self._open_matches(tournament_id, None)

    async def _open_matches(self, tournament_id: int, pairings: set[int] | None) -> list[int]:
        return [
            g.match_id
            for g in await self.store.games(tournament_id)
            if g.status in OPEN_STATUSES and (pairings is None or g.pairing_id in pairings)
        ]

    async def _mutate(self, row: TournamentRow, change: Callable[[Tournament], object]) -> None:
        """Apply `change(tournament)` and save (lock held); TournamentError becomes a refusal."""
        if row.state is None:
            raise ServiceError(tr("The tournament has not started."))
        tournament = Tournament.load(row.state)
        try:
            change(tournament)
        except TournamentError as exc:
            raise ServiceError(str(exc)) from None
        try:
            await self.store.save_state(row.id, tournament.dump(), expected_version=row.version)
        except StaleVersion:
            raise ServiceError(tr("The tournament changed at the same moment; please try again.")) from None

    # --- queries -----------------------------------------------------------------------

    async def in_channel(self, channel_id: int, *, parent_id: int | None = None) -> TournamentRow:
        """The tournament of a channel, or of the thread a tournament match is played in."""
        for candidate in (channel_id, parent_id):
            if candidate is None:
                continue
            row = await self.store.latest_in_channel(candidate)
            if row is not None:
                return row
        match = await self.matches.store.open_match_in_channel(channel_id)
        tournament_id = await self.store.tournament_of_match(match.id) if match is not None else None
        if tournament_id is not None:
            return await self._get(tournament_id)
        raise ServiceError(tr("There is no tournament in this channel. A host starts one with `/tournament create`."))

    async def of_match(self, match_id: int) -> TournamentRow | None:
        tournament_id = await self.store.tournament_of_match(match_id)
        return await self.store.get(tournament_id) if tournament_id is not None else None

    async def find(self, tournament_id: int) -> TournamentRow | None:
        """The tournament as stored (None: no such tournament)."""
        return await self.store.get(tournament_id)

    async def running(self) -> list[TournamentRow]:
        return await self.store.with_status("running")

    async def _get(self, tournament_id: int) -> TournamentRow:
        row = await self.store.get(tournament_id)
        if row is None:
            raise ServiceError(tr("That tournament does not exist."))
        return row

    @staticmethod
    def _check_host(row: TournamentRow, host: bool) -> None:
        if not host:
            raise NotHost(tr("Only the tournament's host (or a server manager) can do that."))


def loaded(row: TournamentRow) -> Tournament | None:
    """The tournament document of a started event."""
    return Tournament.load(row.state) if row.state is not None else None


def _both_allowed(rules: Rules, options: Mapping[str, Any], item: str) -> bool:
    try:
        rules.resolve_options({**options, **item_options([[item], [item]])})
    except InvalidOptions:
        return False
    return True


def _format(value: str) -> Format:
    try:
        return Format(value.strip().lower().replace(" ", "_").replace("-", "_"))
    except ValueError:
        raise ServiceError(
            tr("`{value}` is not a format; choose {value2}.", value=value[:30], value2=_or([f.value for f in Format]))
        ) from None


def _or(values: Any) -> str:
    words = [f"`{v}`" for v in values]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]
