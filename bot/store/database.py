"""The two database drivers behind the store: SQLite (aiosqlite) and PostgreSQL (asyncpg).

Why one store over two drivers rather than two stores: the queries are plain SQL that both
databases speak the same way (`INSERT ... ON CONFLICT`, `RETURNING`, partial unique
indexes, `COALESCE`), so they are written once, in bot/store/, and cannot drift apart.
What differs lives here: placeholders (`?` vs `$1`), how a transaction is begun and
serialised, how a row count and a unique-key violation are reported, and the schema
(bot/store/migrations.py).

SQLite: one connection shared by every coroutine, so transactions are serialised with an
asyncio lock (a second `BEGIN` from another coroutine would land inside the first one).
PostgreSQL: a pool; each transaction has its own connection, and the database serialises
what conflicts (row versions, unique keys, advisory locks).
"""

from __future__ import annotations

import asyncio
import logging
import re
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Final, Protocol, TypeVar, cast

import aiosqlite

from bot.infra import crashpoints
from bot.infra.log_limits import RateLimitedLog

log = logging.getLogger(__name__)

CHECKPOINT_LOG_SECONDS: Final = 60.0
"""A failing WAL checkpoint (every second while the disk is full) is logged at most this often."""

Row = tuple[Any, ...]
T = TypeVar("T")


class Conflict(Exception):
    """A unique key or foreign key refused the write (the whole transaction is undone)."""


@dataclass(frozen=True)
class Step:
    """One statement of a transaction written in one go (`Database.write_steps`)."""

    sql: str
    params: Sequence[Any] = ()
    """The statement's parameters; with `many`, a sequence of parameter rows (may be empty)."""
    many: bool = False
    exactly_one: bool = False
    """The statement must change exactly one row, else the whole transaction is undone."""
    returning: bool = False
    """The statement returns rows (`... RETURNING`): they are what `write_steps` returns, so
    what the transaction made (a row's id) comes back without a read after it.  Not with `many`."""

    def __post_init__(self) -> None:
        if self.returning and (self.many or self.exactly_one):
            raise ValueError("a step returning rows is one statement, its rows counted by the caller")


class Statements(Protocol):
    """What runs SQL: a transaction, or the database itself (each statement on its own)."""

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement; returns the number of rows it changed."""
        ...

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None: ...

    async def insert(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run an INSERT into a table with an `id` key; returns the new row's id."""
        ...

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]: ...

    async def fetch_one(self, sql: str, params: Sequence[Any] = ()) -> Row | None: ...


class Tx(Statements, Protocol):
    """The statements of one transaction."""

    async def lock(self, key: int) -> None:
        """Hold lock `key` until the transaction ends (serialises read-modify-write across
        processes; SQLite's write transaction already excludes every other writer)."""
        ...


class Database(Statements, Protocol):
    """Reads outside any transaction, transactions, the schema version, closing."""

    backend: str
    """`sqlite` or `postgresql`."""
    where: str
    """A file path or a URL without its password, for log lines."""

    def transaction(self, name: str | None = None) -> Any:
        """`async with db.transaction() as tx:` commits at the end, rolls back on any error.
        `name` marks a crash point before the commit (`<name>.commit`, bot/infra/crashpoints.py)."""
        ...

    async def write_steps(self, steps: Sequence[Step], name: str | None = None) -> list[Row] | None:
        """Run `steps` in one transaction; the rows of its `returning` steps, in order, or None
        (and nothing written) when a step marked `exactly_one` did not change exactly one row.
        `name` as for `transaction`.

        Why beside `transaction`: a write whose statements do not depend on what earlier ones
        returned (but for "exactly one row") needs no trip back to the event loop between
        them.  On SQLite it is one trip to the connection's thread instead of one per
        statement, BEGIN and COMMIT: each trip is a chance to wait for a core on a busy box,
        which is where a move's latency tail came from."""
        ...

    async def execute_unflushed(self, sql: str, params: Sequence[Any] = ()) -> int:
        """One bookkeeping statement, committed on its own without waiting for the disk: a
        write whose loss in a crash of the database SERVER costs a look-up or a repeat, never
        a move (the outbox's marks and notes).  A crash of the bot loses nothing: the commit is
        in the server when this returns.  Returns the number of rows changed."""
        ...

    async def schema_version(self) -> int: ...

    async def apply_migration(self, number: int, script: str) -> None: ...

    async def close(self) -> None: ...


