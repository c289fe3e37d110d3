"""`Text` and `translate`: a sentence said in each language, whether it still knows its
template or was read back from the database as plain English."""

from __future__ import annotations

import pickle
import random
import string

import pytest
from babel.messages.pofile import read_po

from bot.games import GAMES
from bot.i18n import Text, from_discord, joined, recognise, tr, tr_n, translate
from bot.i18n.catalogue import DOMAIN, catalogue_path

BLUE = GAMES["focus"].info.seat_names[1]


def test_a_text_is_its_english_sentence() -> None:
    made = tr("{name} ({seat}) played `{move}`.", name="ana", seat=BLUE, move="c3-c5")
    assert made == "ana (Blue) played `c3-c5`."
    assert isinstance(made, str) and made.msgid == "{name} ({seat}) played `{move}`."


@pytest.mark.parametrize(
    ("locale", "expected"),
    [
        ("de", "ana (Blau) hat `c3-c5` gespielt."),
        ("es", "ana (Azul) jugó `c3-c5`."),
        ("pt_BR", "ana (Azul) jogou `c3-c5`."),
        ("en", "ana (Blue) played `c3-c5`."),
    ],
)
def test_a_text_is_said_in_each_language_with_its_nested_words(locale: str, expected: str) -> None:
    made = tr("{name} ({seat}) played `{move}`.", name="ana", seat=BLUE, move="c3-c5")
    assert translate(locale, made) == expected  # type: ignore[arg-type]


def test_plurals_follow_each_languages_rule() -> None:
    """CLDR: Portuguese (Brazil) says 0 in the singular, German and Spanish in the plural."""

    def earlier(n: int) -> Text:
        return tr_n("… {n} earlier move (see the board).", "… {n} earlier moves (see the board).", n)

    assert translate("pt_BR", earlier(0)) == "… 0 jogada anterior (veja o tabuleiro)."
    assert translate("pt_BR", earlier(2)) == "… 2 jogadas anteriores (veja o tabuleiro)."
    assert translate("de", earlier(0)) == "… 0 frühere Züge (siehe Brett)."
    assert translate("de", earlier(1)) == "… 1 früherer Zug (siehe Brett)."
    assert translate("es", earlier(1)) == "… 1 jugada anterior (ver el tablero)."


def test_a_sentence_read_back_as_plain_english_is_recognised() -> None:
    """An outcome's reason comes back from the store as a plain string."""
    stored = str(tr("{seat} controls no stack and has no reserve.", seat=BLUE))
    assert type(stored) is str
    assert translate("de", stored) == "Blau kontrolliert keinen Stapel und hat keine Reserve."
    wins = str(tr("🏆 **{name}** wins: {reason}", name="bob", reason=tr("The game is over.")))
    assert translate("es", wins) == "🏆 **bob** gana: La partida ha terminado."


def test_names_moves_and_unknown_text_stay_as_they_are() -> None:
    for plain in ("c3-c5", "Ωmega player", "Really? 12", ""):
        assert translate("de", plain) == plain


def test_joined_parts_are_said_one_by_one() -> None:
    parts = joined("; ", [tr("It is not your turn."), "c3", tr("The game is over.")])
    assert parts == "It is not your turn.; c3; The game is over."
    assert translate("pt_BR", parts) == "Não é a sua vez.; c3; A partida acabou."


def test_a_text_survives_pickling_for_the_picture_workers() -> None:
    made = tr_n("{seat} has {n} life", "{seat} has {n} lives", 3, seat=BLUE)
    again = pickle.loads(pickle.dumps(made))
    assert again == made and isinstance(again, Text)
    assert translate("de", again) == "Blau hat 3 Leben"
    listed = pickle.loads(pickle.dumps(joined(", ", [BLUE, "x"])))
    assert translate("es", listed) == "Azul, x"


def test_discord_locales_map_onto_ours() -> None:
    assert [from_discord(c) for c in ("de", "es-ES", "es-419", "pt-BR", "en-US", "fr", None)] == [
        "de", "es", "es", "pt_BR", "en", "en", "en",
    ]  # fmt: skip


def _templates() -> list[str]:
    with catalogue_path("de").open("rb") as po:
        catalog = read_po(po, domain=DOMAIN)
    return [m.id for m in catalog if isinstance(m.id, str) and "{" in m.id and "{{" not in m.id]


def test_random_fillings_of_every_template_are_recognised_as_that_sentence() -> None:
    """Any template filled with word-like values (a name, a square, a number) and flattened
    to plain English is said as the template itself would be: the store loses nothing."""
    import re

    rng = random.Random(32)
    placeholder = re.compile(r"\{(\w+)\}")
    wrong = []
    for template in _templates():
        for _ in range(3):
            values = {
                name: rng.choice(["".join(rng.choices(string.ascii_lowercase, k=rng.randint(2, 7))), "c3", "12"])
                for name in placeholder.findall(template)
            }
            made = Text(template, values)
            for locale in ("de", "es", "pt_BR"):
                if translate(locale, str(made)) != translate(locale, made):  # type: ignore[arg-type]
                    wrong.append(f"{made!r} in {locale}: recognised as {recognise(str(made))!r}")
    assert not wrong, "\n".join(wrong[:10])
