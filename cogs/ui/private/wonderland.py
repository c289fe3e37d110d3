"""Wonderland's private controls: the pool deck, the dice and the defence, in the player's DMs.

Three decisions are secret or personal enough to be made where the pool deck is shown:

- the pool deck (15 cards, chosen by both players at once): one multi-select per suit, the
  ranks as options, and a Confirm button that plays the engine's `pool AH 2S ...` shorthand;
- the dice of a turn: one multi-select of the cards the engine offers (1 to 3), and a Roll
  button that plays the listed `dice 1:AH 2:5D` move for that choice;
- the defence after the opponent's turn: one button per `defend 5D` move and a button for
  `done` (no defence, or no more).

Every other decision (summons, moves, attacks, abilities, `end`) is public and played with
`/move` or typed in the match channel, so `controls` returns None then and nobody is DMed
after each move.  That includes the opponent's abilities during the active player's action
step: the opponent MAY act then (`state.may_act`) but is not in `turn`, so it gets no
controls and no prompt.

The choice made so far rides in the custom ids (a 52-bit card mask in hex), never in memory,
so a restart between two selects changes nothing.  Each custom id also names the seat, and a
click by anyone else is refused.  The steps are rebuilt from the seat's CURRENT view and legal
moves at every click, so a choice that is no longer open is dropped or refused, and the
service re-checks the final move anyway.  The rank-and-colour rule of the pool uses the
engine's own `kind_of`; the components never decide a rule themselves.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final, Self

import discord

from bot.games.wonderland.cards import CARDS, DECK, FACTOR_NAMES, POOL_SIZE, RANKS, SUIT_SYMBOLS, faces_of, kind_of
from bot.i18n import Text, joined, tr, tr_n, translate
from bot.services.matches import MatchStatus, NoMatchHere, ServiceError
from cogs.acknowledge import defer
from cogs.common import presenter_of, service_of
from cogs.speech import localize_view, reader_locale
from cogs.ui.private import StaleControls, check_owner, receipt_and_announce, report_or_refresh

PREFIX: Final = "boneyard:wl"
_HEAD: Final = rf"{PREFIX}:(?P<id>[0-9]+):(?P<seat>[01])"
_MASK: Final = r"(?P<mask>[0-9a-f]{1,13})"

SUIT_ORDER: Final = ("H", "D", "S", "C")
"""Red suits first, then black: cards that may clash (same rank and colour) sit one select apart."""
SUIT_NAMES: Final = {"H": tr("Hearts"), "D": tr("Diamonds"), "S": tr("Spades"), "C": tr("Clubs")}
MAX_DICE: Final = 3
MAX_BUTTONS: Final = 25
"""Discord's limit of components on one message."""

POOL_OVER: Final = tr("This pool choice is over: your pool deck is already chosen.")
DICE_OVER: Final = tr("These dice are out of date: it is not your dice step any more.")
DEFENCE_OVER: Final = tr("That defence is no longer open: the defence step has moved on.")


# --- cards and masks -----------------------------------------------------------------------------


def encode(cards: Iterable[str]) -> str:
    """A set of cards as a hex mask over the canonical deck order (13 characters at most)."""
    mask = 0
    for card in cards:
        mask |= 1 << DECK.index(card)
    return f"{mask:x}"


def decode(mask: str) -> tuple[str, ...]:
    """The cards of a mask from `encode`, in deck order; bits beyond the deck are ignored."""
    bits = int(mask, 16)
    return tuple(card for i, card in enumerate(DECK) if bits >> i & 1)


def shown(card: str) -> str:
    """`7H` -> `7♥`, the way players read cards."""
    return card[:-1] + SUIT_SYMBOLS[card[-1]]


def shown_all(cards: Iterable[str]) -> str:
    return " ".join(shown(c) for c in cards) or tr("none")


def in_hand_order(cards: Iterable[str]) -> list[str]:
    """Suit by suit (as the selects are), ace to king within a suit: how a player sorts a hand."""
    return sorted(cards, key=lambda c: (SUIT_ORDER.index(c[-1]), RANKS.index(c[:-1])))


