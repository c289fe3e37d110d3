"""The catalogues (po/<locale>.po), read with Babel, and `translate`.

Why read the .po files themselves: nothing compiled is committed, and a translator's edit
is live at the next start.  Babel parses the file and writes the gettext binary form into
memory, so the standard library's `GNUTranslations` does the look-ups and the plural rule
of each language's `Plural-Forms` header.

A sentence that went through the database or a `str` operation has lost its template: it
is recognised by matching it against every English template of the catalogue (the longest
literal text first), and its placeholders are taken back from the match.
"""

from __future__ import annotations

import gettext
import io
import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from bot.i18n.forms import Formatted
from bot.i18n.locales import DEFAULT, LOCALES, Locale
from bot.i18n.text import Joined, Text

log = logging.getLogger(__name__)

CATALOGUES = Path(__file__).with_name("po")
DOMAIN = "boneyard"
_PLACEHOLDER = re.compile(r"\{(\w+)(?:[:!][^{}]*)?\}")


def catalogue_path(locale: Locale) -> Path:
    return CATALOGUES / f"{locale}.po"


@cache
def _catalog(locale: Locale) -> Catalog:
    """The .po file of `locale`, read once (translations, templates and message ids all come from it)."""
    with catalogue_path(locale).open("rb") as po:
        return read_po(po, locale=locale, domain=DOMAIN)


@cache
def _translations(locale: Locale) -> gettext.NullTranslations:
    """The gettext translations of `locale` (English: none, the text is the source)."""
    if locale == DEFAULT:
        return gettext.NullTranslations()
    compiled = io.BytesIO()
    write_mo(compiled, _catalog(locale))
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


@dataclass(frozen=True)
class _Template:
    msgid: str
    plural: str | None
    pattern: re.Pattern[str]
    literal: int


def _pattern(template: str) -> re.Pattern[str]:
    parts: list[str] = []
    seen: set[str] = set()
    last = 0
    for found in _PLACEHOLDER.finditer(template):
        parts.append(re.escape(template[last : found.start()]))
        name = found.group(1)
        parts.append(f"(?P={name})" if name in seen else f"(?P<{name}>.+?)")
        seen.add(name)
        last = found.end()
    parts.append(re.escape(template[last:]))
    return re.compile("".join(parts), re.DOTALL)


@cache
def _templates() -> tuple[_Template, ...]:
    """Every English template with a placeholder, the most specific (longest literal) first."""
    found = []
    for message in _catalog(LOCALES[1]):
        if not message.id:
            continue
        ids: tuple[str, ...] = tuple(message.id) if isinstance(message.id, (tuple, list)) else (message.id,)
        plural = ids[1] if len(ids) > 1 else None
        for english in ids:
            if _PLACEHOLDER.search(english) and _PLACEHOLDER.sub("", english).strip():
                literal = len(_PLACEHOLDER.sub("", english))
                found.append(_Template(ids[0], plural, _pattern(english), literal))
    return tuple(sorted(found, key=lambda t: -t.literal))


@lru_cache(maxsize=8192)
def recognise(english: str) -> Text | None:
    """The `Text` an English sentence was made from, when a catalogue template makes it."""
    for template in _templates():
        match = template.pattern.fullmatch(english)
        if match is None:
            continue
        params: dict[str, Any] = {key: _inner(value) for key, value in match.groupdict().items()}
        n = None
        if template.plural is not None:
            try:
                n = int(params.get("n", ""))
            except ValueError:
                n = 2 if template.pattern.pattern == _pattern(template.plural).pattern else 1
        return Text(template.msgid, params, template.plural, n)
    return None


def _inner(value: str) -> str:
    """A placeholder's value taken from a match: itself a sentence of the catalogue, or as it was
    (a name, a move, a number)."""
    if value in _msgids():
        return Text(value)
    return recognise(value) or value


@cache
def _msgids() -> frozenset[str]:
    messages = _catalog(LOCALES[1])
    return frozenset(m.id for m in messages if isinstance(m.id, str) and m.id and not _PLACEHOLDER.search(m.id))


def _say(locale: Locale, text: Text) -> str:
    if isinstance(text, Formatted):
        return text.said(locale)
    if isinstance(text, Joined):
        return text.sep.join(translate(locale, part) for part in text.parts)
    if not text.params and text.plural is None:  # a sentence as it was stored: recognise it
        return _translate_plain(locale, text.msgid)
    words = _translations(locale)
    if text.plural is not None and text.n is not None:
        template = words.ngettext(text.msgid, text.plural, text.n)
    else:
        template = words.gettext(text.msgid)
    if not text.params:
        return template
    params: Mapping[str, Any] = {
        key: _say(locale, value) if isinstance(value, Text) else value for key, value in text.params.items()
    }
    try:
        return template.format_map(params)
    except (KeyError, ValueError, IndexError):
        log.exception("the %s translation of %r does not fit its placeholders", locale, text.msgid)
        return str(text)


def translate(locale: Locale, text: str) -> str:
    """`text` in `locale`: a `Text` through its template, a plain string by recognising it
    (a name, a move or anything not in the catalogue stays as it is)."""
    if locale == DEFAULT or not text:
        return str(text)
    if isinstance(text, Text):
        return _say(locale, text)
    return _translate_plain(locale, text)


@lru_cache(maxsize=8192)
def _translate_plain(locale: Locale, text: str) -> str:
    words = _translations(locale)
    exact = words.gettext(text)
    if exact != text:
        return exact
    made = recognise(text)
    return _say(locale, made) if made is not None else text
