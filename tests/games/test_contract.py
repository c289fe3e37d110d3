"""Contract tests run on every registered game (OpenSpiel's random_sim_test, in spirit)."""

from __future__ import annotations

import json
import random

import pytest

from bot.games import CHANCE, GAMES, GameState, IllegalMove, InvalidOptions, Outcome
from tests.games.playout import final, playout, reload, start
from tests.slow import slow_cases

GAME_KEYS = sorted(GAMES)
SEEDS = range(4)
PLAYOUT_SEEDS = slow_cases(SEEDS, {2, 3})
"""Random games per game for the per-seed tests: two in the quick loop, four in the full suite."""


def _options_variants(key: str) -> list[dict[str, object]]:
    """The default options plus each non-default choice of each text option."""
    variants: list[dict[str, object]] = [{}]
    for option in GAMES[key].info.options:
        variants.extend({option.name: c} for c in option.choices if c != option.default)
    return variants


@pytest.mark.parametrize("key", GAME_KEYS)
@pytest.mark.parametrize("seed", PLAYOUT_SEEDS)
def test_random_playout_ends_with_an_outcome(key: str, seed: int) -> None:
    state = final(start(key), random.Random(seed))
    outcome = state.outcome
    assert isinstance(outcome, Outcome)
    assert outcome.reason
    assert outcome.winners <= {0, 1}
    assert state.turn == frozenset()


@pytest.mark.parametrize("key", GAME_KEYS)
def test_every_option_variant_plays_to_the_end(key: str) -> None:
    for i, options in enumerate(_options_variants(key)):
        state = final(start(key, options), random.Random(100 + i))
        assert state.outcome is not None, options


@pytest.mark.parametrize("key", GAME_KEYS)
def test_dump_load_round_trips_at_every_ply(key: str) -> None:
    first = start(key)
    log = [e.move for e in first.applied]
    for before, seat, move in playout(first, random.Random(7)):
        data = before.dump()
        again = reload(before, log)
        assert again.dump() == data
        assert again == before
        assert again.turn == before.turn
        if seat != CHANCE:
            assert again.legal_moves(seat) == before.legal_moves(seat)
        after = before.play(seat, move)
        assert again.play(seat, move) == after
        log.extend(e.move for e in after.applied)


@pytest.mark.parametrize("key", slow_cases(GAME_KEYS, {"wonderland"}))
def test_every_listed_move_is_accepted(key: str) -> None:
    rng = random.Random(3)
    for ply, (before, seat, _move) in enumerate(playout(start(key), rng)):
        if seat == CHANCE or ply % 3:
            continue
        for move in before.legal_moves(seat):
            after = before.play(seat, move)
            assert after is not before


@pytest.mark.parametrize("key", GAME_KEYS)
def test_listed_moves_are_canonical_and_distinct(key: str) -> None:
    for before, seat, _move in playout(start(key), random.Random(11)):
        if seat == CHANCE:
            continue
        moves = before.legal_moves(seat)
        assert len(moves) == len(set(moves)), "duplicate moves listed"
        # a listed move is logged as listed (Domino Wars lists `1-5 a1-a2` and `5-1 a1-a2`:
        # two moves, though `move_key` reads them as one spelling)
        assert [before.canonical(seat, m) for m in moves] == moves
        assert len(moves) < 5_000, "legal_moves must stay small enough to list"


GARBAGE = ["", "   ", "hello there", "zz9-zz10", "🂡", "move", "-", "a0-a0", "x" * 500]


@pytest.mark.parametrize("key", GAME_KEYS)
def test_garbage_raises_illegal_move_and_changes_nothing(key: str) -> None:
    rng = random.Random(5)
    checked = 0
    for ply, (before, seat, _move) in enumerate(playout(start(key), rng)):
        if ply % 7:
            continue
        snapshot = before.dump()
        for junk in GARBAGE:
            with pytest.raises(IllegalMove) as info:
                before.play(seat, junk)
            assert info.value.reason and len(info.value.reason) < 300
        assert before.dump() == snapshot
        checked += 1
    assert checked


@pytest.mark.parametrize("key", GAME_KEYS)
def test_wrong_seat_is_refused(key: str) -> None:
    state = GAMES[key].start()
    for seat in (0, 1, CHANCE):
        if seat in state.turn:
            continue
        with pytest.raises(IllegalMove):
            state.play(seat, "anything")
        assert state.legal_moves(seat) == [] or seat == CHANCE


@pytest.mark.parametrize("key", GAME_KEYS)
def test_views_are_json_and_seat_views_extend_the_public_view(key: str) -> None:
    for before, _seat, _move in playout(start(key), random.Random(9)):
        public = before.view(None)
        json.dumps(public)
        assert public["game"] == key
        assert "private" not in public
        for seat in (0, 1):
            mine = before.view(seat)
            json.dumps(mine)
            assert mine["you"] == seat
            assert {k: v for k, v in mine.items() if k not in ("you", "private")} == public


