"""The computer's analysis of finished matches, on request (`/analyse`), fairly queued.

Why a queue of spans and not one call per request: a 2,000-ply Focus game takes minutes of
search, and the worker pool also draws every board.  So a request is cut into spans of
`SPAN` log lines (`bot.ai.analysis.analyse_span`: each span replays the game to its start
and judges its own moves, with the same seeds as the whole), and spans are handed out
round-robin over the servers that asked: a server with a long queue gets one span in
turn with every other, so it cannot starve them.  At most `runners` spans run at once
(one fewer than the pool's workers, so a board is never stuck behind analyses).

* A finished match's analysis is computed once: it is stored with the match
  (`bot.store.analyses`), and a second request, or a second asker while it runs, gets the
  same one (asking again while it runs joins the running job).
* Progress is told to each asker's callback at most once every `PROGRESS_EVERY` seconds
  (the cog edits a message with it: one edit a second at most).
* Only finished matches are analysed: while a match runs, the computer's opinion would help
  a player (and its secret moves are not public).
* A span that fails (a worker died twice, a bug) fails its request with a sentence; the
  runners themselves are supervised duties (`bot.infra.duties`) and outlive any exception.
* An analysis made while the database is away is not thrown away with the minutes of search
  behind it: its askers get it all the same, it is kept in memory (`unstored`, answered from
  there, so no second job recomputes it), and a duty stores it once the database is back.
  The keeper's puts hold one lock and drop an entry only after its put succeeded: it is
  stored once, and cannot be lost while the process lives.
"""

from __future__ import annotations

import asyncio
import logging
import time
import zlib
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Final

from bot.ai.analysis import FOCUSED, WIDE, Analysis, Judgement, Played, analyse_span
from bot.i18n import tr
from bot.infra.duties import Duties
from bot.records.move_log import effective
from bot.services.matches import MatchService, MatchStatus, ServiceError
from bot.services.matches.records import engine_options
from bot.store.analyses import AnalysisStore

log = logging.getLogger(__name__)

SPAN: Final = 24
"""Log lines per worker call: a few seconds of search, so turns rotate often."""
PROGRESS_EVERY: Final = 1.0
"""Seconds between two progress reports to the same asker, at least."""
DUTY: Final = "analysis runner {}"
KEEPER: Final = "analysis keeper"
KEEP_EVERY: Final = 30.0
"""Seconds between two looks for analyses made while the database was away (failures back off)."""

REPORTING: Final[set[asyncio.Task[None]]] = set()
"""Progress reports under way, referenced until they end."""

Progress = Callable[[int, int], Awaitable[None]]
"""`progress(done, total)`: log lines judged so far, of all."""
Run = Callable[..., Awaitable[Any]]
"""`await run(fn, *args)`: `fn(*args)` in a worker process (`bot.infra.worker_pool.WorkerPool.run`)."""


class NotFinished(ServiceError):
    sentence = tr("The computer analyses a match once it has finished: while it runs, its opinion would help a player.")


class AnalysisFailed(ServiceError):
    sentence = tr(
        "The analysis of that match failed; please try again later, and tell the bot's admin if it fails again."
    )


