"""Domineering for the search: games end by themselves within a few dozen plies (the
pool of tiles runs out), so rollouts play to the end and need no evaluation."""

from __future__ import annotations

from bot.ai.guide import Guide


class DomineeringGuide(Guide):
    pass
