"""`GameState.suggest_moves`: the autocomplete hook of the contract, and Wonderland's summons."""

from __future__ import annotations

from bot.games import GAMES
from bot.games.wonderland import state as wonderland_state
from tests.games.wonderland.helpers import CROSS, LINE, position


def test_moves_starting_with_the_text_come_first_then_those_containing_it() -> None:
    state = GAMES["focus"].start()
    legal = state.legal_moves(0)
    suggested = state.suggest_moves(0, "d2", 25)
    assert suggested == [m for m in legal if m.startswith("d2")] + [m for m in legal if m.endswith("-d2")]


def test_case_and_spaces_are_ignored_and_the_limit_holds() -> None:
    state = GAMES["focus"].start()
    assert state.suggest_moves(0, " D2 - D", 25) == state.suggest_moves(0, "d2-d", 25)
    assert state.suggest_moves(0, "", 3) == state.legal_moves(0)[:3]


def test_a_seat_that_is_not_to_move_gets_no_suggestions() -> None:
    state = GAMES["focus"].start()
    assert state.suggest_moves(1, "", 25) == []


def _crowded() -> wonderland_state.WonderlandState:
    """Seat 0 may summon one of three cards with long paths to build on: thousands of summons."""
    return position(paths=[(0, LINE), (0, CROSS)], dice=["AH", "4H", "JS"], faces=["S", "S", "S"])


def test_a_wonderland_summon_beyond_the_listing_cap_is_suggested_by_its_prefix() -> None:
    state = _crowded()
    everything = list(state.summon_moves(0))
    listed = set(state.legal_moves(0))
    unlisted = [m for m in everything if m not in listed]
    assert len(everything) > wonderland_state.SUMMON_LIST_CAP and unlisted
    last = unlisted[-1]
    assert state.suggest_moves(0, last, 25) == [last]
    head = last.rsplit(" ", 1)[0]  # all but the being's square
    suggested = state.suggest_moves(0, head.upper(), 25)
    assert last in suggested
    assert suggested == [m for m in everything if m.startswith(head)][:25]


def test_wonderland_keeps_listed_moves_first_and_the_limit() -> None:
    state = _crowded()
    suggested = state.suggest_moves(0, "", 5)
    assert suggested == state.legal_moves(0)[:5]
    assert suggested[0] == "end"
    assert state.suggest_moves(0, "en", 25) == ["end"]
    assert state.suggest_moves(1, "summon", 25) == []
