"""The catalogues against the code: every sentence the product marks (and every string of the
slash commands) is translated in every locale, nothing in a catalogue is unused, and each
translation has the placeholders of its English sentence and formats cleanly."""

from __future__ import annotations

import re
from functools import cache

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po

from bot.i18n import DEFAULT, LOCALES, Locale
from bot.i18n.catalogue import DOMAIN, catalogue_path
from tools.catalogues import template

TRANSLATED = [locale for locale in LOCALES if locale != DEFAULT]
PLACEHOLDER = re.compile(r"\{(\w+)(?:[:!][^{}]*)?\}")
COMMAND_LIMIT = 100


@cache
def _template() -> Catalog:
    return template()


@cache
def _catalogue(locale: Locale) -> Catalog:
    with catalogue_path(locale).open("rb") as po:
        return read_po(po, locale=locale, domain=DOMAIN)


def _ids(catalog: Catalog) -> set[object]:
    return {m.id for m in catalog if m.id}


def _forms(message: Message) -> list[str]:
    return list(message.string) if isinstance(message.string, tuple) else [message.string]


def _names(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


def test_the_code_marks_hundreds_of_sentences() -> None:
    assert len(_ids(_template())) > 400


@pytest.mark.parametrize("locale", TRANSLATED)
def test_every_sentence_of_the_code_is_translated(locale: Locale) -> None:
    catalog = _catalogue(locale)
    missing = sorted(str(i) for i in _ids(_template()) - _ids(catalog))
    assert not missing, (
        f"{len(missing)} sentences missing from {locale}.po (run python -m tools.catalogues update): {missing[:10]}"
    )
    empty = [str(m.id) for m in catalog if m.id and not all(_forms(m))]
    assert not empty, f"untranslated in {locale}.po: {empty[:10]}"


@pytest.mark.parametrize("locale", TRANSLATED)
def test_no_catalogue_holds_an_unused_sentence(locale: Locale) -> None:
    unused = sorted(str(i) for i in _ids(_catalogue(locale)) - _ids(_template()))
    assert not unused, f"{locale}.po has sentences the code no longer says: {unused[:10]}"


@pytest.mark.parametrize("locale", TRANSLATED)
def test_translations_keep_the_placeholders_and_format(locale: Locale) -> None:
    catalog = _catalogue(locale)
    problems = []
    for message in catalog:
        if not message.id:
            continue
        if isinstance(message.id, tuple):
            singular, plural = message.id
            wanted = _names(plural) | _names(singular)
            forms = _forms(message)
            if len(forms) != catalog.num_plurals:
                problems.append(f"{singular!r}: {len(forms)} plural forms, {locale} has {catalog.num_plurals}")
            for form in forms:
                if not _names(form) <= wanted | {"n"} or not (_names(plural) - {"n"}) <= _names(form):
                    problems.append(f"{singular!r} -> {form!r}")
        else:
            forms = _forms(message)
            if _names(forms[0]) != _names(message.id):
                problems.append(f"{message.id!r} -> {forms[0]!r}")
        for form in _forms(message):
            try:
                form.format_map({name: "x" for name in _names(form) | {"n"}})
            except (ValueError, KeyError, IndexError) as error:
                problems.append(f"{form!r} does not format: {error}")
    assert not problems, "\n".join(problems[:20])


@pytest.mark.parametrize("locale", TRANSLATED)
def test_command_texts_fit_discords_limit(locale: Locale) -> None:
    """Descriptions and choices are at most 100 characters; one longer one fails the sync."""
    commands = {m.id for m in _template() if any(path == "cogs/slash-commands" for path, _ in m.locations)}
    assert len(commands) > 50
    long = [m.string for m in _catalogue(locale) if m.id in commands and len(str(m.string)) > COMMAND_LIMIT]
    assert not long, long


def _literal_sentences() -> set[object]:
    """Every `tr`/`tr_n` call's literal English in the product's code, read with Python's own
    parser (which sees through parentheses and line breaks that the extractor may not)."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    found: set[object] = set()
    for package in ("bot", "cogs", "renderers"):
        for path in (root / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("tr", "tr_n"):
                    literals = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
                    if node.func.id == "tr" and literals:
                        found.add(literals[0])
                    elif node.func.id == "tr_n" and len(literals) >= 2:
                        found.add((literals[0], literals[1]))
    return found


def test_the_extractor_misses_no_sentence_of_the_code() -> None:
    """A sentence the extractor skipped would show in English with no test noticing."""
    missed = _literal_sentences() - _ids(_template())
    assert not missed, sorted(map(str, missed))[:10]