def card_facts(card: str) -> str:
    info = CARDS[card]
    return tr(
        "Level {level} · Str {strength} Atk {attack} Def {defence}",
        level=info.level,
        strength=info.strength,
        attack=info.attack,
        defence=info.defence,
    )


# --- the pool step -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PoolStep:
    """The pool deck being chosen: what is already picked, what may be, what is chosen."""

    picked: tuple[str, ...]
    """Cards already in the pool deck (single `pick` moves typed earlier); they stay."""
    offered: tuple[str, ...]
    """Cards the engine still lets this seat pick (its `pick` moves), in deck order."""
    chosen: tuple[str, ...] = ()
    """Cards chosen in the selects so far, all of them offered, in deck order."""
    dropped: tuple[str, ...] = ()
    """Cards of an older choice that are no longer offered (picked meanwhile, or clashing)."""

    @property
    def count(self) -> int:
        return len(self.picked) + len(self.chosen)

    def offered_in(self, suit: str) -> tuple[str, ...]:
        """The suit's offered cards, ace to king."""
        return tuple(in_hand_order(c for c in self.offered if c.endswith(suit)))

    def choose(self, cards: Iterable[str]) -> PoolStep:
        """This step with `cards` chosen; ones not offered are set aside in `dropped`."""
        wanted = set(cards)
        return replace(
            self,
            chosen=tuple(c for c in self.offered if c in wanted),
            dropped=tuple(c for c in DECK if c in wanted and c not in self.offered and c not in self.picked),
        )

    def with_suit(self, suit: str, cards: Iterable[str]) -> PoolStep:
        """The choice after a suit's select changed: that suit's cards replaced by `cards`."""
        others = [c for c in self.chosen if not c.endswith(suit)]
        return self.choose([*others, *(c for c in cards if c.endswith(suit))])

    def clashes(self) -> list[tuple[str, ...]]:
        """Groups of two or more cards of one rank and colour (rule 2 allows one of each)."""
        kinds: dict[tuple[str, str], list[str]] = defaultdict(list)
        for card in (*self.picked, *self.chosen):
            kinds[kind_of(card)].append(card)
        return [tuple(group) for group in kinds.values() if len(group) > 1]

    def clash_sentences(self) -> list[str]:
        sentences: list[str] = []
        for group in self.clashes():
            rank, colour = kind_of(group[0])
            first, second = (shown(c) for c in in_hand_order(group)[:2])  # a rank has two suits of a colour
            if colour == "red":
                said = tr(
                    "{first} and {second} are both a red {rank}: keep only one (no two of one rank and colour).",
                    first=first,
                    second=second,
                    rank=rank,
                )
            else:
                said = tr(
                    "{first} and {second} are both a black {rank}: keep only one (no two of one rank and colour).",
                    first=first,
                    second=second,
                    rank=rank,
                )
            sentences.append(said)
        return sentences

    def count_sentence(self) -> str | None:
        missing = POOL_SIZE - self.count
        if missing > 0:
            return tr_n("Choose {n} more card.", "Choose {n} more cards.", missing)
        if missing < 0:
            return tr_n(
                "That is {n} too many: a pool deck has {size} cards.",
                "That is {n} too many: a pool deck has {size} cards.",
                -missing,
                size=POOL_SIZE,
            )
        return None

    def problems(self) -> list[str]:
        """Why the choice cannot be confirmed yet, one sentence each (empty: ready)."""
        count = self.count_sentence()
        return self.clash_sentences() + ([count] if count else [])

    @property
    def ready(self) -> bool:
        return not self.problems()

    def move(self) -> str:
        """The engine's shorthand for the cards still to pick."""
        return "pool " + " ".join(self.chosen)


def pool_step(view: dict[str, Any], moves: Sequence[str], chosen: Iterable[str] = ()) -> PoolStep | None:
    """The pool step of a seat from its view and legal moves, or None when it picks no more."""
    offered = {m.split()[1] for m in moves if m.startswith("pick ")}
    if not offered:
        return None
    private = view.get("private") or {}
    picked = tuple(str(c) for c in private.get("pool", [])) if view.get("phase") == "pool" else ()
    return PoolStep(picked=picked, offered=tuple(c for c in DECK if c in offered)).choose(chosen)


