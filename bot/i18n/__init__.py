"""Boneyard in the players' languages: sentences that remember how they were made, and the
catalogues that say them in German, Spanish and Brazilian Portuguese.

Why gettext catalogues read through Babel: .po files are the format every translator and
tool knows, Babel reads them directly (nothing compiled is committed) and brings CLDR's
plural rules; the English text is the key (`msgid`), so code reads as it always did and a
missing translation falls back to English instead of a key name.

Pure: the only I/O is reading the package's own .po files, once per locale.  The games
import `tr`/`tr_n` (text.py) to mark their sentences; what is shown in which language is
decided above them, by whoever sends the sentence.
"""

from bot.i18n.catalogue import recognise, translate
from bot.i18n.forms import Ago, Day, Duration, Formatted, Number, Percent
from bot.i18n.locales import DEFAULT, LANGUAGE_NAMES, LOCALES, Locale, from_discord
from bot.i18n.text import Joined, Text, joined, tr, tr_n

__all__ = [
    "DEFAULT",
    "LANGUAGE_NAMES",
    "LOCALES",
    "Ago",
    "Day",
    "Duration",
    "Formatted",
    "Joined",
    "Locale",
    "Number",
    "Percent",
    "Text",
    "from_discord",
    "joined",
    "recognise",
    "tr",
    "tr_n",
    "translate",
]
