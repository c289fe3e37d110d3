"""Secrets stay secret even from careless players, and a game can be followed from the channel.

Two players and a spectator (carol) play through the fake Discord.  Every hidden fact a player
is shown privately (cards of a pool deck, tiles of a draft, hand and pile, a hidden roll) is
collected from that player's own DMs and private replies; then everything the opponent and the
spectator received (channel posts, their DMs, their ephemeral replies, autocomplete choices,
embeds, file names, component labels) is searched for it.

Wonderland: reaching the end of a game by random play would take hundreds of turns, so after
the pools, the first dice and a first action are played through Discord, prepared positions
(stated in full below) are written as the match snapshot, and the game is played to its end
from them through Discord, as in `test_wonderland_dm`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest

import renderers
from tests.e2e.harness import Harness
from tests.e2e.test_domino_wars_dm import ScriptedPlayer, fixed_seed, newest_controls, steps
from tests.e2e.test_info_commands import embed_of
from tests.e2e.test_wonderland_dm import (
    IN_PLAY,
    _battle,
    cards_named,
    choose_pool,
    click,
    custom_id,
    dm_with,
    load_position,
    select,
)
from tests.fake_discord import FakeDiscord, FakeMessage, FakeUser, RecordedRequest
from tests.games.wonderland.helpers import POOL0, POOL1, being, factors, position

pytestmark = pytest.mark.e2e

MANAGE_MESSAGES = 1 << 13
TILE = re.compile(r"\b[0-6]-[0-6]\b")


def without_menus(data: Any) -> Any:
    """`data` with each select's menu cut to the options already chosen: a menu offers what
    anyone may choose (the whole deck of a pool); what it says about the player is its label
    and the choice so far."""
    if isinstance(data, list):
        return [without_menus(item) for item in data]
    if not isinstance(data, dict):
        return data
    out = {k: without_menus(v) for k, v in data.items() if k != "options"}
    if isinstance(data.get("options"), list) and data.get("type") == 3:
        out["chosen"] = [o for o in data["options"] if o.get("default")]
    elif "options" in data:
        out["options"] = without_menus(data["options"])
    return out


def message_text(message: FakeMessage) -> str:
    """Everything a person (or a screen reader) gets from one message."""
    parts = [message.content, json.dumps(message.embeds, ensure_ascii=False)]
    parts += [json.dumps(without_menus(c), ensure_ascii=False) for c in message.iter_components()]
    parts += [a.filename for a in message.attachments]
    return "\n".join(parts)


def body_text(request: RecordedRequest) -> str:
    """Everything one message the bot sent or edited said (a version of it: DMs and turn
    posts are edited in place, so a message's last version is not all it ever showed)."""
    body = request.json if isinstance(request.json, dict) else {}
    data = body.get("data") if isinstance(body.get("data"), dict) else body  # an interaction callback
    parts = [str(data.get("content") or ""), json.dumps(data.get("embeds") or [], ensure_ascii=False)]
    parts += [json.dumps(without_menus(c), ensure_ascii=False) for c in data.get("components") or []]
    parts += [str(a.get("filename")) for a in data.get("attachments") or [] if isinstance(a, dict)]
    parts += [f.filename for f in request.files]
    return "\n".join(parts)


def versions_in(fake: FakeDiscord, channel_id: int) -> list[str]:
    """Every version of every message the bot posted or edited in a channel."""
    pattern = re.compile(rf"/channels/{channel_id}/messages(/\d+)?")
    return [
        body_text(r)
        for r in fake.requests
        if r.method in ("POST", "PATCH") and pattern.fullmatch(r.path) and r.status and r.status < 300
    ]


def answered_to(fake: FakeDiscord, user: FakeUser) -> list[str]:
    """Every version of the answers to `user`'s own interactions (replies, follow-ups, and the
    edits of the message a click came from: a DM's controls step by step)."""
    texts = []
    for interaction in fake.world.interactions.values():
        if interaction.user_id == user.id:
            texts += [body_text(r) for r in interaction.requests if r.status and r.status < 300]
    return texts


def received_by(fake: FakeDiscord, user: FakeUser) -> list[str]:
    """All that `user` received: the channel, their DMs, and the replies to their own
    interactions (ephemeral ones and autocomplete choices included), every version of each."""
    texts = [message_text(m) for m in fake.bot_messages(fake.channel)] + versions_in(fake, fake.channel.id)
    texts += [message_text(m) for m in fake.dms_to(user)] + versions_in(fake, fake.dm_channel(user).id)
    for interaction in fake.world.interactions.values():
        if interaction.user_id != user.id:
            continue
        texts.append(json.dumps(without_menus(interaction.callback_data or {}), ensure_ascii=False))
        texts += [message_text(m) for m in fake.followups(interaction)]
    return texts + answered_to(fake, user)


def private_texts(fake: FakeDiscord, user: FakeUser) -> list[str]:
    """What only `user` was shown: their DMs and their ephemeral replies, every version."""
    texts = [message_text(m) for m in fake.dms_to(user)] + versions_in(fake, fake.dm_channel(user).id)
    for interaction in fake.world.interactions.values():
        if interaction.user_id == user.id and interaction.callback_data:
            texts.append(json.dumps(interaction.callback_data, ensure_ascii=False))
            texts += [message_text(m) for m in fake.followups(interaction) if m.ephemeral]
    return texts + answered_to(fake, user)


def grant_manage_messages(fake: FakeDiscord) -> None:
    role = fake.add_role(fake.guild, "tidy", permissions=MANAGE_MESSAGES)
    fake.world.guilds[fake.guild.id].members[fake.bot.id].role_ids.append(role.id)


def record_public_renders(monkeypatch: pytest.MonkeyPatch, harness: Harness) -> list[dict[str, Any]]:
    """The views of the board pictures without a seat's own part (drawn in the bot's worker pool)."""
    seen: list[dict[str, Any]] = []
    pool = harness.bot.pictures
    real = pool.run

    async def recording(fn: Callable[..., Any], *args: Any) -> Any:
        if fn is renderers.render and "you" not in args[1]:
            seen.append(args[1])
        return await real(fn, *args)

    monkeypatch.setattr(pool, "run", recording)
    return seen


async def typed_secret(harness: Harness, user: FakeUser, text: str) -> tuple[FakeMessage, FakeMessage]:
    """`user` types a secret move in the channel: their message and the bot's answer."""
    fake = harness.fake
    mark = fake.mark()
    typed = await fake.send_message(fake.channel, user, text)
    answer = await fake.wait_for_message(fake.channel, lambda m: "is secret" in m.content, since=mark)
    await fake.wait_until_idle()
    return typed, answer


# --- Wonderland ----------------------------------------------------------------------------------


def _image_neighbour(seat: int) -> str:
    board = position().board
    image = board.images[seat]
    return board.names[sorted(board.orthogonal[image])[0]]


@pytest.mark.parametrize("hidden", ["off", "on"])
async def test_wonderland_is_told_in_the_channel_and_keeps_pools_and_hidden_rolls_private(
    harness: Harness, monkeypatch: pytest.MonkeyPatch, hidden: str
) -> None:
    # the seed of `test_wonderland_dm`: Alice's first roll is S S, so her turn goes on after it
    monkeypatch.setattr("bot.services.matches.service.secrets.token_hex", lambda n: "fixed-seed-for-wonderland")
    renders = record_public_renders(monkeypatch, harness)
    fake, service = harness.fake, harness.bot.service
    alice, bob, carol = fake.players
    match_id, _ = await harness.start_match("wonderland", alice, bob, options=f"hidden_factors={hidden}")
    options = {"hidden_factors": hidden}

    # A pick typed in the channel is not played; without Manage Messages the player is asked
    # to delete it, and the answer does not repeat the card.
    before = (await harness.move_count(match_id), await service.view(match_id, alice.id))
    typed, answer = await typed_secret(harness, alice, "pick AH")
    assert alice.mention in answer.content and "Please delete your message" in answer.content
    assert not cards_named(answer.content) and "DMs" in answer.content
    assert not fake.message(typed.id).deleted
    assert (await harness.move_count(match_id), await service.view(match_id, alice.id)) == before
    # With Manage Messages the bot deletes it; a whole pool typed by bob is not played either.
    grant_manage_messages(fake)
    typed, answer = await typed_secret(harness, bob, "pool " + " ".join(POOL1))
    assert "I deleted your message" in answer.content and fake.message(typed.id).deleted
    assert (await harness.move_count(match_id)) == before[0]
    assert (await service.view(match_id, bob.id))["private"]["picked"] == 0

    # The pools are chosen from the DMs: one line each, the board only once play starts.
    await choose_pool(harness, alice, POOL0)
    await choose_pool(harness, bob, POOL1)

    # Alice's dice from her DM: the dice are named in the turn's post; the roll only when
    # factors are public.
    dice = await dm_with(harness, alice, ":ds:")
    await select(harness, dice, ":ds:", ["AH", "4H"], alice)
    mark = fake.mark()
    assert harness.updated(await click(harness, dice, ":dr:", alice))
    await fake.wait_for_request("PATCH", rf"/channels/{fake.channel.id}/messages/\d+", since=mark)
    await fake.wait_until_idle()
    post = fake.bot_messages(fake.channel)[-1]
    assert "puts A♥ (level 1), 4♥ (level 1) on the dice" in post.content
    rolled = (await service.view(match_id, alice.id))["private"].get("rolled")
    if hidden == "on":
        assert "rolls (the results are hidden)" in post.content and "rolls:" not in post.content
        assert rolled is not None
        # the private picture is drawn in the render pool: wait for the DM, not for idle HTTP
        # (the dice DM she rolled from, edited in place: no second DM for the same turn)
        roll_dm = await fake.wait_for_message(fake.dm_channel(alice), lambda m: "Your roll:" in m.content)
        assert roll_dm.id == dice.id and "Your factors" in roll_dm.content
        assert roll_dm.files()["hand.png"].startswith(b"\x89PNG")
    else:
        assert "Orange rolls: A♥" in post.content and rolled is None

    # The battle: public attacks named one by one, the defence from bob's DM, the results.
    await load_position(harness, match_id, _battle_with(options))
    attacked = await harness.typed_move(alice, "attack 5D d6")
    assert "Orange's 5♦ attacks A♣ on d6 (4 points)." in attacked.content
    mark = fake.mark()
    board = await harness.slash_move(alice, "attack 6D e6")
    assert "Orange's 6♦ attacks 3♣ on e6" in board.content and "(Orange) ends the actions." in board.content
    defence = await dm_with(harness, bob, ":df:", since=mark)
    hand = await harness.command("hand", user=bob)  # the same buttons, soon out of date
    old_buttons = await fake.wait_for_followup(hand)
    assert harness.updated(await click(harness, defence, ":df:defend AC", bob))
    assert any(":df:done" in c for c in defence.custom_ids), "the same DM offers the rest of the defence"
    mark = fake.mark()
    assert harness.updated(await click(harness, defence, ":df:done", bob))
    reckoned = await fake.wait_for_message(fake.channel, lambda m: "destroyed" in m.content, since=mark)
    assert "Blue's A♣ is destroyed" in reckoned.content and "Blue's 3♣ is destroyed" in reckoned.content

    # A stale control leads to working controls: bob's old defence buttons answer with his dice.
    count = await harness.move_count(match_id)
    stale = await harness.settled(await fake.click_button(old_buttons, custom_id(old_buttons, ":df:"), user=bob))
    fresh = harness.answer(stale)  # a new message: the click was acknowledged before the lookup
    said = fresh.content
    assert fresh.ephemeral and "no longer open" in said
    assert "Here are your current controls" in said
    offered = [c for row in fresh.components for c in row["components"]]
    assert any(":ds:" in str(c.get("custom_id")) for c in offered), "bob's dice select"
    assert await harness.move_count(match_id) == count

    # /match info counts only the moves everyone knows of (not the pool picks).
    info = await harness.command("match info", user=carol)
    shown_info = await fake.wait_for_answer(info, ephemeral=True)
    fields = {f["name"]: f["value"] for f in embed_of({"embeds": shown_info.embeds})["fields"]}
    logged = await service.store.moves(match_id)
    assert fields["Moves everyone knows"] == str(sum(m.public for m in logged)) and any(not m.public for m in logged)

    # The end: Blue's Image at 1 life, Orange's 5♦ beside it.
    end = position(
        beings=[being(0, "5D", _image_neighbour(1))],
        f0=factors(a=1),
        lives=(3, 1),
        summoned=(["5D", "6D"], ["AC", "3C"]),
        options=options,
    )
    await load_position(harness, match_id, end)
    final = await harness.slash_move(alice, "attack 5D image")
    assert "Orange's 5♦ attacks Blue's Image (3 points)." in final.content
    assert "Blue's Image loses 1 life — Blue has 0 lives" in final.content and "wins" in final.content
    assert (await service.view(match_id, None))["outcome"] is not None
    await fake.wait_until_idle()

    # Nothing hidden reached the other player or the spectator.
    public_cards = {d["card"] for v in renders for d in v.get("dice", [])} | IN_PLAY | {"5D", "6D", "AC", "3C"}
    # a player's hidden facts: the cards of their pool deck they were shown privately and
    # nobody saw in play (a card both decks hold tells the other player nothing)
    hidden_of = {
        alice.id: {c for t in private_texts(fake, alice) for c in cards_named(t)} & set(POOL0) - public_cards,
        bob.id: {c for t in private_texts(fake, bob) for c in cards_named(t)} & set(POOL1) - public_cards,
    }
    assert hidden_of[alice.id] and hidden_of[bob.id], "each player was shown cards nobody else knows"
    own = {alice.id: set(POOL0), bob.id: set(POOL1), carol.id: set()}
    for player, other in ((alice, bob), (bob, alice)):
        for viewer in (other, carol):
            for text in received_by(fake, viewer):
                leaked = (cards_named(text) & hidden_of[player.id]) - own[viewer.id]
                assert not leaked, f"{viewer.name} learned {leaked} of {player.name}: {text[:300]!r}"
    for text in received_by(fake, carol):  # the channel and the spectator: nobody's own lines
        assert "Your roll" not in text and "Your factors" not in text
    alice_dm_versions = versions_in(fake, fake.dm_channel(alice).id)  # her DM is edited in place: every version
    alice_rolls = {line for text in alice_dm_versions for line in text.splitlines() if "Your roll" in line}
    assert bool(alice_rolls) == (hidden == "on")
    assert not [t for t in received_by(fake, bob) for line in alice_rolls if line in t]
    if hidden == "on":
        assert all(v["factors"] is None and v["rolled"] is None for v in renders if v.get("game") == "wonderland")
        for text in received_by(fake, carol):
            assert "rolls:" not in text


def _battle_with(options: dict[str, Any]) -> Any:
    state = _battle()
    data = state.dump()
    data["options"] = {**data["options"], **options}
    return type(state).rules.load(data)


# --- Domino Wars ---------------------------------------------------------------------------------


def tiles_in(texts: list[str]) -> set[str]:
    return {t for text in texts for t in TILE.findall(text)}


async def test_domino_wars_with_items_keeps_drafts_hands_and_piles_private(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    fixed_seed(monkeypatch)
    renders = record_public_renders(monkeypatch, harness)
    fake, service = harness.fake, harness.bot.service
    alice, bob, carol = fake.players
    match_id, _ = await harness.start_match("domino_wars", alice, bob, options="repeat=me tie=me mulligan=opponent")
    row = await service.get(match_id)
    assert row.seats is not None
    players = {alice.id: ScriptedPlayer(harness, alice), bob.id: ScriptedPlayer(harness, bob, drafts_high=True)}

    # Tie Advantage first (a public choice), then the draft: a pick typed in the channel is
    # refused, legal or not, and the answer names no tile.
    while (await service.view(match_id, None))["phase"] != "draft":
        mover = players[(await harness.to_move(match_id))[0]]
        assert harness.updated(await harness.settled(await mover.act(await newest_controls(harness, mover.user))))
    await fake.wait_until_idle()
    draft_start = fake.mark()
    legal_pick = (await service.legal_moves(match_id, alice.id))[0]
    before = (await harness.move_count(match_id), await service.view(match_id, alice.id))
    typed, answer = await typed_secret(harness, alice, legal_pick)
    assert "Please delete your message" in answer.content and not TILE.search(answer.content)
    assert (await harness.move_count(match_id), await service.view(match_id, alice.id)) == before
    grant_manage_messages(fake)
    typed, answer = await typed_secret(harness, bob, "pick 0-1")  # legal or not, the same answer
    assert "I deleted your message" in answer.content and fake.message(typed.id).deleted
    assert (await harness.move_count(match_id), await service.view(match_id, alice.id)) == before

    # Autocomplete: the spectator is offered nothing; a player only their own moves.
    spectator = await fake.autocomplete("move", {"notation": "pick"}, focused="notation", user=carol)
    await fake.wait_for_response(spectator)
    assert spectator.choices == []

    # The whole match from the DMs.
    clicks = 0
    while movers := await harness.to_move(match_id):
        player = players[movers[0]]
        message = await newest_controls(harness, player.user)
        found = set(steps(message))
        if "t" in found:  # a turn: the hand and, beside it, the board (one place to look)
            files = message.files()
            assert files["hand.png"].startswith(b"\x89PNG") and files["board.png"].startswith(b"\x89PNG")
        click = await harness.settled(await player.act(message))
        assert harness.updated(click), [m.content for m in fake.followups(click)]  # an edit of the DM, never a refusal
        clicks += 1
        assert clicks < 400, "the match does not end"
    await fake.wait_until_idle()
    assert (await service.view(match_id, None))["outcome"] is not None

    # The draft was quiet: a line per drafter, no post for a pick; the first drafter's line
    # joins the post that opened the draft, and the second one's is the post that starts play.
    during_draft = [m for m in fake.bot_messages(fake.channel) if m.id > draft_start.snowflake]
    drafted = [m for m in fake.bot_messages(fake.channel) if "has drafted" in m.content]
    assert sum(m.content.count("has drafted") for m in drafted) == 2, [m.content for m in drafted]
    opened, started = drafted if len(drafted) == 2 else (None, drafted[0])
    assert opened is None or (opened.id < draft_start.snowflake and opened.edited), "the draft's own post"
    first_board = next(m for m in during_draft if m.attachments)
    assert first_board.id == started.id and started.attachments, "no board for a pick"

    # Hidden facts: tiles a player was shown privately that never became public, and that
    # the opponent does not hold too (both may draft the same tile).
    log = await service.store.moves(match_id)
    revealed = {t for m in log if m.public for t in TILE.findall(m.move)}
    revealed |= {str(t) for v in renders for s in v.get("discards", []) for t in s}
    revealed |= {str(c["number"]) for v in renders for c in v.get("board", {}).values() if "-" in str(c["number"])}
    own = {}
    for user in (alice, bob):
        private = (await service.view(match_id, user.id))["private"]
        own[user.id] = {t for key in ("draft", "hand", "pile") for t in private[key]}
    hidden = {
        user.id: (tiles_in(private_texts(fake, user)) & own[user.id]) - revealed - own[other.id]
        for user, other in ((alice, bob), (bob, alice))
    }
    assert hidden[alice.id] or hidden[bob.id], "some private tiles stayed private: the check means something"
    for player, other in ((alice, bob), (bob, alice)):
        for viewer in (other, carol):
            for text in received_by(fake, viewer):
                leaked = tiles_in([text]) & hidden[player.id]
                assert not leaked, f"{viewer.name} learned {leaked} of {player.name}: {text[:300]!r}"