# --- SQLite ---------------------------------------------------------------------------------


def _roll_back_if_open(connection: sqlite3.Connection) -> None:
    """ROLLBACK, unless SQLite already ended the transaction itself: it does on some errors
    (a full disk), and a plain ROLLBACK then fails with "no transaction is active": the error
    raised, logged and shown in `/status` was that one instead of the one saying what is wrong."""
    if connection.in_transaction:
        connection.execute("ROLLBACK")


class _SqliteTx:
    """Statements on the shared connection (the caller holds the write lock)."""

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._db = connection

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        try:
            cursor = await self._db.execute(sql, params)
        except aiosqlite.IntegrityError as exc:
            raise Conflict(str(exc)) from exc
        return cursor.rowcount

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        try:
            await self._db.executemany(sql, rows)
        except aiosqlite.IntegrityError as exc:
            raise Conflict(str(exc)) from exc

    async def insert(self, sql: str, params: Sequence[Any] = ()) -> int:
        try:
            cursor = await self._db.execute(sql, params)
        except aiosqlite.IntegrityError as exc:
            raise Conflict(str(exc)) from exc
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        # one trip to aiosqlite's thread (execute + fetch + close as one call)
        return [tuple(r) for r in await self._db.execute_fetchall(sql, params)]

    async def fetch_one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        rows = list(await self._db.execute_fetchall(sql, params))
        return tuple(rows[0]) if rows else None

    async def lock(self, key: int) -> None:
        return None  # BEGIN IMMEDIATE holds the database's one write lock already


