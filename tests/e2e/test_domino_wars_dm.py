"""Domino Wars played from DMs: the draft, the opening choices and every turn, through the fake Discord.

The whole-match test lets two scripted players answer only the newest DM that carries controls,
with a fixed choice at every step, and then checks the match channel: its text names no tile
that was ever secret, and every board picture there was rendered from a public view.
"""

from __future__ import annotations

import asyncio
import random
import re
from collections import Counter

import pytest

from bot.i18n import catalogue, tr, translate
from cogs.ui.private.domino_wars import decode_tiles
from tests.e2e.harness import Harness, record_board_views
from tests.fake_discord import FakeInteraction, FakeMessage, FakeUser

pytestmark = pytest.mark.e2e

TILE = re.compile(r"\b[0-6]-[0-6]\b")
PLAYED = re.compile(r"played `([^`]*)`")
DW = "boneyard:dw:"
FINAL_STEPS = {"dk", "b", "p", "e"}
"""Steps whose click plays a move (the others only show the next step)."""


def fixed_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.services.matches.service.secrets.token_hex", lambda n: "fixed-seed-for-domino-wars-dms")


def has_controls(message: FakeMessage) -> bool:
    return any(custom_id.startswith(DW) for custom_id in message.custom_ids)


def steps(message: FakeMessage) -> dict[str, list[str]]:
    """The message's Domino Wars custom ids by step (`ds`, `dd`, `dk`, `b`, `t`, `p`, `e`)."""
    found: dict[str, list[str]] = {}
    for custom_id in message.custom_ids:
        if custom_id.startswith(DW):
            found.setdefault(custom_id.split(":")[4], []).append(custom_id)
    return found


def option_values(message: FakeMessage, custom_id: str) -> list[str]:
    component = message.component(custom_id)
    assert component is not None, custom_id
    return [str(option["value"]) for option in component.get("options", [])]


async def newest_controls(harness: Harness, user: FakeUser) -> FakeMessage:
    """The newest DM to `user` with Domino Wars controls (waiting for it if it is on its way)."""
    fake = harness.fake
    await fake.wait_for_message(fake.dm_channel(user), has_controls)
    return max((m for m in fake.dms_to(user) if has_controls(m)), key=lambda m: m.id)


class ScriptedPlayer:
    """Answers one step of a DM with a fixed choice; remembers the moves its clicks played."""

    def __init__(self, harness: Harness, user: FakeUser, *, drafts_high: bool = False) -> None:
        self.harness, self.user, self.drafts_high = harness, user, drafts_high
        self.played: list[str] = []

    async def act(self, message: FakeMessage) -> FakeInteraction:
        fake, found = self.harness.fake, steps(message)
        if "dk" in found:  # the draft is complete: confirm it
            (confirm,) = found["dk"]
            self.played.append("draft " + " ".join(decode_tiles(confirm.rsplit(":", 1)[1])))
            return await fake.click_button(message, confirm, user=self.user)
        if "dd" in found:  # Domino Repeat: copy the first of the chosen tiles
            (copy,) = found["dd"]
            return await fake.select(message, copy, option_values(message, copy)[:1], user=self.user)
        if "ds" in found:  # the draft: as few tiles as allowed, the first or the last ones offered
            (draft,) = found["ds"]
            component = message.component(draft)
            assert component is not None
            count, offered = int(component["min_values"]), option_values(message, draft)
            tiles = offered[-count:] if self.drafts_high else offered[:count]
            return await fake.select(message, draft, tiles, user=self.user)
        if "b" in found:  # go first; mulligan once, then keep
            labels = {str(c["custom_id"]): str(c.get("label")) for c in message.iter_components()}
            wanted = ("first me", "mulligan") if any("(2 left)" in labels[b] for b in found["b"]) else ("first me",)
            button = next((b for b in found["b"] if b.split(":", 5)[5] in wanted), None)
            button = button or next(b for b in found["b"] if b.endswith(":keep"))
            self.played.append(button.split(":", 5)[5])
            return await fake.click_button(message, button, user=self.user)
        for step in ("p", "e"):  # where the tile goes / an effect's choice: the first offered
            if step in found:
                choice = option_values(message, found[step][0])[0]
                self.played.append(choice)
                return await fake.select(message, found[step][0], [choice], user=self.user)
        (tile_select,) = found["t"]  # which tile: the first offered
        return await fake.select(message, tile_select, option_values(message, tile_select)[:1], user=self.user)


