"""Animated replays: a sequence of views in, one animated GIF out.

Why GIF: Discord plays it inline on every client, phones included (an animated PNG shows
only its first frame on some), and flat board colours lose nothing in a 256-colour palette.

Each frame is the game's own board picture (`renderers.picture`, so a replay looks exactly
like the boards posted during the match), scaled to `WIDTH` pixels wide, with the move
written in a strip under it.  A frame may instead show one seat's private picture
(`renderers.private_picture`): the caller adds those only after a match ended, to reveal
the hidden information in the last frames.  Like every renderer this sees views only, so a
replay of a running match, built from public views, cannot show a secret.

Size: frames are scaled down and quantised to `COLOURS` colours; Pillow's GIF writer then
stores only the rectangle that changed from the previous frame, which on a board is small.
The caller keeps the number of frames bounded (renderers.replay_frames thins long games).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from bot.i18n import DEFAULT, Locale
from renderers import Header, picture, private_picture
from renderers.kit import PALETTE, fit_text, text

WIDTH = 500
"""Frame width in pixels: legible on a phone (400 px).  Boards are about twice as wide, so
most frames are scaled by `Image.reduce(2)` (a box filter, several times faster than a
general resize), and only what is still too wide is resized."""
CAPTION_HEIGHT = 40
STEP_MS = 700
HOLD_MS = 4000
COLOURS = 128


@dataclass(frozen=True)
class Frame:
    """One picture of a replay: the board of `view` (or, with `seat`, that seat's private
    picture of `view`) above `caption`, shown for `hold_ms` milliseconds."""

    view: dict[str, Any]
    caption: str
    seat: int | None = None
    hold_ms: int = STEP_MS


def frame_image(game_key: str, frame: Frame, header: Header) -> Image.Image:
    """The RGB picture of one frame, caption included, `WIDTH` pixels wide."""
    if frame.seat is None:
        body = picture(game_key, frame.view, header)
    else:
        body = private_picture(game_key, frame.view, header) or picture(game_key, frame.view, header)
    scaled = body.reduce(max(1, round(body.width / WIDTH)))
    if scaled.width > WIDTH:  # a picture narrower than twice WIDTH: keep its width, crop nothing
        scaled = scaled.resize((WIDTH, round(scaled.height * WIDTH / scaled.width)), Image.Resampling.BOX)
    height = scaled.height
    out = Image.new("RGB", (scaled.width, height + CAPTION_HEIGHT), PALETTE.panel)
    out.paste(scaled, (0, 0))
    draw = ImageDraw.Draw(out)
    text(
        draw,
        (10, height + CAPTION_HEIGHT / 2),
        fit_text(frame.caption, 18, scaled.width - 20),
        18,
        PALETTE.text,
        anchor="lm",
    )
    return out


def animate(game_key: str, frames: Sequence[Frame], players: tuple[str, str], locale: Locale = DEFAULT) -> bytes:
    """The animated GIF of `frames` (at least one), looping forever.

    Frames of different heights (a hand is shorter than a board) are placed on one canvas
    as tall as the tallest, so the animation never jumps in size."""
    if not frames:
        raise ValueError("a replay needs at least one frame")
    header = Header(players=players, locale=locale)
    images = [frame_image(game_key, f, header) for f in frames]
    width, height = max(img.width for img in images), max(img.height for img in images)
    palette = _shared_palette(images)
    quantised = []
    for img in images:
        if img.size != (width, height):
            canvas = Image.new("RGB", (width, height), PALETTE.background)
            canvas.paste(img, (0, 0))
            img = canvas
        quantised.append(img.quantize(palette=palette, dither=Image.Dither.NONE))
    buffer = io.BytesIO()
    quantised[0].save(
        buffer,
        format="GIF",
        save_all=True,
        append_images=quantised[1:],
        duration=[f.hold_ms for f in frames],
        loop=0,
        optimize=False,
        disposal=1,
    )
    return buffer.getvalue()


def _shared_palette(images: Sequence[Image.Image]) -> Image.Image:
    """One palette for every frame, taken from a few frames spread over the game (the start,
    the end and two between), so colours do not flicker from frame to frame."""
    picks = sorted({0, len(images) // 3, 2 * len(images) // 3, len(images) - 1})
    sample = [images[i] for i in picks]
    montage = Image.new("RGB", (max(img.width for img in sample), sum(img.height for img in sample)))
    top = 0
    for img in sample:
        montage.paste(img, (0, top))
        top += img.height
    return montage.quantize(colors=COLOURS, method=Image.Quantize.MEDIANCUT)
