"""The worker processes that draw replays and verify records off the event loop.

Why processes and not threads: replaying a long match and drawing a hundred frames holds
the GIL for seconds, which in a thread would stall the bot's event loop just the same.

Why `forkserver`: the bot process runs threads (aiosqlite's, discord.py's), and forking a
threaded process can copy a held lock into the child.  A fork server is started once, from
a clean single-threaded process that has already imported the rules and renderers
(`PRELOAD`), and each worker forks from it in milliseconds.
"""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor

PRELOAD = ["bot.replays", "bot.verify"]


def process_pool(workers: int = 1) -> ProcessPoolExecutor:
    """A new pool of `workers` processes (started on first use); the caller shuts it down.

    One worker by default: the bot shares its machine, and a queue of replays is better
    than several competing for the cores the event loop needs."""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(PRELOAD)
    return ProcessPoolExecutor(max_workers=workers, mp_context=context)
