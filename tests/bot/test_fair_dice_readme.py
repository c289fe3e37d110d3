"""The README's "Fair dice" section is enough to recheck a record without this project.

`rederive` below was written from the README's words alone: it imports nothing of the
project (only hashlib and random) and reads the record's text itself.  It must agree with
every line the seed decided — the seat draw, every chance line, every pick of a draft completed
at random — of random records of all five games, and disagree with a changed one.
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter

import pytest

from bot.records.format import format_record
from tests.bot.test_record_mutations import honest_record

# --- the independent re-deriver (README "Fair dice"; standard library only) ---------------

TILES = [f"{a}-{b}" for a in range(7) for b in range(a, 7)]
FACES = {1: "SSSSAM", 2: "DSSSAM", 3: "DFSSAM", 4: "DFCSAM"}
CARDS = [r + s for r in ("A", *map(str, range(2, 11)), "J", "Q", "K") for s in "CDHS"]


def legal_picks(game: str, picks: list[str], repeat: bool) -> list[str]:
    if game == "domino_wars":
        again = repeat and len(set(picks)) == len(picks)
        return [t for t in TILES if t[0] != t[2] and picks.count(t) < (2 if again else 1)]
    kinds = {(c[:-1], c[-1] in "HD") for c in picks}
    return [c for c in CARDS if (c[:-1], c[-1] in "HD") not in kinds]


def rederive(text: str) -> list[tuple[int, str, str]]:
    """(ply, line as recorded, what the seed gives) for every line the seed decided: the seat
    draw, every chance line and every pick of a draft completed at random."""
    head, _, body = text.partition("\n\n")
    tags = dict(line[1:-2].split(' "', 1) for line in head.splitlines())
    seed, game = tags["Seed"], tags["Game"]
    options = dict(o.split("=") for o in tags["Options"].split())
    rng_of = lambda ply: random.Random(hashlib.sha256(f"{seed}:{ply}".encode()).digest())  # noqa: E731
    in_force: list[tuple[int, str, str]] = []  # (ply, who, move) of the lines not withdrawn
    completing: tuple[str, random.Random] | None = None
    out = []
    for line in body.splitlines():
        ply_text, who, move = line.split(" ", 2)
        ply, move = int(ply_text), move.removesuffix(" {forced}").removesuffix(" {secret}")
        if who == "seats":
            seat = rng_of(-1).randrange(2)
            out.append((ply, move, f"challenger {tags[f'Player{seat}Id']} seat {seat}"))
            continue
        if who == "takeback":
            in_force = [e for e in in_force if e[0] < int(move)]
            continue
        if who == "complete":
            completing = (move, rng_of(ply))
            continue
        if who == "end":
            continue
        if completing is not None and completing[0] == who and move.startswith("pick "):
            picks = [m.split()[1] for _, w, m in in_force if w == who and m.startswith("pick ")]
            full = 8 if game == "domino_wars" else 15
            if len(picks) < full:
                repeat = options.get("repeat") in (who, "both")
                legal = sorted(f"pick {p}" for p in legal_picks(game, picks, repeat))
                out.append((ply, move, completing[1].choice(legal)))
                completing = completing if len(picks) + 1 < full else None
        if who == "chance":
            out.append((ply, move, chance(game, move, rng_of(ply), in_force)))
        in_force.append((ply, who, move))
    return out


def chance(game: str, move: str, rng: random.Random, in_force: list[tuple[int, str, str]]) -> str:
    kind, *words = move.split()
    if game == "domineering":
        drawn = {m.split()[1] for _, w, m in in_force if w == "chance"}
        return f"draw {rng.choice([t for t in TILES if t not in drawn])}"
    if game == "dominance" and kind == "layout":
        tiles = [t for t in TILES if "0" not in t]
        rng.shuffle(tiles)
        return "layout " + " ".join(t[0] + t[2] if rng.random() < 0.5 else t[2] + t[0] for t in tiles)
    if game == "dominance":
        return "roll " + " ".join(map(str, sorted(rng.randint(1, 6) for _ in words)))
    if game == "domino_wars" and kind == "shuffle":
        pile = sorted(words[1:], key=lambda t: (int(t[0]), int(t[2])))
        rng.shuffle(pile)
        return f"shuffle {words[0]} " + " ".join(pile)
    if game == "domino_wars":
        return f"first {rng.randrange(2)}"
    dice = next(m for _, w, m in reversed(in_force) if m.startswith("dice ")).split()[1:]
    return "roll " + " ".join(rng.choice(FACES[int(d.split(":")[0])]) for d in dice)


# --- the test ---------------------------------------------------------------------------


@pytest.mark.parametrize("game", ["dominance", "domineering", "domino_wars", "focus", "wonderland"])
def test_the_readme_rederives_every_seeded_line(game: str) -> None:
    """Seat draws, chance lines and completed drafts of random records (random options,
    seats, players, takebacks): the README's words give exactly the recorded lines."""
    rng = random.Random(f"readme-{game}")
    kinds: Counter[str] = Counter()
    for _ in range(12):
        text = format_record(honest_record(game, rng))
        kinds["takeback"] += " takeback " in text
        for ply, recorded, derived in rederive(text):
            assert recorded == derived, (ply, recorded, derived)
            kinds["seats" if ply == -1 else "pick" if recorded.startswith("pick ") else "chance"] += 1
    assert kinds["seats"] >= 2 and kinds["takeback"] >= 1, kinds
    assert (kinds["chance"] == 0) == (game == "focus"), kinds
    assert (kinds["pick"] > 0) == (game in ("domino_wars", "wonderland")), kinds


