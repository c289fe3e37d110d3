"""The languages Boneyard speaks, and how Discord's locale codes map onto them."""

from __future__ import annotations

from typing import Final, Literal

Locale = Literal["en", "de", "es", "pt_BR"]
"""A catalogue's name: English (the source language), German, Spanish, Brazilian Portuguese."""

LOCALES: Final[tuple[Locale, ...]] = ("en", "de", "es", "pt_BR")
DEFAULT: Final[Locale] = "en"
LANGUAGE_NAMES: Final[dict[Locale, str]] = {
    "en": "English",
    "de": "Deutsch",
    "es": "Español",
    "pt_BR": "Português (Brasil)",
}
"""Each language in its own words (what a player picks from)."""

_BY_PREFIX: Final[dict[str, Locale]] = {"de": "de", "es": "es", "pt": "pt_BR", "en": "en"}


def from_discord(code: object) -> Locale:
    """Our locale for a Discord locale (`discord.Locale` or its text: `de`, `es-ES`, `es-419`,
    `pt-BR`, `en-US` ...); a language we do not speak yet is English."""
    text = str(getattr(code, "value", code) or "").replace("_", "-")
    return _BY_PREFIX.get(text.split("-")[0].lower(), DEFAULT)


def known(code: str | None) -> Locale | None:
    """`code` if it names one of our catalogues (a stored setting), else None."""
    for locale in LOCALES:
        if code == locale:
            return locale
    return None