class SqliteDatabase:
    """One aiosqlite connection in WAL mode, plus a checkpointer of its own.

    Durability: `synchronous = NORMAL` in WAL mode.  A commit is in the WAL file (the OS's
    page cache) when `COMMIT` returns, so it survives any crash of the process (SIGKILL, the
    OOM killer, a bug), which is what "nothing acknowledged is lost" promises and what the
    crash tests check by killing the bot at every step of a move.  What it does not survive
    is the machine losing power or the kernel crashing before the OS wrote the WAL out; the
    WAL is synced at each checkpoint.  `FULL` would sync every commit, for a cost in every
    move's latency that no crash of the bot itself needs.

    Checkpoints (copying the WAL back into the database file): SQLite runs them inside the
    `COMMIT` that pushes the WAL past 1,000 pages, so about one move in a hundred and fifty
    waited for a checkpoint and its fsync: that was the p99 of `play` (20 ms against 0.7 ms
    median on the loaded bench box; 5.8 ms without).  Automatic checkpoints are therefore off
    on the bot's connection, and `checkpoint` runs every `CHECKPOINT_SECONDS` on a second
    connection in a thread of its own (PASSIVE: it never blocks the writer, and a writer
    never waits for it).  The WAL restarts from its beginning once a checkpoint has caught
    up, so it stays about one interval of writes long.
    """

    backend = "sqlite"
    CHECKPOINT_SECONDS = 1.0

    def __init__(self, connection: aiosqlite.Connection, path: Path | str) -> None:
        self._db = connection
        self._tx = _SqliteTx(connection)
        self.where = str(path)
        self._write_lock = asyncio.Lock()
        self._path = path
        self._checkpointer: ThreadPoolExecutor | None = None
        self._checkpoint_connection: sqlite3.Connection | None = None
        self._checkpointing: asyncio.Task[None] | None = None
        self.checkpoints = 0
        """Checkpoints run by `checkpoint` (the tests watch it)."""

    @classmethod
    async def open(cls, path: Path | str, *, checkpoint_every: float | None = CHECKPOINT_SECONDS) -> SqliteDatabase:
        """Open `path`; `checkpoint_every` None leaves checkpoints to SQLite (inside commits)."""
        connection = await aiosqlite.connect(path, isolation_level=None)
        await connection.execute("PRAGMA journal_mode = WAL")
        await connection.execute("PRAGMA foreign_keys = ON")
        await connection.execute("PRAGMA synchronous = NORMAL")
        await connection.execute("PRAGMA busy_timeout = 5000")
        database = cls(connection, path)
        if checkpoint_every is not None and str(path) != ":memory:":
            await connection.execute("PRAGMA wal_autocheckpoint = 0")
            database._checkpointing = asyncio.create_task(database._checkpoint_every(checkpoint_every))
        return database

    async def _checkpoint_every(self, seconds: float) -> None:
        """Checkpoint every `seconds`.  A failure that repeats (a full disk fails every try) is
        logged in full once, then one line a minute (bot/infra/log_limits.py), and once fixed."""
        limited = RateLimitedLog(log, CHECKPOINT_LOG_SECONDS)
        failing = False
        while True:
            await asyncio.sleep(seconds)
            try:
                await self.checkpoint()
            except sqlite3.Error as error:
                if not failing:
                    limited.error(
                        "WAL checkpoint of %s failed; trying again every %s s", self.where, seconds, exc_info=error
                    )
                else:
                    limited.warning("WAL checkpoint of %s still failing: %s", self.where, error)
                failing = True
            else:
                if failing:
                    log.info("WAL checkpoint of %s works again", self.where)
                    limited.reset()
                failing = False

    async def checkpoint(self) -> tuple[int, int, int]:
        """A PASSIVE checkpoint on the checkpointer's own connection and thread; returns
        SQLite's (busy, WAL frames, frames checkpointed)."""
        if self._checkpointer is None:
            self._checkpointer = ThreadPoolExecutor(1, thread_name_prefix="boneyard-checkpoint")
        loop = asyncio.get_running_loop()
        result = await loop.run_in_executor(self._checkpointer, self._checkpoint_in_thread)
        self.checkpoints += 1
        return result

    def _checkpoint_in_thread(self) -> tuple[int, int, int]:
        if self._checkpoint_connection is None:
            self._checkpoint_connection = sqlite3.connect(self._path, isolation_level=None, check_same_thread=False)
        busy, frames, done = self._checkpoint_connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        return int(busy), int(frames), int(done)

    def _close_checkpointer(self) -> None:
        if self._checkpoint_connection is not None:
            self._checkpoint_connection.close()

    @asynccontextmanager
    async def transaction(self, name: str | None = None) -> AsyncIterator[_SqliteTx]:
        """`BEGIN IMMEDIATE` ... `COMMIT`, rolled back on any error (cancellation included)."""
        async with self._write_lock:
            try:
                await self._db.execute("BEGIN IMMEDIATE")
            except asyncio.CancelledError:
                await self._roll_back()  # the BEGIN runs on the connection's thread all the same
                raise
            try:
                yield self._tx
            except BaseException:
                await self._roll_back()
                raise
            if name is not None:
                crashpoints.reached(f"{name}.commit")
            await self._db.execute("COMMIT")

    async def _roll_back(self) -> None:
        """Roll back the open transaction, if one is open, on the connection's thread.

        Queued there behind every statement sent before, before the write lock lets another
        statement in, and run even if this coroutine is cancelled while it waits: aiosqlite
        runs what it was sent whatever becomes of the coroutine that awaited it.  So a BEGIN
        whose coroutine was cancelled (waiting for another process's lock, say) is undone;
        left alone, the connection stayed inside that transaction, every later BEGIN failed
        and every later single statement joined it, never committed.  Nothing is rolled back
        where SQLite already ended the transaction itself (`_roll_back_if_open`)."""
        connection: sqlite3.Connection = self._db._conn
        await self._in_thread(lambda: _roll_back_if_open(connection))

    async def _in_thread(self, function: Callable[[], T]) -> T:
        """`function` on the connection's own thread, queued behind what was sent before.
        aiosqlite has no public call for this; `_execute` is the one its own methods use,
        pinned by constraints.txt and covered by the store tests."""
        run = cast(Callable[[Callable[[], T]], Awaitable[T]], self._db._execute)
        return await run(function)

    async def write_steps(self, steps: Sequence[Step], name: str | None = None) -> list[Row] | None:
        """One trip to aiosqlite's thread runs the whole transaction (`_in_thread`).

        Once started, the transaction runs to its end even if the awaiting coroutine is
        cancelled (what it commits carries its own outbox rows, posted by the drain)."""
        async with self._write_lock:
            return await self._in_thread(lambda: self._write_steps_in_thread(steps, name))

    def _write_steps_in_thread(self, steps: Sequence[Step], name: str | None) -> list[Row] | None:
        connection: sqlite3.Connection = self._db._conn
        connection.execute("BEGIN IMMEDIATE")
        returned: list[Row] = []
        try:
            for step in steps:
                if step.many:
                    connection.executemany(step.sql, step.params)
                elif step.returning:
                    returned.extend(tuple(r) for r in connection.execute(step.sql, step.params).fetchall())
                elif connection.execute(step.sql, step.params).rowcount != 1 and step.exactly_one:
                    _roll_back_if_open(connection)
                    return None
        except sqlite3.IntegrityError as exc:
            _roll_back_if_open(connection)
            raise Conflict(str(exc)) from exc
        except BaseException:
            _roll_back_if_open(connection)
            raise
        if name is not None:
            crashpoints.reached(f"{name}.commit")
        connection.execute("COMMIT")
        return returned

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """One statement on its own: under the write lock (so it never lands inside another
        coroutine's transaction) and committed by itself (autocommit), in one trip."""
        async with self._write_lock:
            return await self._tx.execute(sql, params)

    async def execute_unflushed(self, sql: str, params: Sequence[Any] = ()) -> int:
        """`execute`: in WAL mode with `synchronous = NORMAL` no commit waits for the disk."""
        return await self.execute(sql, params)

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        async with self.transaction() as tx:
            await tx.executemany(sql, rows)

    async def insert(self, sql: str, params: Sequence[Any] = ()) -> int:
        async with self._write_lock:
            return await self._tx.insert(sql, params)

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return await self._tx.fetch_all(sql, params)

    async def fetch_one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        return await self._tx.fetch_one(sql, params)

    async def schema_version(self) -> int:
        row = await self.fetch_one("PRAGMA user_version")
        return int(row[0]) if row else 0

    async def apply_migration(self, number: int, script: str) -> None:
        async with self._write_lock:
            await self._db.executescript(f"BEGIN IMMEDIATE;\n{script}\nPRAGMA user_version = {number};\nCOMMIT;")

    async def close(self) -> None:
        """Close without suspending before aiosqlite's own close has begun: a close cancelled
        half-way (the event loop ending) must not leave its non-daemon thread running."""
        if self._checkpointing is not None:
            self._checkpointing.cancel()
        try:
            await self._db.close()
        finally:
            if self._checkpointer is not None:  # its thread closes its connection, then ends
                closed = self._checkpointer.submit(self._close_checkpointer)
                self._checkpointer.shutdown(wait=False)
                await asyncio.wrap_future(closed)  # the last connection closed removes the WAL


