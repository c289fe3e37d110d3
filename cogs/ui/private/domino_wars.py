"""Domino Wars in private: the secret draft, the opening choices and every turn, from a DM.

A seat that must act gets, under its private picture (by DM, or the ephemeral `/hand`), the
components of one decision, narrowed step by step from its legal moves:

- draft: a multi-select of the tiles still open to it (8, or 7 and a copy with Domino Repeat,
  then a single select of the tile to copy), then Confirm, which plays the engine's
  `draft ...` shorthand;
- first player (Tie Advantage) and mulligan: one button per legal move;
- a turn: a select of the tiles that can be placed, then a select of that tile's placements
  (choosing one plays it); an effect choice (`recycle`, `top`, `discard`) is its own move, so
  it arrives as a new prompt because the seat is still to move.

Custom ids are `boneyard:dw:<match>:<seat>:<step>[:<data>]`.  Everything chosen so far rides
in them (tiles as one letter each, `a`..`u` in pool order), so a restart between two steps
changes nothing, and the seat lets a click by the other player be refused.  Each step is
rebuilt from the clicker's CURRENT view and legal moves; a choice that is no longer open is
refused with a sentence, and the service re-checks turn and legality when the move is played.

Nothing here reaches the match channel except through the presenter's `announce`, whose
text and picture come from the public view; the one line this module adds there (`X has
drafted.`) names no tile.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Self

import discord

from bot.games.domino_wars import DRAFT_SIZE, SEAT_NAMES
from bot.games.dominoes import no_doubles
from bot.i18n import Text, tr, tr_n, translate
from bot.services.matches import ServiceError, Update
from cogs.acknowledge import defer
from cogs.common import presenter_of, service_of
from cogs.speech import localize_view, reader_locale
from cogs.ui.private import StaleControls, check_owner, receipt_and_announce, report_or_refresh

TAG = "boneyard:dw"
SELECT_LIMIT = 25
"""Discord shows at most 25 options in a select."""
POOL = tuple(str(tile) for tile in no_doubles())
LETTERS = "abcdefghijklmnopqrstu"
LETTER_OF = dict(zip(POOL, LETTERS, strict=True))
TILE_OF = dict(zip(LETTERS, POOL, strict=True))
STATUS = "▸ "
"""Marks the line of a DM that says where the player is in a multi-step choice."""

EFFECT_HINTS = {
    0: tr("recycle a discard"),
    1: tr("draw"),
    2: tr("pile tile to top"),
    3: tr("nothing"),
    4: tr("discard, then draw"),
    5: tr("no end-of-turn draw"),
    6: tr("skip your next turn"),
}
"""One-line reminders of the effects (rule 9), for option descriptions: words, not rules."""

EFFECT_PROMPTS = {
    "recycle": (
        tr("Effect 0: choose a discarded tile for the bottom of your draw pile"),
        tr("to the bottom of your pile"),
    ),
    "top": (tr("Effect 2: choose a tile of your draw pile to put on top"), tr("on top of your pile")),
    "discard": (tr("Effect 4: choose a tile of your hand to discard (then you draw)"), tr("discard it, then draw")),
}

CHOICE_LABELS = {"first me": tr("I go first"), "first you": tr("My opponent goes first"), "keep": tr("Keep this hand")}

_PLACEMENT = re.compile(r"^([0-6])-([0-6]) ([a-z]\d+)-([a-z]\d+)$")
_SEAT = r"boneyard:dw:(?P<id>[0-9]+):(?P<seat>[01])"


# --- pure helpers: from the seat's view and legal moves to the options of one step ------------


def encode_tiles(tiles: Iterable[str]) -> str:
    """Tiles as one letter each, in pool order (a repeated tile repeats its letter)."""
    return "".join(sorted(LETTER_OF[tile] for tile in tiles))


def decode_tiles(code: str) -> list[str]:
    """The tiles of `encode_tiles`; raises KeyError for a letter outside `a`..`u`."""
    return [TILE_OF[letter] for letter in code]


def tile_of(move: str) -> str:
    """The tile of a placement (`5-3 b2-b3` -> `3-5`)."""
    found = _PLACEMENT.match(move)
    if found is None:
        raise ValueError(f"not a placement: {move!r}")
    a, b = int(found[1]), int(found[2])
    return f"{min(a, b)}-{max(a, b)}"


def effects_hint(tile: str) -> str:
    low, high = (int(n) for n in tile.split("-"))
    return tr(
        "{low}: {low_effect} · {high}: {high_effect}",
        low=low,
        low_effect=EFFECT_HINTS[low],
        high=high,
        high_effect=EFFECT_HINTS[high],
    )


@dataclass(frozen=True)
class DraftStep:
    """What a drafting seat may still choose.

    `picked`: tiles already picked one by one (with `/move pick ...`); `available`: the tiles
    offered in the select (legal picks not picked yet); `copy_allowed`: Domino Repeat's copy
    is still unused, so the draft may be completed with one tile fewer plus a copy."""

    picked: tuple[str, ...]
    available: tuple[str, ...]
    copy_allowed: bool

    @property
    def need(self) -> int:
        return DRAFT_SIZE - len(self.picked)

    @property
    def min_values(self) -> int:
        return self.need - 1 if self.copy_allowed else self.need

    def complete(self, chosen: Sequence[str], copy: str | None = None) -> tuple[str, ...] | None:
        """The whole draft (in pool order) if `chosen` (+ `copy`) completes it, else None.

        `chosen` must be distinct tiles of `available`; `copy`, if any, one of the tiles
        picked or chosen, and only while the copy is allowed."""
        if len(set(chosen)) != len(chosen) or not set(chosen) <= set(self.available):
            return None
        if copy is not None and (not self.copy_allowed or copy not in (*self.picked, *chosen)):
            return None
        tiles = [*self.picked, *chosen, *([copy] if copy is not None else [])]
        if len(tiles) != DRAFT_SIZE:
            return None
        return tuple(sorted(tiles, key=POOL.index))

    def wants_copy(self, chosen: Sequence[str]) -> bool:
        """Whether `chosen` is one short and the copy may fill the gap."""
        return self.copy_allowed and len(self.picked) + len(chosen) == DRAFT_SIZE - 1


def draft_step(view: dict[str, Any], moves: Sequence[str]) -> DraftStep | None:
    """The draft choice open to the seat of `view`, or None if it is not drafting.

    The tiles come from the legal picks; whether a copy may complete the draft is read from
    the public `items` (Domino Repeat) and the seat's own picks, and the engine re-checks it."""
    picks = [move.split(" ", 1)[1] for move in moves if move.startswith("pick ")]
    if not picks:
        return None
    picked = tuple(view.get("private", {}).get("draft", []))
    seat = view.get("you")
    holds_repeat = str(view.get("items", {}).get("repeat", "none")) in (str(seat), "both")
    copy_allowed = holds_repeat and len(set(picked)) == len(picked)
    available = tuple(tile for tile in POOL if tile in picks and tile not in picked)
    return DraftStep(picked, available, copy_allowed)


