"""Board pictures: a game view in, PNG bytes out.

Renderers see views only (never a `GameState`), so a picture cannot show what its view
did not contain: the channel gets pictures of public views, a DM of that seat's view.

Each game module offers `board(view) -> Image` (the body under the shared header) and,
for games with private information, `private(view) -> Image | None` (a player's hand).
A module may name its `SEAT_COLOURS` (Domineering's black and white) for the header.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

from PIL import Image

from bot.games import GAMES
from bot.i18n import DEFAULT
from renderers.kit import Header, frame, to_png
from renderers.language import speaking
from renderers.words import describe, describe_private, text_board

__all__ = [
    "Header",
    "board_palette",
    "describe",
    "describe_private",
    "has_private_picture",
    "picture",
    "private_palette",
    "private_picture",
    "render",
    "render_private",
    "text_board",
]

_MODULES = {
    "dominance": "renderers.dominance",
    "domineering": "renderers.domineering",
    "domino_wars": "renderers.domino_wars",
    "focus": "renderers.focus",
    "wonderland": "renderers.wonderland",
}


def _module(game_key: str) -> ModuleType:
    try:
        return importlib.import_module(_MODULES[game_key])
    except KeyError:
        raise ValueError(f"no renderer for game {game_key!r}") from None


def _frame(
    module: ModuleType, game_key: str, body: Image.Image, view: dict[str, Any], header: Header | None
) -> Image.Image:
    return frame(body, view, header, GAMES[game_key].info.seat_names, getattr(module, "SEAT_COLOURS", None))


def render(game_key: str, view: dict[str, Any], header: Header | None = None) -> bytes:
    """The board picture of `view` as PNG bytes (CPU work: call it off the event loop)."""
    return to_png(picture(game_key, view, header), board_palette(game_key))


def board_palette(game_key: str) -> Image.Image | None:
    """The fixed palette of the game's board pictures: a module with a `palette()` (every
    colour it draws) gets PNGs ~4x cheaper to quantise than with a palette found per picture."""
    fixed = getattr(_module(game_key), "palette", None)
    return fixed() if fixed is not None else None


def picture(game_key: str, view: dict[str, Any], header: Header | None = None) -> Image.Image:
    """The board picture of `view` as an image, for callers that compose pictures (replays),
    in the language of `header`."""
    module = _module(game_key)
    with speaking(header.locale if header is not None else DEFAULT):
        return _frame(module, game_key, module.board(view), view, header)


def has_private_picture(game_key: str) -> bool:
    return hasattr(_module(game_key), "private")


def render_private(game_key: str, view: dict[str, Any], header: Header | None = None) -> bytes | None:
    """A seat's private picture (hand, draw pile, pool) as PNG bytes, or None when the
    game has nothing private for that seat now."""
    image = private_picture(game_key, view, header)
    return None if image is None else to_png(image, private_palette(game_key))


def private_palette(game_key: str) -> Image.Image | None:
    """The fixed palette of the game's private pictures (`private_palette()` in its module)."""
    fixed = getattr(_module(game_key), "private_palette", None)
    return fixed() if fixed is not None else None


def private_picture(game_key: str, view: dict[str, Any], header: Header | None = None) -> Image.Image | None:
    """A seat's private picture as an image (None: nothing private now), for replays."""
    module = _module(game_key)
    draw_private = getattr(module, "private", None)
    with speaking(header.locale if header is not None else DEFAULT):
        body = draw_private(view) if draw_private is not None else None
        return _frame(module, game_key, body, view, header) if body is not None else None
