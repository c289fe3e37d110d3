"""Numbers, days and durations in the reader's way of writing them (bot/i18n/forms.py)."""

from __future__ import annotations

import datetime as dt
import math
import pickle
import random
import re

import pytest
from babel.numbers import parse_decimal

from bot.clocks import format_clock, format_duration
from bot.i18n import Day, Duration, Number, Percent, tr, translate
from bot.i18n.forms import Ago, Formatted
from bot.i18n.locales import LOCALES


def _old_compact(seconds: float) -> str:
    """The clock's English long form as it was written before it became a `Duration`."""
    total = max(0, math.floor(seconds + 1e-9))
    days, rest = divmod(total, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if days:
        return f"{days}d {hours}h" if hours else f"{days}d"
    if hours:
        return f"{hours}h {minutes}m" if minutes else f"{hours}h"
    return f"{minutes}m" if minutes else f"{secs}s"


def test_english_durations_keep_the_clocks_compact_form() -> None:
    rng = random.Random(32)
    samples = [rng.uniform(0, 10 * 86400) for _ in range(2000)] + [0, 59, 60, 3600, 86400, 90061]
    for seconds in samples:
        assert str(format_duration(seconds, long=True)) == _old_compact(seconds)


_DE = {"Tg.": 86400, "Std.": 3600, "Min.": 60, "Sek.": 1}
_ES = {"d": 86400, "h": 3600, "min": 60, "s": 1}
_PT = {"dia": 86400, "dias": 86400, "h": 3600, "min": 60, "s": 1}


@pytest.mark.parametrize(("locale", "sizes"), [("de", _DE), ("es", _ES), ("pt_BR", _PT)])
def test_a_translated_duration_adds_up_to_the_same_time(locale: str, sizes: dict[str, int]) -> None:
    rng = random.Random(locale)
    for _ in range(500):
        seconds = rng.choice([rng.uniform(0, 120), rng.uniform(0, 7200), rng.uniform(0, 9 * 86400)])
        said = translate(locale, Duration(seconds))  # type: ignore[arg-type]
        pairs = re.findall(r"(\d+)\u00a0(\S+)", said)  # a no-break space: never parted by a wrapped line
        assert pairs and " ".join(f"{a}\u00a0{u}" for a, u in pairs) == said
        total = sum(int(amount) * sizes[unit] for amount, unit in pairs)
        english_units = {"d": 86400, "h": 3600, "m": 60, "s": 1}
        english = sum(int(a) * english_units[u] for a, u in re.findall(r"(\d+)([dhms])", Duration(seconds)))
        assert total == english <= seconds + 1e-6


def test_days_numbers_and_percentages_in_each_language() -> None:
    day = dt.date(2026, 11, 1)
    said = [translate(loc, Day(day)) for loc in ("en", "de", "es", "pt_BR")]
    assert said == ["Nov 1", "1. Nov.", "1 nov", "1 de nov."]
    assert translate("de", Percent(0.42)) == "42\xa0%" and str(Percent(0.42)) == "42%"
    assert translate("de", Number(1500, grouped=False)) == "1500"
    rng = random.Random(7)
    for _ in range(300):
        value = round(rng.uniform(-5000, 5000), 1)
        for locale in ("de", "es", "pt_BR"):
            said = translate(locale, Number(value, 1))  # type: ignore[arg-type]
            assert float(parse_decimal(said.replace("\u2212", "-"), locale=locale)) == pytest.approx(value)
        assert float(str(Number(value, 1)).replace(",", "")) == pytest.approx(value)


def test_a_duration_inside_a_sentence_is_said_in_the_readers_language_after_pickling() -> None:
    sentence = tr("{time} of reserve left", time=format_duration(3700, long=True))
    assert str(sentence) == "1h 1m of reserve left"
    assert "1\u00a0Std. 1\u00a0Min." in translate("de", pickle.loads(pickle.dumps(sentence)))
    clock = pickle.loads(pickle.dumps(format_clock(83000, 3 * 86400 + 7200, long=True)))
    assert str(clock) == "23h 3m + 3d 2h"
    assert translate("de", clock).replace("\u00a0", " ") == "23 Std. 3 Min. + 3 Tg. 2 Std."
    assert str(format_clock(42, 150)) == "0:42 + 2:30" == translate("de", format_clock(42, 150))


@pytest.mark.parametrize("seed", [1, 8])
def test_every_formatted_kind_pickles_to_the_same_value_in_every_language(seed: int) -> None:
    rng = random.Random(seed)
    made = [
        Number(rng.uniform(-1e6, 1e6), rng.randrange(3), rng.random() < 0.5),
        Percent(rng.random()),
        Day(dt.date(2026, 1, 1) + dt.timedelta(days=rng.randrange(365))),
        Duration(rng.uniform(0, 9 * 86400)),
        Duration(rng.randrange(1, 60) * 60.0, f"{rng.randrange(1, 60)} min"),  # another English form
        Ago(rng.uniform(0, 7200)),
    ]
    assert {type(value) for value in made} == set(Formatted.__subclasses__()), "every kind is tried"
    for value in made:
        back = pickle.loads(pickle.dumps(value))
        assert type(back) is type(value) and str(back) == str(value)
        for name in value.made_of:
            assert getattr(back, name) == getattr(value, name), name
        for locale in LOCALES:
            assert back.said(locale) == value.said(locale), locale
