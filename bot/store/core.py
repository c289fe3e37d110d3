"""The store: every query about matches, moves, clocks, votes and the outbox.

SQLite (one file next to the bot, the default) or PostgreSQL (several bot processes on one
database), through the drivers of bot/store/database.py; the SQL here is the same for both.

The store never interprets a game: it keeps options, snapshots and moves as JSON text.
A move is acknowledged only after `commit_moves` returned, i.e. after its transaction
committed; the snapshot update is optimistic (`version` must still be what the caller
loaded), so two writers can never both win.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from pathlib import Path
from typing import Any

from bot.infra.shards import ShardLayout
from bot.records.move_log import NOT_PLAYED, effective, effective_after
from bot.store.database import Conflict, Database, PostgresDatabase, Row, Step, Tx, open_database
from bot.store.migrations import MIGRATIONS, POSTGRES_MIGRATIONS
from bot.store.outbox import GRACE_SECONDS, Announcement, Fresh

log = logging.getLogger(__name__)
# aiosqlite logs every call it runs, statement parameters included (a running match's seed), at
# DEBUG: drop those records at their source, whatever level the root logger or LOG_LEVEL asks for.
logging.getLogger("aiosqlite").addFilter(lambda record: record.levelno > logging.DEBUG)


class MatchStatus(StrEnum):
    """Where a match stands, as the `matches.status` column stores it (its value).

    A challenge becomes active when accepted, or ends declined (by the challenged player) or
    cancelled (withdrawn by the challenger or a moderator, or expired); an active match ends
    finished (with a result: by the game, resignation, time or agreement) or aborted (no
    result).  Being a `str`, a member equals its stored text, so SQL and stored data need no
    translation."""

    CHALLENGE = "challenge"
    ACTIVE = "active"
    FINISHED = "finished"
    ABORTED = "aborted"
    DECLINED = "declined"
    CANCELLED = "cancelled"


OPEN_STATUSES = (MatchStatus.CHALLENGE, MatchStatus.ACTIVE)
"""Still to be played: an open challenge or a running match."""


@dataclass(frozen=True)
class Opening:
    """What a match that starts as it is created needs (a tournament game: nobody accepts it)."""

    seats: tuple[int, int]
    snapshot: dict[str, Any]
    moves: Sequence[tuple[int, str, bool, bool]]
    announce: Callable[[int], Sequence[Announcement]]
    """The announcements of the start, given the new match's id."""


class StaleVersion(RuntimeError):
    """The match changed since it was loaded (another writer won); reload and retry."""


@dataclass(frozen=True)
class MatchRow:
    id: int
    game: str
    options: dict[str, Any]
    guild_id: int | None
    channel_id: int
    status: MatchStatus
    challenger_id: int
    opponent_id: int | None
    seat_pref: str
    seed: str
    seed_hash: str
    snapshot: dict[str, Any] | None
    version: int
    outcome: dict[str, Any] | None
    seats: tuple[int, int] | None
    created_at: float
    updated_at: float
    clock: dict[str, Any] | None = None
    """`ClockState.to_json()` (bot.clocks) of a match with a time control; for a challenge,
    the stopped clock the match will start with.  None: no clock."""
    rated: bool = True
    """A finished rated match updates both players' rating in its game."""
    lobby_channel_id: int | None = None
    """For a match played in a thread: the channel holding the thread, where its result is
    also posted.  None: played in its channel (or a tournament game, told by the event)."""

    @property
    def is_open(self) -> bool:
        return self.status in OPEN_STATUSES

    def seat_of(self, user_id: int) -> int | None:
        if self.seats is None:
            return None
        if self.seats[0] == user_id:
            return 0
        if self.seats[1] == user_id:
            return 1
        return None


@dataclass(frozen=True)
class _LogText:
    """A log row read for its text only (`Store.effective_moves_after`)."""

    ply: int
    seat: int
    move: str


@dataclass(frozen=True)
class MoveRow:
    ply: int
    seat: int
    move: str
    public: bool
    forced: bool
    at: float


_MATCH_COLUMNS = (
    "m.id, m.game, m.options, m.guild_id, m.channel_id, m.status, m.challenger_id, m.opponent_id, "
    "m.seat_pref, m.seed, m.seed_hash, m.snapshot, m.version, m.outcome, m.created_at, m.updated_at, "
    "(SELECT user_id FROM seats WHERE match_id = m.id AND seat = 0), "
    "(SELECT user_id FROM seats WHERE match_id = m.id AND seat = 1), "
    "m.clock, m.rated, m.lobby_channel_id"
)


_OUTBOX_COLUMNS = (
    "id, key, kind, guild_id, channel_id, match_id, tournament_id, payload, content, created_at, attempts, "
    "sent_at IS NOT NULL, follow_up_of"
)


