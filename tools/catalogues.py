"""Keep the catalogues in step with the code: `python -m tools.catalogues update`.

It collects every sentence marked with `tr`/`tr_n` in the product's code (Babel's Python
extractor) and every string of the slash commands (cogs/translator.py), writes the template
`bot/i18n/po/boneyard.pot`, and brings each locale's .po up to date: new sentences appear
untranslated, removed ones are dropped, translations are kept.  Then translate the empty
`msgstr`s (a .po editor, or any text editor) and run the tests (tests/i18n checks every key
is translated in every locale, none is unused, and the placeholders match).
"""

from __future__ import annotations

import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from bot.app.client import EXTENSIONS
from bot.i18n import DEFAULT, LOCALES
from bot.i18n.catalogue import CATALOGUES, DOMAIN, catalogue_path
from cogs.translator import command_texts

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("bot", "cogs", "renderers")
KEYWORDS = {"tr": None, "tr_n": (1, 2)}
COMMENT_TAGS = ("TRANSLATORS:",)


def template() -> Catalog:
    """Every sentence the product says, as a gettext template (no translations)."""
    catalog = Catalog(domain=DOMAIN, project="Boneyard", charset="utf-8")
    for source in SOURCES:
        for filename, lineno, message, comments, context in extract_from_dir(
            ROOT / source, keywords=KEYWORDS, comment_tags=COMMENT_TAGS, strip_comment_tags=True
        ):
            catalog.add(message, None, [(f"{source}/{filename}", lineno)], auto_comments=comments, context=context)
    for text in command_texts(EXTENSIONS):
        catalog.add(text, None, [("cogs/slash-commands", 0)])
    return catalog


def update() -> None:
    fresh = template()
    with (CATALOGUES / f"{DOMAIN}.pot").open("wb") as out:
        write_po(out, fresh, include_lineno=False, width=100)
    for locale in LOCALES:
        if locale == DEFAULT:
            continue
        path = catalogue_path(locale)
        if path.exists():
            with path.open("rb") as po:
                catalog = read_po(po, locale=locale, domain=DOMAIN)
        else:
            catalog = Catalog(locale=locale, domain=DOMAIN, project="Boneyard", charset="utf-8", fuzzy=False)
        catalog.update(fresh, no_fuzzy_matching=True, update_creation_date=False)
        catalog.obsolete.clear()
        with path.open("wb") as out:
            write_po(out, catalog, include_lineno=False, width=100, ignore_obsolete=True)
        missing = sum(1 for m in catalog if m.id and not _translated(m.string))
        print(f"{path.relative_to(ROOT)}: {len(catalog)} sentences, {missing} to translate")


def _translated(string: object) -> bool:
    if isinstance(string, tuple):
        return all(string)
    return bool(string)


if __name__ == "__main__":
    if sys.argv[1:] != ["update"]:
        sys.exit("usage: python -m tools.catalogues update")
    update()