def pool_text(match_id: int, step: PoolStep) -> str:
    lines: list[str] = [
        tr(
            "**Wonderland** · match #{match} — your pool deck: {size} cards, no two of one rank and colour.",
            match=match_id,
            size=POOL_SIZE,
        ),
        tr(
            "Chosen {count}/{size}: {cards}",
            count=step.count,
            size=POOL_SIZE,
            cards=shown_all(in_hand_order(step.chosen)),
        ),
    ]
    if step.picked:
        lines.append(tr("Already picked: {cards}", cards=shown_all(in_hand_order(step.picked))))
    if step.dropped:
        lines.append(tr("No longer available, left out: {cards}", cards=shown_all(step.dropped)))
    lines.extend(tr("⚠️ {sentence}", sentence=sentence) for sentence in step.clash_sentences())
    count = step.count_sentence()
    if count:
        lines.append(count)
    elif step.ready:
        lines.append(tr("Press **Confirm pool deck** to play it."))
    return joined("\n", lines)


# --- the dice step -------------------------------------------------------------------------------


def dice_cards(move: str) -> tuple[str, ...]:
    """`dice 1:AH 2:5D` -> (`AH`, `5D`)."""
    return tuple(word.partition(":")[2] for word in move.split()[1:])


@dataclass(frozen=True, slots=True)
class DiceStep:
    """The dice of a turn being chosen, narrowed from the engine's `dice` moves."""

    offered: tuple[str, ...]
    """Cards that may go on a die (those of the one-die moves), in the engine's order."""
    choices: dict[frozenset[str], str]
    """Each legal set of cards -> its `dice` move."""
    chosen: tuple[str, ...] = ()

    @property
    def most(self) -> int:
        return max((len(cards) for cards in self.choices), default=1)

    def choose(self, cards: Iterable[str]) -> DiceStep:
        wanted = set(cards)
        return replace(self, chosen=tuple(c for c in self.offered if c in wanted))

    def move(self) -> str | None:
        """The engine's move for the chosen cards, or None when they are not a legal choice."""
        return self.choices.get(frozenset(self.chosen)) if self.chosen else None


def dice_step(moves: Sequence[str], chosen: Iterable[str] = ()) -> DiceStep | None:
    """The dice step from a seat's legal moves, or None when it chooses no dice now."""
    choices = {frozenset(dice_cards(m)): m for m in moves if m.startswith("dice ")}
    if not choices:
        return None
    offered = tuple(next(iter(cards)) for cards in choices if len(cards) == 1)
    return DiceStep(offered=offered, choices=choices).choose(chosen)


def dice_text(match_id: int, step: DiceStep) -> str:
    head = tr(
        "**Wonderland** · match #{match} — your dice: 1 to {most}, each card rolls a die of its level.",
        match=match_id,
        most=step.most,
    )
    if not step.chosen:
        return joined("\n", [head, tr("Choose the cards in the menu.")])
    dice = joined(", ", [tr("{card} (level {level})", card=shown(c), level=CARDS[c].level) for c in step.chosen])
    tail = tr("Press **Roll** to roll them.") if step.move() else tr("⚠️ These cards are not a choice you may make now.")
    return joined("\n", [head, tr("Chosen: {dice}", dice=dice), tail])


# --- the defence step ----------------------------------------------------------------------------


def defence_moves(moves: Sequence[str]) -> list[str]:
    """The `defend` moves, then `done`; empty when there is nothing to defend (the channel's
    `done` button and `/move` are enough then)."""
    defends = [m for m in moves if m.startswith("defend ")]
    if not defends or "done" not in moves:
        return []
    return [*defends, "done"]


