"""Tournament pictures: every format renders a sane PNG; rows, names, live marks and trimming are right."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image

from bot.i18n import LOCALES, Locale
from bot.tournaments import Format, GameToStart, Tournament
from renderers.kit import MIN_TEXT, PHONE_WIDTH, font, recording, text_width
from renderers.tournament import (
    MAX_SIDE,
    MIN_WIDTH,
    STANDINGS_WIDTH,
    TABLE_ROWS,
    Event,
    bracket_png,
    bracket_sections,
    fit_bracket,
    fit_text,
    focused_window,
    picture_data,
    round_names,
    standings_png,
    standings_table,
)
from tests.slow import slow_cases


def players(n: int) -> list[tuple[int, str]]:
    return [(100 + i, f"Player {i}") for i in range(1, n + 1)]


def play(t: Tournament, series: int, *, open_next: bool = False) -> Tournament:
    """Decide the next `series` startable series (seat 0 wins every game); optionally open one more game."""
    for _ in range(series):
        game = _next_game(t)
        while not t.pairing(game.pairing_id).finished:
            t.record_result(game.pairing_id, 0)
    if open_next:
        t.mark_started(_next_game(t).pairing_id)
    return t


def _next_game(t: Tournament) -> GameToStart:
    """The first game to start, after releasing the next round when the current one is over."""
    startable = t.pairings_to_start()
    if not startable and t.needs_next_round:
        t.next_round()
        startable = t.pairings_to_start()
    return startable[0]


def finish(t: Tournament) -> Tournament:
    while not t.finished:
        play(t, 1)
    return t


def data(t: Tournament, locale: Locale = "en") -> dict[str, Any]:
    return picture_data(t, "Friday Cup", "Focus · test event", locale)


def decode(png: bytes) -> Image.Image:
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    image = Image.open(io.BytesIO(png))
    image.load()
    assert image.format == "PNG"
    assert MIN_WIDTH <= image.width <= MAX_SIDE
    assert 200 <= image.height <= MAX_SIDE
    return image


def deathmatch_mid_series() -> Tournament:
    t = Tournament.new(Format.DEATHMATCH, [(1, "Ada"), (2, "Grace")], best_of=3)
    t.record_result(1, 0)
    t.mark_started(1)
    return t


# ----------------------------------------------------------------------------- every format renders


@pytest.mark.parametrize(
    ("name", "build"),
    [
        ("deathmatch best of 3, mid-series", deathmatch_mid_series),
        (
            "single elimination 2",
            lambda: play(Tournament.new(Format.SINGLE_ELIMINATION, players(2)), 0, open_next=True),
        ),
        ("single elimination 5", lambda: play(Tournament.new(Format.SINGLE_ELIMINATION, players(5)), 1)),
        ("single elimination 8", lambda: play(Tournament.new(Format.SINGLE_ELIMINATION, players(8), best_of=3), 3)),
        ("single elimination 33", lambda: play(Tournament.new(Format.SINGLE_ELIMINATION, players(33)), 4)),
        ("double elimination 8, finished", lambda: finish(Tournament.new(Format.DOUBLE_ELIMINATION, players(8)))),
        ("swiss 6, mid-event", lambda: play(Tournament.new(Format.SWISS, players(6)), 4, open_next=True)),
        ("swiss 6, finished", lambda: finish(Tournament.new(Format.SWISS, players(6)))),
        ("round robin 5", lambda: play(Tournament.new(Format.ROUND_ROBIN, players(5), best_of=3), 3)),
    ],
)
def test_both_pictures_are_sane_pngs(name: str, build: Any) -> None:
    picture = data(build())
    decode(bracket_png(picture))
    decode(standings_png(picture))


def test_a_result_changes_the_bracket_picture() -> None:
    t = play(Tournament.new(Format.SINGLE_ELIMINATION, players(8), best_of=3), 2)
    before = bracket_png(data(t))
    t.record_result(t.pairings_to_start()[0].pairing_id, 1)
    assert bracket_png(data(t)) != before


def test_an_open_game_changes_the_picture() -> None:
    t = play(Tournament.new(Format.SINGLE_ELIMINATION, players(4)), 1)
    before = bracket_png(data(t))
    t.mark_started(t.pairings_to_start()[0].pairing_id)
    assert bracket_png(data(t)) != before


def test_the_deathmatch_card_grows_with_the_games_played() -> None:
    t = deathmatch_mid_series()
    one = decode(bracket_png(data(t)))
    t.record_result(1, 0)  # a second game: the series is 1-1 and the strip holds two chips
    t.record_result(1, None)  # a drawn game is replayed: a third chip, same row
    t.record_result(1, 0)  # a fourth chip starts a second row
    assert decode(bracket_png(data(t))).height > one.height


# ----------------------------------------------------------------------------- standings rows


def test_the_champion_is_the_first_row_and_the_only_one_marked() -> None:
    t = finish(Tournament.new(Format.DOUBLE_ELIMINATION, players(8)))
    picture = data(t)
    assert picture["finished"] and picture["winner"] == t.winner
    table = standings_table(Event.load(picture))
    assert table.rows[0].player == t.winner
    assert [row.champion for row in table.rows] == [True] + [False] * 7
    assert table.rows[0].cells[0] == ""  # the trophy takes the place number's cell
    assert table.rows[0].cells[-1] == "Champion"
    assert all(cells.startswith("Out in") for cells in (row.cells[-1] for row in table.rows[1:]))


def test_no_champion_is_marked_while_the_event_runs() -> None:
    t = play(Tournament.new(Format.SWISS, players(6)), 3)
    table = standings_table(Event.load(data(t)))
    assert not any(row.champion for row in table.rows)
    assert table.rows[0].cells[0] == "1"


def test_swiss_columns_carry_the_tie_breaks() -> None:
    t = finish(Tournament.new(Format.SWISS, players(6)))
    table = standings_table(Event.load(data(t)))
    assert [c.title for c in table.columns] == ["#", "Player", "Pts", "W-D-L", "Byes", "Buchholz", "SB"]
    top = t.standings()[0]
    row = table.rows[0]
    assert row.cells[2:] == (
        f"{top.points:g}",
        f"{top.wins}-{top.draws}-{top.losses}",
        "0",
        f"{top.buchholz:g}",
        f"{top.sonneborn_berger:g}",
    )


def test_a_big_swiss_table_shows_the_top_rows_and_counts_the_rest() -> None:
    t = Tournament.new(Format.SWISS, players(512))
    table = standings_table(Event.load(data(t)))
    assert len(table.rows) == TABLE_ROWS
    assert table.more == 512 - TABLE_ROWS


def test_a_dropped_player_is_greyed_and_says_so() -> None:
    t = play(Tournament.new(Format.SWISS, players(6)), 3)
    t.drop(103)
    (row,) = [r for r in standings_table(Event.load(data(t))).rows if r.player == 103]
    assert row.dropped and row.cells[1].endswith("(left)")


def test_bracket_stage_says_who_is_out_and_who_plays_where() -> None:
    t = play(Tournament.new(Format.SINGLE_ELIMINATION, players(8)), 4, open_next=True)  # quarter-finals over
    rows = {row.player: row.cells[-1] for row in standings_table(Event.load(data(t))).rows}
    losers = [p.loser for p in t.pairings if p.round == 1]
    assert all(rows[loser] == "Out in Quarter-finals" for loser in losers if loser is not None)
    live = [p for p in t.pairings if p.open_game() is not None]
    assert [rows[pid] for pid in live[0].participants] == ["Live: Semi-finals"] * 2


# ----------------------------------------------------------------------------- names


def test_fit_text_cuts_long_names_with_an_ellipsis_to_the_width() -> None:
    name = "Sir Reginald Maximilian Featherstonehaugh"
    cut = fit_text(name, 20, 150)
    assert cut.endswith("…") and name.startswith(cut[:-1])
    assert font(20).getlength(cut) <= 150
    kept = len(cut) - 1
    one_more = name[: kept + 1 + (name[kept] == " ")] + "…"  # the cut keeps as much of the name as fits
    assert font(20).getlength(one_more) > 150
    assert fit_text("Ada", 20, 150) == "Ada"
    assert fit_text(name, 20, 5) == "…"


def test_names_are_shown_as_written_not_transliterated() -> None:
    names = ["José Raúl", "Жора", "李小龍", "🐉 Drake"]
    t = Tournament.new(Format.SINGLE_ELIMINATION, list(enumerate(names, 1)))
    rows = standings_table(Event.load(data(t))).rows
    assert {row.cells[1] for row in rows} == set(names)


def test_a_blank_name_falls_back_to_the_seed() -> None:
    t = Tournament.new(Format.SINGLE_ELIMINATION, [(1, "Ada"), (2, "   ")])
    rows = standings_table(Event.load(data(t))).rows
    assert {row.cells[1] for row in rows} == {"Ada", "Player 2"}


# ----------------------------------------------------------------------------- large brackets


def layout_of(t: Tournament) -> tuple[int, int, bool, list[str]]:
    sections, finals = bracket_sections(t)
    names = round_names(t)
    layout, trimmed = fit_bracket(sections, finals, 150, names)
    return layout.width, layout.height, trimmed, [names[s.shown[0][0].id] for s in sections]


def test_a_new_64_player_double_elimination_fits_whole() -> None:
    width, height, trimmed, first = layout_of(Tournament.new(Format.DOUBLE_ELIMINATION, players(64)))
    assert not trimmed and first == ["Winners R1", "Losers R1"]
    assert width <= MAX_SIDE and height <= MAX_SIDE


def test_a_huge_bracket_leaves_out_early_rounds_to_fit() -> None:
    width, height, trimmed, first = layout_of(Tournament.new(Format.SINGLE_ELIMINATION, players(300)))
    assert trimmed and first != ["Round 1"]
    assert width <= MAX_SIDE and height <= MAX_SIDE


def test_byes_take_half_the_room_of_a_pairing() -> None:
    _, mostly_byes, _, _ = layout_of(Tournament.new(Format.SINGLE_ELIMINATION, players(33)))
    _, no_byes, _, _ = layout_of(Tournament.new(Format.SINGLE_ELIMINATION, players(64)))
    assert mostly_byes < 0.6 * no_byes


def test_a_64_player_double_elimination_mid_event_starts_at_the_rounds_being_played() -> None:
    t = play(Tournament.new(Format.DOUBLE_ELIMINATION, players(64)), 40, open_next=True)  # winners R1 over
    *_, trimmed, first = layout_of(t)
    assert trimmed and first == ["Winners R2", "Losers R1"]
    decode(bracket_png(data(t), whole=True))


def test_round_robin_tie_breaks_keep_quarter_points() -> None:
    t = Tournament.new(Format.ROUND_ROBIN, players(5))
    while not t.finished:
        if t.needs_next_round:
            t.next_round()
        for game in t.pairings_to_start():
            t.record_result(game.pairing_id, None if game.pairing_id % 3 == 0 else 0)  # some draws
    table = standings_table(Event.load(data(t)))
    assert [c.title for c in table.columns] == ["#", "Player", "Pts", "W-D-L", "SB"]
    expected = [f"{s.sonneborn_berger:g}" for s in t.standings()]
    assert [row.cells[-1] for row in table.rows] == expected
    assert any(value.endswith(".75") or value.endswith(".25") for value in expected)


def _rectangles(t: Tournament) -> list[tuple[str, float, float, float, float]]:
    """Every box of the bracket layout (with the label band above a full box) and every title."""
    sections, finals = bracket_sections(t)
    layout, _ = fit_bracket(sections, finals, 150, round_names(t))
    s = layout.style
    rects = []
    for pid, (x, y) in layout.boxes.items():
        compact = pid in layout.compact
        rects.append(
            (f"#{pid}", x, y - (0 if compact else 0.8 * s.gap), x + s.width, y + (s.row if compact else s.height))
        )
    for x, y, words, size, _ in layout.texts:
        rects.append((words, x, y, x + text_width(words, size), y + size * 1.2))
    return rects


@pytest.mark.parametrize("fmt", [Format.SINGLE_ELIMINATION, Format.DOUBLE_ELIMINATION])
def test_no_two_boxes_or_titles_of_a_bracket_overlap(fmt: Format) -> None:
    for n in range(2, 65):
        t = Tournament.new(fmt, players(n))
        for stage in range(3):  # new, part-played, later
            for _ in range(n // 2 * stage):
                if not t.finished:
                    play(t, 1)
            rects = _rectangles(t)
            for i, a in enumerate(rects):
                for b in rects[i + 1 :]:
                    clash = a[1] < b[3] and b[1] < a[3] and a[2] < b[4] and b[2] < a[4]
                    assert not clash, (n, stage, a, b)


PHONE_LOCALES = slow_cases(LOCALES, {"en", "es", "pt_BR"})
"""German, the longest words of the catalogue, in the quick loop; every language in the full
suite (the checks of the window's rounds do not depend on the language)."""


@pytest.mark.parametrize("locale", PHONE_LOCALES)
@pytest.mark.parametrize("fmt", [Format.SINGLE_ELIMINATION, Format.DOUBLE_ELIMINATION])
def test_a_big_bracket_shows_the_round_being_played_and_the_next_readable_on_a_phone(
    fmt: Format, locale: Locale
) -> None:
    for n in (6, 12, 33, 64):
        t = Tournament.new(fmt, players(n))
        while not t.finished:
            sections, finals = focused_window(t)
            shown = [column for section in sections for column in section.shown]
            assert all(len(section.shown) <= 2 for section in sections) and len(finals) <= 2
            for section in sections:  # starts at the round being played
                assert not all(p.finished for p in section.shown[0])
            with recording() as records:
                png = bracket_png(data(t, locale))
            image = Image.open(io.BytesIO(png))
            assert image.width <= STANDINGS_WIDTH
            for r in records:
                assert r.overflow() == 0, (n, r.content, r.ink, r.box)
                assert r.size * PHONE_WIDTH / r.image_size[0] >= MIN_TEXT, (n, r.content, r.size)
            assert shown or finals
            for _ in range(max(1, n // 4)):
                if not t.finished:
                    play(t, 1)
    whole = Image.open(io.BytesIO(bracket_png(data(Tournament.new(fmt, players(64))), whole=True)))
    assert whole.width > STANDINGS_WIDTH  # the whole thing is still there when asked for


@pytest.mark.parametrize("locale", PHONE_LOCALES)
def test_standings_and_round_pictures_read_on_a_phone(locale: Locale) -> None:
    for fmt in (Format.SWISS, Format.ROUND_ROBIN, Format.DOUBLE_ELIMINATION):
        t = Tournament.new(
            fmt,
            [
                (i, name)
                for i, name in enumerate(
                    ["Sir Reginald Featherstonehaugh", "李小龍", "🐉 Drake", "Ωμέγα", "Жора", "José"] * 3, 1
                )
            ],
        )
        for _ in range(3):
            with recording() as records:
                standings_png(data(t, locale))
                if not fmt.is_bracket:
                    bracket_png(data(t, locale))
            assert records
            for r in records:
                assert r.overflow() == 0, (r.content, r.ink, r.box)
                assert r.size * PHONE_WIDTH / r.image_size[0] >= MIN_TEXT, (r.content, r.size, r.image_size)
            for _ in range(3):
                if not t.finished:
                    play(t, 1)


@pytest.mark.parametrize("fmt", [Format.SINGLE_ELIMINATION, Format.DOUBLE_ELIMINATION])
def test_a_finished_event_shows_its_final_rounds_under_a_subtitle_for_a_finished_event(fmt: Format) -> None:
    t = finish(Tournament.new(fmt, players(16), best_of=1))
    with recording() as records:
        decode(bracket_png(data(t)))
    drawn = " | ".join(r.content for r in records)
    assert "the round being played" not in drawn and "final rounds" in drawn
    assert ("Final" in drawn and "Semi-finals" in drawn) if fmt is Format.SINGLE_ELIMINATION else "Grand final" in drawn
    assert sum(1 for r in records if r.content.startswith("#")) >= 2  # pairing numbers: boxes, not only the champion
    with recording() as whole:
        decode(bracket_png(data(t), whole=True))
    assert sum(1 for r in whole if r.content.startswith("#")) > sum(1 for r in records if r.content.startswith("#"))
