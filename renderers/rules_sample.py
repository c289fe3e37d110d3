"""The picture of `/rules`: a sample position, one move written in the game's notation, and
the position after it, labelled, so a new player sees what the letters and digits mean.

Why one generic helper and not one per game: every game already draws its board with
coordinates (`renderers.render`), so the only new thing is the layout around two boards:
"before", an arrow carrying the move's notation, "after".  Stacked vertically, so the
picture stays legible on a phone (about 400 px wide).
"""

from __future__ import annotations

import io
from typing import Any

from PIL import Image, ImageDraw

from bot.games import GAMES
from renderers import render
from renderers.kit import PALETTE, Header, fit_text, font, to_png

WIDTH = 560
MARGIN = 20
TITLE_HEIGHT = 56
LABEL_HEIGHT = 34
ARROW_HEIGHT = 96
CAPTION_HEIGHT = 52
SAMPLE_PLAYERS = ("First player", "Second player")


def _board(game: str, view: dict[str, Any]) -> Image.Image:
    ply = view.get("ply")
    png = render(game, view, Header(players=SAMPLE_PLAYERS, ply=ply if isinstance(ply, int) else None))
    board = Image.open(io.BytesIO(png)).convert("RGB")
    scale = (WIDTH - 2 * MARGIN) / board.width
    return board.resize((WIDTH - 2 * MARGIN, round(board.height * scale)), Image.Resampling.LANCZOS)


def move_example(game: str, before: dict[str, Any], after: dict[str, Any], seat: int, move: str) -> bytes:
    """PNG bytes: `before` (a public view), an arrow labelled with `move` played by `seat`,
    then `after`.  CPU work: run it in the bot's worker processes."""
    info = GAMES[game].info
    first, second = _board(game, before), _board(game, after)
    height = TITLE_HEIGHT + 2 * LABEL_HEIGHT + first.height + ARROW_HEIGHT + second.height + CAPTION_HEIGHT
    out = Image.new("RGB", (WIDTH, height), PALETTE.background)
    draw = ImageDraw.Draw(out)
    draw.text(
        (WIDTH / 2, TITLE_HEIGHT / 2),
        f"{info.name}: how a move is written",
        font=font(26),
        fill=PALETTE.text,
        anchor="mm",
    )

    y = TITLE_HEIGHT
    draw.text((MARGIN, y + LABEL_HEIGHT / 2), "Before", font=font(20), fill=PALETTE.muted, anchor="lm")
    y += LABEL_HEIGHT
    out.paste(first, (MARGIN, y))
    y += first.height

    # The arrow: a shaft and a head pointing down to "after", the move written beside it.
    shaft_x = MARGIN + 34
    top, bottom = y + 12, y + ARROW_HEIGHT - 12
    draw.rectangle((shaft_x - 5, top, shaft_x + 5, bottom - 22), fill=PALETTE.highlight)
    draw.polygon([(shaft_x - 20, bottom - 24), (shaft_x + 20, bottom - 24), (shaft_x, bottom)], fill=PALETTE.highlight)
    colour = PALETTE.seats[seat]
    label_x = shaft_x + 40
    who = f"{info.seat_names[seat]} plays"
    draw.text((label_x, y + ARROW_HEIGHT / 2 - 16), who, font=font(20), fill=colour, anchor="lm")
    room = WIDTH - label_x - MARGIN
    size = next((s for s in (30, 24, 19) if font(s).getlength(move) <= room), 19)  # long moves: smaller, whole
    notation = fit_text(move, size, room)
    draw.text((label_x, y + ARROW_HEIGHT / 2 + 16), notation, font=font(size), fill=PALETTE.highlight, anchor="lm")
    y += ARROW_HEIGHT

    draw.text((MARGIN, y + LABEL_HEIGHT / 2), "After", font=font(20), fill=PALETTE.muted, anchor="lm")
    y += LABEL_HEIGHT
    out.paste(second, (MARGIN, y))
    y += second.height
    caption = "Type the move in the match channel, or after /move"
    draw.text((WIDTH / 2, y + CAPTION_HEIGHT / 2), caption, font=font(18), fill=PALETTE.muted, anchor="mm")
    return to_png(out)
