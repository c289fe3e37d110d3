"""Numbers, dates and durations written the reader's way (`1.234,5`, `1. Nov.`, `2 Tg. 5 Std.`).

Why values rather than strings: whoever makes a sentence (a clock, a chart, a summary) does
not know who will read it; a `Formatted` value is a `Text` whose English form is what the
code always wrote, and `translate` (catalogue.py) asks it for its own form in the reader's
locale, with CLDR's data through Babel (digits, separators, month names, unit words).  So a
placeholder such as `{time}` in "{time} of reserve left" comes out right in every language,
and a picture's `say` draws an axis label the same way.

Pure: Babel's locale data only.  Once cut or stored, a value is plain English text again.
"""

from __future__ import annotations

import datetime as dt
import math
from typing import Any, ClassVar, TypeVar

from babel import Locale as BabelLocale
from babel.dates import format_skeleton, format_timedelta
from babel.numbers import format_decimal, format_percent

from bot.i18n.locales import DEFAULT, Locale
from bot.i18n.text import Text

_UNITS = (("duration-day", 86400), ("duration-hour", 3600), ("duration-minute", 60), ("duration-second", 1))
_ENGLISH_UNITS = {"duration-day": "d", "duration-hour": "h", "duration-minute": "m", "duration-second": "s"}


_F = TypeVar("_F", bound="Formatted")


class Formatted(Text):
    """A value shown to people; `said(locale)` is how that locale writes it.

    Pickled as its class and `made_of` (pictures are drawn in worker processes): each kind
    names the attributes it was made from, in its constructor's order, and this one
    `__reduce__` serves them all (Text's own would rebuild a plain sentence)."""

    made_of: ClassVar[tuple[str, ...]]
    """The constructor's arguments, as attribute names."""

    def said(self, locale: Locale) -> str:
        raise NotImplementedError

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), tuple(getattr(self, name) for name in self.made_of))


class Number(Formatted):
    """A decimal number with `decimals` digits after the separator (no thousands grouping when
    `grouped` is false: a rating is 1500, not 1,500)."""

    value: float
    decimals: int
    grouped: bool

    made_of = ("value", "decimals", "grouped")

    def __new__(cls, value: float, decimals: int = 0, grouped: bool = True) -> Number:
        made = _make(cls, number_text(DEFAULT, value, decimals, grouped=grouped))
        made.value, made.decimals, made.grouped = value, decimals, grouped
        return made

    def said(self, locale: Locale) -> str:
        return number_text(locale, self.value, self.decimals, grouped=self.grouped)


class Percent(Formatted):
    """A fraction as a whole percentage: 0.42 is `42%` (`42 %` in German)."""

    fraction: float

    made_of = ("fraction",)

    def __new__(cls, fraction: float) -> Percent:
        made = _make(cls, percent_text(DEFAULT, fraction))
        made.fraction = fraction
        return made

    def said(self, locale: Locale) -> str:
        return percent_text(locale, self.fraction)


class Day(Formatted):
    """A day of the year, short: `Nov 1`, `1. Nov.`, `1 nov`, `1 de nov.`."""

    day: dt.date

    made_of = ("day",)

    def __new__(cls, day: dt.date) -> Day:
        made = _make(cls, day_text(DEFAULT, day))
        made.day = day
        return made

    def said(self, locale: Locale) -> str:
        return day_text(locale, self.day)


class Duration(Formatted):
    """A long span in its two largest units, rounded down: `2d 5h`, `23h 10m`, `45m`, `30s`
    in English (the clock's compact form), `2 Tg. 5 Std.`, `23 h 10 min`, ... elsewhere."""

    seconds: float
    english: str

    made_of = ("seconds", "english")

    def __new__(cls, seconds: float, english: str | None = None) -> Duration:
        """`english`: another English form of the same time (a reminder's `5 min`)."""
        made = _make(cls, english if english is not None else duration_text(DEFAULT, seconds))
        made.seconds, made.english = seconds, str(made)
        return made

    def said(self, locale: Locale) -> str:
        return self.english if locale == DEFAULT else duration_text(locale, self.seconds)


class Ago(Formatted):
    """How long ago something happened: `42 s ago`, `5 min ago` (`vor 5 Min.`, `hace 5 min`)."""

    seconds: float

    made_of = ("seconds",)

    def __new__(cls, seconds: float) -> Ago:
        made = _make(cls, ago_text(DEFAULT, seconds))
        made.seconds = seconds
        return made

    def said(self, locale: Locale) -> str:
        return ago_text(locale, self.seconds)


def _make(cls: type[_F], english: str) -> _F:
    made = str.__new__(cls, english)
    made.msgid, made.plural, made.n, made.params = english, None, None, {}
    return made


def number_text(locale: Locale, value: float, decimals: int = 0, *, grouped: bool = True) -> str:
    places = "." + "0" * decimals if decimals else ""
    return format_decimal(round(value, decimals), format=f"#,##0{places}", locale=locale, group_separator=grouped)


def percent_text(locale: Locale, fraction: float) -> str:
    return format_percent(fraction, locale=locale)


def day_text(locale: Locale, day: dt.date) -> str:
    return format_skeleton("MMMd", day, locale=locale)


def ago_text(locale: Locale, seconds: float) -> str:
    whole = max(0, round(seconds))
    if locale == DEFAULT:
        return f"{whole} s ago" if whole < 120 else f"{whole // 60} min ago"
    return format_timedelta(dt.timedelta(seconds=-whole), add_direction=True, format="short", locale=locale)


def duration_text(locale: Locale, seconds: float) -> str:
    if math.isinf(seconds):
        return "∞"
    left = max(0, math.floor(seconds + 1e-9))
    parts: list[tuple[int, str]] = []
    for unit, size in _UNITS:
        amount, left = divmod(left, size)
        if amount or parts:
            parts.append((amount, unit))
    shown = parts[:1] if parts and parts[0][1] == "duration-minute" else parts[:2]  # `45m`, never `45m 10s`
    kept = [(amount, unit) for amount, unit in shown if amount] or [(0, "duration-second")]
    if locale == DEFAULT:
        return " ".join(f"{amount}{_ENGLISH_UNITS[unit]}" for amount, unit in kept)
    return " ".join(_unit(locale, amount, unit) for amount, unit in kept)


def _unit(locale: Locale, amount: int, unit: str) -> str:
    """`5 Std.`: CLDR's short pattern of `unit` for `amount`'s plural category, else its
    `other` pattern, as CLDR says (Babel's `format_unit` falls back to the long unit name
    instead: Spanish "1 horas").  A no-break space joins the number and its unit, so a
    wrapped line never parts them."""
    cldr = BabelLocale.parse(locale)
    patterns = cldr._data["unit_patterns"][unit]["short"]
    pattern = patterns.get(cldr.plural_form(amount)) or patterns["other"]
    return str(pattern).replace("{0} ", "{0}\u00a0").replace("{0}", format_decimal(amount, locale=locale))