def placements_by_tile(moves: Iterable[str]) -> dict[str, list[str]]:
    """Legal placements grouped by tile, tiles in the order their first placement comes."""
    grouped: dict[str, list[str]] = {}
    for move in moves:
        if _PLACEMENT.match(move):
            grouped.setdefault(tile_of(move), []).append(move)
    return grouped


def split_placements(moves: Sequence[str], limit: int = SELECT_LIMIT) -> list[list[str]]:
    """Placements in chunks of at most `limit`, never splitting the placements that start
    on the same square (so each select covers a clear range of squares).

    On the 4×4 board a tile has at most 24 placements (12 pairs, 2 orientations), so one
    select always suffices; the split keeps the component valid should that ever change."""
    groups: dict[str, list[str]] = {}
    for move in moves:
        groups.setdefault(move.split(" ")[1].split("-")[0], []).append(move)
    chunks: list[list[str]] = [[]]
    for group in groups.values():
        if chunks[-1] and len(chunks[-1]) + len(group) > limit:
            chunks.append([])
        chunks[-1].extend(group)
    return [chunk[i : i + limit] for chunk in chunks for i in range(0, len(chunk), limit)]


def _square_text(view: dict[str, Any], square: str, seat: int) -> str:
    cell = view.get("board", {}).get(square)
    if not cell:
        return tr("{square} empty", square=square)
    owner, number = cell.get("owner"), cell.get("number")
    if owner == seat:
        return tr("{square} covers your {number}", square=square, number=number)
    if owner in (0, 1):
        return tr("{square} covers {seat}'s {number}", square=square, seat=SEAT_NAMES[owner], number=number)
    return tr("{square} covers a {number}", square=square, number=number)


