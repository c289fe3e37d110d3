"""Wonderland through its DMs: pool decks by suit selects, dice by a select and Roll, the
defence by buttons, summons by autocomplete; nothing secret reaches the match channel.

Reaching an attack by play would take many turns of rolls and summons, so after the pools
and the first dice are chosen from the DMs, the test writes a prepared position (the same
pool decks, beings face to face, factors to attack and defend) as the match's snapshot and
plays on from it through Discord.  The position is stated in full in `_battle`, which keeps
the test short and independent of the seed; the move log is not meant to replay to it.
"""

from __future__ import annotations

import re

import pytest

from bot.games.base import GameState
from bot.games.wonderland.state import SUMMON_LIST_CAP
from tests.e2e.harness import Harness, assert_board_for, record_board_views
from tests.fake_discord import FakeInteraction, FakeMessage, FakeUser, Mark
from tests.games.wonderland.helpers import CROSS, LINE, POOL0, POOL1, being, factors, position, sq

pytestmark = pytest.mark.e2e

CARD = re.compile(r"(?<![\w@])((?:10|[2-9AJQK])(?:[CDHS]\b|[♣♦♥♠]))")
SYMBOLS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}
IN_PLAY = {"5D", "6D", "AC", "3C"}
"""The beings of the prepared position: public once summoned."""


def by_suit(cards: list[str]) -> dict[str, list[str]]:
    suits: dict[str, list[str]] = {}
    for card in cards:
        suits.setdefault(card[-1], []).append(card)
    return suits


def cards_named(text: str) -> set[str]:
    return {m[:-1] + SYMBOLS.get(m[-1], m[-1]) for m in CARD.findall(text)}


def _battle() -> GameState:
    """Orange (seat 0) to act with 2 Attack factors, its 5♦ and 6♦ facing Blue's A♣ and 3♣;
    Blue holds 2 Defend factors."""
    return position(
        beings=[being(0, "5D", "d5"), being(0, "6D", "e5"), being(1, "AC", "d6"), being(1, "3C", "e6")],
        f0=factors(a=2),
        f1=factors(d=2),
        summoned=(["5D", "6D"], ["AC", "3C"]),
    )


async def load_position(harness: Harness, match_id: int, state: GameState) -> None:
    """Make `state` the match's current position (a new snapshot version, no moves logged)."""
    store = harness.bot.service.store
    row = await harness.bot.service.get(match_id)
    await store.commit_moves(
        match_id,
        expected_version=row.version,
        first_ply=await store.move_count(match_id),
        moves=[],
        snapshot=state.dump(),
    )


async def dm_with(harness: Harness, user: FakeUser, part: str, since: Mark | None = None) -> FakeMessage:
    """The first DM to `user` (after `since`) with a component whose custom id contains `part`."""
    return await harness.fake.wait_for_message(
        harness.fake.dm_channel(user), lambda m: any(part in c for c in m.custom_ids), since=since
    )


def custom_id(message: FakeMessage, part: str) -> str:
    return next(c for c in message.custom_ids if part in c)


async def select(harness: Harness, message: FakeMessage, part: str, values: list[str], user: FakeUser) -> str:
    """Pick `values` in the select whose id contains `part`; the DM is edited in place."""
    click = await harness.fake.select(message, custom_id(message, part), values, user=user)
    await harness.settled(click)
    assert harness.updated(click), click.callback_data
    return harness.fake.message(message.id).content


async def click(harness: Harness, message: FakeMessage, part: str, user: FakeUser) -> FakeInteraction:
    interaction = await harness.fake.click_button(message, custom_id(message, part), user=user)
    return await harness.settled(interaction)


async def choose_pool(harness: Harness, user: FakeUser, cards: list[str]) -> None:
    dm = await dm_with(harness, user, ":ps:H:")
    for suit, chosen in by_suit(cards).items():
        await select(harness, dm, f":ps:{suit}:", chosen, user)
    assert "Press **Confirm pool deck**" in dm.content
    mark = harness.fake.mark()
    done = await click(harness, dm, ":pc:", user)
    assert harness.updated(done) and "Your pool deck is chosen" in dm.content and not dm.components
    said = await harness.channel_says(
        lambda text: f"{user.name}** (" in text and "has chosen a pool deck" in text, since=mark
    )
    assert not cards_named(said.content)


