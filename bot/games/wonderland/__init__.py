"""Wonderland: a tabletop Dungeon Dice Monsters with a poker deck, dice and dominoes.

Rulings: `shared/rules/wonderland.md`.  The package splits the game by job:

- `cards`    cards, ranks, suits, stats, levels, dice faces, the suit hierarchy
- `board`    squares, Images, path shape rules and path enumeration
- `beings`   a being in play and its until-end-of-turn effects (move points explained there)
- `movement` step costs, the Rook's zone, routes
- `combat`   attacks, detonation, lines of sight, the end-of-turn reckoning
- `notation` parsing and printing moves (the full notation is documented there)
- `state`    `WonderlandState`: phases, legal moves, applying moves, views, dump
- `rules`    `WonderlandRules`: info, options, start, load

Notation (canonical forms; see `notation` for accepted variants):
`pick AH` · `pool AH 2S …` · `dice 1:AH 1:4C 2:5D` · CHANCE `roll S S A` ·
`summon 5D c2-c3 c4-d4 d5-d6 @c2` · `move 5D c2-c3-c4` · `attack 5D c5` / `attack 5D image` ·
`ability KH 2 c5` · `detonate 10S 2` · `end` · `defend 5D` · `done`.

Interpretations of the rulings (each is tested):
- Pool: each player picks from a deck of their own (both may hold 7♥).  Picks stay
  secret; the public `last_move` of a pick is just `pick`.
- Opponent's abilities (ruling 12): during the active player's action step the opponent
  MAY use Jack/Queen/King abilities and detonate Rooks (`may_act`; it is not in `turn`, so
  nobody waits for it and its clock does not run), each taking effect from that moment: an
  attack already made keeps its points, a move already made its cost.  After `end` the
  opponent gets the defence step, where it may `defend`, use abilities and detonate.  If
  the active seat's own beings were attacked (a blast), it then gets a defence step of its
  own with `defend` and `done` only.
- A being is placed on a new square orthogonally next to a square of an earlier path (either
  player's); if the new path touches none, next to the summoner's Image.  The first domino
  anchors with its first square (the anchor): the Image's front or a side square, or a
  square orthogonally next to one of the player's earlier path squares; the second domino
  touches the first's other square (its far end), never only the anchor (ruling 6).
- Move points: see `beings`.  The Rook's +1 is per Rook the being started beside; a being
  halted by a Rook on a friendly being's square leaves play (the source's rule).
- A Rook's blast adds the suit bonus per target like any attack, and hits its owner's beings
  and Image too.  A blast or an attack on an Image costs it one life, however many hits.
- With no cards left in the pool deck a turn skips the dice and starts at the action step.
- Rule 13 is checked for both players at the end of every turn; both stuck is a draw.
- `legal_moves` lists one cheapest route per reachable square (any valid route is accepted),
  abilities with X up to 9 and blasts up to the radius that still reaches something (larger X
  are accepted), and at most `SUMMON_LIST_CAP` (3,000) summons shared evenly by the cards that
  may be summoned (random games: median 2,400, 90th percentile 3,900, largest 5,800 after a
  roll that allows a summon); `WonderlandState.summon_moves(seat, prefix)` lists every summon
  matching what a player has typed, for autocomplete.  A summon typed with its dominoes in
  reverse order, or with a domino's squares swapped, is accepted only where that reading is
  itself a valid path (so it names the same layout) and is canonicalised.
- `ply` counts every move, chance and forced moves included.
"""

from bot.games.wonderland.rules import WonderlandRules
from bot.games.wonderland.state import WonderlandState

__all__ = ["WonderlandRules", "WonderlandState"]