async def test_a_whole_match_with_items_is_played_from_dms_and_the_channel_learns_nothing_secret(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    fixed_seed(monkeypatch)
    renders = record_board_views(monkeypatch, harness)
    fake, service = harness.fake, harness.bot.service
    alice, bob, _ = fake.players
    match_id, _ = await harness.start_match("domino_wars", alice, bob, options="repeat=me tie=me mulligan=opponent")
    row = await service.get(match_id)
    assert row.seats is not None
    players = {alice.id: ScriptedPlayer(harness, alice), bob.id: ScriptedPlayer(harness, bob, drafts_high=True)}
    clicks = 0
    while movers := await harness.to_move(match_id):
        player = players[movers[0]]
        message = await newest_controls(harness, player.user)
        final = bool(FINAL_STEPS & set(steps(message)))
        if {"t", "e"} & set(steps(message)):
            assert message.files()["hand.png"].startswith(b"\x89PNG"), "a turn's controls come with the hand"
        click = await harness.settled(await player.act(message))
        assert harness.updated(click), click.callback_data  # an edit of the DM, never a refusal
        if not final:
            assert has_controls(fake.message(message.id)), "a step that is not final shows the next one"
        clicks += 1
        assert clicks < 400, "the match does not end"
    await fake.wait_until_idle()

    final_view = await service.view(match_id, None)
    assert final_view["outcome"] is not None
    seat_of = {alice.id: row.seats.index(alice.id), bob.id: row.seats.index(bob.id)}
    assert final_view["first"] == seat_of[alice.id], "alice (Tie Advantage) chose from her DM to go first"
    assert final_view["mulligans_left"][seat_of[bob.id]] == 1, "bob mulliganed once from his DM"
    alice_draft = (await service.view(match_id, alice.id))["private"]["draft"]
    bob_draft = (await service.view(match_id, bob.id))["private"]["draft"]
    assert max(Counter(alice_draft).values()) == 2 and len(alice_draft) == 8, "Domino Repeat: 7 tiles + 1 copy"
    assert len(set(bob_draft)) == 8

    # Every player decision in the log was a DM click (forced moves aside), in order.
    log = await service.store.moves(match_id)
    for user_id, player in players.items():
        logged = [m.move for m in log if m.seat == seat_of[user_id] and not m.forced]
        assert logged == player.played, (logged, player.played)
    assert any(m.startswith(("recycle", "top", "discard")) for p in players.values() for m in p.played)

    # The channel: tiles appear only inside public moves; the drafts' secrets never.
    public_moves = {m.move for m in log if m.public}
    revealed = {t for move in public_moves for t in TILE.findall(move)}
    secret = set()
    for user in (alice, bob):
        private = (await service.view(match_id, user.id))["private"]
        secret |= {t for key in ("draft", "hand", "pile") for t in private[key]}
    secret -= revealed
    assert secret, "some drafted tiles were never played: the check below means something"
    channel = fake.bot_messages(fake.channel)
    for message in channel:
        named = [m for m in PLAYED.findall(message.content) if TILE.search(m)]
        assert set(named) <= public_moves, (named, message.content)
        rest = PLAYED.sub("", message.content)
        assert not TILE.search(rest), f"message {message.id} names a tile outside a public move: {message.content!r}"
        assert not set(TILE.findall(message.content)) & secret
        assert all(a.filename == "board.png" for a in message.attachments)
    drafted = [m.content for m in channel if "has drafted" in m.content]
    assert len(drafted) == 2 and any("alice" in d for d in drafted) and any("bob" in d for d in drafted)
    boards = [m for m in channel if m.attachments]
    assert renders and len(renders) >= len(boards)
    assert all("private" not in view and "you" not in view for view in renders)


async def test_wrong_stale_and_duplicate_clicks_are_refused_and_change_nothing(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    fixed_seed(monkeypatch)
    fake, service = harness.fake, harness.bot.service
    alice, bob, carol = fake.players
    match_id, _ = await harness.start_match("domino_wars", alice, bob)
    assert (await service.view(match_id, None))["phase"] == "draft"
    before = await harness.move_count(match_id)

    # Someone else's click on alice's draft select is refused; her DM stays as it was.
    dm = await newest_controls(harness, alice)
    (draft_select,) = steps(dm)["ds"]
    eight = option_values(dm, draft_select)[:8]
    for intruder, reason in ((bob, "belong to the other player"), (carol, "not playing in this match")):
        click = await harness.settled(await fake.select(dm, draft_select, eight, user=intruder))
        assert reason in harness.refusal(click)
    assert fake.message(dm.id).custom_ids == [draft_select]

    # Alice chooses; a double click on Confirm drafts once, the second click is refused.
    await harness.settled(await fake.select(dm, draft_select, eight, user=alice))
    (confirm,) = steps(fake.message(dm.id))["dk"]
    first, second = await asyncio.gather(
        fake.click_button(dm, confirm, user=alice), fake.click_button(dm, confirm, user=alice)
    )
    answers = sorted([await harness.settled(first), await harness.settled(second)], key=harness.updated)
    refusal, success = answers
    # the same DM, edited in place: it says what was played and that alice now waits
    assert harness.updated(success) and "✅ Draft sent" in fake.message(dm.id).content
    assert "Waiting for bob." in fake.message(dm.id).content
    fresh = harness.answer(refusal)
    assert fresh.id > dm.id, "a fresh message, not a dead end"
    assert any(words in fresh.content for words in ("out of date", "not your turn")), fresh.content
    assert (await service.view(match_id, alice.id))["private"]["draft"] == eight
    assert await harness.move_count(match_id) == before + 1

    # Bob prepares a draft in his DM and the same under /hand, then drafts other tiles with
    # /move: his DM is edited in place (its Confirm is gone, not left dead), and the Confirm
    # under /hand, a copy nobody can edit later, is refused with his current controls.
    bob_dm = await newest_controls(harness, bob)
    (bob_select,) = steps(bob_dm)["ds"]
    offered = option_values(bob_dm, bob_select)
    await harness.settled(await fake.select(bob_dm, bob_select, offered[:8], user=bob))
    assert steps(fake.message(bob_dm.id))["dk"]
    hand_copy = await fake.wait_for_followup(await harness.command("hand", user=bob))
    (hand_select,) = steps(hand_copy)["ds"]
    await harness.settled(await fake.select(hand_copy, hand_select, offered[:8], user=bob))
    (hand_confirm,) = steps(fake.message(hand_copy.id))["dk"]
    typed = offered[-8:]
    dms_before = len(fake.dms_to(bob))
    await harness.slash_move_answered_privately(bob, "draft " + " ".join(typed))  # a secret move: a private reply
    await fake.wait_until_idle()
    if (await harness.to_move(match_id)) != [bob.id]:  # bob waits: the same DM says so
        assert len(fake.dms_to(bob)) == dms_before and "Waiting for alice" in fake.message(bob_dm.id).content
    assert "dk" not in steps(fake.message(bob_dm.id)), "the DM's old Confirm was replaced in place"
    count = await harness.move_count(match_id)
    click = await harness.settled(await fake.click_button(hand_copy, hand_confirm, user=bob))
    fresh = harness.answer(click)
    assert fresh.ephemeral and "out of date" in fresh.content
    assert (await service.view(match_id, bob.id))["private"]["draft"] == typed
    assert await harness.move_count(match_id) == count

    # A turn: the mover picks a tile under /hand, then plays by a typed move; the old placement
    # is refused with the current controls, and the DM shows no stale placement.
    await fake.wait_until_idle()
    row = await service.get(match_id)
    assert row.seats is not None
    mover = alice if (await harness.to_move(match_id)) == [alice.id] else bob
    other = bob if mover is alice else alice
    turn_dm = await newest_controls(harness, mover)
    (tile_select,) = steps(turn_dm)["t"]
    click = await harness.settled(
        await fake.select(turn_dm, tile_select, option_values(turn_dm, tile_select)[:1], user=other)
    )
    assert "belong to the other player" in harness.refusal(click)
    hand_copy = await fake.wait_for_followup(await harness.command("hand", user=mover))
    (tile_select,) = steps(hand_copy)["t"]
    await harness.settled(
        await fake.select(hand_copy, tile_select, option_values(hand_copy, tile_select)[:1], user=mover)
    )
    (placement_select,) = steps(fake.message(hand_copy.id))["p"]
    chosen = option_values(fake.message(hand_copy.id), placement_select)[0]
    legal = await service.legal_moves(match_id, mover.id)
    other_move = next(m for m in legal if m != chosen)
    count = await harness.move_count(match_id)
    await fake.send_message(fake.channel, mover, other_move)  # added to the turn's post, or a new one
    await fake.wait_until_idle()
    assert await harness.move_count(match_id) > count
    assert "p" not in steps(fake.message(turn_dm.id)), "the DM was brought up to date"
    count = await harness.move_count(match_id)
    click = await harness.settled(await fake.select(hand_copy, placement_select, [chosen], user=mover))
    fresh = harness.answer(click)
    assert any(words in fresh.content for words in ("out of date", "cannot be placed", "not your turn")), fresh.content
    assert await harness.move_count(match_id) == count


async def test_a_player_with_closed_dms_gets_the_same_controls_from_hand(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    fixed_seed(monkeypatch)
    fake, service = harness.fake, harness.bot.service
    alice, bob, _ = fake.players
    fake.close_dms(bob)
    match_id, _ = await harness.start_match("domino_wars", alice, bob)
    assert fake.dms_to(bob) == []

    hand = await harness.command("hand", user=bob)
    private = await fake.wait_for_followup(hand)
    assert private.ephemeral and private.files()["hand.png"].startswith(b"\x89PNG")
    (draft_select,) = steps(private)["ds"]
    tiles = option_values(private, draft_select)[:8]
    click = await harness.settled(await fake.select(private, draft_select, tiles, user=bob))
    assert harness.updated(click)
    (confirm,) = steps(fake.message(private.id))["dk"]
    mark = fake.mark()
    click = await harness.settled(await fake.click_button(private, confirm, user=bob))
    assert harness.updated(click) and not has_controls(fake.message(private.id))
    assert (await service.view(match_id, bob.id))["private"]["draft"] == tiles
    said = await harness.channel_says(lambda text: "**bob** (Blue) has drafted" in text, since=mark)
    both_drafted = all((await service.view(match_id, None))["drafted"])
    # the line joins the draft's post while alice drafts; her turn (play) is a new post
    assert (said.id > mark.snowflake) == both_drafted and said.attachments and not TILE.search(said.content)

    # Alice plays from her DMs until it is bob's turn; bob then plays his turn from `/hand`.
    alice_player = ScriptedPlayer(harness, alice)
    while (await harness.to_move(match_id)) != [bob.id]:
        await harness.settled(await alice_player.act(await newest_controls(harness, alice)))
    await fake.wait_until_idle()  # alice's last board and DMs are out
    hand = await harness.command("hand", user=bob)
    private = await fake.wait_for_followup(hand)
    (tile_select,) = steps(private)["t"]
    tile = option_values(private, tile_select)[0]
    await harness.settled(await fake.select(private, tile_select, [tile], user=bob))
    (placement_select,) = steps(fake.message(private.id))["p"]
    placement = option_values(fake.message(private.id), placement_select)[0]
    mark = fake.mark()
    click = await harness.settled(await fake.select(private, placement_select, [placement], user=bob))
    assert harness.updated(click)
    # the placement joins the post of bob's turn (an effect's choice may follow) or, when it
    # ends his turn, is the new post for alice's: either way the channel says it, with a board
    board = await harness.channel_says(lambda text: f"bob (Blue) played `{placement}`" in text, since=mark)
    assert board.attachments, board.content
    assert placement.split(" ")[0] in (tile, "-".join(tile[::-1]))
    assert fake.dms_to(bob) == []


async def test_a_choice_survives_a_restart_between_two_steps(harness: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    fixed_seed(monkeypatch)
    fake, service = harness.fake, harness.bot.service
    alice, bob, _ = fake.players
    match_id, _ = await harness.start_match("domino_wars", alice, bob)
    dm = await newest_controls(harness, alice)
    (draft_select,) = steps(dm)["ds"]
    tiles = option_values(dm, draft_select)[3:11]
    await harness.settled(await fake.select(dm, draft_select, tiles, user=alice))
    (confirm,) = steps(fake.message(dm.id))["dk"]

    await harness.restart()
    click = await harness.settled(await fake.click_button(dm, confirm, user=alice))
    assert harness.updated(click), click.callback_data
    assert (await harness.bot.service.view(match_id, alice.id))["private"]["draft"] == tiles
    assert service is not harness.bot.service


@pytest.mark.parametrize("seed", [3, 17])
async def test_a_german_players_receipts_are_said_in_german_once(
    harness: Harness, monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    rng = random.Random(seed)
    fixed_seed(monkeypatch)
    fake = harness.fake
    alice, bob, _ = fake.players
    german = rng.choice([alice, bob])
    german.locale = "de"  # the language of her clicks and, never having chosen one, of her DMs
    again: list[str] = []  # German sentences translated as if they were English
    plain = catalogue._translate_plain

    def recording(locale: str, text: str) -> str:
        if locale == "de" and ("Du hast `" in text or "Draft abgeschickt" in text):
            again.append(text)
        return plain(locale, text)  # type: ignore[arg-type]

    monkeypatch.setattr(catalogue, "_translate_plain", recording)
    match_id, _ = await harness.start_match("domino_wars", alice, bob)
    players = {u.id: ScriptedPlayer(harness, u, drafts_high=rng.random() < 0.5) for u in (alice, bob)}
    receipts = 0
    while receipts < 4 and (movers := await harness.to_move(match_id)):
        mover = german if german.id in movers and rng.random() < 0.7 else players[movers[0]].user
        message = await newest_controls(harness, mover)
        final = bool(FINAL_STEPS & set(steps(message)))
        await harness.settled(await players[mover.id].act(message))
        await fake.wait_until_idle()
        if mover is not german or not final:
            continue
        receipts += 1
        last = fake.message(message.id).content.splitlines()[-1]
        move = players[german.id].played[-1]
        wanted = (
            translate(
                "de", tr("✅ Draft sent: `{draft}`. The match starts when both players have drafted.", draft=move[6:])
            )
            if move.startswith("draft ")
            else translate("de", tr("✅ You played `{move}`.", move=move))
        )
        assert last.startswith("▸ " + wanted) and last.count(wanted) == 1, "the receipt's line, in German, once"
        assert "You played" not in last and "Draft sent" not in last
        newest = max(fake.dms_to(german), key=lambda m: m.id)  # her private view, edited or new
        status = newest.content.splitlines()[-1]
        assert status.startswith("▸ " + wanted) and status.count(wanted) == 1, status
    assert receipts == 4
    assert again == [], "a German receipt was translated again"
