"""Wonderland pictures: start, middle and end positions render valid PNGs of a sane size,
legible on a phone (Discord shows them ~420 px wide there)."""

from __future__ import annotations

import functools
import io
import statistics
import time

from PIL import Image

from bot.games import CHANCE
from bot.games.wonderland import WonderlandRules, WonderlandState
from renderers import Header, render, render_private
from renderers.kit import recording
from renderers.wonderland import MAX_CELL, RED_INK, WIDTH, Layout, _being_sprite, board, private

RULES = WonderlandRules()
POOL0 = "AH 2H 3H 4H 5D 6D 7D 8S 9S 10S JS JH QS QH KH"
POOL1 = "AC 2C 3C 4S 5S 6C 7C 8H 9D 10D JC JD QC QD KS"
HEADER = Header(players=("Ada", "Grace"), ply=40)


def _forward(seat: int, move: str) -> float:
    """How far toward the enemy a summon or move goes (seat 0 climbs, seat 1 descends)."""
    squares = [s.lstrip("@") for w in move.split()[2:] for s in w.split("-")]
    ranks = [int(s[1:]) for s in squares if s[1:].isdigit()]
    mean = sum(ranks) / len(ranks)
    return mean if seat == 0 else -mean


def _advancing_turn(state: WonderlandState) -> WonderlandState:
    """One scripted turn: 3 dice of one level, S S M, summon and move forward, attack."""
    seat = state.active
    if state.phase == "dice":
        same = [m for m in state.legal_moves(seat) if m.count(":") == 3 and len({w[0] for w in m.split()[1:]}) == 1]
        state = state.play(seat, same[0] if same else state.legal_moves(seat)[-1])
        state = state.play(CHANCE, "roll S S M" if len(state.dice) == 3 else "roll " + " ".join("M" * len(state.dice)))
    for _ in range(3):
        if state.active != seat or state.phase != "action":
            return state
        moves = state.legal_moves(seat)
        attacks = [m for m in moves if m.startswith("attack")]
        summons = [m for m in moves if m.startswith("summon")]
        steps = [m for m in moves if m.startswith("move")]
        if attacks:
            state = state.play(seat, attacks[0])
        elif summons:
            state = state.play(seat, max(summons, key=lambda m: _forward(seat, m)))
        elif steps:
            state = state.play(seat, max(steps, key=lambda m: _forward(seat, m)))
    if state.active == seat and state.phase == "action":
        state = state.play(seat, "end")
    while state.phase == "defence" and state.outcome is None:
        state = state.play(min(state.turn), "done")
    return state


def start() -> WonderlandState:
    state = RULES.start()
    assert isinstance(state, WonderlandState)
    return state


@functools.cache
def middle(turns: int = 10) -> WonderlandState:
    """The position after `turns` scripted turns, each made from the one before (states are
    immutable, so the tests share them)."""
    if turns == 0:
        return start().play(0, f"pool {POOL0}").play(1, f"pool {POOL1}")
    return _advancing_turn(middle(turns - 1))


def _png(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def test_start_middle_and_end_render_valid_pngs() -> None:
    mid = middle()
    assert len(mid.paths) >= 4 and mid.beings
    end = mid._evolve(lives=(0, 2))
    end._outcome = end._judge()
    for state in (start(), mid, end):
        data = render("wonderland", state.view(None), HEADER)
        image = _png(data)
        assert image.format == "PNG" and image.width >= 800 and 1000 <= image.height <= 2000
        assert len(data) < 250_000


def test_the_board_is_drawn_whole_in_every_position_so_the_crop_never_changes() -> None:
    first = Layout(start().view(None))
    later = Layout(middle(14).view(None))
    assert (first.lo, first.hi) == (later.lo, later.hi) == (0, 12)  # every file, a..m
    assert (first.cell, first.height) == (later.cell, later.height)
    assert board(start().view(None)).size == board(middle(14).view(None)).size


def test_the_crop_keeps_every_being_and_both_images() -> None:
    for turns in (3, 8, 14):
        view = middle(turns).view(None)
        layout = Layout(view)
        assert view["beings"] and all(layout.visible(b["square"]) for b in view["beings"])
        assert all(layout.visible(image["square"]) for image in view["images"])


def test_the_picture_fits_a_phone_with_the_panel_always_in_one_place() -> None:
    """Whatever the crop, the picture is WIDTH wide with the panel at the same place right
    of the board, and with header and footer it stays <= 1,400 px tall."""
    panels = set()
    for turns in (0, 3, 8, 14):
        view = middle(turns).view(None)
        layout = Layout(view)
        picture = _png(render("wonderland", view, HEADER))
        assert board(view).width == layout.width == picture.width == WIDTH
        assert layout.left + layout.board_w <= layout.panel[0]
        assert picture.height <= 1400
        panels.add(layout.panel[0])
    assert len(panels) == 1


def test_a_beings_rank_is_drawn_big() -> None:
    """The rank's red ink on a heart token is >= 20 px tall at full size (~10 px on a phone)."""
    sprite = _being_sprite("8H", 0, MAX_CELL).convert("RGB")

    def red(x: int, y: int) -> bool:
        pixel = sprite.getpixel((x, y))
        assert isinstance(pixel, tuple)
        return sum(abs(a - b) for a, b in zip(pixel, RED_INK, strict=True)) < 60

    rows = [y for y in range(int(MAX_CELL * 0.55)) if any(red(x, y) for x in range(MAX_CELL))]  # above the suit
    assert rows and rows[-1] - rows[0] >= 20


def test_private_picture_is_the_pool_deck_and_none_for_the_public() -> None:
    state = middle(2)
    assert private(state.view(None)) is None
    picture = render_private("wonderland", state.view(0), HEADER)
    assert picture is not None and _png(picture).width >= 800


def test_render_is_fast_enough() -> None:
    """In CPU seconds of this process, not wall time: what a render costs, however busy the
    machine is (a render runs in this thread alone)."""
    view = middle(14).view(None)
    times = []
    for _ in range(9):
        began = time.process_time()
        render("wonderland", view, HEADER)
        times.append(time.process_time() - began)
    assert statistics.median(times) < 0.25  # the target is 40 ms; generous for slow CI machines


def test_an_empty_pool_deck_note_sits_under_the_hidden_factors() -> None:
    """With `hidden_factors=on` the factor line used to be drawn over "(empty)"."""
    state = RULES.start(options={"hidden_factors": "on"})
    view = state.view(0)
    assert not view["private"]["pool"] and view["private"]["factors"]
    with recording() as records:
        assert private(view) is not None
    inks = {record.content: record.ink for record in records}
    factors = next(ink for content, ink in inks.items() if content.startswith("Your factors"))
    empty = inks["(empty)"]
    assert empty[1] > factors[3]  # its ink starts below the factor line's