# --- PostgreSQL ------------------------------------------------------------------------------


class _NotExactlyOne(Exception):
    """Leaves a `write_steps` transaction by its rollback path."""


_PLACEHOLDER = re.compile(r"\?")
_MIGRATION_LOCK = 0x626F6E6579617264  # "boneyard": one migrating process at a time


@lru_cache(maxsize=512)
def numbered(sql: str) -> str:
    """`?` placeholders as PostgreSQL's `$1, $2, ...` (the store's SQL has no literal `?`)."""
    counter = iter(range(1, 10_000))
    return _PLACEHOLDER.sub(lambda _m: f"${next(counter)}", sql)


def public_url(url: str) -> str:
    """`url` without its password, for log lines and messages."""
    return re.sub(r"//([^:/@]+):[^@]*@", r"//\1:***@", url)


def _count(status: str) -> int:
    """Rows changed, from a command tag such as `UPDATE 3` or `INSERT 0 1`."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class PostgresTx:
    def __init__(self, connection: Any) -> None:
        self._conn = connection

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        import asyncpg

        try:
            return _count(await self._conn.execute(numbered(sql), *params))
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise Conflict(str(exc)) from exc

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        import asyncpg

        if not rows:
            return
        try:
            await self._conn.executemany(numbered(sql), rows)
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise Conflict(str(exc)) from exc

    async def insert(self, sql: str, params: Sequence[Any] = ()) -> int:
        import asyncpg

        try:
            value = await self._conn.fetchval(numbered(sql) + " RETURNING id", *params)
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise Conflict(str(exc)) from exc
        return int(value)

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return [tuple(r) for r in await self._conn.fetch(numbered(sql), *params)]

    async def fetch_one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        row = await self._conn.fetchrow(numbered(sql), *params)
        return tuple(row) if row is not None else None

    async def lock(self, key: int) -> None:
        await self._conn.execute("SELECT pg_advisory_xact_lock($1)", key)

    async def copy_rows(self, table: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
        """Bulk-insert `rows` with PostgreSQL's COPY (several times faster than INSERTs)."""
        import asyncpg

        try:
            await self._conn.copy_records_to_table(table, records=rows, columns=list(columns))
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise Conflict(str(exc)) from exc

    async def batches(self, sql: str, size: int) -> AsyncIterator[list[Row]]:
        """The rows of a read query in lists of at most `size`, through a server-side cursor
        (a table of millions of moves never sits in memory whole); inside a transaction only."""
        batch: list[Row] = []
        async for record in self._conn.cursor(numbered(sql), prefetch=size):
            batch.append(tuple(record))
            if len(batch) >= size:
                yield batch
                batch = []
        if batch:
            yield batch


