"""The schema: numbered migrations, written for SQLite and translated for PostgreSQL.

Why one list: both databases must have the same tables, and a migration added for one and
forgotten for the other would only show in production.  The SQLite scripts are the source;
`to_postgres` rewrites the few types that differ (auto-increment ids, 64-bit integers for
Discord snowflakes, double-precision timestamps) and the tests run both.

A new table or column is a new numbered script at the end (never an edit of an old one).
A data migration whose SQL the two databases spell differently (JSON functions) gives its
PostgreSQL text itself (`_POSTGRES_OWN`).
"""

from __future__ import annotations

import re


def _ending_lines(*, reason: str, winner_count: str, first_winner: str) -> str:
    """Migration 8: the ending line (bot.records.move_log, seat -3) of every started match
    that ended outside its game's rules before ending lines were written, appended after its
    last line, so that its record proves how it ended.

    Why from the stored outcome: the database is the authority on how a match ended, and the
    service stored the same reason then as it stores now with the line.  So a line is written
    only where status, winners and reason say exactly one ending: `abort` / `abort moderator`
    for an aborted match with that reason, `draw agreed` for a draw "Drawn by agreement.",
    `resign <loser>` / `timeout <loser> -` for one winner whose loser's seat name (the names
    as they were then, written out so that this migration never changes) "resigned." or "ran
    out of time".  The clock reading of a loss on time was not kept: `-`.  A match its moves
    ended, or whose outcome says anything else, gets no line: its record keeps saying what it
    cannot prove.  `reason`, `winner_count` and `first_winner` are the backend's expressions
    for the fields of the outcome's JSON."""
    loser = f"(1 - {first_winner})"
    name = (
        f"CASE WHEN m.game = 'domineering' THEN (CASE WHEN {loser} = 0 THEN 'Black' ELSE 'White' END) "
        f"ELSE (CASE WHEN {loser} = 0 THEN 'Orange' ELSE 'Blue' END) END"
    )
    return f"""
    INSERT INTO moves (match_id, ply, seat, move, public, forced, at)
    SELECT id, next_ply, -3, line, 1, 0, updated_at FROM (
        SELECT m.id, m.updated_at,
            (SELECT coalesce(max(x.ply) + 1, 0) FROM moves x WHERE x.match_id = m.id) AS next_ply,
            CASE
                WHEN m.status = 'aborted' AND {reason} = 'The match was aborted.' THEN 'abort'
                WHEN m.status = 'aborted' AND {reason} = 'A moderator aborted the match.' THEN 'abort moderator'
                WHEN m.status = 'finished' AND {winner_count} = 0 AND {reason} = 'Drawn by agreement.'
                    THEN 'draw agreed'
                WHEN m.status = 'finished' AND {winner_count} = 1 AND {reason} = ({name}) || ' resigned.'
                    THEN 'resign ' || {loser}
                WHEN m.status = 'finished' AND {winner_count} = 1 AND {reason} = ({name}) || ' ran out of time'
                    THEN 'timeout ' || {loser} || ' -'
            END AS line
        FROM matches m
        WHERE m.status IN ('finished', 'aborted') AND m.outcome IS NOT NULL
            AND EXISTS (SELECT 1 FROM seats s WHERE s.match_id = m.id)
            AND NOT EXISTS (SELECT 1 FROM moves e WHERE e.match_id = m.id AND e.seat = -3)
    ) AS endings
    WHERE line IS NOT NULL;
    """