def _changed(text: str, ply: int, recorded: str, other: str) -> str:
    head, body = text.split("\n\n", 1)
    lines = [line if not line.startswith(f"{ply} ") else line.replace(recorded, other, 1) for line in body.splitlines()]
    return head + "\n\n" + "\n".join(lines) + "\n"


def test_the_readme_catches_a_changed_draw() -> None:
    record = honest_record("domineering", random.Random(4))
    text = format_record(record)
    ply, recorded, _ = next(r for r in rederive(text) if r[0] >= 3)
    other = next(f"draw {t}" for t in TILES if f"draw {t}" != recorded)
    assert any(r != d for _, r, d in rederive(_changed(text, ply, recorded, other)))


@pytest.mark.parametrize("game", ["domino_wars", "wonderland"])
def test_the_readme_catches_a_changed_pick_of_a_completed_draft(game: str) -> None:
    rng = random.Random(f"picks-{game}")
    texts = (format_record(honest_record(game, rng)) for _ in range(40))
    text = next(t for t in texts if " complete " in t)
    ply, recorded, _ = next(r for r in rederive(text) if r[1].startswith("pick "))
    other = next(f"pick {c}" for c in (TILES if game == "domino_wars" else CARDS) if f"pick {c}" != recorded)
    assert any(r != d for _, r, d in rederive(_changed(text, ply, recorded, other)))


def test_the_readme_catches_a_changed_seat_line() -> None:
    rng = random.Random("seats")
    text = next(t for t in (format_record(honest_record("focus", rng)) for _ in range(20)) if "\n-1 seats " in t)
    _, recorded, _ = rederive(text)[0]
    seat = recorded[-1]
    for other in (recorded[:-1] + str(1 - int(seat)), recorded.replace("challenger ", "challenger 9", 1)):
        assert rederive(_changed(text, -1, recorded, other))[0][1:] == (other, recorded)


def test_the_readme_seat_draw_is_the_service_s() -> None:
    from bot.records.fairness import chance_rng  # the project's, compared with the README's words

    for seed in ("a", "0f3c", "b9ccbdf3e2876e0e091ce5463af60e7e"):
        readme = random.Random(hashlib.sha256(f"{seed}:-1".encode()).digest()).randrange(2)
        assert readme == chance_rng(seed, -1).randrange(2)
