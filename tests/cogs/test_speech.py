"""Views said in the reader's language: labels, placeholders and options, never moves."""

from __future__ import annotations

import discord

from cogs.speech import localize_view
from cogs.ui.lobby_buttons import RematchButton
from cogs.ui.private.domino_wars import tile_view


async def test_labels_placeholders_and_options_are_translated_but_moves_are_not() -> None:
    view = discord.ui.View(timeout=None)
    view.add_item(RematchButton(7))
    moves = ["5-3 b2-b3", "5-3 c2-c3", "2-6 a1-a2"]
    controls = tile_view(7, 0, {"board": {}}, moves, tile="3-5")
    assert controls is not None
    for item in controls.children:
        view.add_item(item)
    localize_view(view, "de")
    rematch = view.children[0]
    assert isinstance(rematch, discord.ui.DynamicItem) and rematch.item.label == "Revanche"
    selects = [c.item if isinstance(c, discord.ui.DynamicItem) else c for c in view.children[1:]]
    tiles, places = selects[0], selects[1]
    assert isinstance(tiles, discord.ui.Select) and isinstance(places, discord.ui.Select)
    assert {o.label for o in tiles.options} == {"3-5", "2-6"}  # tile names stay
    assert all("Platzierung" in (o.description or "") for o in tiles.options)
    assert places.placeholder == "Wohin kommt 3-5?"
    assert all(" auf " in o.label and o.value in moves for o in places.options)


async def test_english_leaves_a_view_as_it_is() -> None:
    view = discord.ui.View(timeout=None)
    view.add_item(RematchButton(7))
    localize_view(view, "en")
    rematch = view.children[0]
    assert isinstance(rematch, discord.ui.DynamicItem) and rematch.item.label == "Rematch"
