"""The analysis service (bot/services/analysis.py): finished matches only, kept once made (both
backends), one job per match, fair turns between servers, progress at most once a second."""

from __future__ import annotations

import asyncio
import logging
import random
import sqlite3
from collections.abc import Callable
from typing import Any

import pytest

from bot.ai.analysis import Analysis
from bot.infra.duties import Duties
from bot.services.analysis import KEEPER, AnalysisService, FairQueue, Job, NotFinished, Throttled
from bot.services.matches import MatchService
from bot.store.analyses import AnalysisStore
from tests.bot.match_driver import play_randomly, start_match


class InProcess:
    """Runs the worker calls in this process, counting them (a stand-in for the pool)."""

    def __init__(self) -> None:
        self.calls: list[tuple[int, int]] = []

    async def __call__(self, fn: Callable[..., Any], *args: Any) -> Any:
        self.calls.append((args[4], args[5]))
        await asyncio.sleep(0)
        return fn(*args)


async def finished_match(service: MatchService, game: str = "domino_wars", seed: int = 1) -> int:
    match_id = await start_match(service, game)
    await play_randomly(service, match_id, random.Random(seed))
    assert (await service.get(match_id)).status == "finished"
    return match_id


async def test_an_analysis_is_made_once_kept_and_then_instant(service: MatchService) -> None:
    run = InProcess()
    analyses = AnalysisService(service, run, span=10, wide=4, focused=2, progress_every=0.0)
    duties = Duties()
    analyses.start(duties)
    try:
        match_id = await finished_match(service)
        told: list[tuple[int, int]] = []

        async def progress(done: int, total: int) -> None:
            told.append((done, total))

        first, second = await asyncio.gather(analyses.analyse(match_id, progress), analyses.analyse(match_id))
        assert first == second and first.judgements  # the second asker joined the running job
        total = len(await service.log(match_id))
        assert told[-1][0] == told[-1][1] <= total and [d for d, _ in told] == sorted(d for d, _ in told)
        spans = len(run.calls)
        assert spans == -(-told[-1][1] // 10)
        # Kept: the next request runs nothing, and a new service on the same store finds it.
        assert await analyses.analyse(match_id) == first
        assert len(run.calls) == spans
        again = AnalysisService(service, InProcess())
        assert await again.stored(match_id) == first
    finally:
        await duties.close()


async def test_a_running_match_is_not_analysed(service: MatchService) -> None:
    analyses = AnalysisService(service, InProcess())
    match_id = await start_match(service, "focus")
    with pytest.raises(NotFinished):
        await analyses.analyse(match_id)
    assert await analyses.stored(match_id) is None


async def test_a_failing_span_fails_its_request_and_the_runner_goes_on(service: MatchService) -> None:
    calls = 0

    async def flaky(fn: Callable[..., Any], *args: Any) -> Any:
        nonlocal calls
        calls += 1
        if calls == 1:
            raise RuntimeError("a worker died")
        return fn(*args)

    analyses = AnalysisService(service, flaky, span=1000, wide=4, focused=2)
    duties = Duties()
    analyses.start(duties)
    try:
        broken = await finished_match(service, seed=1)
        with pytest.raises(Exception, match="failed"):
            await analyses.analyse(broken)
        assert await analyses.stored(broken) is None
        assert (await analyses.analyse(broken)).judgements  # asked again: made this time
    finally:
        await duties.close()


@pytest.mark.parametrize("seed", [3, 8])
async def test_an_analysis_made_while_the_database_is_away_is_given_and_stored_later(
    service: MatchService, caplog: pytest.LogCaptureFixture, seed: int
) -> None:
    rng = random.Random(seed)  # one span or many, and the game
    run = InProcess()
    analyses = AnalysisService(service, run, span=rng.choice([3, 10, 1000]), wide=4, focused=2)
    put = analyses.rows.put
    tried: list[int] = []
    stored: list[int] = []
    away = True

    async def flaky_put(match_id: int, result: dict[str, Any], at: float) -> None:
        tried.append(match_id)
        if away:
            raise sqlite3.OperationalError("database is locked")
        await put(match_id, result, at)
        stored.append(match_id)

    analyses.rows.put = flaky_put  # type: ignore[method-assign]
    duties = Duties(backoff_first=0.01, backoff_max=0.05, max_interval=0.05)
    analyses.start(duties)
    try:
        match_id = await finished_match(service, rng.choice(["domino_wars", "domineering"]), seed=seed)
        with caplog.at_level(logging.WARNING, logger="bot.services.analysis"):
            made = await analyses.analyse(match_id)  # the asker gets it, though the put failed
        assert made.judgements
        assert any("could not be stored" in r.getMessage() for r in caplog.records)
        assert await analyses.rows.get(match_id) is None and match_id in analyses.unstored
        # Asked again (the database still away): answered from memory, nothing recomputed.
        spans = len(run.calls)
        assert await analyses.stored(match_id) == made
        assert await analyses.analyse(match_id) == made
        assert len(run.calls) == spans
        # The database answers again: the keeper stores it, once.
        away = False
        await asyncio.wait_for(duties.wait_for(lambda: not analyses.unstored), timeout=60)
        assert await analyses.rows.get(match_id) == made.to_json()
        await analyses.store_unstored()  # the keeper's next look stores nothing again
        assert stored == [match_id] and len(tried) >= 2
        health = duties.of(KEEPER)
        assert health is not None and health.last_success is not None
        assert await AnalysisService(service, InProcess()).stored(match_id) == made
    finally:
        await duties.close()


async def test_analyses_are_kept_on_both_backends(service: MatchService) -> None:
    rows = AnalysisStore(service.store)
    match_id = await finished_match(service, "domineering")
    assert await rows.get(match_id) is None
    await rows.put(match_id, {"game": "domineering", "judgements": [[1, 0, "a", "b", 0.5, 0.25, False]]}, 1.0)
    await rows.put(match_id, {"game": "domineering", "judgements": []}, 2.0)  # a second one replaces it
    assert await rows.get(match_id) == {"game": "domineering", "judgements": []}


def _job(match_id: int, guild: int | None, spans: int) -> Job:
    job = Job(match_id, guild, "focus", {}, (), 0, asyncio.get_running_loop().create_future())
    job.spans.extend((i, i + 1) for i in range(spans))
    return job


async def test_one_server_cannot_starve_the_others() -> None:
    queue = FairQueue()
    for match_id in (1, 2, 3):
        queue.add(_job(match_id, 100, spans=4))  # a busy server: three long requests
    queue.add(_job(4, 200, spans=2))
    queue.add(_job(5, None, spans=1))  # a request from a DM
    order = []
    while (taken := queue.take()) is not None:
        order.append(taken[0].match_id)
    assert order[:5] == [1, 4, 5, 1, 4]  # every server gets a turn before the busy one's second
    assert sorted(order) == [1] * 4 + [2] * 4 + [3] * 4 + [4] * 2 + [5]
    assert order[5:] == [1, 1, 2, 2, 2, 2, 3, 3, 3, 3]  # first come, first served within a server


async def test_progress_is_told_at_most_once_a_second() -> None:
    clock = [0.0]
    told: list[int] = []

    async def progress(done: int, total: int) -> None:
        told.append(done)

    throttled = Throttled(progress, 1.0, lambda: clock[0])
    for at, done in ((0.0, 1), (0.4, 2), (0.99, 3), (1.0, 4), (1.5, 5), (2.2, 6)):
        clock[0] = at
        throttled.tell(done, 10)
        await throttled.reported()
    assert told == [1, 4, 6]


async def test_a_slow_report_is_not_waited_for_and_only_the_latest_count_follows_it() -> None:
    release = asyncio.Event()
    told: list[int] = []

    async def slow(done: int, total: int) -> None:
        told.append(done)
        if done == 1:
            await release.wait()  # a message edit held by a rate limit

    throttled = Throttled(slow, 0.0)
    throttled.tell(1, 10)
    await asyncio.sleep(0)  # the report starts, and hangs
    for done in (2, 3, 4):
        throttled.tell(done, 10)  # returns at once, the first report still hanging
    assert told == [1]
    release.set()
    await throttled.reported()
    assert told == [1, 4]  # the latest count only, after the older one
    throttled.tell(5, 10)
    await throttled.settle()  # the result is ready: a count not yet reported is dropped
    assert told == [1, 4]


@pytest.mark.parametrize("seed", [5, 6])
async def test_a_hanging_progress_message_holds_no_analysis_and_reports_only_go_forward(
    service: MatchService, seed: int
) -> None:
    rng = random.Random(seed)
    run = InProcess()
    analyses = AnalysisService(service, run, span=rng.choice([2, 3, 5]), wide=4, focused=2, progress_every=0.0)
    duties = Duties()
    analyses.start(duties)
    try:
        match_id = await finished_match(service, rng.choice(["domino_wars", "domineering"]), seed=seed)
        release, hanging = asyncio.Event(), asyncio.Event()
        hung: list[int] = []
        told: list[int] = []

        async def hangs(done: int, total: int) -> None:
            hung.append(done)
            hanging.set()
            await release.wait()

        async def slow(done: int, total: int) -> None:  # an edit that takes a while, varying
            for _ in range(rng.randrange(6)):
                await asyncio.sleep(0)
            told.append(done)

        first = asyncio.create_task(analyses.analyse(match_id, hangs))
        second = asyncio.create_task(analyses.analyse(match_id, slow))
        await hanging.wait()
        # The first asker's report hangs; the analysis runs on to its end all the same.
        made = await asyncio.wait_for(second, timeout=120)
        assert made.judgements and await analyses.rows.get(match_id) == made.to_json()
        total = sum(stop - start for start, stop in run.calls)
        assert told and told == sorted(set(told)) and told[-1] <= total
        assert not first.done()  # that asker waits for its own report, so it never lands after the result
        release.set()
        assert await first == made
        assert hung == [hung[0]]  # the counts told while it hung were superseded by the result
    finally:
        release.set()
        await duties.close()


async def test_a_progress_message_that_cannot_be_edited_does_not_stop_the_analysis(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def broken(done: int, total: int) -> None:
        raise OSError("message deleted")

    throttled = Throttled(broken)
    throttled.tell(1, 2)
    await throttled.reported()  # logged, not raised
    assert throttled.reporting is not None and throttled.reporting.exception() is None
    assert any("could not report" in r.getMessage() for r in caplog.records)


def test_an_empty_analysis_has_no_accuracy() -> None:
    assert Analysis("focus", ()).accuracy(0) is None
