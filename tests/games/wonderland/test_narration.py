"""Wonderland in words: which moves are public, and what the channel is told about each.

Rule text (../shared/rules/wonderland.md, "Public"): the board, paths, beings, the Images'
life, factor pools (unless `hidden_factors`), the dice chosen and rolled, pending attacks are
public; a seat's pool deck (and, with `hidden_factors`, its factors) is private.
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Iterator

import pytest

from bot.games import CHANCE
from bot.games.base import LogEntry
from bot.games.wonderland.cards import DECK
from tests.games.wonderland.helpers import RULES, after_pools, being, corridor, factors, position, sq
from tests.slow import slow_cases

SEEDS = slow_cases(range(4), {2, 3})
"""Random games read by both tests, for each `hidden_factors`: two in the quick loop, four in
the full suite (a game of 500 plies is played once per seed, for both tests)."""
CARD = re.compile(r"(?<![\w@])((?:10|[2-9AJQK])[♣♦♥♠])")
SUIT = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}


def named(text: str) -> set[str]:
    return {m[:-1] + SUIT[m[-1]] for m in CARD.findall(text)}


def public_cards(view: dict) -> set[str]:
    """Cards the public view shows (it is the rule text's list of public things)."""
    cards = {d["card"] for d in view["dice"]} | {b["card"] for b in view["beings"]}
    cards |= {c for seat in view["summoned"] for c in seat}
    cards |= {a["attacker"]["card"] for a in view["pending_attacks"]}
    cards |= {a["target"]["card"] for a in view["pending_attacks"] if a["target"]["card"]}
    return cards


@pytest.fixture(autouse=True, scope="module")
def _games_forgotten_after_this_module() -> Iterator[None]:
    """`playout`'s games are kept for this module's tests only: with every view of every
    move they are some 250,000 objects, which the test process would otherwise carry to its
    end, walked by every later full collection and at its exit."""
    yield
    playout.cache_clear()


@functools.cache
def playout(seed: int, hidden: str, plies: int = 500) -> tuple[tuple[dict, dict, LogEntry, str | None], ...]:
    """A random game with random pools: (public before, public after, entry, sentence) per move.

    The same for the same arguments, so played once for both tests that read it (neither
    changes it)."""
    rng = random.Random(seed)
    state = RULES.start(options={"hidden_factors": hidden})
    told = []
    for _ in range(plies):
        if state.outcome is not None:
            break
        seat = sorted(state.turn)[0]
        if seat == CHANCE:
            move = state.sample_chance(rng)
        else:
            moves = state.legal_moves(seat)
            acting = [m for m in moves if m != "end"]
            move = rng.choice(acting if acting and rng.random() < 0.7 else moves)
        new = state.play(seat, move)
        before = state.view(None)
        for entry, text in state.narrate(new.applied):
            told.append((before, new.view(None), entry, text))
        state = new
    return tuple(told)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("hidden", ["off", "on"])
def test_only_pool_picks_and_hidden_rolls_are_secret(seed: int, hidden: str) -> None:
    seen = set()
    for _before, _after, entry, _text in playout(seed, hidden):
        verb = entry.move.split()[0]
        seen.add(verb)
        if entry.seat == CHANCE:
            assert entry.public == (hidden == "off"), entry
        else:
            assert entry.public == (verb not in ("pick", "pool")), entry
    assert {"pick", "dice", "roll", "end", "done"} <= seen


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("hidden", ["off", "on"])
def test_sentences_name_only_public_cards_and_never_a_hidden_roll(seed: int, hidden: str) -> None:
    told = playout(seed, hidden)
    sentences = [t for *_rest, t in told if t]
    assert len(sentences) > 20
    for before, after, entry, text in told:
        if entry.public and entry.seat != CHANCE:
            assert text, f"a public move is told in words: {entry}"
        if not text:
            continue
        assert named(text) <= public_cards(before) | public_cards(after), (entry, text)
        if entry.seat == CHANCE and hidden == "on":
            assert text.endswith("rolls (the results are hidden)") and "Summon" not in text


def test_the_same_hidden_roll_is_told_the_same_whatever_its_faces() -> None:
    state = after_pools({"hidden_factors": "on"}).play(0, "dice 1:AH 1:4H")
    texts = {
        text
        for faces in ("S S", "A M", "M S")
        for _e, text in state.narrate((LogEntry(CHANCE, f"roll {faces}", False, False),))
    }
    assert texts == {"Orange rolls (the results are hidden)"}


def test_a_pool_pick_says_nothing_until_the_deck_is_complete() -> None:
    state = RULES.start()
    first = state.narrate((LogEntry(0, "pick AH", False, False),))
    assert first[0][1] is None
    deck = [c for c in DECK if c.endswith(("H", "S"))][:15]
    whole = state.narrate((LogEntry(0, "pool " + " ".join(deck), False, False),))
    assert whole[0][1] == "Orange has chosen a pool deck." and not named(whole[0][1] or "")


def test_summon_attack_and_reckoning_in_words() -> None:
    summon = position(dice=["5D", "6D"], faces=["S", "S"])
    move = next(m for m in summon.legal_moves(0) if m.startswith("summon 5D"))
    (_entry, text), *_ = summon.narrate(summon.play(0, move).applied)
    path = " ".join(move.split()[2:5])
    assert text == f"Orange summons 5♦ at {move.split('@')[1]} (path {path})"

    image = position().board.images[1]
    beside = position().board.names[sorted(position().board.orthogonal[image])[0]]
    end = position(beings=[being(0, "7S", beside)], f0=factors(a=1), lives=(3, 3), summoned=(["7S"], []))
    after_attack = end.play(0, "attack 7S image")
    told = [t for _e, t in end.narrate(after_attack.applied)]
    assert told[0] == "Orange's 7♠ attacks Blue's Image (3 points)"
    assert "Blue's Image loses 1 life — Blue has 2 lives" in told[-1]

    duel = position(beings=[being(0, "5D", "d5"), being(1, "AC", "d6")], f0=factors(a=1), summoned=(["5D"], ["AC"]))
    fought = duel.play(0, "attack 5D d6")
    told = [t for _e, t in duel.narrate(fought.applied)]
    assert told[0] == "Orange's 5♦ attacks A♣ on d6 (4 points)" and "Blue's A♣ is destroyed" in told[-1]
    assert sq("d6") not in {b.square for b in fought.beings}


def test_an_ability_used_on_its_own_being_says_itself() -> None:
    alone = position(beings=[being(0, "QS", "d5")], f0=factors(f=2), summoned=(["QS"], []))
    moves = [m for m in alone.legal_moves(0) if m.startswith("ability QS")]
    on_itself = next(m for m in moves if m.split()[-1] in {"QS", "d5"})
    (_entry, text), *_ = alone.narrate(alone.play(0, on_itself).applied)
    amount = on_itself.split()[2].lstrip("+-")
    assert text == f"Orange's Q♠ (on d5) gives itself −{amount} Def"

    pair = position(
        paths=[(0, corridor("d5", "d6"))],
        beings=[being(0, "QS", "d5"), being(0, "5D", "d6")],
        f0=factors(f=1),
        summoned=(["QS", "5D"], []),
    )
    other = next(m for m in pair.legal_moves(0) if m.startswith("ability QS") and m.split()[-1] in {"5D", "d6"})
    (_entry, text), *_ = pair.narrate(pair.play(0, other).applied)
    assert text == "Orange's Q♠ (from d5) gives 5♦ (d6) −1 Def"
