"""One post per turn: which updates extend the turn's post and which start a new one."""

from __future__ import annotations

from typing import Any, cast

import discord

from bot.games import CHANCE
from bot.services.matches import Told, Update
from bot.store import MatchRow
from cogs.out.turn_posts import WINDOW, TurnPosts


def row(game: str = "wonderland") -> MatchRow:
    return MatchRow(
        id=7, game=game, options={}, guild_id=1, channel_id=2, status="active", challenger_id=10, opponent_id=11,
        seat_pref="first", seed="s", seed_hash="h", snapshot=None, version=1, outcome=None, seats=(10, 11),
        created_at=0.0, updated_at=0.0,
    )  # fmt: skip


def update(mover: int, to_move: int | list[int], turn_number: int = 3, game: str = "wonderland", **kw: Any) -> Update:
    turn = to_move if isinstance(to_move, list) else [to_move]
    told = (Told(mover, "move 5D c2-c3", True, "Orange moves 5♦ c2→c3"), Told(CHANCE, "roll S", True, None))
    return Update(row(game), {"turn": turn, "turn_number": turn_number}, told=told, **kw)


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


MESSAGE = cast(discord.Message, object())


def test_the_same_seat_acting_again_in_its_turn_extends_the_post() -> None:
    posts = TurnPosts(Clock())
    posts.started(update(1, 0), MESSAGE, ["Blue's turn ends."])
    post = posts.continuing(update(0, 0))
    assert post is not None and post.message is MESSAGE and post.seats == frozenset({0})
    posts.extended(post, update(0, 0), ["Orange moves 5♦ c2→c3."])
    assert post.lines == ["Blue's turn ends.", "Orange moves 5♦ c2→c3."]
    assert post.actions == ["move 5D c2-c3", "move 5D c2-c3"]


def test_a_new_post_when_the_turn_passes_changes_or_the_game_ends() -> None:
    posts = TurnPosts(Clock())
    posts.started(update(1, 0), MESSAGE, [])
    assert posts.continuing(update(0, 1)) is None, "the turn passed to the other seat"
    assert posts.continuing(update(0, [0, 1])) is None, "two seats must act"
    assert posts.continuing(update(1, 0)) is None, "the other seat acted"
    assert posts.continuing(update(0, 0, turn_number=4)) is None, "a new turn number"
    assert posts.continuing(update(0, 0, note="timeout")) is None, "a timeout is announced anew"
    assert posts.continuing(update(0, 0, game="focus")) is None, "only games whose turn is several actions"
    posts.interrupted(7)
    assert posts.continuing(update(0, 0)) is None, "another post came in between"


def test_a_post_left_alone_for_longer_than_the_window_is_not_extended() -> None:
    clock = Clock()
    posts = TurnPosts(clock)
    posts.started(update(1, 0), MESSAGE, [])
    clock.now += WINDOW - 1
    post = posts.continuing(update(0, 0))
    assert post is not None
    posts.extended(post, update(0, 0), ["x"])
    clock.now += WINDOW + 1
    assert posts.continuing(update(0, 0)) is None


def test_a_turn_of_both_seats_is_one_post_while_its_phase_lasts() -> None:
    """A secret draft: each seat's line ("Blue has drafted") is added to the draft's post; the
    phase ending (the turn passing to one seat) is a new post, and so is a new phase of both."""
    posts = TurnPosts(Clock())
    draft = {"phase": "draft", "game": "domino_wars"}
    start = Update(row("domino_wars"), {"turn": [0, 1], **draft})
    posts.started(start, MESSAGE, ["The draft begins."])
    drafted = Update(row("domino_wars"), {"turn": [0], **draft}, told=(Told(1, "draft …", False, "Blue has drafted"),))
    post = posts.continuing(drafted)
    assert post is not None and post.seats == {0, 1}
    posts.extended(post, drafted, ["bob (Blue) has drafted."])
    done = Update(row("domino_wars"), {"turn": [1], "phase": "play"}, told=(Told(0, "draft …", False, "x"),))
    assert posts.continuing(done) is None, "play begins: the turn passes to one seat"
    both_again = Update(row("domino_wars"), {"turn": [0, 1], "phase": "mulligan"}, told=(Told(0, "d", False, None),))
    assert posts.continuing(both_again) is None, "a new phase of both seats"
    only_chance = Update(row("domino_wars"), {"turn": [0], **draft}, told=(Told(CHANCE, "shuffle 0", False, None),))
    assert posts.continuing(only_chance) is None, "nobody acted"


def test_a_domino_wars_placement_and_its_effect_choice_are_one_post() -> None:
    posts = TurnPosts(Clock())
    game = "domino_wars"
    posts.started(Update(row(game), {"turn": [0], "phase": "play"}), MESSAGE, [])
    placed = Update(row(game), {"turn": [0], "phase": "effect"}, told=(Told(0, "5-3 b2-b3", True, None),))
    post = posts.continuing(placed)
    assert post is not None, "the effect's choice is the same seat's turn going on"
    posts.extended(post, placed, ["alice (Orange) played `5-3 b2-b3`."])
    chosen = Update(row(game), {"turn": [1], "phase": "play"}, told=(Told(0, "recycle 0-1", True, None),))
    assert posts.continuing(chosen) is None, "the turn passes: a new post"


def test_a_finished_match_keeps_no_post() -> None:
    posts = TurnPosts(Clock())
    posts.started(update(1, 0, outcome=object()), MESSAGE, [])
    assert posts.continuing(update(0, 0)) is None


def test_a_move_the_rules_played_for_a_player_does_not_keep_their_turn_from_pinging_them() -> None:
    """Orange ends; Blue's defence `done` is forced (nothing to defend) and Blue's turn comes:
    Blue is pinged. Orange, who acted, is not pinged even when it is to move again."""
    from cogs.out.presenter import Presenter

    ended = (Told(0, "end", True, None), Told(1, "done", True, None))
    blue_turn = Update(row(), {"turn": [1], "turn_number": 4}, told=ended)
    assert Presenter._pings(blue_turn) == [11]
    again = Update(row(), {"turn": [0], "turn_number": 4}, told=(Told(0, "move 5D c2-c3", True, None),))
    assert Presenter._pings(again) == []
    forced_first = Update(row(), {"turn": [0]}, told=(Told(CHANCE, "roll S", True, None), Told(0, "done", True, None)))
    assert Presenter._pings(forced_first) == [10], "nobody acted: a chance move began it"
