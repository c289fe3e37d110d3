"""The language a picture is drawn in.

Why a context variable rather than a parameter of every drawing function: a picture's words
are drawn deep inside each game's module, and every one of them goes through the kit's few
text functions (`text`, `text_width`, `fit_text`, `wrap`).  Those say their text in the
picture's language before measuring or drawing it, so the layout is measured on the words
actually drawn (German is the longest) and no module can forget a label.  The entry points
(`renderers.render`, ...) set it from `Header.locale` for the duration of one picture.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from bot.i18n import DEFAULT, Locale, translate

_LOCALE: ContextVar[Locale] = ContextVar("picture_locale", default=DEFAULT)


@contextmanager
def speaking(locale: Locale) -> Iterator[None]:
    """Draw in `locale` inside the block."""
    token = _LOCALE.set(locale)
    try:
        yield
    finally:
        _LOCALE.reset(token)


def say(content: str) -> str:
    """`content` in the picture's language (a name, a number or a move stays as it is)."""
    locale = _LOCALE.get()
    return str(content) if locale == DEFAULT else translate(locale, content)


def current() -> Locale:
    return _LOCALE.get()