def _announcement(row: Sequence[Any]) -> Announcement:
    return Announcement(
        id=int(row[0]),
        key=str(row[1]),
        kind=str(row[2]),
        guild_id=row[3],
        channel_id=int(row[4]),
        match_id=row[5],
        tournament_id=row[6],
        payload=json.loads(row[7]),
        content=row[8],
        created_at=float(row[9]),
        attempts=int(row[10]),
        sent=bool(row[11]),
        follow_up_of=row[12],
    )


_INSERT_MOVE = "INSERT INTO moves (match_id, ply, seat, move, public, forced, at) VALUES (?, ?, ?, ?, ?, ?, ?)"
_OUTBOX_INSERTED = "key, kind, guild_id, channel_id, match_id, tournament_id, payload, created_at, follow_up_of"
"""The columns an outbox INSERT names (`_announcement_rows` gives their values)."""
_INSERT_ANNOUNCEMENT = f"INSERT INTO outbox ({_OUTBOX_INSERTED}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"


def _earlier_unsent(row: str, *, ordered: bool = True) -> str:
    """SQL: whether a row of `row`'s channel saved before it (at most `?` seconds before) is
    still unsent.  `ordered=False` leaves out `id <`, for PostgreSQL's RETURNING of a WITH, whose
    subquery sees none of the rows the same statement inserts."""
    before = f"AND e.id < {row}.id " if ordered else ""
    return (
        f"EXISTS (SELECT 1 FROM outbox e WHERE e.sent_at IS NULL AND e.channel_id = {row}.channel_id "
        f"{before}AND e.created_at > {row}.created_at - ?)"
    )


def _insert_announcements_returning(rows: Sequence[Announcement], now: float) -> Step:
    """One INSERT of `rows` that returns each one's key, id and whether an earlier row of its
    channel (saved at most `GRACE_SECONDS` before) is unsent: a scalar subquery in RETURNING
    (PostgreSQL; SQLite since 3.35).  Only the first row's answer is used (`Store.commit_moves`):
    SQLite's subquery sees the rows inserted before it by the same statement, PostgreSQL's does not."""
    values = ", ".join(["(?, ?, ?, ?, ?, ?, ?, ?, ?)"] * len(rows))
    sql = f"INSERT INTO outbox ({_OUTBOX_INSERTED}) VALUES {values} RETURNING key, id, " + _earlier_unsent("outbox")
    params = [value for row in _announcement_rows(rows, now) for value in row]
    return Step(sql, (*params, GRACE_SECONDS), returning=True)


_COMMIT_MOVES_WRITES = (
    "WITH m AS (UPDATE matches SET snapshot = ?, version = version + 1, status = ?, outcome = ?, updated_at = ?, "
    "clock = COALESCE(?, clock) WHERE id = ? AND version = ? AND status = 'active' RETURNING id), "
    "mv AS (INSERT INTO moves (match_id, ply, seat, move, public, forced, at) "
    "SELECT m.id, x.ply, x.seat, x.move, x.public, x.forced, ? FROM m, "
    "unnest(?::bigint[], ?::bigint[], ?::text[], ?::bigint[], ?::bigint[]) "
    "AS x (ply, seat, move, public, forced)), "
    f"ob AS (INSERT INTO outbox ({_OUTBOX_INSERTED}) SELECT x.* FROM m, "
    "unnest(?::text[], ?::text[], ?::bigint[], ?::bigint[], ?::bigint[], ?::bigint[], ?::text[], ?::float8[], "
    "?::bigint[]) AS x RETURNING key, id, channel_id, created_at) "
)
_COMMIT_MOVES_RESULT = (
    "SELECT NULL::text, NULL::bigint, NULL::boolean FROM m "
    f"UNION ALL SELECT ob.key, ob.id, {_earlier_unsent('ob', ordered=False)} FROM ob"
)
_COMMIT_MOVES = _COMMIT_MOVES_WRITES + _COMMIT_MOVES_RESULT
"""`Store.commit_moves` on PostgreSQL, in one statement: the match row under the version check
(`m`: no row when another writer won, and then nothing else is written, every part selecting
from `m`), the log lines and the outbox rows (one array parameter per column), then one row
`(NULL, NULL, NULL)` when the match row was written, and per outbox row its key, id and whether
an earlier row of its channel (saved at most `GRACE_SECONDS` before) is unsent.  The writes of a
statement are invisible to its own reads, so the new rows never count as earlier ones.
`_COMMIT_MOVES_TAKING_OFFERS` also removes the standing offers the change answers (`off`, an
array of kinds): a statement of its own, so that a move, which answers none, runs no DELETE."""
_COMMIT_MOVES_TAKING_OFFERS = (
    _COMMIT_MOVES_WRITES
    + ", off AS (DELETE FROM match_offers o USING m WHERE o.match_id = m.id AND o.kind = ANY(?::text[])) "
    + _COMMIT_MOVES_RESULT
)


