"""`WonderlandRules`: game info, options, start and load."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from bot.games.base import GameInfo, Option, OptionValue, Outcome, Rules
from bot.games.wonderland.beings import Being
from bot.games.wonderland.board import DDM, STANDARD, board_of
from bot.games.wonderland.cards import parse_card
from bot.games.wonderland.combat import PendingAttack
from bot.games.wonderland.state import LIVES, POOL, WonderlandState
from bot.i18n import tr

HOW_TO_PLAY = tr(
    """\
**Wonderland** — Dungeon Dice Monsters with cards, dice and dominoes. Reduce the enemy Image (3 lives) to 0.
• **Pool**: secretly pick 15 cards, no two of one rank and colour: `pick AH` … or `pool AH 2S …`.
• **Dice**: each turn choose 1–3 cards from your pool deck; each rolls a die of its level: `dice 1:AH 2:5D`.
  Faces L1 `SSSSAM`, L2 `DSSSAM`, L3 `DFSSAM`, L4 `DFCSAM`. Every non-S face is a factor (C F D A M) you keep.
• **Summon** (2+ S of one level, once a turn): lay 3 dominoes from your Image's front/side or your paths,
  each touching the last one's far end, none end to end in line, no 2×2 block, then place the being
  next to an earlier path: `summon 5D c2-c3 c4-d4 d5-d6 @c2`.
• **Move** 1 Move factor a square along paths: `move 5D c2-c3-c4`. Rooks (10) never move; entering a
  square around an enemy Rook stops you.
• **Attack** once a being a turn for 1 Attack factor, orthogonally (9 and 10 also diagonally): `attack 5D c5`,
  `attack 5D image`. ♥ beats ♠ beats ♦ beats ♣ beats ♥ (red vs black only): +1 Atk.
• **Abilities** (Force for black, Chance for red, X ≥ 1): J move cost +X / +X squares per factor,
  Q Def −X / +X, K Atk −X / +X: `ability KH 2 c5`. Rook blast: `detonate 10S 2`. The opponent may use
  theirs during your action step too (from then on: an attack made keeps its points).
• `end`; the defender then may `defend 5D` (1 Defend factor: Def once, +1 vs a suit it beats), use
  abilities, and says `done`. Damage is permanent; an attacked Image loses 1 life.
• You lose with no beings and no way to summon. After 200 turns: more life, then more summons, wins.
Stats (Str/Atk/Def): A 1/1/1 · 2 2/1/2 · 3 3/1/3 · 4 2/2/0 · 5 2/3/1 · 6 3/2/0 · 7 3/3/1 · 8 3/3/2 · \
9 4/3/1 · 10 4/3/2 · J Q K 1/2/0.
Options: `hidden_factors=on`, `board=ddm` (13×19)."""
)

_MOVE_PATTERN = re.compile(
    r"^\s*(pick|pool|dice|summon|move|attack|ability|detonate|defend|end|done)\b",
    re.I,
)


class WonderlandRules(Rules):
    info = GameInfo(
        key="wonderland",
        name="Wonderland",
        seat_names=(tr("Orange"), tr("Blue")),
        blurb=tr(
            "Dungeon Dice Monsters with a poker deck, dice and dominoes: summon beings, lay paths, storm the Image."
        ),
        how_to_play=HOW_TO_PLAY,
        options=(
            Option(
                "hidden_factors", "off", tr("on: factor pools and rolls are secret, the bot referees"), ("off", "on")
            ),
            Option("board", "standard", tr("standard: 13×20 board; ddm: 13×19"), ("standard", "ddm")),
        ),
        button_moves=re.compile(r"^(end|done)$"),
        move_pattern=_MOVE_PATTERN,
        has_private_info=True,
    )

    def _start(self, options: dict[str, OptionValue]) -> WonderlandState:
        files, ranks = DDM if options["board"] == "ddm" else STANDARD
        return WonderlandState(
            options=options,
            board=board_of(files, ranks),
            phase=POOL,
            active=0,
            turn_no=0,
            pools=((), ()),
            summoned=((), ()),
            paths=(),
            lives=(LIVES, LIVES),
            beings=(),
            factors=((0, 0, 0, 0, 0), (0, 0, 0, 0, 0)),
            dice=(),
            faces=None,
            summon_done=False,
            attacks=(),
            defender=None,
            last_move=None,
            ply=0,
            _outcome=None,
        )

    def load(self, data: Mapping[str, Any], later: Sequence[str] = ()) -> WonderlandState:
        options = self.resolve_options(data.get("options", {}))
        files, ranks = DDM if options["board"] == "ddm" else STANDARD
        outcome = data.get("outcome")
        factors = [tuple(int(x) for x in f) for f in data["factors"]]
        return WonderlandState(
            options=options,
            board=board_of(files, ranks),
            phase=str(data["phase"]),
            active=int(data["active"]),
            turn_no=int(data["turn_no"]),
            pools=tuple(tuple(parse_card(c) for c in p) for p in data["pools"]),
            summoned=tuple(tuple(parse_card(c) for c in p) for p in data["summoned"]),
            paths=tuple((int(owner), tuple(int(s) for s in path)) for owner, path in data["paths"]),
            lives=(int(data["lives"][0]), int(data["lives"][1])),
            beings=tuple(Being.from_json(b) for b in data["beings"]),
            factors=(factors[0], factors[1]),
            dice=tuple(parse_card(c) for c in data["dice"]),
            faces=None if data.get("faces") is None else tuple(str(f) for f in data["faces"]),
            summon_done=bool(data["summon_done"]),
            attacks=tuple(PendingAttack.from_json(a) for a in data["attacks"]),
            defender=None if data.get("defender") is None else int(data["defender"]),
            last_move=data.get("last_move"),
            ply=int(data["ply"]),
            _outcome=Outcome.from_json(outcome) if outcome else None,
        )


WonderlandState.rules = WonderlandRules()
