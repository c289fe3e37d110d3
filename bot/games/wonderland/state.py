"""The Wonderland position (`WonderlandState`) and the turn machine.

Phases: `pool` (both seats pick 15 cards at once: turn {0, 1}), then each player turn runs
`dice` (the active seat chooses dice) → `roll` (CHANCE) → `action` (summon, move, attack,
abilities, `end`; the opponent MAY use abilities meanwhile: it is in `may_act`, not in
`turn`, so it is never waited for and its clock does not run) → `defence` (first the
opponent: `defend`, abilities, `done`; then the active seat if its own beings were hit,
e.g. by a Rook's blast: `defend`, `done`) → the reckoning, after which the other seat's
turn begins.

Representation: immutable tuples of small frozen records (`Being`, `PendingAttack`) and
plain strings for cards, so `dump()` is nearly the fields themselves.  Derived sets (path
squares, occupants, the legal moves) are computed on first use and cached per state.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Iterable, Iterator
from typing import Any, Final, Self

from bot.games.base import CHANCE, GameState, IllegalMove, LogEntry, OptionValue, Outcome, normalise, opponent
from bot.games.wonderland import combat, movement, narration
from bot.games.wonderland.beings import Being
from bot.games.wonderland.board import (
    Board,
    Path,
    anchors,
    any_path,
    canonical_path,
    enumerate_layouts,
    enumerate_paths,
    format_path,
    path_error,
    readings,
)
from bot.games.wonderland.cards import (
    CARDS,
    DECK,
    FACTOR_NAMES,
    FACTORS,
    LEVELS,
    POOL_SIZE,
    faces_of,
    kind_of,
    parse_card,
)
from bot.games.wonderland.notation import (
    Ability,
    Attack,
    Defend,
    Detonate,
    Dice,
    Done,
    End,
    Move,
    Pick,
    Roll,
    Step,
    Summon,
    format_attack,
    format_dice,
    format_roll,
    format_step,
    format_summon,
    parse_move,
    roll_allowed,
    sort_cards,
)
from bot.i18n import tr

TURN_LIMIT: Final = 200
LIVES: Final = 3
SUMMON_LIST_CAP: Final = 3000
"""At most this many summons are listed by `legal_moves`, shared evenly by the cards that
may be summoned; `summon_moves(seat, prefix)` lists them all (measured on random games:
median 2,400, 90th percentile 3,900, largest 5,800 summons after a roll that allows one)."""
ABILITY_LIST_MAX: Final = 9
"""Abilities are listed with X up to this; a larger X is accepted when typed."""

POOL, DICE, ROLL, ACTION, DEFENCE = "pool", "dice", "roll", "action", "defence"
_F = {kind: i for i, kind in enumerate(FACTORS)}
Factors = tuple[int, int, int, int, int]
SEAT_NAMES: Final = (tr("Orange"), tr("Blue"))

_FIELDS: Final = (
    "options",
    "board",
    "phase",
    "active",
    "turn_no",
    "pools",
    "summoned",
    "paths",
    "lives",
    "beings",
    "factors",
    "dice",
    "faces",
    "summon_done",
    "attacks",
    "defender",
    "last_move",
    "ply",
    "_outcome",
)


def _add(factors: Factors, kind: str, amount: int) -> Factors:
    out = list(factors)
    out[_F[kind]] += amount
    return (out[0], out[1], out[2], out[3], out[4])


class WonderlandState(GameState):
    """A Wonderland position; build one with `WonderlandRules.start` or `.load`."""

    options: dict[str, OptionValue]
    board: Board
    phase: str
    active: int
    turn_no: int
    """Player turns completed since the pool was picked."""
    pools: tuple[tuple[str, ...], tuple[str, ...]]
    """Each seat's pool deck as picked (secret)."""
    summoned: tuple[tuple[str, ...], tuple[str, ...]]
    """Cards each seat has summoned, in order (public; they left the pool deck)."""
    paths: tuple[tuple[int, Path], ...]
    lives: tuple[int, int]
    beings: tuple[Being, ...]
    factors: tuple[Factors, Factors]
    dice: tuple[str, ...]
    faces: tuple[str, ...] | None
    summon_done: bool
    attacks: tuple[combat.PendingAttack, ...]
    defender: int | None
    last_move: str | None
    ply: int
    """Moves played so far, chance and forced moves included."""
    _outcome: Outcome | None

    def __init__(self, **fields: Any) -> None:
        for name in _FIELDS:
            setattr(self, name, fields[name])
        self._cache: dict[str, Any] = {}
        self.forced = ()

    def _evolve(self, **changes: Any) -> Self:
        new = object.__new__(type(self))
        for name in _FIELDS:
            setattr(new, name, changes[name] if name in changes else getattr(self, name))
        new._cache = {}
        new.forced = ()
        return new

    # --- derived facts -------------------------------------------------------------------

    @property
    def hidden_factors(self) -> bool:
        return self.options["hidden_factors"] == "on"

    def pool_deck(self, seat: int) -> tuple[str, ...]:
        """The cards a seat may still put on a die: picked and not yet summoned."""
        gone = set(self.summoned[seat])
        return tuple(c for c in self.pools[seat] if c not in gone)

    def path_squares(self) -> frozenset[int]:
        found = self._cache.get("walk")
        if found is None:
            found = frozenset(s for _owner, path in self.paths for s in path)
            self._cache["walk"] = found
        return found

    def used_squares(self) -> frozenset[int]:
        return self.path_squares() | frozenset(self.board.images)

    def own_squares(self, seat: int) -> list[int]:
        return [s for owner, path in self.paths if owner == seat for s in path]

    def occupants(self) -> dict[int, Being]:
        found = self._cache.get("occ")
        if found is None:
            found = {b.square: b for b in self.beings}
            self._cache["occ"] = found
        return found

    def being(self, seat: int, card: str) -> Being | None:
        for b in self.beings:
            if b.owner == seat and b.card == card:
                return b
        return None

    def summonable(self) -> tuple[str, ...]:
        """Cards the active seat may summon now (rule 4): on S dice of a level with 2+ S."""
        if self.phase != ACTION or self.summon_done or self.faces is None:
            return ()
        found: list[str] = []
        for level in LEVELS:
            hits = [c for c, f in zip(self.dice, self.faces, strict=True) if f == "S" and CARDS[c].level == level]
            if len(hits) >= 2:
                found.extend(hits)
        return sort_cards(found)

    def summon_anchors(self, seat: int) -> frozenset[int]:
        return anchors(self.board, self.used_squares(), self.own_squares(seat), seat)

    def layouts(self, seat: int) -> tuple[Path, ...]:
        found = self._cache.get(f"layouts{seat}")
        if found is None:
            found = enumerate_layouts(self.board, self.used_squares(), self.summon_anchors(seat))
            self._cache[f"layouts{seat}"] = found
        return found

    def placements(self, seat: int, path: Path) -> list[int]:
        """Squares of a new path where the being may stand (rule 6): next to an earlier
        path square of either player, or (when it touches none) next to the seat's Image."""
        beside = self._beside_paths()
        found = [s for s in path if s in beside]
        if not found:
            image = self.board.images[seat]
            near = self.board.orthogonal
            found = [s for s in path if image in near[s]]
        return sorted(found)

    def _beside_paths(self) -> frozenset[int]:
        """Squares orthogonally next to an earlier path square: made once per state, since
        every legal summon's placements are asked about it (hundreds of paths a position)."""
        found = self._cache.get("beside")
        if found is None:
            near = self.board.orthogonal
            found = frozenset(n for s in self.path_squares() for n in near[s])
            self._cache["beside"] = found
        return found

    def can_summon(self, seat: int) -> bool:
        """Rule 13: a level with two cards left, and room for a path."""
        counts = [0] * 5
        for card in self.pool_deck(seat):
            counts[CARDS[card].level] += 1
        if max(counts) < 2:
            return False
        return any_path(self.board, self.used_squares(), self.summon_anchors(seat))

    # --- contract ------------------------------------------------------------------------

    @property
    def turn(self) -> frozenset[int]:
        if self._outcome is not None:
            return frozenset()
        if self.phase == POOL:
            return frozenset(s for s in (0, 1) if len(self.pools[s]) < POOL_SIZE)
        if self.phase == ROLL:
            return frozenset((CHANCE,))
        if self.phase == DEFENCE:
            assert self.defender is not None
            return frozenset((self.defender,))
        return frozenset((self.active,))

    @property
    def may_act(self) -> frozenset[int]:
        """The opponent during the active player's action step, while it has an ability to
        use (ruling 12): it may act then, but nobody waits for it."""
        found = self._cache.get("may_act")
        if found is None:
            other = opponent(self.active)
            unasked = self._outcome is None and self.phase == ACTION and self._has_ability(other)
            found = frozenset((other,)) if unasked else frozenset()
            self._cache["may_act"] = found
        return found

    def _has_ability(self, seat: int) -> bool:
        return next(self._ability_moves(seat, detonations=True), None) is not None

    @property
    def drafting(self) -> bool:
        """The pool choice (ruling 2: each player secretly picks 15 cards) is a draft."""
        return self._outcome is None and self.phase == POOL

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    def legal_moves(self, seat: int) -> list[str]:
        if (seat not in self.turn and seat not in self.may_act) or seat == CHANCE:
            return []
        key = f"legal{seat}"
        found = self._cache.get(key)
        if found is None:
            found = list(self._moves(seat))
            self._cache[key] = found
        return list(found)

    def forced_move(self, seat: int) -> str | None:
        """Cheaper than listing: stop the generator after two moves, and learn whether a
        summon exists without listing any (the engine asks this after every move, and a
        replayed record or a search never lists most positions' summons)."""
        first_two = list(itertools.islice(self._moves(seat, summons=False), 2))
        return first_two[0] if len(first_two) == 1 else None

    def _moves(self, seat: int, *, summons: bool = True) -> Iterable[str]:
        """The legal moves in listing order, made as they are read (`forced_move` reads two);
        with `summons` False, the summons are one placeholder when there is any (it comes
        after `end`, so it is never the only move).

        Chained rather than yielded through one generator: a listing runs to hundreds of
        moves (575 dice choices, up to 3,000 summons), and each level of `yield from` costs
        every move a generator step."""
        if self.phase == POOL:
            return self._pick_moves(seat)
        if self.phase == DICE:
            return _dice_listing(sort_cards(self.pool_deck(seat)))
        if self.phase == ACTION and seat != self.active:
            return self._ability_moves(seat, detonations=True)
        if self.phase == ACTION:
            return itertools.chain(
                ("end",),
                self._attack_moves(seat),
                self._step_moves(seat),
                self._ability_moves(seat, detonations=True),
                itertools.chain.from_iterable(self._listed_summons(seat)) if summons else self._summon_if_any(seat),
            )
        if self.phase == DEFENCE:
            mine = () if seat == self.active else self._ability_moves(seat, detonations=True)
            return itertools.chain(("done",), self._defend_moves(seat), mine)
        return ()

    def _sample_chance(self, rng: random.Random) -> str:
        return format_roll(tuple(rng.choice(faces_of(CARDS[c].level)) for c in self.dice))

    # --- listing -------------------------------------------------------------------------

    def _pick_moves(self, seat: int) -> Iterator[str]:
        taken = set(self.pools[seat])
        kinds = {kind_of(c) for c in taken}
        for card in DECK:
            if card not in taken and kind_of(card) not in kinds:
                yield f"pick {card}"

    def _listed_summons(self, seat: int) -> Iterator[list[str]]:
        """The summons `legal_moves` lists, one card's list at a time: each card that may be
        summoned with the first of the shared tails, up to its share of the cap."""
        cards = self.summonable() if seat == self.active else ()
        for card in cards:
            head = f"summon {card} "
            yield [head + tail for tail in self._summon_tails(seat)[: SUMMON_LIST_CAP // len(cards)]]

    def _summon_if_any(self, seat: int) -> Iterator[str]:
        if self._may_summon(seat):
            yield "summon"

    def _may_summon(self, seat: int) -> bool:
        """Whether `_listed_summons` would list anything, stopping at the first path with a
        square for the being (any order of a layout's dominoes has the same squares)."""
        if seat != self.active or not self.summonable():
            return False
        if f"tails{seat}" in self._cache:
            return bool(self._cache[f"tails{seat}"])
        paths = enumerate_paths(self.board, self.used_squares(), self.summon_anchors(seat))
        return any(self.placements(seat, path) for path in paths)

    def summon_moves(self, seat: int, prefix: str = "") -> Iterator[str]:
        """Every summon now, per card then layout then square; `prefix` narrows the
        listing for autocomplete (it is matched case-insensitively)."""
        cards = self.summonable() if seat == self.active else ()
        if not cards:
            return
        prefix = " ".join(prefix.lower().split())
        tails = self._summon_tails(seat)
        for card in cards:
            head = f"summon {card} "
            if prefix and not (head.lower().startswith(prefix) or prefix.startswith(head.lower())):
                continue
            for tail in tails:
                text = head + tail
                if text.lower().startswith(prefix):
                    yield text

    def suggest_moves(self, seat: int, typed: str, limit: int) -> list[str]:
        """The contract's suggestions, with every summon that starts with `typed` among the
        moves that do: `legal_moves` lists at most `SUMMON_LIST_CAP` summons, so a summon
        beyond the cap is reached by typing its beginning (`summon 5D c2-c3 ...`)."""
        listed = super().suggest_moves(seat, typed, limit)
        wanted = normalise(typed).replace(" ", "")
        starts = [m for m in listed if normalise(m).replace(" ", "").startswith(wanted)]
        inside = [m for m in listed if m not in starts]
        summons = itertools.islice(self.summon_moves(seat, typed), limit)
        return list(dict.fromkeys([*starts, *summons, *inside]))[:limit]

    def _summon_tails(self, seat: int) -> list[str]:
        """`<path> @<square>` of every legal summon, shared by the cards (cached)."""
        found = self._cache.get(f"tails{seat}")
        if found is None:
            names = self.board.names
            found = [
                f"{format_path(self.board, path)} @{names[place]}"
                for path in self.layouts(seat)
                for place in self.placements(seat, path)
            ]
            self._cache[f"tails{seat}"] = found
        return found

    def _step_moves(self, seat: int) -> Iterator[str]:
        moves = self.factors[seat][_F["M"]]
        walk = self.path_squares()
        for b in self.beings:
            if b.owner != seat or b.halted or b.info.is_rook or (moves == 0 and b.credit == 0):
                continue
            others = {s: o for s, o in self.occupants().items() if o is not b}
            routes = movement.reachable(self.board, walk, others, b, moves)
            for target in sorted(routes):
                yield format_step(self.board, b.card, routes[target].squares)

    def _attack_moves(self, seat: int) -> Iterator[str]:
        if self.factors[seat][_F["A"]] == 0:
            return
        occupants = self.occupants()
        enemy_image = self.board.images[opponent(seat)]
        for b in self.beings:
            if b.owner != seat or b.attacked:
                continue
            for square in combat.adjacent_targets(self.board, b):
                target = occupants.get(square)
                if target is not None and target.owner != seat:
                    yield format_attack(self.board, b.card, square)
                elif square == enemy_image:
                    yield format_attack(self.board, b.card, None)

    def _ability_moves(self, seat: int, *, detonations: bool) -> Iterator[str]:
        force, chance = self.factors[seat][_F["F"]], self.factors[seat][_F["C"]]
        names = self.board.names
        for b in self.beings:
            if b.owner != seat:
                continue
            info = b.info
            if info.is_court:
                budget = chance if info.red else force
                if budget == 0:
                    continue
                for target in combat.line_of_sight(self.board, self.path_squares(), self.occupants(), b):
                    for x in range(1, min(budget, ABILITY_LIST_MAX) + 1):
                        yield f"ability {b.card} {x} {names[target.square]}"
            elif info.is_rook and detonations and force:
                for x in range(1, min(force, self._blast_reach(b)) + 1):
                    yield f"detonate {b.card} {x}"

    def _blast_reach(self, rook: Being) -> int:
        """The radius beyond which a bigger blast hits nothing more."""
        squares = [b.square for b in self.beings if b is not rook] + list(self.board.images)
        return max(self.board.distance(rook.square, s) for s in squares)

    def _defend_moves(self, seat: int) -> Iterator[str]:
        if self.factors[seat][_F["D"]] == 0:
            return
        hit = {a.target_card for a in self.attacks if a.target_owner == seat and a.target_card}
        for b in self.beings:
            if b.owner == seat and b.card in hit and not b.defended:
                yield f"defend {b.card}"

    # --- applying moves ------------------------------------------------------------------

    def _apply(self, seat: int, move: str) -> Self:
        parsed: Move = parse_move(self.board, move)
        if seat == CHANCE:
            if not isinstance(parsed, Roll):
                raise IllegalMove(tr("The chance move now is a roll, like `roll S S A`."))
            return self._roll(parsed)
        handler = _HANDLERS.get((self.phase, type(parsed)))
        if handler is None:
            raise IllegalMove(self._phase_hint(parsed))
        if self.phase == ACTION and seat != self.active and not isinstance(parsed, Ability | Detonate):
            raise IllegalMove(
                tr(
                    "It is {seat}'s turn: meanwhile you may only use abilities (`ability KS 2 c5`, `detonate 10S 2`).",
                    seat=SEAT_NAMES[self.active],
                )
            )
        state: Self = handler(self, seat, parsed)
        return state

    def _phase_hint(self, parsed: Move) -> str:
        hints = {
            POOL: tr("Pick your pool deck first: `pick AH` (15 cards, no two of the same rank and colour)."),
            DICE: tr("Choose your dice first, like `dice 1:AH 2:5D` (1 to 3 cards from your pool deck)."),
            ROLL: tr("The dice are being rolled."),
            ACTION: "Summon, move, attack, use an ability, or `end` your turn.",
            DEFENCE: tr("It is the defence step: `defend 5D`, an ability, or `done`."),
        }
        if isinstance(parsed, Roll):
            return tr("Rolls are made by the bot, not by players.")
        return tr("Not now. {hints}", hints=hints[self.phase])

    def _next(self, notation: str, **changes: Any) -> Self:
        return self._evolve(last_move=notation, ply=self.ply + 1, **changes)

    def _pick(self, seat: int, move: Pick) -> Self:
        pool = list(self.pools[seat])
        kinds = {kind_of(c) for c in pool}
        if move.whole and len(move.cards) != POOL_SIZE - len(pool):
            raise IllegalMove(
                tr(
                    "Your pool deck needs {value} more cards; you named {count}.",
                    value=POOL_SIZE - len(pool),
                    count=len(move.cards),
                )
            )
        for card in move.cards:
            if card in pool:
                raise IllegalMove(tr("{card} is already in your pool deck.", card=card))
            rank, colour = kind_of(card)
            if (rank, colour) in kinds:
                raise IllegalMove(
                    tr(
                        "Your pool deck already holds a {colour} {rank}; no two of one rank and colour.",
                        colour=colour,
                        rank=rank,
                    )
                )
            if len(pool) >= POOL_SIZE:
                raise IllegalMove(tr("Your pool deck is complete ({pool_size} cards).", pool_size=POOL_SIZE))
            pool.append(card)
            kinds.add((rank, colour))
        pools = (tuple(pool), self.pools[1]) if seat == 0 else (self.pools[0], tuple(pool))
        changes: dict[str, Any] = {"pools": pools}
        if all(len(p) == POOL_SIZE for p in pools):
            changes["phase"] = DICE
        return self._next("pool" if move.whole else "pick", **changes)

    def _choose_dice(self, seat: int, move: Dice) -> Self:
        deck = self.pool_deck(seat)
        if len(set(move.cards)) != len(move.cards):
            raise IllegalMove(tr("Each die needs a different card."))
        for card in move.cards:
            if card not in deck:
                raise IllegalMove(tr("{card} is not in your pool deck.", card=card))
        cards = sort_cards(move.cards)
        return self._next(format_dice(cards), phase=ROLL, dice=cards, faces=None)

    def _roll(self, move: Roll) -> Self:
        problem = roll_allowed(tuple(CARDS[c].level for c in self.dice), move.faces)
        if problem:
            raise IllegalMove(problem)
        factors = self.factors[self.active]
        for face in move.faces:
            if face != "S":
                factors = _add(factors, face, 1)
        notation = "roll" if self.hidden_factors else format_roll(move.faces)
        return self._next(notation, phase=ACTION, faces=move.faces, factors=self._set_factors(self.active, factors))

    def _set_factors(self, seat: int, value: Factors) -> tuple[Factors, Factors]:
        return (value, self.factors[1]) if seat == 0 else (self.factors[0], value)

    def _spend(self, seat: int, kind: str, amount: int) -> tuple[Factors, Factors]:
        have = self.factors[seat][_F[kind]]
        if have < amount:
            raise IllegalMove(
                tr(
                    "That costs {amount} {factor_names} factor(s); you have {have}.",
                    amount=amount,
                    factor_names=FACTOR_NAMES[kind],
                    have=have,
                )
            )
        return self._set_factors(seat, _add(self.factors[seat], kind, -amount))

    def _own(self, seat: int, card: str) -> Being:
        found = self.being(seat, card)
        if found is None:
            raise IllegalMove(tr("You have no {card} in play.", card=card))
        return found

    def _replace(self, old: Being, new: Being | None) -> tuple[Being, ...]:
        return tuple(b for b in (new if b is old else b for b in self.beings) if b is not None)

    def _summon(self, seat: int, move: Summon) -> Self:
        if self.summon_done:
            raise IllegalMove(tr("You have already summoned this turn (one summon a turn)."))
        if move.card not in self.summonable():
            raise IllegalMove(
                tr(
                    "You may not summon {card}: summon a card on one of two or more S faces of the same level.",
                    card=move.card,
                )
            )
        used, anchor_squares = self.used_squares(), self.summon_anchors(seat)
        problem = path_error(self.board, used, anchor_squares, move.path)
        if problem and not any(path_error(self.board, used, anchor_squares, p) is None for p in readings(move.path)):
            raise IllegalMove(problem)
        path = canonical_path(self.board, used, anchor_squares, move.path)
        places = self.placements(seat, path)
        place = move.place
        if place is None:
            if len(places) != 1:
                raise IllegalMove(tr("Say where the being stands, like `@c2`, at the end of the summon."))
            place = places[0]
        if place not in places:
            where = ", ".join(self.board.names[s] for s in places)
            raise IllegalMove(tr("The being must stand on a new square next to an earlier path: {where}.", where=where))
        summoned = list(self.summoned)
        summoned[seat] = (*summoned[seat], move.card)
        return self._next(
            format_summon(self.board, move.card, path, place),
            paths=(*self.paths, (seat, path)),
            beings=(*self.beings, Being(seat, move.card, place)),
            summoned=(summoned[0], summoned[1]),
            summon_done=True,
        )

    def _step(self, seat: int, move: Step) -> Self:
        mover = self._own(seat, move.card)
        if mover.info.is_rook:
            raise IllegalMove(tr("A Rook (10) never moves once it is in play."))
        others = {s: o for s, o in self.occupants().items() if o is not mover}
        route = movement.check_route(
            self.board, self.path_squares(), others, mover, self.factors[seat][_F["M"]], move.squares
        )
        moved = (
            None if route.removed else mover.moved(square=route.squares[-1], credit=route.credit, halted=route.halted)
        )
        return self._next(
            format_step(self.board, mover.card, route.squares),
            beings=self._replace(mover, moved),
            factors=self._spend(seat, "M", route.factors),
        )

    def _attack(self, seat: int, move: Attack) -> Self:
        attacker = self._own(seat, move.card)
        if attacker.attacked:
            raise IllegalMove(tr("{card} has already attacked this turn.", card=attacker.card))
        reach = combat.adjacent_targets(self.board, attacker)
        how = "orthogonally or diagonally" if attacker.info.attacks_diagonally else "orthogonally"
        if move.target is None:
            if self.board.images[opponent(seat)] not in reach:
                raise IllegalMove(
                    tr("{card} must stand {how} next to the enemy Image to attack it.", card=attacker.card, how=how)
                )
            target = None
        else:
            target = self.occupants().get(move.target)
            if target is None or target.owner == seat:
                raise IllegalMove(tr("There is no enemy being on {names}.", names=self.board.names[move.target]))
            if move.target not in reach:
                raise IllegalMove(tr("{card} can only attack a target {how} next to it.", card=attacker.card, how=how))
        factors = self._spend(seat, "A", 1)
        pending = combat.PendingAttack(
            seat,
            attacker.card,
            opponent(seat),
            None if target is None else target.card,
            combat.attack_points(attacker, target),
        )
        return self._next(
            format_attack(self.board, attacker.card, move.target),
            beings=self._replace(attacker, attacker.moved(attacked=True)),
            attacks=(*self.attacks, pending),
            factors=factors,
        )

    def _may_use_ability(self, seat: int) -> None:
        if self.phase == DEFENCE and seat == self.active:
            raise IllegalMove(tr("In your own defence step you may only `defend` or say `done`."))

    def _ability(self, seat: int, move: Ability) -> Self:
        self._may_use_ability(seat)
        source = self._own(seat, move.card)
        info = source.info
        if not info.is_court:
            raise IllegalMove(tr("Only a Jack, Queen or King has an ability to use (a Rook detonates)."))
        kind = "C" if info.red else "F"
        factors = self._spend(seat, kind, move.amount)
        targets = list(combat.line_of_sight(self.board, self.path_squares(), self.occupants(), source))
        target = self._ability_target(move.target, targets)
        x = move.amount
        effect = {
            ("J", False): {"slow": target.slow + x},
            ("J", True): {"speed": target.speed + x},
            ("Q", False): {"def_mod": target.def_mod - x},
            ("Q", True): {"def_mod": target.def_mod + x},
            ("K", False): {"atk_mod": target.atk_mod - x},
            ("K", True): {"atk_mod": target.atk_mod + x},
        }[(info.rank, info.red)]
        return self._next(
            f"ability {source.card} {x} {self.board.names[target.square]}",
            beings=self._replace(target, target.moved(**effect)),
            factors=factors,
        )

    def _ability_target(self, text: str, targets: list[Being]) -> Being:
        """The target named by a square (canonical) or by a card that only one being in
        sight carries."""
        try:
            card = parse_card(text)
        except IllegalMove:
            square = self.board.square(text)
            matches = [t for t in targets if t.square == square]
        else:
            matches = [t for t in targets if t.card == card]
            if len(matches) > 1:
                raise IllegalMove(tr("Two {card}s are in sight; name the target by its square instead.", card=card))
        if not matches:
            raise IllegalMove(
                tr("The target must be the being itself or the first being in a straight line of path squares.")
            )
        return matches[0]

    def _detonate(self, seat: int, move: Detonate) -> Self:
        self._may_use_ability(seat)
        rook = self._own(seat, move.card)
        if not rook.info.is_rook:
            raise IllegalMove(tr("Only a Rook (10) detonates."))
        factors = self._spend(seat, "F", move.amount)
        blast = combat.detonation_attacks(self.board, rook, move.amount, self.beings)
        return self._next(
            f"detonate {rook.card} {move.amount}",
            beings=self._replace(rook, None),
            attacks=(*self.attacks, *blast),
            factors=factors,
        )

    def _end(self, seat: int, move: End) -> Self:
        return self._next("end", phase=DEFENCE, defender=opponent(seat))

    def _defend(self, seat: int, move: Defend) -> Self:
        being = self._own(seat, move.card)
        if not any(a.target_owner == seat and a.target_card == being.card for a in self.attacks):
            raise IllegalMove(tr("{card} was not attacked this turn.", card=being.card))
        if being.defended:
            raise IllegalMove(tr("{card} already checks defence (once a turn).", card=being.card))
        factors = self._spend(seat, "D", 1)
        return self._next(
            f"defend {being.card}", beings=self._replace(being, being.moved(defended=True)), factors=factors
        )

    def _done(self, seat: int, move: Done) -> Self:
        if seat != self.active and any(True for _ in self._defend_moves(self.active)):
            return self._next("done", defender=self.active)
        return self._next("done")._end_turn()

    # --- the end of a turn ---------------------------------------------------------------

    def _end_turn(self) -> Self:
        reckoning = combat.reckon(self.beings, self.attacks, self.lives)
        nxt = opponent(self.active)
        rooks = movement.enemy_rooks(reckoning.beings, nxt)
        beings = tuple(
            b.moved(rook_start=frozenset(r for r in rooks if b.square in self.board.around[r]))
            if b.owner == nxt and rooks
            else b
            for b in reckoning.beings
        )
        state = self._evolve(
            beings=beings,
            lives=reckoning.lives,
            attacks=(),
            defender=None,
            dice=(),
            faces=None,
            summon_done=False,
            active=nxt,
            turn_no=self.turn_no + 1,
        )
        state.phase = DICE if state.pool_deck(nxt) else ACTION
        state._outcome = state._judge()
        return state

    def _judge(self) -> Outcome | None:
        names = SEAT_NAMES
        zero = [s for s in (0, 1) if self.lives[s] == 0]
        if len(zero) == 2:
            return Outcome(frozenset(), tr("Both Images fell in the same turn."), self.lives)
        if zero:
            return Outcome(
                frozenset((opponent(zero[0]),)),
                tr("{names}'s Image has no life left.", names=names[zero[0]]),
                self.lives,
            )
        stuck = [s for s in (0, 1) if not any(b.owner == s for b in self.beings) and not self.can_summon(s)]
        if len(stuck) == 2:
            return Outcome(frozenset(), tr("Neither player has a being in play or a way to summon one."))
        if stuck:
            return Outcome(
                frozenset((opponent(stuck[0]),)),
                tr("{names} has no being in play and cannot summon one.", names=names[stuck[0]]),
            )
        if self.turn_no >= TURN_LIMIT:
            return self._tie_break()
        return None

    def _tie_break(self) -> Outcome:
        """Rule 14: more Image life, then more beings summoned, then a draw."""
        lives, counts = self.lives, (len(self.summoned[0]), len(self.summoned[1]))
        if lives[0] != lives[1]:
            winner = 0 if lives[0] > lives[1] else 1
            return Outcome(
                frozenset((winner,)),
                tr(
                    "After {turn_limit} turns {seat}'s Image has more life.",
                    turn_limit=TURN_LIMIT,
                    seat=SEAT_NAMES[winner],
                ),
                lives,
            )
        if counts[0] != counts[1]:
            winner = 0 if counts[0] > counts[1] else 1
            return Outcome(
                frozenset((winner,)),
                tr(
                    "After {turn_limit} turns, with equal life, {seat} summoned more beings.",
                    turn_limit=TURN_LIMIT,
                    seat=SEAT_NAMES[winner],
                ),
                counts,
            )
        return Outcome(
            frozenset(),
            tr("After {turn_limit} turns the Images' life and the beings summoned are equal.", turn_limit=TURN_LIMIT),
            lives,
        )

    # --- what everyone may know about a move --------------------------------------------

    def is_public_move(self, seat: int, move: str) -> bool:
        """Pool picks are secret; so is a roll with `hidden_factors=on` (its faces would
        tell the factors).  Everything else a player does (dice, summons, moves, attacks,
        abilities, detonations, defences) is seen on the board, so it is public."""
        if seat == CHANCE:
            return not self.hidden_factors
        return not normalise(move).startswith(("pick", "pool"))

    def describe(self, before: GameState, entry: LogEntry) -> str | None:
        assert isinstance(before, WonderlandState)
        return narration.describe(before, self, entry)

    # --- views and persistence -----------------------------------------------------------

    def view(self, seat: int | None) -> dict[str, Any]:
        board = self.board
        names = board.names
        in_pool = self.phase == POOL
        public: dict[str, Any] = {
            **self.public_base(),
            "phase": "over" if self._outcome is not None else self.phase,  # not the phase it stopped in
            "active": self.active,
            "defender": self.defender,
            "turn_number": self.turn_no + 1,
            "turn_limit": TURN_LIMIT,
            "files": board.files,
            "ranks": board.ranks,
            "images": [{"seat": s, "square": names[board.images[s]], "lives": self.lives[s]} for s in (0, 1)],
            "paths": [
                {
                    "owner": owner,
                    "face_up": owner == 0,
                    "dominoes": [[names[path[i]], names[path[i + 1]]] for i in (0, 2, 4)],
                }
                for owner, path in self.paths
            ],
            "beings": [self._being_view(b) for b in self.beings],
            "factors": None if self.hidden_factors else [self._factor_view(s) for s in (0, 1)],
            "hidden_factors": self.hidden_factors,
            "dice": [{"card": c, "level": CARDS[c].level} for c in self.dice],
            "rolled": None if self.hidden_factors or self.faces is None else list(self.faces),
            "summoned": [list(self.summoned[0]), list(self.summoned[1])],
            "pool_left": None if in_pool else [len(self.pool_deck(s)) for s in (0, 1)],
            "summon_done": self.summon_done,
            "pending_attacks": [self._attack_view(a) for a in self.attacks],
            "last_move": self.last_move,
            "ply": self.ply,
        }
        if seat is None:
            return public
        private: dict[str, Any] = {"pool": list(sort_cards(self.pool_deck(seat))), "picked": len(self.pools[seat])}
        if self.hidden_factors:
            private["factors"] = self._factor_view(seat)
            if seat == self.active and self.faces is not None:
                private["rolled"] = list(self.faces)
        return self.seat_view(public, seat, private)

    def determinize(self, seat: int, rng: random.Random) -> Self:
        """A state `seat` cannot tell from this one, its secrets drawn with `rng`.

        Built from `view(seat)` alone: the opponent's pool deck is its summoned cards, the
        cards on its dice and random cards of kinds it does not hold yet (an unfinished
        pool is taken as not begun).  With hidden factors, the opponent's factors are
        guessed equal to `seat`'s own, and an opponent's secret roll is rolled again."""
        view = self.view(seat)
        other = opponent(seat)
        changes: dict[str, Any] = {}
        pool: tuple[str, ...] = ()
        size = 0
        if view["pool_left"] is not None:
            pool = tuple(self.summoned[other])
            if self.active == other:
                pool += tuple(c for c in self.dice if c not in pool)
            size = len(self.summoned[other]) + view["pool_left"][other]
        elif other not in view["turn"]:
            size = POOL_SIZE
        kinds = {kind_of(c) for c in pool}
        fill = [c for c in DECK if kind_of(c) not in kinds]
        rng.shuffle(fill)
        for card in fill:
            if len(pool) >= size:
                break
            if kind_of(card) not in kinds:
                kinds.add(kind_of(card))
                pool += (card,)
        changes["pools"] = (pool, self.pools[1]) if other == 0 else (self.pools[0], pool)
        if self.hidden_factors:
            own = self.factors[seat]
            changes["factors"] = (own, own)
            if self.active == other and self.faces is not None:
                changes["faces"] = tuple(rng.choice(faces_of(CARDS[c].level)) for c in self.dice)
        return self._evolve(**changes)

    def _factor_view(self, seat: int) -> dict[str, int]:
        return dict(zip(FACTORS, self.factors[seat], strict=True))

    def _being_view(self, b: Being) -> dict[str, Any]:
        return {
            "card": b.card,
            "owner": b.owner,
            "square": self.board.names[b.square],
            "damage": b.damage,
            "strength": b.strength,
            "attack": b.attack,
            "defence": b.defence,
            "level": b.info.level,
            "attacked": b.attacked,
            "halted": b.halted,
            "defended": b.defended,
            "modifiers": {"atk": b.atk_mod, "def": b.def_mod, "slow": b.slow, "speed": b.speed},
        }

    def _attack_view(self, a: combat.PendingAttack) -> dict[str, Any]:
        if a.target_card is None:
            square: int | None = self.board.images[a.target_owner]
        else:
            target = self.being(a.target_owner, a.target_card)
            square = None if target is None else target.square
        return {
            "attacker": {"owner": a.attacker_owner, "card": a.attacker_card},
            "target": {
                "owner": a.target_owner,
                "card": a.target_card,
                "square": None if square is None else self.board.names[square],
            },
            "points": a.points,
        }

    def dump(self) -> dict[str, Any]:
        return {
            "game": "wonderland",
            "options": dict(self.options),
            "phase": self.phase,
            "active": self.active,
            "turn_no": self.turn_no,
            "pools": [list(p) for p in self.pools],
            "summoned": [list(p) for p in self.summoned],
            "paths": [[owner, list(path)] for owner, path in self.paths],
            "lives": list(self.lives),
            "beings": [b.to_json() for b in self.beings],
            "factors": [list(f) for f in self.factors],
            "dice": list(self.dice),
            "faces": None if self.faces is None else list(self.faces),
            "summon_done": self.summon_done,
            "attacks": [a.to_json() for a in self.attacks],
            "defender": self.defender,
            "last_move": self.last_move,
            "ply": self.ply,
            "outcome": None if self._outcome is None else self._outcome.to_json(),
        }


_HANDLERS: Final[dict[tuple[str, type], Any]] = {
    (POOL, Pick): WonderlandState._pick,
    (DICE, Dice): WonderlandState._choose_dice,
    (ACTION, Summon): WonderlandState._summon,
    (ACTION, Step): WonderlandState._step,
    (ACTION, Attack): WonderlandState._attack,
    (ACTION, Ability): WonderlandState._ability,
    (ACTION, Detonate): WonderlandState._detonate,
    (ACTION, End): WonderlandState._end,
    (DEFENCE, Defend): WonderlandState._defend,
    (DEFENCE, Ability): WonderlandState._ability,
    (DEFENCE, Detonate): WonderlandState._detonate,
    (DEFENCE, Done): WonderlandState._done,
}


@functools.lru_cache(maxsize=64)
def _dice_listing(deck: tuple[str, ...]) -> tuple[str, ...]:
    """Every choice of one to three cards of `deck` (sorted) for the dice, in notation.

    A seat's pool deck changes only when a being is summoned, yet the listing (575 moves for a
    15-card deck) was formatted again at every dice phase of every playout, search and analysis.
    A game meets a few decks (each summon shrinks one), so 64 entries of about 40 KB hold those
    of the games a process works on at once."""
    return tuple(format_dice(combo) for count in (1, 2, 3) for combo in itertools.combinations(deck, count))