_SQLITE_ENDING_LINES = _ending_lines(
    reason="json_extract(m.outcome, '$.reason')",
    winner_count="json_array_length(m.outcome, '$.winners')",
    first_winner="json_extract(m.outcome, '$.winners[0]')",
)
_POSTGRES_ENDING_LINES = _ending_lines(
    reason="(m.outcome::jsonb ->> 'reason')",
    winner_count=(
        "(CASE WHEN jsonb_typeof(m.outcome::jsonb -> 'winners') = 'array' "
        "THEN jsonb_array_length(m.outcome::jsonb -> 'winners') END)"
    ),
    first_winner="((m.outcome::jsonb -> 'winners' ->> 0)::bigint)",
)


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
    # 8: the ending line of every match that ended outside its game's rules before such lines
    # were written (`_ending_lines`; PostgreSQL reads the outcome's JSON its own way)
    _SQLITE_ENDING_LINES,
    # 9: the interaction whose follow-up an outbox row is posted as: after a crash the row is
    # matched to that interaction's reply, never to a message with the same text
    """
    ALTER TABLE outbox ADD COLUMN follow_up_of INTEGER;
    """,
    # 10: each player's private view is one direct message, edited in place within a turn
    # (bot/store/private_messages.py): which message, and what it shows
    """
    CREATE TABLE private_messages (
        match_id   INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
        seat       INTEGER NOT NULL CHECK (seat IN (0, 1)),
        channel_id INTEGER NOT NULL,
        message_id INTEGER NOT NULL,
        version    INTEGER NOT NULL,
        shows      TEXT    NOT NULL,
        controls   INTEGER NOT NULL,
        PRIMARY KEY (match_id, seat)
    );
    """,
    # 11: notices each player chooses, holidays and nudges (every query on these lives in
    # bot/store/notices.py)
    """
    CREATE TABLE notice_prefs (
        user_id     INTEGER PRIMARY KEY,
        mode        TEXT    CHECK (mode IN ('ping', 'dm', 'digest', 'off')),
        zone        TEXT    NOT NULL DEFAULT 'UTC',
        digest_hour INTEGER NOT NULL DEFAULT 9 CHECK (digest_hour BETWEEN 0 AND 23),
        quiet_start INTEGER CHECK (quiet_start BETWEEN 0 AND 23),
        quiet_end   INTEGER CHECK (quiet_end BETWEEN 0 AND 23),
        digest_day  TEXT
    );

    CREATE TABLE notice_held (
        user_id  INTEGER NOT NULL,
        match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
        held_at  REAL    NOT NULL,
        PRIMARY KEY (user_id, match_id)
    );

    CREATE TABLE notice_settings (
        guild_id      INTEGER PRIMARY KEY,
        default_mode  TEXT    CHECK (default_mode IN ('ping', 'dm', 'off')),
        vacation_days INTEGER NOT NULL DEFAULT 14 CHECK (vacation_days >= 0)
    );

    CREATE TABLE vacations (
        guild_id   INTEGER NOT NULL,
        user_id    INTEGER NOT NULL,
        started_at REAL    NOT NULL,
        ends_at    REAL    NOT NULL,
        PRIMARY KEY (guild_id, user_id)
    );

    CREATE TABLE vacation_days_used (
        guild_id INTEGER NOT NULL,
        user_id  INTEGER NOT NULL,
        year     INTEGER NOT NULL,
        days     INTEGER NOT NULL,
        PRIMARY KEY (guild_id, user_id, year)
    );

    CREATE TABLE vacation_pauses (
        match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
        user_id  INTEGER NOT NULL,
        PRIMARY KEY (match_id, user_id)
    );

    CREATE TABLE nudges (
        match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
        user_id  INTEGER NOT NULL,
        at       REAL    NOT NULL,
        PRIMARY KEY (match_id, user_id)
    );
    """,
    # 12: the computer's analysis of a finished match, kept so a second request is instant
    # (bot/store/analyses.py; the JSON is bot.ai.analysis.Analysis.to_json)
    """
    CREATE TABLE analyses (
        match_id   INTEGER PRIMARY KEY REFERENCES matches (id) ON DELETE CASCADE,
        result     TEXT    NOT NULL,
        created_at REAL    NOT NULL
    );
    """,
    # 13: languages (bot/store/languages.py): a server's language for its public posts and
    # pictures, and a user's own for replies and DMs (NULL: Discord's locale decides)
    """
    ALTER TABLE guild_settings ADD COLUMN language TEXT;

    CREATE TABLE user_settings (
        user_id  INTEGER PRIMARY KEY,
        language TEXT
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


_POSTGRES_OWN: dict[int, str] = {8: _POSTGRES_ENDING_LINES}
"""Migrations whose PostgreSQL text is written out rather than translated (data migrations
that use functions the two databases spell differently), by number."""

POSTGRES_MIGRATIONS: tuple[str, ...] = tuple(
    _POSTGRES_OWN.get(number, to_postgres(script)) for number, script in enumerate(MIGRATIONS, start=1)
)
