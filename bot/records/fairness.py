"""Fair dice anyone can recheck: every chance move of a match comes from its secret seed.

Each match draws a secret seed when it is created and publishes `seed_hash(seed)` at the
start; the seed itself is revealed when the match ends.  Chance move number *n* (its ply in
the move log) is drawn with `chance_rng(seed, n)`, so whoever holds the revealed seed can
recompute every roll, draw and shuffle, and the published hash proves the seed was fixed
before the first move.  Pure: standard library only.
"""

from __future__ import annotations

import hashlib
import random


def chance_rng(seed: str, ply: int) -> random.Random:
    """The RNG for the chance move at `ply`: anyone with the revealed seed can recompute it."""
    return random.Random(hashlib.sha256(f"{seed}:{ply}".encode()).digest())


def seed_hash(seed: str) -> str:
    """The commitment published at the start: the seed's SHA-256, in hex."""
    return hashlib.sha256(seed.encode()).hexdigest()
