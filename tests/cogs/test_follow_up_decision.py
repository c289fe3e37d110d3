"""Whether a board is the public reply to the interaction that made it is decided once
(`Update.public_reply`): the commit notes the interaction on the board's outbox row exactly
when the presenter may answer in public, so a public answer never needs a write of its own."""

from __future__ import annotations

import itertools
import random
from dataclasses import replace

import pytest

from bot.games import GAMES
from bot.services.matches import Transition
from bot.services.matches.commit import at_next_version
from cogs.out.presenter import Presenter
from cogs.out.turn_posts import TurnPosts
from tests.cogs.test_turn_posts import MESSAGE, Clock, row, update


@pytest.mark.parametrize("seed", [6, 31])
def test_the_commit_notes_the_interaction_exactly_when_the_presenter_answers_in_public(seed: int) -> None:
    rng = random.Random(seed)
    state = GAMES["wonderland"].start(players=2, options={})
    for secret, quiet, in_turn_post in itertools.product([False, True], repeat=3):
        posts = TurnPosts(Clock())
        if in_turn_post:  # seat 0's turn has its post: seat 0 acting again adds to it
            posts.started(update(1, 0), MESSAGE, ["Blue's turn ends."])
        presenter = Presenter.__new__(Presenter)  # only its turn posts are asked
        presenter.turn_posts = posts
        made = replace(update(0, 0), match=at_next_version(row()), secret_move=secret, quiet=quiet)
        interaction = rng.randrange(1, 2**62)
        board = Transition(row=row(), state=state, update=made, first_ply=0, reply_to=interaction).board
        assert made.public_reply == (not secret and not quiet)
        assert board.follow_up_of == (interaction if made.public_reply else None)
        private = presenter.private_reply(made)
        assert private == (secret or quiet or in_turn_post)
        if not private:
            assert board.follow_up_of == interaction, "a public answer finds its interaction already noted"