@dataclass
class Throttled:
    """An asker's progress callback, told at most once every `every` seconds, never awaited
    by whoever tells it.

    Why a task per report and not an await: the callback edits a Discord message, which a
    rate limit can hold for seconds, and the runner that tells it would hold every analysis
    queued behind it that long.  So `tell` returns at once; one report runs at a time, and a
    count told while one runs replaces any count still waiting (only the latest is sent, so
    an older count never follows a newer one).  The running task is kept in `REPORTING` until
    it ends (the loop keeps only weak references to tasks, and an asker that went away keeps
    nothing); `settle` lets the asker wait for it, so that a late progress edit never
    overwrites the result."""

    callback: Progress
    every: float = PROGRESS_EVERY
    now: Callable[[], float] = time.monotonic
    last: float | None = None
    waiting: tuple[int, int] | None = None
    """The latest count told and not yet reported."""
    reporting: asyncio.Task[None] | None = None

    def tell(self, done: int, total: int) -> None:
        """Report `done` of `total` soon (unless one was told less than `every` seconds ago)."""
        at = self.now()
        if self.last is not None and at - self.last < self.every:
            return
        self.last = at
        self.waiting = (done, total)
        if self.reporting is None or self.reporting.done():
            self.reporting = asyncio.create_task(self._report(), name="analysis progress")
            REPORTING.add(self.reporting)
            self.reporting.add_done_callback(REPORTING.discard)

    async def reported(self) -> None:
        """Until every count told is reported (or failed to be)."""
        while self.reporting is not None and not self.reporting.done():
            await asyncio.shield(self.reporting)

    async def settle(self) -> None:
        """Drop the count still waiting (the result supersedes it) and wait for the report
        under way, if any."""
        self.waiting = None
        await self.reported()

    async def _report(self) -> None:
        while self.waiting is not None:
            done, total = self.waiting
            self.waiting = None
            try:
                await self.callback(done, total)
            except Exception:  # a progress message that cannot be edited must not end the analysis
                log.warning("could not report the analysis's progress", exc_info=True)


@dataclass
class Job:
    """One match being analysed: its spans still to hand out and the judgements returned."""

    match_id: int
    guild_id: int | None
    game: str
    options: dict[str, str]
    log: tuple[Played, ...]
    seed: int
    future: asyncio.Future[Analysis]
    spans: deque[tuple[int, int]] = field(default_factory=deque)
    running: int = 0
    judged: dict[int, list[Judgement]] = field(default_factory=dict)
    done: int = 0
    askers: list[Throttled] = field(default_factory=list)

    @property
    def finished(self) -> bool:
        return not self.spans and not self.running


class FairQueue:
    """Spans to run, handed out one server at a time in turn (round robin over servers,
    first come first served within one)."""

    def __init__(self) -> None:
        self._by_guild: OrderedDict[int | None, deque[Job]] = OrderedDict()
        self._ready = asyncio.Event()

    def add(self, job: Job) -> None:
        self._by_guild.setdefault(job.guild_id, deque()).append(job)
        self._ready.set()

    def waiting(self) -> int:
        """Jobs with spans still to hand out."""
        return sum(len(jobs) for jobs in self._by_guild.values())

    def take(self) -> tuple[Job, tuple[int, int]] | None:
        """The next span, from the server whose turn it is (None: nothing to run)."""
        while self._by_guild:
            guild, jobs = next(iter(self._by_guild.items()))
            self._by_guild.move_to_end(guild)
            while jobs and not jobs[0].spans:
                jobs.popleft()
            if not jobs:
                del self._by_guild[guild]
                continue
            job = jobs[0]
            span = job.spans.popleft()
            if not job.spans:
                jobs.popleft()
            if not jobs:
                del self._by_guild[guild]
            return job, span
        self._ready.clear()
        return None

    async def next(self) -> tuple[Job, tuple[int, int]]:
        while True:
            found = self.take()
            if found is not None:
                return found
            await self._ready.wait()