@pytest.mark.parametrize("key", GAME_KEYS)
def test_replaying_the_moves_reaches_the_same_state(key: str) -> None:
    log = [(seat, move) for _before, seat, move in playout(start(key), random.Random(13))]
    state = start(key)
    for seat, move in log:
        state = state.play(seat, move)
    assert state.outcome is not None


@pytest.mark.parametrize("key", GAME_KEYS)
def test_bad_options_are_rejected_with_a_clear_message(key: str) -> None:
    rules = GAMES[key]
    with pytest.raises(InvalidOptions, match="no option"):
        rules.start(options={"no_such_option": "1"})
    for option in rules.info.options:
        with pytest.raises(InvalidOptions, match=option.name):
            rules.start(options={option.name: "definitely-not-a-value"})


@pytest.mark.parametrize("key", GAME_KEYS)
def test_game_info_is_complete(key: str) -> None:
    info = GAMES[key].info
    assert info.key == key
    assert info.name and info.blurb and info.how_to_play
    assert len(info.seat_names) == 2
    for option in info.options:
        assert option.help
        assert option.parse(option.default) == option.default


SECRET_DRAFT_PHASE = {"domino_wars": "draft", "wonderland": "pool"}
"""The rule texts' secret drafts: Domino Wars' draft of 8 tiles, Wonderland's pool deck of
15 cards (ruling 2).  No other phase is a draft: not Domino Wars' keep/mulligan decision."""


@pytest.mark.parametrize("key", GAME_KEYS)
@pytest.mark.parametrize("seed", PLAYOUT_SEEDS)
def test_drafting_is_exactly_the_secret_draft_phase(key: str, seed: int) -> None:
    """`drafting` decides whether a time control's hard `draft=` limit applies, so a wrong
    answer either completes a player's mulligan at random or lets a drafter off the limit."""
    phases = {"domino_wars": {"mulligan": "both"}}.get(key, {})
    drafted = False
    for state, _, _ in playout(start(key, phases), random.Random(seed)):
        phase = state.view(None).get("phase")
        expected = key in SECRET_DRAFT_PHASE and phase == SECRET_DRAFT_PHASE[key] and CHANCE not in state.turn
        assert state.drafting == expected, phase
        drafted = drafted or expected
    assert drafted == (key in SECRET_DRAFT_PHASE)


@pytest.mark.parametrize("key", GAME_KEYS)
def test_has_chance_says_whether_the_game_ever_asks_for_a_chance_move(key: str) -> None:
    """The final board offers the dice check only where there are dice: `has_chance` must
    agree with what random games of the engine actually do."""
    asked = any(
        seat == CHANCE for seed in SEEDS[:3] for _state, seat, _move in playout(start(key), random.Random(seed))
    )
    assert GAMES[key].info.has_chance == asked


SHORTCUT_FORCED = [key for key in GAME_KEYS if type(start(key)).forced_move is not GameState.forced_move]
"""The games whose `forced_move` is their own, not the listing's first move when it is the only one."""


@pytest.mark.parametrize("key", SHORTCUT_FORCED)
def test_forced_move_is_the_only_listed_move_or_none(key: str) -> None:
    """`forced_move`, which the engine plays by itself after every move, may take shortcuts
    (Wonderland lists no summons for it): in random games with each option variant, at every
    state a move leads to before the engine plays the forced moves that follow (`_apply`
    without `_settle`), it agrees with `legal_moves` for every seat that may move.  It is
    asked first, of a new state object, so nothing the listing cached answers for it."""
    asked = forced = 0
    for i, options in enumerate(_options_variants(key)):
        for before, seat, move in playout(start(key, options), random.Random(200 + i)):
            unsettled = before._apply(seat, move)
            seats = sorted((unsettled.turn | unsettled.may_act) - {CHANCE})
            answers = {who: unsettled.forced_move(who) for who in seats}
            for who in seats:
                moves = unsettled.legal_moves(who)
                assert answers[who] == (moves[0] if len(moves) == 1 else None), (who, moves[:3])
                forced += len(moves) == 1
            asked += len(seats)
    assert forced < asked
    assert forced or key in NO_SINGLE_MOVE


NO_SINGLE_MOVE = {"dominance", "focus"}
"""Games whose random play never meets a seat with exactly one move, so the test above only
shows that their `forced_move` never claims one: Dominance (its `forced_move` says so) and
Focus after the set-up, where a stack moves along two lines at least and the one single
move, a restricted drop onto the last free square, is built in tests/games/test_focus.py."""