def _move_rows(
    match_id: int, first_ply: int, moves: Sequence[tuple[int, str, bool, bool]], now: float
) -> list[tuple[Any, ...]]:
    return [
        (match_id, first_ply + i, seat, move, int(public), int(forced), now)
        for i, (seat, move, public, forced) in enumerate(moves)
    ]


def _announcement_rows(rows: Sequence[Announcement], now: float) -> list[tuple[Any, ...]]:
    """The values of `rows` for `_OUTBOX_INSERTED`."""
    return [
        (
            a.key,
            a.kind,
            a.guild_id,
            a.channel_id,
            a.match_id,
            a.tournament_id,
            json.dumps(a.payload),
            now,
            a.follow_up_of,
        )
        for a in rows
    ]


def _first_fresh(announce: Sequence[Announcement], returned: Sequence[Row], now: float) -> Fresh | None:
    """The first of `announce` as `_insert_announcements_returning` stored it (None: no rows)."""
    if not announce:
        return None
    first = announce[0]
    [(row_id, behind)] = [(int(r[1]), bool(r[2])) for r in returned if r[0] == first.key]
    return Fresh(replace(first, id=row_id, created_at=now), behind)


def _json_or_none(value: dict[str, Any] | None) -> str | None:
    return None if value is None else json.dumps(value)


def _match(row: Sequence[Any]) -> MatchRow:
    seats = (int(row[16]), int(row[17])) if row[16] is not None and row[17] is not None else None
    return MatchRow(
        id=row[0],
        game=row[1],
        options=json.loads(row[2]),
        guild_id=row[3],
        channel_id=row[4],
        status=MatchStatus(row[5]),
        challenger_id=row[6],
        opponent_id=row[7],
        seat_pref=row[8],
        seed=row[9],
        seed_hash=row[10],
        snapshot=json.loads(row[11]) if row[11] else None,
        version=row[12],
        outcome=json.loads(row[13]) if row[13] else None,
        created_at=row[14],
        updated_at=row[15],
        seats=seats,
        clock=json.loads(row[18]) if row[18] else None,
        rated=bool(row[19]),
        lobby_channel_id=row[20],
    )