async def test_pools_dice_and_defence_are_chosen_in_dms(harness: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.services.matches.service.secrets.token_hex", lambda n: "fixed-seed-for-wonderland")
    rendered = record_board_views(monkeypatch, harness)
    fake, service = harness.fake, harness.bot.service
    alice, bob, carol = fake.players
    match_id, _ = await harness.start_match("wonderland", alice, bob)
    row = await service.get(match_id)
    assert row.seats == (alice.id, bob.id)  # the challenger plays first: Orange

    # Alice's pool: a clash (3♥ and 3♦) is named and blocks Confirm, and her choice stays.
    dm = await dm_with(harness, alice, ":ps:H:")
    await select(harness, dm, ":ps:H:", ["AH", "2H", "3H", "4H", "JH", "QH", "KH"], alice)
    await select(harness, dm, ":ps:S:", ["8S", "9S", "10S", "JS", "QS"], alice)
    text = await select(harness, dm, ":ps:D:", ["3D", "5D", "6D", "7D"], alice)
    assert "⚠️ 3♥ and 3♦ are both a red 3" in text and "Chosen 16/15" in text
    confirm = dm.component(custom_id(dm, ":pc:"))
    assert confirm is not None and confirm["disabled"] is True
    diamonds = dm.component(custom_id(dm, ":ps:D:"))
    assert diamonds is not None
    assert {o["value"] for o in diamonds["options"] if o.get("default")} == {"3D", "5D", "6D", "7D"}

    await harness.restart()  # the choice lives in the custom ids: a deploy between steps loses nothing
    service = harness.bot.service

    # Bob and Carol cannot touch Alice's choice.
    before = (dm.content, dm.custom_ids, await harness.move_count(match_id))
    wrong = await fake.select(dm, custom_id(dm, ":ps:D:"), ["5D"], user=bob)
    assert "belong to the other player" in harness.refusal(await harness.settled(wrong))
    outsider = await fake.select(dm, custom_id(dm, ":ps:D:"), ["5D"], user=carol)
    assert "not playing in this match" in harness.refusal(await harness.settled(outsider))
    assert (dm.content, dm.custom_ids, await harness.move_count(match_id)) == before

    await select(harness, dm, ":ps:D:", ["5D", "6D", "7D"], alice)
    mark = fake.mark()
    assert harness.updated(await click(harness, dm, ":pc:", alice))
    assert "▸ ✅ Your pool deck is chosen" in dm.content and not dm.components  # the same DM, edited
    said = await fake.wait_for_message(fake.channel, lambda m: "has chosen a pool deck" in m.content, since=mark)
    assert not said.attachments, "a pick of the secret pool posts no board"
    assert sorted((await service.view(match_id, alice.id))["private"]["pool"]) == sorted(POOL0)

    await choose_pool(harness, bob, POOL1)
    assert sorted((await service.view(match_id, bob.id))["private"]["pool"]) == sorted(POOL1)

    # Alice's dice: a select of her pool deck, then Roll.
    dice = await dm_with(harness, alice, ":ds:")
    roll_button = dice.component(custom_id(dice, ":dr:"))
    assert roll_button is not None and roll_button["disabled"] is True
    text = await select(harness, dice, ":ds:", ["AH", "4H"], alice)
    assert "Chosen: A♥ (level 1), 4♥ (level 1)" in text
    mark = fake.mark()
    rolled = await click(harness, dice, ":dr:", alice)
    assert harness.updated(rolled) and dice.content.startswith("🎲 You roll A♥ 4♥")
    await fake.wait_for_request("PATCH", rf"/channels/{fake.channel.id}/messages/\d+", since=mark)
    await fake.wait_until_idle()
    turn_post = fake.bot_messages(fake.channel)[-1]  # the turn's post, extended: not a new one
    assert turn_post.id < mark.snowflake and turn_post.edited and alice.mention in turn_post.content
    assert "puts A♥ (level 1), 4♥ (level 1) on the dice" in turn_post.content
    assert "rolls: A♥" in turn_post.content and "4♥" in turn_post.content
    view = await service.view(match_id, None)
    assert [d["card"] for d in view["dice"]] == ["AH", "4H"] and view["rolled"] is not None
    await fake.wait_until_idle()
    assert not any(m.components for m in fake.dms_to(alice) if m.id > mark.snowflake), "no DM in the action step"

    # The battle: Alice attacks twice in the channel; her turn ends and Bob must decide defences.
    await load_position(harness, match_id, _battle())
    attacked = await harness.typed_move(alice, "attack 5D d6")  # a new turn number: a new post
    assert "Orange's 5♦ attacks A♣ on d6 (4 points)." in attacked.content
    mark = fake.mark()
    board = await harness.slash_move(alice, "attack 6D e6")  # `end` is then Alice's only move
    assert_board_for(board, bob)
    defence = await dm_with(harness, bob, ":df:", since=mark)
    labels = {c["custom_id"].split(":df:")[1]: c["label"] for c in defence.iter_components()}
    assert labels == {"defend AC": "Defend A♣ on d6", "defend 3C": "Defend 3♣ on e6", "done": "No defence"}

    hand = await harness.command("hand", user=bob)  # the same buttons, ephemeral: soon out of date
    old_buttons = await fake.wait_for_followup(hand)
    assert any(":df:defend 3C" in c for c in old_buttons.custom_ids)

    count = await harness.move_count(match_id)
    intruder = await click(harness, defence, ":df:defend AC", alice)
    assert "belong to the other player" in harness.refusal(intruder)
    assert await harness.move_count(match_id) == count and defence.components

    # Bob's defence goes on in the same DM, edited in place: no new DM within his decision.
    dms_before = len(fake.dms_to(bob))
    defended = await click(harness, defence, ":df:defend AC", bob)
    assert harness.updated(defended) and "▸ 🛡️ A♣ checks its defence." in defence.content
    labels = {c["custom_id"].split(":df:")[1]: c["label"] for c in defence.iter_components()}
    assert labels == {"defend 3C": "Defend 3♣ on e6", "done": "Done defending"}
    assert len(fake.dms_to(bob)) == dms_before

    mark = fake.mark()
    finished = await click(harness, defence, ":df:done", bob)
    assert harness.updated(finished) and "done defending" in defence.content
    board = await fake.wait_for_message(fake.channel, lambda m: bool(m.attachments), since=mark)
    assert_board_for(board, bob)  # Blue's own turn begins: dice
    view = await service.view(match_id, None)
    assert view["phase"] == "dice" and view["active"] == 1 and view["pending_attacks"] == []
    assert {b["card"] for b in view["beings"]} == {"5D", "6D"}  # ♦ beats ♣: both fell, defence or not

    count = await harness.move_count(match_id)
    stale = await click(harness, old_buttons, ":df:defend 3C", bob)
    assert "no longer open" in harness.refusal(stale)
    assert await harness.move_count(match_id) == count

    # His own turn follows at once: the dice come in the DM he is looking at, edited again.
    assert len(fake.dms_to(bob)) == dms_before
    dice = await dm_with(harness, bob, ":ds:")
    assert dice.id == defence.id and "▸ You are done defending" in dice.content
    await select(harness, dice, ":ds:", ["2C"], bob)
    assert harness.updated(await click(harness, dice, ":dr:", bob))
    await fake.wait_until_idle()
    logged = [(m.seat, m.move) for m in await service.store.moves(match_id)]
    assert (1, "dice 2:2C") in logged[count:]

    # The channel saw public pictures only and never a card of a pool deck.
    assert rendered and not any("private" in v or "you" in v for v in rendered)
    on_dice = {"AH", "4H", "2C"}  # put on the dice: public by the rules ("dice chosen and rolled")
    secret = (set(POOL0) | set(POOL1)) - IN_PLAY - on_dice
    for message in fake.bot_messages(fake.channel):
        assert not cards_named(message.content) & secret, message.content
        assert all(a.filename == "board.png" for a in message.attachments)


async def test_a_summon_beyond_the_listing_cap_is_offered_by_autocomplete(harness: Harness) -> None:
    fake = harness.fake
    alice, bob, _ = fake.players
    match_id, _ = await harness.start_match("wonderland", alice, bob)
    crowded = position(paths=[(0, LINE), (0, CROSS)], dice=["AH", "4H", "JS"], faces=["S", "S", "S"])
    listed = set(crowded.legal_moves(0))
    unlisted = [m for m in crowded.summon_moves(0) if m not in listed]
    assert len(listed) > SUMMON_LIST_CAP and unlisted
    await load_position(harness, match_id, crowded)

    async def choices(user: FakeUser, typed: str) -> list[str]:
        interaction = await fake.autocomplete("move", {"notation": typed}, focused="notation", user=user)
        await fake.wait_for_response(interaction)
        return [str(c["value"]) for c in interaction.choices]

    target = unlisted[-1]
    assert target in await choices(alice, target[:-3])
    assert await choices(bob, target[:-3]) == []  # not Blue's turn
    board = await harness.slash_move(alice, target)
    assert_board_for(board, bob)  # with no factors left, Orange's turn ends by itself
    beings = (await harness.bot.service.view(match_id, None))["beings"]
    assert [(b["card"], b["square"]) for b in beings] == [(target.split()[1], target.split("@")[1])]


async def test_a_typed_action_added_to_the_turn_post_is_marked_played(harness: Harness) -> None:
    """A typed action that only extends the turn's post gets no message of its own, so the
    bot marks the player's message ✅; a typed move answered by a new post is not marked."""
    fake = harness.fake
    alice, bob, _ = fake.players
    match_id, _ = await harness.start_match("wonderland", alice, bob)
    prepared = position(
        paths=[(0, LINE), (1, [sq(f"d{rank}") for rank in range(4, 10)])],
        beings=[being(0, "5H", "c4"), being(1, "8C", "d4"), being(1, "KS", "c7")],
        f0=factors(a=1, m=1),
        f1=factors(f=2),
        summoned=(["5H"], ["8C", "KS"]),
    )
    await load_position(harness, match_id, prepared)
    await harness.typed_move(bob, "ability KS 2 c4")  # a board post: Orange's turn post
    ability = next(m for m in reversed(fake.messages_in(fake.channel)) if m.author_id == bob.id)

    mark = fake.mark()
    attack = await fake.send_message(fake.channel, alice, "attack 5H d4")
    await fake.wait_for_request("PATCH", rf"/channels/{fake.channel.id}/messages/\d+", since=mark)
    await fake.wait_for_request(
        "PUT", rf"/channels/{fake.channel.id}/messages/{attack.id}/reactions/.+/@me", since=mark
    )
    await fake.wait_until_idle()
    assert "attacks" in fake.bot_messages(fake.channel)[-1].content
    assert (await harness.bot.service.view(match_id, None))["last_move"] == "attack 5H d4"
    assert attack.reactions == [("✅", fake.bot.id)]
    assert ability.reactions == []  # its board was the answer


async def test_the_opponent_uses_an_ability_during_the_active_players_action_step(harness: Harness) -> None:
    """Ruling 12 through Discord: Blue's black King lowers Orange's attacker while Orange acts;
    Blue may act (autocomplete, typed moves) without being asked, and nothing else."""
    fake = harness.fake
    alice, bob, carol = fake.players
    match_id, _ = await harness.start_match("wonderland", alice, bob)
    beings = [being(0, "5H", "c4"), being(1, "8C", "d4"), being(1, "KS", "c7")]
    prepared = position(
        paths=[(0, LINE), (1, [sq(f"d{rank}") for rank in range(4, 10)])],
        beings=beings,
        f0=factors(a=1, m=1),
        f1=factors(f=2),
        summoned=(["5H"], ["8C", "KS"]),
    )
    await load_position(harness, match_id, prepared)

    async def choices(user: FakeUser, typed: str) -> list[str]:
        interaction = await fake.autocomplete("move", {"notation": typed}, focused="notation", user=user)
        await fake.wait_for_response(interaction)
        return [str(c["value"]) for c in interaction.choices]

    assert "ability KS 2 c4" in await choices(bob, "ability KS")
    assert await choices(carol, "ability") == []
    assert await harness.to_move(match_id) == [alice.id]  # only Orange must act

    mark = fake.mark()
    await fake.send_message(fake.channel, bob, "end")
    refusal = await fake.wait_for_message(fake.channel, lambda m: "⚠️" in m.content, since=mark)
    assert "meanwhile you may only use abilities" in refusal.content
    board = await harness.typed_move(bob, "ability KS 2 c4")
    assert f"{alice.mention} to move" in board.content  # Blue was not asked, and Orange still must act
    public = await harness.bot.service.view(match_id, None)
    assert public["last_move"] == "ability KS 2 c4"
    assert [b["attack"] for b in public["beings"] if b["card"] == "5H"] == [1]
    mark = fake.mark()
    await harness.slash_move_answered_privately(alice, "attack 5H d4")  # added to this turn's post
    await fake.wait_for_request("PATCH", rf"/channels/{fake.channel.id}/messages/\d+", since=mark)
    assert "attacks" in fake.bot_messages(fake.channel)[-1].content
    pending = (await harness.bot.service.view(match_id, None))["pending_attacks"]
    assert [a["points"] for a in pending] == [1]  # Atk 3 lowered by 2 before the attack
    after = await harness.slash_move(alice, "end")  # Blue has nothing left to do: its `done` is forced
    assert await harness.to_move(match_id) == [bob.id]
    assert after.attachments
