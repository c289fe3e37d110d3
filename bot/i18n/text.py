"""`Text`: an English sentence that remembers its template and placeholders.

Why a `str` subclass: every layer that only passes a sentence along (an `IllegalMove`, an
outcome's reason, a narration line, a service refusal) keeps working with it as the English
string it is, and the layer that shows it to a person can still say it in their language
(`bot.i18n.translate`).  Once a `Text` is cut, joined or stored it becomes a plain string;
`translate` then recognises it by its template (catalogue.py), so a sentence read back from
the database is translated too.

`tr` and `tr_n` are also the markers `pybabel extract` looks for (keywords `tr` and
`tr_n:1,2`): their first arguments must be string literals.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


class Text(str):
    """An English sentence made from `msgid` (or `plural` when `n` != 1) and `params`."""

    msgid: str
    plural: str | None
    n: int | None
    params: Mapping[str, Any]

    def __new__(
        cls, msgid: str, params: Mapping[str, Any] | None = None, plural: str | None = None, n: int | None = None
    ) -> Text:
        values = dict(params or {})
        if n is not None:
            values.setdefault("n", n)
        template = plural if plural is not None and n != 1 else msgid
        made = super().__new__(cls, template.format_map(values) if values else template)
        made.msgid, made.plural, made.n, made.params = msgid, plural, n, values
        return made

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled with its template (pictures are drawn in worker processes)."""
        return (Text, (self.msgid, dict(self.params), self.plural, self.n))


def tr(msgid: str, /, **params: Any) -> Text:
    """A sentence to translate: `tr("{square} is occupied.", square="c3")`."""
    return Text(msgid, params)


def tr_n(singular: str, plural: str, n: int, /, **params: Any) -> Text:
    """A sentence whose words depend on the number `n` (available as `{n}`): the language's
    own plural rules choose the form (German and Spanish have two, like English)."""
    return Text(singular, params, plural, n)


class Joined(Text):
    """Sentences or phrases listed with `sep` ("; "), each said in the reader's language."""

    parts: tuple[str, ...]
    sep: str

    def __new__(cls, sep: str, parts: Sequence[str]) -> Joined:
        made = str.__new__(cls, sep.join(parts))
        made.msgid, made.plural, made.n, made.params = str(made), None, None, {}
        made.parts, made.sep = tuple(parts), sep
        return made

    def __reduce__(self) -> tuple[Any, ...]:
        return (Joined, (self.sep, self.parts))


def joined(sep: str, parts: Sequence[str]) -> Joined:
    """`sep.join(parts)` that stays translatable part by part (a list of what happened)."""
    return Joined(sep, parts)