class Store:
    """Every query of the bot, over one `Database` (SQLite or PostgreSQL); every write is
    one short transaction."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.path = db.where

    def transaction(self, name: str | None = None) -> Any:
        """`async with store.transaction() as tx:` (see `Database.transaction`)."""
        return self.db.transaction(name)

    async def _write(self, sql: str, params: Sequence[Any] = ()) -> int:
        """One statement, atomic on its own; returns the number of rows changed."""
        return await self.db.execute(sql, params)

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Rows of a read query."""
        return await self.db.fetch_all(sql, params)

    async def fetch_one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        return await self.db.fetch_one(sql, params)

    @classmethod
    async def open(cls, where: Path | str) -> Store:
        """Open (creating if needed) and migrate the database at `where`: a SQLite file, or a
        `postgresql://` URL."""
        store = cls(await open_database(where))
        try:
            await store._migrate()
        except BaseException:
            await store.close()  # aiosqlite's worker thread is not a daemon: left open, it blocks the exit
            raise
        return store

    @property
    def backend(self) -> str:
        return self.db.backend

    async def close(self) -> None:
        await self.db.close()

    async def schema_version(self) -> int:
        return await self.db.schema_version()

    async def _migrate(self) -> None:
        scripts = POSTGRES_MIGRATIONS if self.db.backend == "postgresql" else MIGRATIONS
        current = await self.schema_version()
        if current > len(scripts):
            raise sqlite3.DatabaseError(f"schema version {current} is newer than this code knows ({len(scripts)})")
        for number, script in enumerate(scripts[current:], start=current + 1):
            log.info("applying database migration %d", number)
            await self.db.apply_migration(number, script)

    # --- matches ---------------------------------------------------------------------

    async def create_challenge(
        self,
        *,
        game: str,
        options: dict[str, Any],
        guild_id: int | None,
        channel_id: int,
        challenger_id: int,
        opponent_id: int | None,
        seat_pref: str,
        seed: str,
        seed_hash: str,
        clock: dict[str, Any] | None = None,
        rated: bool = True,
        tournament_game: tuple[int, int, int] | None = None,
        occupies_channel: bool = True,
        expires_at: float | None = None,
        opening: Opening | None = None,
    ) -> MatchRow | None:
        """Insert a challenge; None when the channel already has an open match, or when
        `tournament_game` (tournament id, pairing id, game number) already has its match.
        A challenge that does not occupy its channel (its match will get a thread) never
        makes the channel busy.  `expires_at` is the challenge's deadline, stored with it so no
        crash can leave a challenge that never expires.

        With `opening`, the match is created already started (seats, first snapshot and
        moves, announcements) in the same transaction: a tournament game is never left
        created but not started."""
        now = time.time()
        try:
            async with self.transaction(None if opening is None else "open") as tx:
                match_id = await tx.insert(
                    "INSERT INTO matches (game, options, guild_id, channel_id, status, challenger_id, opponent_id, "
                    "seat_pref, seed, seed_hash, created_at, updated_at, clock, rated, snapshot, version, "
                    "occupies_channel, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        game,
                        json.dumps(options),
                        guild_id,
                        channel_id,
                        MatchStatus.CHALLENGE if opening is None else MatchStatus.ACTIVE,
                        challenger_id,
                        opponent_id,
                        seat_pref,
                        seed,
                        seed_hash,
                        now,
                        now,
                        json.dumps(clock) if clock is not None else None,
                        int(rated),
                        None if opening is None else json.dumps(opening.snapshot),
                        0 if opening is None else 1,
                        int(occupies_channel),
                        expires_at,
                    ),
                )
                if tournament_game is not None:
                    await tx.execute(
                        "INSERT INTO tournament_games (match_id, tournament_id, pairing_id, game_number) "
                        "VALUES (?, ?, ?, ?)",
                        (match_id, *tournament_game),
                    )
                if opening is not None:
                    await tx.executemany(
                        "INSERT INTO seats (match_id, seat, user_id) VALUES (?, ?, ?)",
                        [(match_id, 0, opening.seats[0]), (match_id, 1, opening.seats[1])],
                    )
                    await self._insert_moves(tx, match_id, 0, opening.moves, now)
                    await self.insert_announcements(tx, opening.announce(match_id), now)
        except Conflict:
            return None
        row = await self.get_match(match_id)
        assert row is not None
        return row

    async def get_match(self, match_id: int) -> MatchRow | None:
        row = await self.db.fetch_one(f"SELECT {_MATCH_COLUMNS} FROM matches m WHERE m.id = ?", (match_id,))
        return _match(row) if row else None

    async def last_match_in_channel(self, channel_id: int) -> MatchRow | None:
        """The newest match played in the channel, whatever its status (a match's thread
        holds only that match, so this is the thread's match even after it ended)."""
        row = await self.db.fetch_one(
            f"SELECT {_MATCH_COLUMNS} FROM matches m WHERE m.channel_id = ? AND m.snapshot IS NOT NULL "
            "ORDER BY m.id DESC LIMIT 1",
            (channel_id,),
        )
        return _match(row) if row else None

    async def open_match_in_channel(self, channel_id: int) -> MatchRow | None:
        """The open match or challenge holding the channel (challenges whose match will get a
        thread do not hold it: a channel may have many of those, see bot.store.lobby)."""
        row = await self.db.fetch_one(
            f"SELECT {_MATCH_COLUMNS} FROM matches m WHERE m.channel_id = ? AND m.status IN ('challenge', 'active') "
            "AND m.occupies_channel = 1",
            (channel_id,),
        )
        return _match(row) if row else None

    async def matches_of(self, user_id: int, statuses: Sequence[MatchStatus] = OPEN_STATUSES) -> list[MatchRow]:
        marks = ", ".join("?" for _ in statuses)
        rows = await self.db.fetch_all(
            f"SELECT {_MATCH_COLUMNS} FROM matches m WHERE m.status IN ({marks}) AND "
            "(m.challenger_id = ? OR m.opponent_id = ? OR m.id IN (SELECT match_id FROM seats WHERE user_id = ?)) "
            "ORDER BY m.updated_at DESC LIMIT 50",
            (*statuses, user_id, user_id, user_id),
        )
        return [_match(r) for r in rows]

    async def match_history(
        self,
        user_id: int,
        *,
        game: str | None = None,
        guild_id: int | None = None,
        offset: int = 0,
        limit: int = 10,
    ) -> list[tuple[MatchRow, list[tuple[int, float, float]]]]:
        """`user_id`'s finished matches (of `game`, or all), newest first, from `offset`: each
        with its rating changes (user id, before, after; empty when it was not rated).

        The two seats of a match are its challenger and the accepter (`opponent_id`), so each
        side is one ordered range of a partial index; the page is the merge of the two.  The
        cost depends on `offset + limit`, not on how many matches are stored.  `guild_id`: only
        the matches played in that server (who may read them: cogs/access.py)."""
        depth = offset + limit
        where = (
            "status = 'finished'"
            + (" AND game = ?" if game is not None else "")
            + (" AND guild_id = ?" if guild_id is not None else "")
        )
        side = (
            f"SELECT id, updated_at FROM matches WHERE {{seat}} = ? AND {where} "
            "ORDER BY updated_at DESC, id DESC LIMIT ?"
        )
        params = (user_id, *([game] if game is not None else []), *([guild_id] if guild_id is not None else []), depth)
        sql = (
            f"SELECT {_MATCH_COLUMNS}, r.changes FROM ("
            f"SELECT * FROM ({side.format(seat='challenger_id')}) a UNION ALL "
            f"SELECT * FROM ({side.format(seat='opponent_id')}) b"
            ") h JOIN matches m ON m.id = h.id LEFT JOIN rated_matches r ON r.match_id = m.id "
            "ORDER BY m.updated_at DESC, m.id DESC LIMIT ? OFFSET ?"
        )
        rows = await self.db.fetch_all(sql, (*params, *params, limit, offset))
        return [(_match(r), [(int(u), float(b), float(a)) for u, b, a in json.loads(r[21] or "[]")]) for r in rows]

    async def active_match_ids_of(self, user_id: int) -> list[int]:
        """Ids of the active matches `user_id` has a seat in, oldest first (read from the seats
        index: at start-up the computer player looks for its own few matches among thousands,
        and loading every active match's snapshot for that cost seconds and 80 MB)."""
        rows = await self.db.fetch_all(
            "SELECT m.id FROM seats s JOIN matches m ON m.id = s.match_id WHERE s.user_id = ? AND m.status = 'active' "
            "ORDER BY m.id",
            (user_id,),
        )
        return [int(r[0]) for r in rows]

    async def active_matches(self) -> list[MatchRow]:
        rows = await self.db.fetch_all(f"SELECT {_MATCH_COLUMNS} FROM matches m WHERE m.status = 'active'")
        return [_match(r) for r in rows]

    async def set_status(self, match_id: int, status: MatchStatus, *, expected: Sequence[MatchStatus]) -> bool:
        """Move a match from one of `expected` to `status`; False if it was not in one."""
        marks = ", ".join("?" for _ in expected)
        changed = await self._write(
            f"UPDATE matches SET status = ?, updated_at = ? WHERE id = ? AND status IN ({marks})",
            (status, time.time(), match_id, *expected),
        )
        return changed == 1

    async def start_match(
        self,
        match_id: int,
        seats: tuple[int, int],
        snapshot: dict[str, Any],
        moves: Sequence[tuple[int, str, bool, bool]],
        opponent_id: int,
        clock: dict[str, Any] | None = None,
        announce: Sequence[Announcement] = (),
    ) -> MatchRow:
        """Turn a challenge into an active match in one transaction; raises StaleVersion
        when it is no longer a challenge (someone else accepted or it was cancelled).
        `clock`, when given, replaces the stored clock (the started one) in the same transaction,
        and so are the outbox rows of `announce`."""
        now = time.time()
        async with self.transaction() as tx:
            changed = await tx.execute(
                "UPDATE matches SET status = 'active', opponent_id = ?, snapshot = ?, version = 1, updated_at = ?, "
                "clock = COALESCE(?, clock) WHERE id = ? AND status = 'challenge'",
                (opponent_id, json.dumps(snapshot), now, _json_or_none(clock), match_id),
            )
            if changed != 1:
                raise StaleVersion("the challenge is no longer open")
            await tx.executemany(
                "INSERT INTO seats (match_id, seat, user_id) VALUES (?, ?, ?)",
                [(match_id, 0, seats[0]), (match_id, 1, seats[1])],
            )
            await self._insert_moves(tx, match_id, 0, moves, now)
            await self.insert_announcements(tx, announce, now)
        row = await self.get_match(match_id)
        assert row is not None
        return row

    async def commit_moves(
        self,
        match_id: int,
        *,
        expected_version: int,
        first_ply: int,
        moves: Sequence[tuple[int, str, bool, bool]],
        snapshot: dict[str, Any],
        status: MatchStatus = MatchStatus.ACTIVE,
        outcome: dict[str, Any] | None = None,
        clock: dict[str, Any] | None = None,
        announce: Sequence[Announcement] = (),
        offers_taken: Sequence[str] = (),
    ) -> tuple[int, Fresh | None]:
        """Append `moves` (seat, move, public, forced) and write the new snapshot, atomically.

        `clock` (a `ClockState.to_json()`), when given, is saved in the same transaction, so a
        restart never finds a move without the clock it started; so are the outbox rows of
        `announce`, so a move is never committed without its announcement; so is the removal of
        the match's standing offers of the kinds `offers_taken` (an accepted draw or takeback),
        so a commit that fails leaves the offer standing, to be accepted again.  Returns the new
        version and the first row of `announce` as stored (`Fresh`: its post needs no read);
        raises StaleVersion when the stored version moved on.
        """
        now = time.time()
        if isinstance(self.db, PostgresDatabase):
            return await self._commit_moves_in_one_statement(
                self.db,
                match_id,
                expected_version,
                first_ply,
                moves,
                snapshot,
                status,
                outcome,
                clock,
                announce,
                offers_taken,
                now,
            )
        written = await self.db.write_steps(
            [
                Step(
                    "UPDATE matches SET snapshot = ?, version = version + 1, status = ?, outcome = ?, updated_at = ?, "
                    "clock = COALESCE(?, clock) WHERE id = ? AND version = ? AND status = 'active'",
                    (
                        json.dumps(snapshot),
                        status,
                        json.dumps(outcome) if outcome else None,
                        now,
                        _json_or_none(clock),
                        match_id,
                        expected_version,
                    ),
                    exactly_one=True,
                ),
                Step(_INSERT_MOVE, _move_rows(match_id, first_ply, moves, now), many=True),
                *([_insert_announcements_returning(announce, now)] if announce else []),
                *(
                    [
                        Step(
                            "DELETE FROM match_offers WHERE match_id = ? AND kind = ?",
                            [(match_id, kind) for kind in offers_taken],
                            many=True,
                        )
                    ]
                    if offers_taken
                    else []
                ),
            ],
            "moves",
        )
        if written is None:
            raise StaleVersion(f"match {match_id} is no longer at version {expected_version}")
        return expected_version + 1, _first_fresh(announce, written, now)

    @staticmethod
    async def _commit_moves_in_one_statement(
        db: PostgresDatabase,
        match_id: int,
        expected_version: int,
        first_ply: int,
        moves: Sequence[tuple[int, str, bool, bool]],
        snapshot: dict[str, Any],
        status: MatchStatus,
        outcome: dict[str, Any] | None,
        clock: dict[str, Any] | None,
        announce: Sequence[Announcement],
        offers_taken: Sequence[str],
        now: float,
    ) -> tuple[int, Fresh | None]:
        """`commit_moves` on PostgreSQL: the same writes as ONE statement (`_COMMIT_MOVES`), so a
        move waits for one round trip and one commit instead of BEGIN, three statements, COMMIT."""
        logged = _move_rows(match_id, first_ply, moves, now)
        stored = _announcement_rows(announce, now)
        returned = await db.write_returning(
            _COMMIT_MOVES_TAKING_OFFERS if offers_taken else _COMMIT_MOVES,
            (
                json.dumps(snapshot),
                str(status),
                json.dumps(outcome) if outcome else None,
                now,
                _json_or_none(clock),
                match_id,
                expected_version,
                now,
                *[[r[column] for r in logged] for column in range(1, 6)],  # ply, seat, move, public, forced
                *[[r[column] for r in stored] for column in range(9)],
                *([list(offers_taken)] if offers_taken else []),
                GRACE_SECONDS,
            ),
            "moves",
        )
        if not any(r[0] is None for r in returned):  # the match row was not at `expected_version`
            raise StaleVersion(f"match {match_id} is no longer at version {expected_version}")
        return expected_version + 1, _first_fresh(announce, returned, now)

    @staticmethod
    async def _insert_moves(
        tx: Tx, match_id: int, first_ply: int, moves: Sequence[tuple[int, str, bool, bool]], now: float
    ) -> None:
        if not moves:
            return
        await tx.executemany(_INSERT_MOVE, _move_rows(match_id, first_ply, moves, now))

    async def moves(self, match_id: int) -> list[MoveRow]:
        rows = await self.db.fetch_all(
            "SELECT ply, seat, move, public, forced, at FROM moves WHERE match_id = ? ORDER BY ply", (match_id,)
        )
        return [MoveRow(r[0], r[1], r[2], bool(r[3]), bool(r[4]), r[5]) for r in rows]

    async def effective_moves_after(self, match_id: int, count: int, *, version: int) -> list[str] | None:
        """The texts of the match's effective log moves (`bot.records.move_log.effective`: takeback
        records applied) after the first `count` of them, as they stood at `version`: what a
        snapshot that leaves recent history to the log (`Rules.log_needed`) is loaded with.
        None when the match is no longer at `version` (the caller's snapshot is stale).

        One statement reads the version with the log, so both come from one moment on either
        backend (every change to the log bumps the version).  Only the log's tail and its
        takeback records are read (`bot.records.move_log.effective_after`), not a long game's whole log."""
        rows = await self.db.fetch_all(
            "SELECT x.version, c.n, m.ply, m.seat, m.move "
            "FROM matches x CROSS JOIN (SELECT COUNT(*) AS n FROM moves WHERE match_id = ?) c "  # counted once
            "LEFT JOIN moves m ON m.match_id = x.id AND (m.ply >= ? OR m.seat <= ?) "  # and every non-move
            "WHERE x.id = ? ORDER BY m.ply",
            (match_id, count, max(NOT_PLAYED), match_id),
        )
        if not rows or rows[0][0] != version:
            return None
        tail = effective_after(count, [_LogText(r[2], r[3], r[4]) for r in rows if r[2] is not None], int(rows[0][1]))
        if tail is None:  # a gap in the plies: take the whole log
            rows = await self.db.fetch_all(
                "SELECT x.version, m.ply, m.seat, m.move FROM matches x LEFT JOIN moves m ON m.match_id = x.id "
                "WHERE x.id = ? ORDER BY m.ply",
                (match_id,),
            )
            if not rows or rows[0][0] != version:
                return None
            tail = effective(_LogText(r[1], r[2], r[3]) for r in rows if r[1] is not None)[count:]
        return [m.move for m in tail]

    async def move_count(self, match_id: int) -> int:
        row = await self.db.fetch_one("SELECT COUNT(*) FROM moves WHERE match_id = ?", (match_id,))
        return int(row[0]) if row else 0

    async def set_message(self, match_id: int, message_id: int) -> None:
        await self._write("UPDATE matches SET message_id = ? WHERE id = ?", (message_id, match_id))

    # --- clocks ----------------------------------------------------------------------------

    async def running_clocks(self, shards: ShardLayout | None = None) -> list[tuple[int, dict[str, Any]]]:
        """(match id, clock JSON) of every active match that has a clock (of the guilds of
        `shards` only, when given)."""
        owned, params = (shards or ShardLayout()).sql_filter("guild_id")
        rows = await self.db.fetch_all(
            f"SELECT id, clock FROM matches WHERE status = 'active' AND clock IS NOT NULL AND {owned} ORDER BY id",
            params,
        )
        return [(int(r[0]), json.loads(r[1])) for r in rows]

    async def save_clock(self, match_id: int, clock: dict[str, Any]) -> bool:
        """Store a clock change that is not a move (reminder sent, pause, re-arming);
        False when the match is no longer active (its final clock stays as it ended)."""
        changed = await self._write(
            "UPDATE matches SET clock = ? WHERE id = ? AND status = 'active'", (json.dumps(clock), match_id)
        )
        return changed == 1

    async def save_clocks(self, clocks: Sequence[tuple[int, dict[str, Any]]]) -> None:
        """`save_clock` of many matches in one transaction (start-up re-arming)."""
        await self.db.write_steps(
            [
                Step(
                    "UPDATE matches SET clock = ? WHERE id = ? AND status = 'active'",
                    [(json.dumps(clock), match_id) for match_id, clock in clocks],
                    many=True,
                )
            ]
        )

    async def get_meta(self, key: str) -> str | None:
        row = await self.db.fetch_one("SELECT value FROM meta WHERE key = ?", (key,))
        return str(row[0]) if row else None

    async def set_meta(self, key: str, value: str) -> None:
        await self._write(
            "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (key, value),
        )

    async def add_clock_vote(self, match_id: int, user_id: int, action: str) -> set[int]:
        """Record `user_id`'s request to pause or resume; returns everyone who asked so far."""
        async with self.transaction() as tx:
            await tx.execute(
                "INSERT INTO clock_votes (match_id, user_id, action) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                (match_id, user_id, action),
            )
            rows = await tx.fetch_all(
                "SELECT user_id FROM clock_votes WHERE match_id = ? AND action = ?", (match_id, action)
            )
            return {int(r[0]) for r in rows}

    async def change_clock(self, match_id: int, clock: dict[str, Any]) -> bool:
        """A pause or resume: the new clock and the requests it settles, in one transaction
        (a crash in between must not leave a paused clock with its votes still pending)."""
        async with self.transaction() as tx:
            changed = await tx.execute(
                "UPDATE matches SET clock = ? WHERE id = ? AND status = 'active'", (json.dumps(clock), match_id)
            )
            await tx.execute("DELETE FROM clock_votes WHERE match_id = ?", (match_id,))
            return bool(changed == 1)

    # --- outbox ----------------------------------------------------------------------------

    @staticmethod
    async def insert_announcements(tx: Tx, rows: Sequence[Announcement], now: float) -> None:
        """Inside the caller's transaction: the announcements of the change it commits."""
        if rows:
            await tx.executemany(_INSERT_ANNOUNCEMENT, _announcement_rows(rows, now))

    async def announce(self, rows: Sequence[Announcement]) -> None:
        """Store announcements on their own (a change that has no other row to write)."""
        async with self.transaction() as tx:
            await self.insert_announcements(tx, rows, time.time())

    async def unsent_announcements(
        self, *, created_before: float | None = None, shards: ShardLayout | None = None
    ) -> list[Announcement]:
        """Rows not yet posted (nor given up on), oldest first; with `created_before`, only
        those created before that time (younger ones are being posted by their caller); with
        `shards`, only those of the guilds this process owns."""
        owned, owned_params = (shards or ShardLayout()).sql_filter("guild_id")
        sql = f"SELECT {_OUTBOX_COLUMNS} FROM outbox WHERE sent_at IS NULL AND {owned}"
        params: tuple[float, ...] = owned_params
        if created_before is not None:
            sql += " AND created_at < ?"
            params = (*params, created_before)
        return [_announcement(r) for r in await self.db.fetch_all(sql + " ORDER BY id", params)]

    async def forget_announced(self, *, sent_before: float, batch: int = 5000) -> int:
        """Delete up to `batch` rows posted (or given up on) before `sent_before`; returns how
        many.  A posted row is never read again (a late duplicate of its post finds nothing
        to do): keeping every row would grow the file by a board payload per move forever."""
        return await self._write(
            "DELETE FROM outbox WHERE id IN "
            "(SELECT id FROM outbox WHERE sent_at IS NOT NULL AND sent_at < ? ORDER BY id LIMIT ?)",
            (sent_before, batch),
        )

    async def earlier_unsent(self, row: Announcement, *, since: float) -> bool:
        """Whether a row of `row`'s channel, saved before it and after `since`, is still
        unsent: the dispatcher posts a channel's rows in the order they were saved."""
        found = await self.db.fetch_one(
            "SELECT 1 FROM outbox WHERE sent_at IS NULL AND channel_id = ? AND id < ? AND created_at > ? LIMIT 1",
            (row.channel_id, row.id, since),
        )
        return found is not None

    async def announcement(self, key: str) -> Announcement | None:
        row = await self.db.fetch_one(f"SELECT {_OUTBOX_COLUMNS} FROM outbox WHERE key = ?", (key,))
        return _announcement(row) if row else None

    async def announcement_in_order(self, key: str, *, window: float) -> tuple[Announcement | None, bool]:
        """The row of `key`, and whether a row of its channel saved before it (and at most
        `window` seconds before it) is still unsent: what a post needs to know, in one read."""
        row = await self.db.fetch_one(
            f"SELECT {_OUTBOX_COLUMNS}, {_earlier_unsent('o')} FROM outbox o WHERE o.key = ?",
            (window, key),
        )
        return (_announcement(row), bool(row[-1])) if row else (None, False)

    async def note_follow_up(self, key: str, interaction_id: int) -> None:
        """Record that the row is about to be posted as `interaction_id`'s follow-up: from now on
        a crash may leave it posted there."""
        await self.db.execute_unflushed("UPDATE outbox SET follow_up_of = ? WHERE key = ?", (interaction_id, key))

    async def count_failed_post(self, key: str) -> None:
        """One more refused post of the row (rows refused `MAX_ATTEMPTS` times are given up)."""
        await self.db.execute_unflushed("UPDATE outbox SET attempts = attempts + 1 WHERE key = ?", (key,))

    async def mark_announced(self, key: str, message_id: int | None, *, failure: str | None = None) -> None:
        """The row is done: posted as `message_id`, or given up on with `failure` (its
        channel is gone), so it is never posted again.

        The outbox's writes after the change's own commit do not wait for the disk
        (`Database.execute_unflushed`): lost in a crash of the database server, a mark means the
        row is posted again with its key (Discord returns the message it made), a follow-up note
        that the channel may get the board twice; the move itself is never lost."""
        await self.db.execute_unflushed(
            "UPDATE outbox SET sent_at = ?, message_id = ?, failure = ? WHERE key = ? AND sent_at IS NULL",
            (time.time(), message_id, failure, key),
        )

    # --- votes and notices -------------------------------------------------------------

    async def add_abort_vote(self, match_id: int, user_id: int) -> set[int]:
        """Record `user_id`'s vote to abort; returns everyone who has voted so far.

        Inside a transaction like every write: on the shared connection, a statement outside
        the lock would join (and be rolled back with) another coroutine's transaction."""
        async with self.transaction() as tx:
            await tx.execute(
                "INSERT INTO abort_votes (match_id, user_id) VALUES (?, ?) ON CONFLICT DO NOTHING", (match_id, user_id)
            )
            rows = await tx.fetch_all("SELECT user_id FROM abort_votes WHERE match_id = ?", (match_id,))
            return {int(r[0]) for r in rows}

    async def first_dm_notice(self, match_id: int, user_id: int) -> bool:
        """True the first time a closed-DM notice is due for this player in this match."""
        changed = await self._write(
            "INSERT INTO dm_notices (match_id, user_id) VALUES (?, ?) ON CONFLICT DO NOTHING", (match_id, user_id)
        )
        return changed == 1

    async def started_match_ids(self) -> list[int]:
        """Every match that has a position (started, running or ended), oldest first."""
        rows = await self.db.fetch_all("SELECT id FROM matches WHERE snapshot IS NOT NULL ORDER BY id")
        return [int(r[0]) for r in rows]

    async def count_matches(self) -> int:
        row = await self.db.fetch_one("SELECT COUNT(*) FROM matches")
        return int(row[0]) if row else 0