def placement_option(move: str, view: dict[str, Any], seat: int) -> discord.SelectOption:
    """`5-3 b2-b3` -> "5 on b2 · 3 on b3", described by what each square shows now."""
    found = _PLACEMENT.match(move)
    assert found is not None, move
    a, b, first, second = found.groups()
    description = tr(
        "{first} · {second}", first=_square_text(view, first, seat), second=_square_text(view, second, seat)
    )
    label = tr("{a} on {first} · {b} on {second}", a=a, first=first, b=b, second=second)
    return discord.SelectOption(label=label, value=move, description=description)


def is_still_open(move: str, moves: Sequence[str]) -> bool:
    """Whether a final choice can still be played: the move is legal, or, for the `draft`
    shorthand (never listed), the seat is still drafting."""
    if move.startswith("draft "):
        return any(m.startswith("pick ") for m in moves)
    return move in moves


def with_status(content: str, status: str) -> str:
    """The DM text with its step line replaced by `status`."""
    lines = [line for line in content.splitlines() if not line.startswith(STATUS)]
    return "\n".join([*lines, STATUS + status])[:2000]


# --- components ----------------------------------------------------------------------------


def _custom_id(match_id: int, seat: int, step: str) -> str:
    custom_id = f"{TAG}:{match_id}:{seat}:{step}"
    assert len(custom_id) <= 100, custom_id
    return custom_id


def _ids(match: re.Match[str]) -> tuple[int, int]:
    return int(match["id"]), int(match["seat"])


class DraftSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=_SEAT + r":ds:(?P<picked>[a-u]{0,8})"):
    """The draft: choose the tiles still needed (the `picked` ones are already in)."""

    def __init__(
        self, match_id: int, seat: int, picked: Sequence[str], options: list[discord.SelectOption] | None = None
    ) -> None:
        super().__init__(discord.ui.Select(custom_id=_custom_id(match_id, seat, f"ds:{encode_tiles(picked)}")))
        self.match_id, self.seat, self.picked = match_id, seat, tuple(picked)
        if options is not None:
            self.item.options = options

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(*_ids(match), decode_tiles(match["picked"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        chosen = list(self.item.values)

        def build(view: dict[str, Any], moves: list[str]) -> tuple[str, discord.ui.View | None]:
            step = _current_draft(view, moves, self.picked)
            if step.wants_copy(chosen):
                return "7 tiles chosen: which one do you want twice?", draft_view(
                    self.match_id, self.seat, step, chosen, copy_step=True
                )
            draft = step.complete(chosen)
            if draft is None:
                raise ServiceError(tr("Choose {need} different tiles.", need=step.need))
            return tr("Your draft: `{draft}`. Confirm it, or change your choice.", draft=" ".join(draft)), draft_view(
                self.match_id, self.seat, step, chosen
            )

        await _next_step(interaction, self.match_id, self.seat, build)


class CopySelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=_SEAT + r":dd:(?P<tiles>[a-u]{1,8})"):
    """Domino Repeat: which of the 7 chosen tiles is drafted twice."""

    def __init__(
        self, match_id: int, seat: int, tiles: Sequence[str], options: list[discord.SelectOption] | None = None
    ) -> None:
        super().__init__(discord.ui.Select(custom_id=_custom_id(match_id, seat, f"dd:{encode_tiles(tiles)}")))
        self.match_id, self.seat, self.tiles = match_id, seat, tuple(tiles)
        if options is not None:
            self.item.options = options
            self.item.placeholder = tr("Which tile do you want twice?")

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(*_ids(match), decode_tiles(match["tiles"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        copy = self.item.values[0]

        def build(view: dict[str, Any], moves: list[str]) -> tuple[str, discord.ui.View | None]:
            step = _current_draft(view, moves)
            chosen = list((Counter(self.tiles) - Counter(step.picked)).elements())
            draft = step.complete(chosen, copy)
            if draft is None:
                raise StaleControls(tr("That draft is out of date."))
            said = tr(
                "Your draft: `{draft}` ({copy} twice). Confirm it, or change your choice.",
                draft=" ".join(draft),
                copy=copy,
            )
            return said, draft_view(self.match_id, self.seat, step, chosen, copy=copy)

        await _next_step(interaction, self.match_id, self.seat, build)


class ConfirmDraft(discord.ui.DynamicItem[discord.ui.Button[Any]], template=_SEAT + r":dk:(?P<tiles>[a-u]{8})"):
    """Plays the whole draft (`draft ...`); the channel learns only that the seat drafted."""

    def __init__(self, match_id: int, seat: int, tiles: Sequence[str]) -> None:
        custom_id = _custom_id(match_id, seat, f"dk:{encode_tiles(tiles)}")
        super().__init__(
            discord.ui.Button(label=tr("Confirm draft"), style=discord.ButtonStyle.success, custom_id=custom_id)
        )
        self.match_id, self.seat, self.tiles = match_id, seat, tuple(sorted(tiles, key=POOL.index))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(*_ids(match), decode_tiles(match["tiles"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        draft = " ".join(self.tiles)
        done = tr("✅ Draft sent: `{draft}`. The match starts when both players have drafted.", draft=draft)
        await _play(interaction, self.match_id, self.seat, f"draft {draft}", done)


class ChoiceButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=_SEAT + r":b:(?P<move>first me|first you|keep|mulligan)"
):
    """A one-word decision of this seat alone: who goes first (Tie Advantage), mulligan or keep."""

    def __init__(self, match_id: int, seat: int, move: str, label: str | None = None) -> None:
        style = discord.ButtonStyle.primary if move in ("first me", "keep") else discord.ButtonStyle.secondary
        custom_id = _custom_id(match_id, seat, f"b:{move}")
        super().__init__(discord.ui.Button(label=label or move, style=style, custom_id=custom_id))
        self.match_id, self.seat, self.move = match_id, seat, move

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(*_ids(match), match["move"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await _play(interaction, self.match_id, self.seat, self.move, tr("✅ You played `{move}`.", move=self.move))


class TileSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=_SEAT + r":t"):
    """A turn, step 1: which tile to place."""

    def __init__(self, match_id: int, seat: int, options: list[discord.SelectOption] | None = None) -> None:
        super().__init__(
            discord.ui.Select(custom_id=_custom_id(match_id, seat, "t"), placeholder="Choose a tile to place")
        )
        self.match_id, self.seat = match_id, seat
        if options is not None:
            self.item.options = options

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(*_ids(match))

    async def callback(self, interaction: discord.Interaction) -> None:
        tile = self.item.values[0]

        def build(view: dict[str, Any], moves: list[str]) -> tuple[str, discord.ui.View | None]:
            if tile not in placements_by_tile(moves):
                raise StaleControls(tr("{tile} cannot be placed now.", tile=tile))
            return tr("Where does {tile} go? Choosing a placement plays it.", tile=tile), tile_view(
                self.match_id, self.seat, view, moves, tile
            )

        await _next_step(interaction, self.match_id, self.seat, build)


class PlacementSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]], template=_SEAT + r":p:(?P<tile>[a-u]):(?P<part>[0-9])"
):
    """A turn, step 2: where the chosen tile goes; choosing plays the placement."""

    def __init__(
        self,
        match_id: int,
        seat: int,
        tile: str,
        part: int = 0,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
    ) -> None:
        custom_id = _custom_id(match_id, seat, f"p:{LETTER_OF[tile]}:{part}")
        super().__init__(discord.ui.Select(custom_id=custom_id, placeholder=placeholder))
        self.match_id, self.seat = match_id, seat
        if options is not None:
            self.item.options = options

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(*_ids(match), TILE_OF[match["tile"]], int(match["part"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        move = self.item.values[0]
        await _play(interaction, self.match_id, self.seat, move, tr("✅ You played `{move}`.", move=move))


class EffectSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=_SEAT + r":e"):
    """An effect's choice (`recycle`, `top`, `discard`); choosing plays it."""

    def __init__(
        self,
        match_id: int,
        seat: int,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
    ) -> None:
        super().__init__(discord.ui.Select(custom_id=_custom_id(match_id, seat, "e"), placeholder=placeholder))
        self.match_id, self.seat = match_id, seat
        if options is not None:
            self.item.options = options

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(*_ids(match))

    async def callback(self, interaction: discord.Interaction) -> None:
        move = self.item.values[0]
        await _play(interaction, self.match_id, self.seat, move, tr("✅ You played `{move}`.", move=move))


ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    DraftSelect,
    CopySelect,
    ConfirmDraft,
    ChoiceButton,
    TileSelect,
    PlacementSelect,
    EffectSelect,
)


# --- step views ----------------------------------------------------------------------------


def _tile_option(tile: str, *, default: bool = False, note: str | None = None) -> discord.SelectOption:
    hint = effects_hint(tile)
    return discord.SelectOption(
        label=tile,
        value=tile,
        description=tr("{note} · {hint}", note=note, hint=hint) if note else hint,
        default=default,
    )


def draft_view(
    match_id: int,
    seat: int,
    step: DraftStep,
    chosen: Sequence[str] = (),
    *,
    copy_step: bool = False,
    copy: str | None = None,
) -> discord.ui.View:
    """The draft select (with `chosen` selected), then the copy select and/or Confirm once
    the choice is complete enough for them."""
    view = discord.ui.View(timeout=None)
    options = [_tile_option(tile, default=tile in chosen) for tile in step.available]
    select = DraftSelect(match_id, seat, step.picked, options)
    select.item.min_values = max(1, min(step.min_values, len(options)))
    select.item.max_values = min(step.need, len(options))
    need, fewer = step.need, step.need - 1
    if step.copy_allowed:
        placeholder = (
            tr("Draft {need} tiles, or {fewer} and copy one", need=need, fewer=fewer)
            if not step.picked
            else tr("Add {need} tiles, or {fewer} and copy one, to your picks", need=need, fewer=fewer)
        )
    else:
        placeholder = (
            tr("Draft {need} tiles", need=need) if not step.picked else tr("Add {need} tiles to your picks", need=need)
        )
    select.item.placeholder = placeholder
    view.add_item(select)
    if copy_step or copy is not None:
        candidates = list(dict.fromkeys([*step.picked, *chosen]))
        copy_options = [_tile_option(tile, default=tile == copy, note=tr("twice")) for tile in candidates]
        view.add_item(CopySelect(match_id, seat, [*step.picked, *chosen], copy_options))
    draft = step.complete(chosen, copy)
    if draft is not None:
        view.add_item(ConfirmDraft(match_id, seat, draft))
    return view


def choice_view(match_id: int, seat: int, view: dict[str, Any], moves: Sequence[str]) -> discord.ui.View | None:
    """Buttons for the first-player choice or the mulligan decision."""
    buttons = [move for move in moves if move in ("first me", "first you", "keep", "mulligan")]
    if not buttons:
        return None
    left = view.get("mulligans_left", [0, 0])[seat]
    labels = {**CHOICE_LABELS, "mulligan": tr("Mulligan ({left} left)", left=left)}
    controls = discord.ui.View(timeout=None)
    for move in buttons:
        controls.add_item(ChoiceButton(match_id, seat, move, labels[move]))
    return controls


def tile_view(
    match_id: int, seat: int, view: dict[str, Any], moves: Sequence[str], tile: str | None = None
) -> discord.ui.View | None:
    """The tiles that can be placed; with `tile` chosen, also where it can go."""
    grouped = placements_by_tile(moves)
    if not grouped:
        return None
    controls = discord.ui.View(timeout=None)
    options = [
        _tile_option(t, default=t == tile, note=tr_n("{n} placement", "{n} placements", len(p)))
        for t, p in list(grouped.items())[:SELECT_LIMIT]
    ]
    controls.add_item(TileSelect(match_id, seat, options))
    if tile is not None and tile in grouped:
        chunks = split_placements(grouped[tile])[:4]  # a message holds 5 rows
        for part, chunk in enumerate(chunks):
            if len(chunks) > 1:
                start, end = chunk[0].split(" ")[1].split("-")[0], chunk[-1].split(" ")[1]
                placeholder = tr("Where does {tile} go? ({start}…{end})", tile=tile, start=start, end=end)
            else:
                placeholder = tr("Where does {tile} go?", tile=tile)
            options = [placement_option(move, view, seat) for move in chunk]
            controls.add_item(PlacementSelect(match_id, seat, tile, part, options, placeholder))
    return controls


def effect_view(match_id: int, seat: int, moves: Sequence[str]) -> discord.ui.View | None:
    """The choice an effect asks for: one select of the legal `recycle`/`top`/`discard` moves."""
    choices = [move for move in moves if move.split(" ")[0] in EFFECT_PROMPTS]
    if not choices:
        return None
    prompt, description = EFFECT_PROMPTS[choices[0].split(" ")[0]]
    options = [
        discord.SelectOption(
            label=f"{move.split(' ')[0].capitalize()} {move.split(' ')[1]}", value=move, description=description
        )
        for move in choices[:SELECT_LIMIT]
    ]
    controls = discord.ui.View(timeout=None)
    controls.add_item(EffectSelect(match_id, seat, options, prompt))
    return controls


def board_beside(view: dict[str, Any]) -> bool:
    """A turn's DM carries the board too: placements are chosen against it."""
    return view.get("phase") in ("play", "effect")


def controls(match_id: int, seat: int, view: dict[str, Any], moves: list[str]) -> discord.ui.View | None:
    """The components of the decision `seat` faces now (see the module docstring)."""
    phase = view.get("phase")
    if phase == "draft":
        step = draft_step(view, moves)
        return draft_view(match_id, seat, step) if step is not None and step.available else None
    if phase in ("first", "mulligan"):
        return choice_view(match_id, seat, view, moves)
    if phase == "play":
        return tile_view(match_id, seat, view, moves)
    if phase == "effect":
        return effect_view(match_id, seat, moves)
    return None


# --- callbacks -----------------------------------------------------------------------------


def _current_draft(view: dict[str, Any], moves: list[str], picked: Sequence[str] | None = None) -> DraftStep:
    """The seat's draft step now; refuses if it has drafted or its picks changed since."""
    step = draft_step(view, moves)
    if step is None:
        raise StaleControls(tr("Your draft is already done: these controls are out of date."))
    if picked is not None and sorted(picked) != sorted(step.picked):
        raise StaleControls(tr("Your picks changed since this message."))
    return step


async def _situation(interaction: discord.Interaction, match_id: int, seat: int) -> tuple[dict[str, Any], list[str]]:
    """The clicker's view and legal moves now; refuses other users and out-of-turn clicks."""
    await check_owner(interaction, match_id, seat)
    service = service_of(interaction)
    moves = await service.legal_moves(match_id, interaction.user.id)
    if not moves:
        raise StaleControls(tr("You have nothing to decide now: these controls are out of date."))
    return await service.view(match_id, interaction.user.id), moves


def _content(interaction: discord.Interaction) -> str:
    return interaction.message.content if interaction.message is not None else ""


StepBuilder = Callable[[dict[str, Any], list[str]], tuple[str, discord.ui.View | None]]
"""(view, legal moves) -> (status line, next components); raises ServiceError if out of date."""


async def _next_step(interaction: discord.Interaction, match_id: int, seat: int, build: StepBuilder) -> None:
    """Answer a step that is not final: the same message shows the next components."""
    presenter_of(interaction).remember(interaction.user)
    try:
        await defer(interaction)
        view, moves = await _situation(interaction, match_id, seat)
        status, next_view = build(view, moves)
        locale = await reader_locale(interaction)
        await interaction.edit_original_response(
            content=with_status(_content(interaction), translate(locale, status)), view=localize_view(next_view, locale)
        )
    except Exception as error:
        await report_or_refresh(interaction, match_id, seat, error)


async def _play(interaction: discord.Interaction, match_id: int, seat: int, move: str, done: Text) -> None:
    """The final step: play `move`, mark the message done (controls removed), then announce.

    A draft is secret: the channel gets only the engine's line that the seat has drafted."""
    presenter = presenter_of(interaction)
    presenter.remember(interaction.user)
    try:
        await defer(interaction)
        _view, moves = await _situation(interaction, match_id, seat)
        if not is_still_open(move, moves):
            raise StaleControls(tr("That choice is out of date: nothing was played."))
        update: Update = await service_of(interaction).play(match_id, interaction.user.id, move)
    except Exception as error:
        await report_or_refresh(interaction, match_id, seat, error)
        return
    content = _content(interaction)  # already in the reader's language: only `done` is translated
    await receipt_and_announce(interaction, update, done, shown=lambda said: with_status(content, said))
