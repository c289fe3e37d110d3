"""The README's "Fair dice" section is enough to recheck a record without this project.

`rederive` below was written from the README's words alone: it imports nothing of the
project (only hashlib and random) and reads the record's text itself.  It must agree with
every chance line of random records of all five games, and disagree with a changed one.
"""

from __future__ import annotations

import hashlib
import random

import pytest

from bot.records.format import format_record
from tests.bot.test_record_mutations import honest_record

# --- the independent re-deriver (README "Fair dice"; standard library only) ---------------

TILES = [f"{a}-{b}" for a in range(7) for b in range(a, 7)]
FACES = {1: "SSSSAM", 2: "DSSSAM", 3: "DFSSAM", 4: "DFCSAM"}


def rederive(text: str) -> list[tuple[int, str, str]]:
    """(ply, chance line as recorded, chance move the seed gives) for every chance line."""
    head, _, body = text.partition("\n\n")
    tags = dict(line[1:-2].split(' "', 1) for line in head.splitlines())
    seed, game = tags["Seed"], tags["Game"]
    drawn: set[str] = set()
    dice: list[tuple[int, str]] = []
    out = []
    for line in body.splitlines():
        ply_text, who, move = line.split(" ", 2)
        move = move.removesuffix(" {forced}").removesuffix(" {secret}")
        if who != "chance":
            if move.startswith("dice "):
                dice = [(int(p.split(":")[0]), p.split(":")[1]) for p in move.split()[1:]]
            continue
        ply = int(ply_text)
        rng = random.Random(hashlib.sha256(f"{seed}:{ply}".encode()).digest())
        kind, *words = move.split()
        if game == "domineering":
            got = f"draw {rng.choice([t for t in TILES if t not in drawn])}"
            drawn.add(move.split()[1])
        elif game == "dominance" and kind == "layout":
            tiles = [t for t in TILES if "0" not in t]
            rng.shuffle(tiles)
            got = "layout " + " ".join(t[0] + t[2] if rng.random() < 0.5 else t[2] + t[0] for t in tiles)
        elif game == "dominance":
            got = "roll " + " ".join(map(str, sorted(rng.randint(1, 6) for _ in words)))
        elif game == "domino_wars" and kind == "shuffle":
            pile = sorted(words[1:], key=lambda t: (int(t[0]), int(t[2])))
            rng.shuffle(pile)
            got = f"shuffle {words[0]} " + " ".join(pile)
        elif game == "domino_wars":
            got = f"first {rng.randrange(2)}"
        else:
            got = "roll " + " ".join(rng.choice(FACES[level]) for level, _ in dice)
        out.append((ply, move, got))
    return out


# --- the test ---------------------------------------------------------------------------


@pytest.mark.parametrize("game", ["dominance", "domineering", "domino_wars", "focus", "wonderland"])
def test_the_readme_rederives_every_chance_move(game: str) -> None:
    rng = random.Random(f"readme-{game}")
    checked = 0
    for _ in range(5):
        record = honest_record(game, rng)
        for ply, recorded, derived in rederive(format_record(record)):
            assert recorded == derived, (ply, recorded, derived)
            checked += 1
    assert checked > 5 if game != "focus" else checked == 0, "chance moves to recheck (none in Focus)"


def test_the_readme_catches_a_changed_draw() -> None:
    record = honest_record("domineering", random.Random(4))
    text = format_record(record)
    ply, recorded, _ = rederive(text)[3]
    other = next(f"draw {t}" for t in TILES if f"draw {t}" != recorded)
    changed = text.replace(f"\n{ply} chance {recorded}\n", f"\n{ply} chance {other}\n")
    assert any(r != d for _, r, d in rederive(changed))


def test_the_readme_seat_draw_is_the_service_s() -> None:
    from bot.records.fairness import chance_rng  # the project's, compared with the README's words

    for seed in ("a", "0f3c", "b9ccbdf3e2876e0e091ce5463af60e7e"):
        readme = random.Random(hashlib.sha256(f"{seed}:-1".encode()).digest()).randrange(2)
        assert readme == chance_rng(seed, -1).randrange(2)
