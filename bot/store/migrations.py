"""The schema: numbered migrations, written for SQLite and translated for PostgreSQL.

Why one list: both databases must have the same tables, and a migration added for one and
forgotten for the other would only show in production.  The SQLite scripts are the source;
`to_postgres` rewrites the few types that differ (auto-increment ids, 64-bit integers for
Discord snowflakes, double-precision timestamps) and the tests run both.

A new table or column is a new numbered script at the end (never an edit of an old one).
"""

from __future__ import annotations

import re

MIGRATIONS: tuple[str, ...] = (
    # 1: matches, seats, the move log
    """
    CREATE TABLE matches (
        id            INTEGER PRIMARY KEY,
        game          TEXT    NOT NULL,
        options       TEXT    NOT NULL,
        guild_id      INTEGER,
        channel_id    INTEGER NOT NULL,
        status        TEXT    NOT NULL CHECK (status IN
                              ('challenge', 'active', 'finished', 'aborted', 'declined', 'cancelled')),
        challenger_id INTEGER NOT NULL,
        opponent_id   INTEGER,
        seat_pref     TEXT    NOT NULL DEFAULT 'random',
        seed          TEXT    NOT NULL,
        seed_hash     TEXT    NOT NULL,
        snapshot      TEXT,
        version       INTEGER NOT NULL DEFAULT 0,
        outcome       TEXT,
        message_id    INTEGER,
        created_at    REAL    NOT NULL,
        updated_at    REAL    NOT NULL
    );
    CREATE UNIQUE INDEX matches_one_open_per_channel
        ON matches (channel_id) WHERE status IN ('challenge', 'active');
    CREATE INDEX matches_by_status ON matches (status);

    CREATE TABLE seats (
        match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
        seat     INTEGER NOT NULL CHECK (seat IN (0, 1)),
        user_id  INTEGER NOT NULL,
        PRIMARY KEY (match_id, seat)
    );
    CREATE INDEX seats_by_user ON seats (user_id);

    CREATE TABLE moves (
        match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
        ply      INTEGER NOT NULL,
        seat     INTEGER NOT NULL,
        move     TEXT    NOT NULL,
        public   INTEGER NOT NULL,
        forced   INTEGER NOT NULL,
        at       REAL    NOT NULL,
        PRIMARY KEY (match_id, ply)
    );

    CREATE TABLE abort_votes (
        match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
        user_id  INTEGER NOT NULL,
        PRIMARY KEY (match_id, user_id)
    );

    CREATE TABLE dm_notices (
        match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
        user_id  INTEGER NOT NULL,
        PRIMARY KEY (match_id, user_id)
    );
    """,
    # 2: time controls (issue "Time controls: chess clocks and reminders that survive restarts")
    """
    ALTER TABLE matches ADD COLUMN clock TEXT;

    CREATE TABLE meta (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );

    CREATE TABLE clock_votes (
        match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
        user_id  INTEGER NOT NULL,
        action   TEXT    NOT NULL CHECK (action IN ('pause', 'resume')),
        PRIMARY KEY (match_id, user_id, action)
    );
    """,
    # 3: tournaments and ratings (issue "Tournaments: brackets, death matches, items and standings")
    """
    ALTER TABLE matches ADD COLUMN rated INTEGER NOT NULL DEFAULT 1;

    CREATE TABLE tournaments (
        id              INTEGER PRIMARY KEY,
        guild_id        INTEGER,
        channel_id      INTEGER NOT NULL,
        host_id         INTEGER NOT NULL,
        name            TEXT    NOT NULL,
        game            TEXT    NOT NULL,
        format          TEXT    NOT NULL,
        best_of         INTEGER NOT NULL,
        rounds          INTEGER,
        options         TEXT    NOT NULL,
        clock           TEXT,
        max_players     INTEGER,
        checkin_minutes INTEGER NOT NULL DEFAULT 0,
        checkin_until   REAL,
        rated           INTEGER NOT NULL DEFAULT 1,
        status          TEXT    NOT NULL CHECK (status IN ('open', 'checkin', 'running', 'finished', 'cancelled')),
        state           TEXT,
        version         INTEGER NOT NULL DEFAULT 0,
        created_at      REAL    NOT NULL,
        updated_at      REAL    NOT NULL
    );
    CREATE UNIQUE INDEX tournaments_one_open_per_channel
        ON tournaments (channel_id) WHERE status IN ('open', 'checkin', 'running');

    CREATE TABLE tournament_entries (
        tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
        user_id       INTEGER NOT NULL,
        name          TEXT    NOT NULL,
        checked_in    INTEGER NOT NULL DEFAULT 0,
        items         TEXT    NOT NULL DEFAULT '[]',
        joined_at     REAL    NOT NULL,
        PRIMARY KEY (tournament_id, user_id)
    );

    CREATE TABLE tournament_games (
        match_id      INTEGER PRIMARY KEY REFERENCES matches (id) ON DELETE CASCADE,
        tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
        pairing_id    INTEGER NOT NULL,
        game_number   INTEGER NOT NULL,
        UNIQUE (tournament_id, pairing_id, game_number)
    );

    CREATE TABLE ratings (
        user_id INTEGER NOT NULL,
        game    TEXT    NOT NULL,
        value   REAL    NOT NULL,
        games   INTEGER NOT NULL,
        wins    INTEGER NOT NULL DEFAULT 0,
        draws   INTEGER NOT NULL DEFAULT 0,
        losses  INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (user_id, game)
    );
    CREATE INDEX ratings_by_game ON ratings (game, value DESC);

    CREATE TABLE rated_matches (
        match_id INTEGER PRIMARY KEY REFERENCES matches (id) ON DELETE CASCADE,
        changes  TEXT    NOT NULL DEFAULT '[]'
    );
    """,
    # 4: match history (issue "Every match a record"): a player's finished matches newest
    # first, from either seat, read from an index (`match_history`), all games or one
    """
    CREATE INDEX matches_history_challenger ON matches (challenger_id, updated_at) WHERE status = 'finished';
    CREATE INDEX matches_history_opponent ON matches (opponent_id, updated_at) WHERE status = 'finished';
    CREATE INDEX matches_history_challenger_game ON matches (challenger_id, game, updated_at)
        WHERE status = 'finished';
    CREATE INDEX matches_history_opponent_game ON matches (opponent_id, game, updated_at) WHERE status = 'finished';
    """,
    # 5: a thread per match, expiring challenges, server settings, draw and takeback offers
    # (every query on these lives in bot/store/lobby.py)
    """
    ALTER TABLE matches ADD COLUMN occupies_channel INTEGER NOT NULL DEFAULT 1;
    ALTER TABLE matches ADD COLUMN lobby_channel_id INTEGER;
    ALTER TABLE matches ADD COLUMN expires_at REAL;

    DROP INDEX matches_one_open_per_channel;
    CREATE UNIQUE INDEX matches_one_open_per_channel
        ON matches (channel_id) WHERE status = 'active' OR (status = 'challenge' AND occupies_channel = 1);
    CREATE INDEX matches_challenges_by_guild ON matches (guild_id, status);

    CREATE TABLE guild_settings (
        guild_id      INTEGER PRIMARY KEY,
        match_venue   TEXT    NOT NULL DEFAULT 'threads' CHECK (match_venue IN ('threads', 'channel')),
        default_clock TEXT    NOT NULL DEFAULT 'daily'
    );

    CREATE TABLE match_offers (
        match_id   INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
        kind       TEXT    NOT NULL CHECK (kind IN ('draw', 'takeback')),
        user_id    INTEGER NOT NULL,
        version    INTEGER NOT NULL,
        created_at REAL    NOT NULL,
        PRIMARY KEY (match_id, kind)
    );
    """,
    # 6: the outbox (issue "Nothing lost, nothing stuck"): announcements stored with their change
    """
    CREATE TABLE outbox (
        id            INTEGER PRIMARY KEY,
        key           TEXT    NOT NULL UNIQUE,
        kind          TEXT    NOT NULL,
        guild_id      INTEGER,
        channel_id    INTEGER NOT NULL,
        match_id      INTEGER,
        tournament_id INTEGER,
        payload       TEXT    NOT NULL,
        content       TEXT,
        created_at    REAL    NOT NULL,
        attempts      INTEGER NOT NULL DEFAULT 0,
        sent_at       REAL,
        message_id    INTEGER,
        failure       TEXT
    );
    CREATE INDEX outbox_unsent ON outbox (id) WHERE sent_at IS NULL;
    """,
    # 7: shard leases: which process runs which shard; claimed at start-up and
    # renewed while it runs, so a second process on a live shard is refused
    """
    CREATE TABLE shard_leases (
        shard        INTEGER PRIMARY KEY,
        shard_count  INTEGER NOT NULL,
        owner        TEXT    NOT NULL,
        refreshed_at REAL    NOT NULL
    );
    """,
    # 8: the computer's analysis of a finished match, kept so a second request is instant
    # (bot/store/analyses.py; the JSON is bot.ai.analysis.Analysis.to_json)
    """
    CREATE TABLE analyses (
        match_id   INTEGER PRIMARY KEY REFERENCES matches (id) ON DELETE CASCADE,
        result     TEXT    NOT NULL,
        created_at REAL    NOT NULL
    );
    """,
)


def to_postgres(script: str) -> str:
    """The SQLite DDL of `script` in PostgreSQL's types."""
    script = re.sub(
        r"\bid(\s+)INTEGER PRIMARY KEY\b", r"id\1BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY", script
    )
    script = re.sub(r"\bINTEGER\b", "BIGINT", script)
    # SQLite's index entries end with the row id (`id`), so the history indexes (migration 4)
    # also order the `updated_at, id` tie-break; PostgreSQL's need the column said.
    script = script.replace("updated_at) WHERE status = 'finished'", "updated_at, id) WHERE status = 'finished'")
    return re.sub(r"\bREAL\b", "DOUBLE PRECISION", script)


POSTGRES_MIGRATIONS: tuple[str, ...] = tuple(to_postgres(m) for m in MIGRATIONS)
