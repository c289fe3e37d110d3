"""Computer opponents: pure search over the game contract (standard library only).

`think` is the one entry point the bot's process pool calls: it takes a dumped state
(plain JSON, cheap to send to a worker process), the computer's seat, a level and a seed,
and returns a move string.  `bot.ai.search` holds the algorithm, `bot.ai.guides` the
per-game evaluations.
"""

from bot.ai.levels import LEVELS, think

__all__ = ["LEVELS", "think"]
