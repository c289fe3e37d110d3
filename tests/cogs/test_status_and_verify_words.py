"""`/status`, the owner's sync replies and the Verify button's answer in the reader's language."""

from __future__ import annotations

import random

import pytest

from bot.i18n import translate
from bot.infra.duties import DutyHealth
from bot.records.verify import Verdict
from cogs.admin import status_line
from cogs.ui.verify_button import verdict_words

ENGLISH_WORDS = ("failing", "running", "stopped", "done", "last success", "ago", "not succeeded")


def _health(rng: random.Random, now: float) -> DutyHealth:
    failing = rng.random() < 0.5
    return DutyHealth(
        name=rng.choice(["clocks", "outbox", "tournaments"]),
        every=30.0,
        last_success=now - rng.uniform(1, 5000) if rng.random() < 0.7 else None,
        last_failure=now - 1 if failing else None,
        last_error="ConnectionRefusedError: [Errno 111]" if failing else None,
        failures_in_a_row=rng.randint(1, 9) if failing else 0,
        running=rng.random() < 0.7,
        done=rng.random() < 0.2,
    )


@pytest.mark.parametrize("locale", ["de", "es", "pt_BR"])
def test_every_status_line_is_said_whole_in_the_readers_language(locale: str) -> None:
    rng = random.Random(locale)
    now = 1_800_000_000.0
    for _ in range(200):
        health = _health(rng, now)
        english = status_line(health, now=now)
        said = translate(locale, english)  # type: ignore[arg-type]
        assert said != english and said.split("**")[1] == health.name
        assert not any(word in said for word in ENGLISH_WORDS), said
        if health.failing:
            assert f"`{health.last_error}`" in said and str(health.failures_in_a_row) in said


def test_the_english_status_line_is_unchanged_and_says_how_long_ago() -> None:
    health = DutyHealth(name="outbox", every=30.0, last_success=100.0, running=True)
    assert status_line(health, now=400.0) == "🟢 **outbox**: running, last success 5 min ago"
    assert translate("de", status_line(health, now=400.0)) == "🟢 **outbox**: läuft, letzter Erfolg vor 5 Min."
    assert translate("es", status_line(health, now=142.0)) == "🟢 **outbox**: en marcha, último éxito hace 42 s"


def test_the_verify_answer_in_english_is_the_checkers_own_sentence() -> None:
    verdict = Verdict(True, "The record of match #7 holds: all 12 moves are legal and ...", 12, 5, True)
    assert verdict_words(verdict, 7, "en") == "✅ The record of match #7 holds: all 12 moves are legal and ..."
    assert verdict_words(Verdict(False, "Ply 3: no."), 7, "en") == "❌ Ply 3: no."


def test_the_verify_answer_in_another_language_says_the_same_counts() -> None:
    many = Verdict(True, "…", 12, 5, True)
    assert verdict_words(many, 7, "de") == (
        "✅ Die Aufzeichnung der Partie #7 stimmt: alle 12 Züge sind regelkonform. Alle 5 Zufallszüge sind die, "
        "die der offengelegte Seed ergibt. Die Auslosung der Plätze ist die, die der offengelegte Seed ergibt."
    )
    one = verdict_words(Verdict(True, "…", 1, 1, False), 9, "pt_BR")
    assert one == (
        "✅ O registro da partida #9 está correto: o seu único lance é legal. "
        "O seu único lance de sorte é o que a semente revelada dá."
    )
    none = verdict_words(Verdict(True, "…", 0, 0, False), 9, "es")
    assert (
        none == "✅ El registro de la partida #9 es correcto: no tiene jugadas que comprobar. No hay jugadas de azar."
    )
    bad = verdict_words(Verdict(False, "Ply 3: `roll 4` is not what the seed gives."), 9, "de")
    assert bad.startswith("❌ Die Aufzeichnung der Partie #9 hält der Prüfung nicht stand.")
    assert bad.endswith("(auf Englisch): Ply 3: `roll 4` is not what the seed gives.")