def defence_label(move: str, view: dict[str, Any]) -> str:
    if move == "done":
        seat = view.get("you")
        defended = any(b.get("defended") and b.get("owner") == seat for b in view.get("beings", []))
        return tr("Done defending") if defended else tr("No defence")
    card = move.split()[1]
    square = next((b["square"] for b in view.get("beings", []) if b.get("card") == card), None)
    if square:
        return tr("Defend {card} on {square}", card=shown(card), square=square)
    return tr("Defend {card}", card=shown(card))


# --- components ----------------------------------------------------------------------------------


async def _guarded(
    interaction: discord.Interaction, match_id: int, seat: int, act: Callable[[], Awaitable[None]]
) -> None:
    """Run a step for the seat its custom id names; anyone else, and any error, gets an
    ephemeral refusal and nothing changes."""
    presenter_of(interaction).remember(interaction.user)
    try:
        await defer(interaction)
        await check_owner(interaction, match_id, seat)
        await act()
    except Exception as error:
        await report_or_refresh(interaction, match_id, seat, error)


async def _situation(interaction: discord.Interaction, match_id: int) -> tuple[dict[str, Any], list[str]]:
    """The clicking player's current view and legal moves (refused once the match is over)."""
    service = service_of(interaction)
    if (await service.get(match_id)).status != MatchStatus.ACTIVE:
        raise NoMatchHere(tr("This match is not running any more."))
    user_id = interaction.user.id
    return await service.view(match_id, user_id), await service.legal_moves(match_id, user_id)


async def _play(interaction: discord.Interaction, match_id: int, move: str, done_text: Text) -> None:
    """The final step: play, then the DM becomes a receipt (picture dropped) and the update is announced."""
    update = await service_of(interaction).play(match_id, interaction.user.id, move)
    await receipt_and_announce(interaction, update, done_text, attachments=[])


class PoolSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=rf"{_HEAD}:ps:(?P<suit>[HDSC]):{_MASK}",
):
    """One suit's ranks; the custom id carries the whole choice so far."""

    def __init__(self, match_id: int, seat: int, suit: str, chosen: str, step: PoolStep | None = None) -> None:
        options = [] if step is None else self._options(step, suit)
        red = suit in "HD"
        super().__init__(
            discord.ui.Select(
                custom_id=f"{PREFIX}:{match_id}:{seat}:ps:{suit}:{chosen}",
                placeholder=(
                    tr(
                        "{symbol} {suit}: choose ranks (each red rank once)",
                        symbol=SUIT_SYMBOLS[suit],
                        suit=SUIT_NAMES[suit],
                    )
                    if red
                    else tr(
                        "{symbol} {suit}: choose ranks (each black rank once)",
                        symbol=SUIT_SYMBOLS[suit],
                        suit=SUIT_NAMES[suit],
                    )
                ),
                min_values=0,
                max_values=max(1, len(options)),
                options=options,
            ),
            row=SUIT_ORDER.index(suit),
        )
        self.match_id, self.seat, self.suit, self.chosen = match_id, seat, suit, chosen

    @staticmethod
    def _options(step: PoolStep, suit: str) -> list[discord.SelectOption]:
        return [
            discord.SelectOption(label=shown(c), value=c, description=card_facts(c), default=c in step.chosen)
            for c in step.offered_in(suit)
        ]

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(int(match["id"]), int(match["seat"]), match["suit"], match["mask"])

    async def callback(self, interaction: discord.Interaction) -> None:
        async def act() -> None:
            step = pool_step(*await _situation(interaction, self.match_id), decode(self.chosen))
            if step is None:
                raise StaleControls(POOL_OVER)
            step = step.with_suit(self.suit, self.item.values)
            locale = await reader_locale(interaction)
            await interaction.edit_original_response(
                content=translate(locale, pool_text(self.match_id, step)),
                view=localize_view(pool_view(self.match_id, self.seat, step), locale),
            )

        await _guarded(interaction, self.match_id, self.seat, act)


