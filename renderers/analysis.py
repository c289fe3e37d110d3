"""The picture of `/analyse`: each player's winning chance over the game, turning points marked.

An `Analysis` (bot.ai.analysis) and names in, PNG bytes out.  Two lines, one per player in
the seat colours, give that player's winning chance after every judged move (they mirror
each other around 50 %, so whoever is above the middle line is ahead); each player's
costliest moves (`Analysis.turning_points`) are ringed on the mover's line and numbered
with their ply, as `/export` and `/moves` number them.  The legend gives each player's
accuracy, and the footnote the search budget the figures come from.

Sized like the rating chart (`renderers.rating_chart`): read in an embed on a phone
(~400 px wide), every text sized by `phone_size`.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.ai.analysis import Analysis, Judgement
from bot.i18n import DEFAULT, Locale, Percent, tr
from renderers.kit import PALETTE, Color, fit_text, line_height, phone_size, text, text_width, to_png, wrap
from renderers.language import say, speaking

WIDTH = 720
TEXT = phone_size(WIDTH)
TITLE = phone_size(WIDTH, 14)
MARGIN_LEFT, MARGIN_RIGHT = 70, 24
MARGIN_TOP = 20 + line_height(TITLE) + line_height(TEXT) + 10
PLOT_HEIGHT = 260
LEGEND_TOP = MARGIN_TOP + PLOT_HEIGHT + 2 * line_height(TEXT) + 14
HEIGHT = LEGEND_TOP + 4 * line_height(TEXT) + 16
AXIS: Color = PALETTE.muted
MARK_RADIUS = 9
LINE_COLOURS: tuple[Color, Color] = PALETTE.seats


def _symbol(judgement: Judgement) -> str:
    return {"blunder": "??", "mistake": "?", "inaccuracy": "?!"}.get(judgement.label or "", "")


def analysis_png(
    analysis: Analysis, players: tuple[str, str], seat_names: tuple[str, str], title: str, locale: Locale = DEFAULT
) -> bytes:
    """The winning-chance picture of `analysis` (a game without judged moves gets an empty
    plot that says so), its words in `locale`."""
    with speaking(locale):
        return _analysis_png(analysis, players, seat_names, title)


def _analysis_png(analysis: Analysis, players: tuple[str, str], seat_names: tuple[str, str], title: str) -> bytes:
    img = Image.new("RGB", (WIDTH, HEIGHT), PALETTE.background)
    draw = ImageDraw.Draw(img)
    left, right, top, bottom = MARGIN_LEFT, WIDTH - MARGIN_RIGHT, MARGIN_TOP, MARGIN_TOP + PLOT_HEIGHT
    text(draw, (16, 16), fit_text(title, TITLE, WIDTH - 32, bold=True), TITLE, PALETTE.text, bold=True)
    text(draw, (16, 16 + line_height(TITLE)), tr("Winning chance after each move"), TEXT, AXIS)

    def y_of(chance: float) -> float:
        return bottom - chance * (bottom - top)

    for step in range(5):
        chance = step / 4
        y = y_of(chance)
        draw.line((left, y, right, y), fill=PALETTE.panel if step != 2 else AXIS, width=1 if step != 2 else 2)
        text(draw, (left - 10, y), Percent(chance), TEXT, AXIS, anchor="rm")
    draw.line((left, top, left, bottom, right, bottom), fill=AXIS, width=2)

    points = list(analysis.judgements)
    last_ply = max((j.ply for j in points), default=1)

    def x_of(ply: int) -> float:
        return left + ply / max(last_ply, 1) * (right - left)

    label_y = bottom + 8
    for tick in sorted({0, last_ply // 2, last_ply}):
        x = x_of(tick)
        draw.line((x, bottom, x, bottom + 5), fill=AXIS, width=2)
        text(
            draw, (x, label_y), str(tick), TEXT, AXIS, anchor="la" if tick == 0 else "ra" if tick == last_ply else "ma"
        )
    text(
        draw, ((left + right) / 2, label_y + line_height(TEXT)), tr("Move (ply of the record)"), TEXT, AXIS, anchor="ma"
    )

    if not points:
        text(draw, ((left + right) / 2, (top + bottom) / 2), tr("No move to judge"), TEXT, AXIS, anchor="mm")
    for seat in (0, 1):
        line = [(x_of(j.ply), y_of(j.seat0_after if seat == 0 else 1 - j.seat0_after)) for j in points]
        if len(line) > 1:
            draw.line(line, fill=LINE_COLOURS[seat], width=3, joint="curve")
        elif line:
            x, y = line[0]
            draw.ellipse((x - 3, y - 3, x + 3, y + 3), fill=LINE_COLOURS[seat])
    previous_x, previous_above = -1000.0, False
    for judgement in analysis.turning_points():
        x, y = x_of(judgement.ply), y_of(judgement.after)
        colour = LINE_COLOURS[judgement.seat]
        draw.ellipse(
            (x - MARK_RADIUS, y - MARK_RADIUS, x + MARK_RADIUS, y + MARK_RADIUS), outline=PALETTE.text, width=3
        )
        draw.ellipse((x - 4, y - 4, x + 4, y + 4), fill=colour)
        label = f"{judgement.ply}{_symbol(judgement)}"
        above = y - MARK_RADIUS - 2 > top + line_height(TEXT)
        if x - previous_x < 2 * text_width(label, TEXT) and y + MARK_RADIUS + line_height(TEXT) < bottom:
            above = not previous_above  # a close neighbour's label is on that side: take the other
        previous_x, previous_above = x, above
        anchor = ("m" if left + 30 < x < right - 30 else "l" if x <= left + 30 else "r") + ("d" if above else "a")
        text(
            draw,
            (x, y - MARK_RADIUS - 2 if above else y + MARK_RADIUS + 2),
            label,
            TEXT,
            PALETTE.text,
            anchor=anchor,
            bold=True,
            stroke_width=3,
            stroke_fill=PALETTE.background,
        )

    legend_y = float(LEGEND_TOP)
    for seat in (0, 1):
        accuracy = analysis.accuracy(seat)
        said = (
            tr("accuracy {accuracy} %", accuracy=f"{accuracy:.0f}")
            if accuracy is not None
            else tr("no choice to judge")
        )
        entry = f"{say(seat_names[seat])} · {players[seat]} · {say(said)}"
        middle = legend_y + line_height(TEXT) / 2
        draw.rectangle((16, middle - 8, 32, middle + 8), fill=LINE_COLOURS[seat])
        text(draw, (40, middle), fit_text(entry, TEXT, WIDTH - 56), TEXT, PALETTE.text, anchor="lm")
        legend_y += line_height(TEXT)
    note = tr("Ringed: each player's costliest moves. The computer's estimates, {budget}.", budget=analysis.budget)
    for row in wrap(note, TEXT, WIDTH - 32)[:2]:
        text(draw, (16, legend_y + 4), row, TEXT, AXIS)
        legend_y += line_height(TEXT)
    return to_png(img)