class PostgresDatabase:
    """Two pools on one database: `_pool` for everything, at the server's durable settings, and
    a small `_unflushed` one whose sessions do not wait for the WAL flush at commit
    (`synchronous_commit = off`) for the bookkeeping writes of `execute_unflushed`: a move then
    costs one flush, its own, not one more per outbox mark."""

    backend = "postgresql"
    UNFLUSHED_CONNECTIONS = 2

    def __init__(self, pool: Any, where: str, unflushed: Any = None) -> None:
        self._pool = pool
        self._unflushed = unflushed if unflushed is not None else pool
        self.where = where

    @classmethod
    async def open(cls, url: str, *, min_size: int = 1, max_size: int = 10) -> PostgresDatabase:
        """The pools, whose connections go back without asyncpg's session reset (`_keep_session`)."""
        import asyncpg

        pool = await asyncpg.create_pool(url, min_size=min_size, max_size=max_size, reset=_keep_session)
        try:
            unflushed = await asyncpg.create_pool(
                url,
                min_size=1,
                max_size=min(max_size, cls.UNFLUSHED_CONNECTIONS),
                reset=_keep_session,
                server_settings={"synchronous_commit": "off"},
            )
        except BaseException:
            await pool.close()
            raise
        return cls(pool, public_url(url), unflushed)

    @asynccontextmanager
    async def transaction(self, name: str | None = None) -> AsyncIterator[PostgresTx]:
        async with self._pool.acquire() as connection:
            transaction = connection.transaction()
            await transaction.start()
            try:
                yield PostgresTx(connection)
            except BaseException:
                await transaction.rollback()
                raise
            if name is not None:
                crashpoints.reached(f"{name}.commit")
            await transaction.commit()

    @asynccontextmanager
    async def snapshot(self) -> AsyncIterator[PostgresTx]:
        """A read-only transaction that sees the database as of one moment (REPEATABLE READ):
        every read inside it agrees with every other, whatever commits meanwhile (backups)."""
        async with (
            self._pool.acquire() as connection,
            connection.transaction(isolation="repeatable_read", readonly=True),
        ):
            yield PostgresTx(connection)

    async def write_steps(self, steps: Sequence[Step], name: str | None = None) -> list[Row] | None:
        returned: list[Row] = []
        try:
            async with self.transaction(name) as tx:
                for step in steps:
                    if step.many:
                        await tx.executemany(step.sql, step.params)
                    elif step.returning:
                        returned.extend(await tx.fetch_all(step.sql, step.params))
                    elif await tx.execute(step.sql, step.params) != 1 and step.exactly_one:
                        raise _NotExactlyOne
        except _NotExactlyOne:
            return None
        return returned

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """One statement, committed by itself: one round trip, not BEGIN, it and COMMIT."""
        async with self._pool.acquire() as connection:
            return await PostgresTx(connection).execute(sql, params)

    async def execute_unflushed(self, sql: str, params: Sequence[Any] = ()) -> int:
        async with self._unflushed.acquire() as connection:
            return await PostgresTx(connection).execute(sql, params)

    async def write_returning(self, sql: str, params: Sequence[Any] = (), name: str | None = None) -> list[Row]:
        """One statement that writes several tables (data-modifying `WITH` clauses) and returns
        rows, committed by itself at the durable settings: one round trip where a transaction
        costs three more (BEGIN, a statement per table, COMMIT).  PostgreSQL only (SQLite has no
        writing `WITH`; its `write_steps` is one trip to its thread anyway).  `name` marks the
        crash point before it, as before a transaction's commit (`transaction`)."""
        if name is not None:
            crashpoints.reached(f"{name}.commit")
        import asyncpg

        try:
            return [tuple(r) for r in await self._pool.fetch(numbered(sql), *params)]
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise Conflict(str(exc)) from exc

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        async with self.transaction() as tx:
            await tx.executemany(sql, rows)

    async def insert(self, sql: str, params: Sequence[Any] = ()) -> int:
        async with self._pool.acquire() as connection:
            return await PostgresTx(connection).insert(sql, params)

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return [tuple(r) for r in await self._pool.fetch(numbered(sql), *params)]

    async def fetch_one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        row = await self._pool.fetchrow(numbered(sql), *params)
        return tuple(row) if row is not None else None

    async def schema_version(self) -> int:
        async with self._pool.acquire() as connection:
            await connection.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            value = await connection.fetchval("SELECT max(version) FROM schema_version")
        return int(value or 0)

    async def apply_migration(self, number: int, script: str) -> None:
        async with self._pool.acquire() as connection, connection.transaction():
            await connection.execute("SELECT pg_advisory_xact_lock($1)", _MIGRATION_LOCK)
            done = await connection.fetchval("SELECT max(version) FROM schema_version")
            if (done or 0) >= number:
                return  # another process applied it meanwhile
            await connection.execute(script)
            await connection.execute("INSERT INTO schema_version (version) VALUES ($1)", number)

    async def close(self) -> None:
        try:
            await self._pool.close()
        finally:
            if self._unflushed is not self._pool:
                await self._unflushed.close()


async def _keep_session(connection: Any) -> None:
    """The pool's reset of a connection it takes back: nothing beyond what asyncpg always does
    (an open transaction is rolled back).  asyncpg's default sends `pg_advisory_unlock_all();
    CLOSE ALL; UNLISTEN *; RESET ALL` on every release: a round trip per statement the store
    runs, for session state the store never leaves behind (its locks are transaction locks
    (`pg_advisory_xact_lock`), its cursors live inside transactions, it never LISTENs or SETs)."""
    return None


async def open_database(where: Path | str) -> Database:
    """A `postgresql://` (or `postgres://`) URL opens PostgreSQL; anything else is a SQLite file."""
    text = str(where)
    if text.startswith(("postgresql://", "postgres://")):
        return await PostgresDatabase.open(text)
    return await SqliteDatabase.open(where)