class PoolConfirm(discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"{_HEAD}:pc:{_MASK}"):
    """Plays the chosen pool deck (disabled until the choice is complete and clash-free)."""

    def __init__(self, match_id: int, seat: int, chosen: str, step: PoolStep | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                custom_id=f"{PREFIX}:{match_id}:{seat}:pc:{chosen}",
                label=tr("Confirm pool deck ({count}/{size})", count=0 if step is None else step.count, size=POOL_SIZE),
                style=discord.ButtonStyle.success,
                disabled=step is not None and not step.ready,
            ),
            row=len(SUIT_ORDER),
        )
        self.match_id, self.seat, self.chosen = match_id, seat, chosen

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(int(match["id"]), int(match["seat"]), match["mask"])

    async def callback(self, interaction: discord.Interaction) -> None:
        async def act() -> None:
            step = pool_step(*await _situation(interaction, self.match_id), decode(self.chosen))
            if step is None:
                raise StaleControls(POOL_OVER)
            if not step.ready:
                raise ServiceError(" ".join(step.problems()))
            deck = shown_all(in_hand_order((*step.picked, *step.chosen)))
            await _play(interaction, self.match_id, step.move(), tr("✅ Your pool deck is chosen: {deck}", deck=deck))

        await _guarded(interaction, self.match_id, self.seat, act)


class DiceSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=rf"{_HEAD}:ds:{_MASK}"):
    """The cards to roll this turn (1 to 3 of the pool deck)."""

    def __init__(self, match_id: int, seat: int, chosen: str, step: DiceStep | None = None) -> None:
        options = [] if step is None else self._options(step)
        super().__init__(
            discord.ui.Select(
                custom_id=f"{PREFIX}:{match_id}:{seat}:ds:{chosen}",
                placeholder=tr("Choose the cards to roll (1 to 3)"),
                min_values=1,
                max_values=max(1, min(MAX_DICE if step is None else step.most, len(options))),
                options=options,
            ),
            row=0,
        )
        self.match_id, self.seat, self.chosen = match_id, seat, chosen

    @staticmethod
    def _options(step: DiceStep) -> list[discord.SelectOption]:
        return [
            discord.SelectOption(
                label=shown(c),
                value=c,
                description=tr("{facts} · die {faces}", facts=card_facts(c), faces=" ".join(faces_of(CARDS[c].level))),
                default=c in step.chosen,
            )
            for c in step.offered
        ]

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(int(match["id"]), int(match["seat"]), match["mask"])

    async def callback(self, interaction: discord.Interaction) -> None:
        async def act() -> None:
            _view, moves = await _situation(interaction, self.match_id)
            step = dice_step(moves, self.item.values)
            if step is None:
                raise StaleControls(DICE_OVER)
            locale = await reader_locale(interaction)
            await interaction.edit_original_response(
                content=translate(locale, dice_text(self.match_id, step)),
                view=localize_view(dice_view(self.match_id, self.seat, step), locale),
            )

        await _guarded(interaction, self.match_id, self.seat, act)


class DiceRoll(discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"{_HEAD}:dr:{_MASK}"):
    """Plays the `dice` move of the chosen cards (disabled until a legal choice is made)."""

    def __init__(self, match_id: int, seat: int, chosen: str, step: DiceStep | None = None) -> None:
        cards = () if step is None else step.chosen
        super().__init__(
            discord.ui.Button(
                custom_id=f"{PREFIX}:{match_id}:{seat}:dr:{chosen}",
                label=tr("Roll {cards}", cards=shown_all(cards)) if cards else tr("Roll"),
                style=discord.ButtonStyle.success,
                disabled=step is not None and step.move() is None,
            ),
            row=1,
        )
        self.match_id, self.seat, self.chosen = match_id, seat, chosen

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(int(match["id"]), int(match["seat"]), match["mask"])

    async def callback(self, interaction: discord.Interaction) -> None:
        async def act() -> None:
            _view, moves = await _situation(interaction, self.match_id)
            step = dice_step(moves, decode(self.chosen))
            if step is None:
                raise StaleControls(DICE_OVER)
            move = step.move()
            if move is None:
                raise ServiceError(tr("Those cards cannot be rolled now; choose again in the menu."))
            text = tr(
                "🎲 You roll {cards}: the result is on the board in the match channel.", cards=shown_all(step.chosen)
            )
            await _play(interaction, self.match_id, move, text)

        await _guarded(interaction, self.match_id, self.seat, act)


class DefenceButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"{_HEAD}:df:(?P<move>defend (?:10|[2-9AJQK])[CDHS]|done)",
):
    """One defence decision: `defend <card>` or `done`, the engine's own move strings."""

    def __init__(self, match_id: int, seat: int, move: str, label: str | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                custom_id=f"{PREFIX}:{match_id}:{seat}:df:{move}",
                label=label or move,
                style=discord.ButtonStyle.secondary if move == "done" else discord.ButtonStyle.primary,
            )
        )
        self.match_id, self.seat, self.move = match_id, seat, move

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(int(match["id"]), int(match["seat"]), match["move"])

    async def callback(self, interaction: discord.Interaction) -> None:
        async def act() -> None:
            _view, moves = await _situation(interaction, self.match_id)
            if self.move not in moves:
                raise StaleControls(DEFENCE_OVER)
            if self.move == "done":
                text = tr("You are done defending: the attacks are reckoned.")
            else:
                text = tr("🛡️ {card} checks its defence.", card=shown(self.move.split()[1]))
            await _play(interaction, self.match_id, self.move, text)

        await _guarded(interaction, self.match_id, self.seat, act)


ITEMS: Final = (PoolSelect, PoolConfirm, DiceSelect, DiceRoll, DefenceButton)


# --- views ---------------------------------------------------------------------------------------


def pool_view(match_id: int, seat: int, step: PoolStep) -> discord.ui.View:
    chosen = encode(step.chosen)
    view = discord.ui.View(timeout=None)
    for suit in SUIT_ORDER:
        if step.offered_in(suit):
            view.add_item(PoolSelect(match_id, seat, suit, chosen, step))
    view.add_item(PoolConfirm(match_id, seat, chosen, step))
    return view


def dice_view(match_id: int, seat: int, step: DiceStep) -> discord.ui.View:
    chosen = encode(step.chosen)
    view = discord.ui.View(timeout=None)
    view.add_item(DiceSelect(match_id, seat, chosen, step))
    view.add_item(DiceRoll(match_id, seat, chosen, step))
    return view


def defence_view(match_id: int, seat: int, view: dict[str, Any], moves: Sequence[str]) -> discord.ui.View | None:
    decisions = defence_moves(moves)
    if not decisions:
        return None
    buttons = discord.ui.View(timeout=None)
    for move in [*decisions[:-1][: MAX_BUTTONS - 1], decisions[-1]]:  # `done` always fits
        buttons.add_item(DefenceButton(match_id, seat, move, defence_label(move, view)))
    return buttons


def summary(view: dict[str, Any]) -> str | None:
    """With `hidden_factors=on`: the seat's own factor pool and roll in words (the picture
    shows them too; nobody else is told)."""
    mine = view.get("private") or {}
    factors = mine.get("factors")
    if not isinstance(factors, dict):
        return None
    lines: list[str] = [
        tr(
            "Your factors (hidden from your opponent): {factors}",
            factors=" · ".join(f"{FACTOR_NAMES[k]} {v}" for k, v in factors.items()),
        )
    ]
    rolled = mine.get("rolled")
    if rolled:
        dice = [str(d.get("card")) for d in view.get("dice", [])]
        faces = ", ".join(
            f"{shown(card)} {FACTOR_NAMES.get(face, 'Summon')}" for card, face in zip(dice, rolled, strict=False)
        )
        lines.append(tr("Your roll: {faces}", faces=faces))
    return joined("\n", lines)


def controls(match_id: int, seat: int, view: dict[str, Any], moves: list[str]) -> discord.ui.View | None:
    """The DM components for the seat's decision now; None in the action step (public moves)
    and for a seat that may act but is not asked to (`turn` names who must)."""
    if seat not in view.get("turn", []):
        return None
    pool = pool_step(view, moves)
    if pool is not None:
        return pool_view(match_id, seat, pool)
    dice = dice_step(moves)
    if dice is not None:
        return dice_view(match_id, seat, dice)
    return defence_view(match_id, seat, view, moves)