class AnalysisService:
    """Queues, runs and keeps analyses (`Boneyard.analyses`)."""

    def __init__(
        self,
        matches: MatchService,
        run: Run,
        *,
        runners: int = 1,
        span: int = SPAN,
        wide: int = WIDE,
        focused: int = FOCUSED,
        progress_every: float = PROGRESS_EVERY,
    ) -> None:
        self.matches = matches
        self.rows = AnalysisStore(matches.store)
        self.run = run
        self.runners = max(1, runners)
        self.span = span
        self.wide, self.focused = wide, focused
        self.progress_every = progress_every
        self.queue = FairQueue()
        self._jobs: dict[int, Job] = {}
        self._starting = asyncio.Lock()
        self.unstored: dict[int, tuple[Analysis, float]] = {}
        """Analyses made but not yet stored (the database was away), with when they were made."""
        self._storing = asyncio.Lock()

    def start(self, duties: Duties) -> None:
        """Start the runners, each a supervised duty that runs one span per step, and the
        keeper, which stores what was made while the database was away."""
        for number in range(self.runners):
            duties.start(DUTY.format(number + 1), self.run_one, every=0.0)
        duties.start(KEEPER, self.store_unstored, every=KEEP_EVERY)

    async def stored(self, match_id: int) -> Analysis | None:
        """The kept analysis of a match, or None (never starts one)."""
        unstored = self.unstored.get(match_id)
        if unstored is not None:
            return unstored[0]
        data = await self.rows.get(match_id)
        return Analysis.from_json(data) if data is not None else None

    async def analyse(self, match_id: int, progress: Progress | None = None) -> Analysis:
        """The analysis of a finished match: the kept one, else computed (queued with every
        other request) and kept.  Raises NotFinished, NoSuchMatch, AnalysisFailed."""
        async with self._starting:  # two askers at once must find one job, not make two
            job = self._jobs.get(match_id)
            if job is None:
                kept = await self.stored(match_id)
                if kept is not None:
                    return kept
                job = await self._job(match_id)
                if job.finished:  # a game without a single move
                    return Analysis(job.game, (), self.wide, self.focused)
                self._jobs[match_id] = job
                self.queue.add(job)
        if progress is None:
            return await asyncio.shield(job.future)
        asker = Throttled(progress, self.progress_every)
        job.askers.append(asker)
        try:
            return await asyncio.shield(job.future)
        finally:
            await asker.settle()

    def queued_ahead(self, match_id: int) -> int:
        """How many other requests wait with spans still to run (for a "queued" note)."""
        return max(0, self.queue.waiting() - (1 if match_id in self._jobs else 0))

    async def _job(self, match_id: int) -> Job:
        row = await self.matches.get(match_id)
        if row.status != MatchStatus.FINISHED or row.seats is None:
            raise NotFinished()
        moves = effective(await self.matches.log(match_id))
        played = tuple(Played(m.ply, m.seat, m.move) for m in moves)
        job = Job(
            match_id=match_id,
            guild_id=row.guild_id,
            game=row.game,
            options=engine_options(row),
            log=played,
            seed=zlib.crc32(row.seed.encode()),
            future=asyncio.get_running_loop().create_future(),
        )
        job.spans.extend((start, min(start + self.span, len(played))) for start in range(0, len(played), self.span))
        return job

    async def run_one(self) -> None:
        """Run the next span (waiting for one), and finish its job when it was the last."""
        job, (start, stop) = await self.queue.next()
        job.running += 1
        try:
            judged = await self.run(
                analyse_span,
                job.game,
                job.options,
                job.log,
                job.seed,
                start,
                stop,
                self.wide,
                self.focused,
            )
        except Exception as error:
            job.running -= 1
            self._fail(job, error)
            return
        job.running -= 1
        if job.future.done():
            return  # failed by another span
        job.judged[start] = judged
        job.done += stop - start
        for asker in job.askers:
            asker.tell(job.done, len(job.log))
        if job.finished:
            await self._complete(job)

    async def _complete(self, job: Job) -> None:
        judgements = tuple(j for start in sorted(job.judged) for j in job.judged[start])
        analysis = Analysis(job.game, judgements, self.wide, self.focused)
        made = self.matches.now()
        try:
            await self.rows.put(job.match_id, analysis.to_json(), made)
        except Exception:
            self.unstored[job.match_id] = (analysis, made)
            log.warning(
                "the analysis of match %d is made but could not be stored; it is kept in memory, "
                "given to its askers, and stored when the database answers again",
                job.match_id,
                exc_info=True,
            )
        self._jobs.pop(job.match_id, None)
        job.future.set_result(analysis)

    async def store_unstored(self) -> None:
        """Store the analyses made while the database was away (the keeper's step; raises, to
        be retried, while it still is away).  Each is dropped from memory only once stored."""
        async with self._storing:
            for match_id, (analysis, made) in list(self.unstored.items()):
                await self.rows.put(match_id, analysis.to_json(), made)
                del self.unstored[match_id]
                log.info("the analysis of match %d, made while the database was away, is stored now", match_id)

    def _fail(self, job: Job, error: Exception) -> None:
        log.error("the analysis of match %d failed", job.match_id, exc_info=error)
        job.spans.clear()
        self._jobs.pop(job.match_id, None)
        if not job.future.done():
            job.future.set_exception(AnalysisFailed())
