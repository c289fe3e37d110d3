"""Replays: one frame per action, thinned for long games, public until the end, then revealed."""

from __future__ import annotations

import io
import random

from PIL import Image, ImageChops

import renderers
from bot.games import GAMES
from bot.records.replay import ReplayJob
from bot.services.matches import MatchService, job_for
from renderers.replay import HOLD_MS, Frame, frame_image
from renderers.replay_frames import MAX_FRAMES, render_replay, replay_frames
from tests.bot.match_driver import play_randomly, start_match
from tests.games.playout import step


def _job(game: str, seed: int, plies: int | None = None, **options: str) -> tuple[ReplayJob, list[dict[str, object]]]:
    """A finished (or, with `plies`, cut short) random game: its job and every public view."""
    rules = GAMES[game]
    state = rules.start(options=options)
    rng = random.Random(seed)
    log, views = [], [state.view(None)]
    while state.outcome is None and (plies is None or len(log) < plies):
        seat, move = step(state, rng)
        state = state.play(seat, move)
        log.extend(state.applied)
        views.append(state.view(None))
    resolved = {k: str(v) for k, v in rules.resolve_options(options).items()}
    return ReplayJob(game, resolved, tuple(log), ("alice", "bob"), ended=state.outcome is not None), views


def _changed_pixels(a: Image.Image, b: Image.Image) -> int:
    """Pixels that differ clearly (more than palette rounding can explain)."""
    grey = ImageChops.difference(a.convert("RGB"), b.convert("RGB")).convert("L")
    return sum(grey.point(lambda v: 255 if v > 48 else 0).histogram()[255:])


def test_a_short_game_has_one_frame_per_action_and_ends_on_the_final_position() -> None:
    job, views = _job("domineering", 4)
    frames = replay_frames(job)
    assert len(frames) == len(views), "the start, then one frame per move or chance move"
    assert [f.view for f in frames] == views
    assert frames[0].caption == "Start" and frames[1].caption.startswith("1. Chance: ")
    assert frames[-1].hold_ms == HOLD_MS and frames[-1].caption.endswith(" · final position")
    assert views[-1]["outcome"] is not None, "the footer of the last board states the result"


def test_a_400_ply_focus_game_is_thinned_to_the_frame_limit_keeping_both_ends() -> None:
    job, views = _job("focus", 3, ply_limit="400")
    assert len(job.log) == 400
    frames = replay_frames(job)
    assert len(frames) == MAX_FRAMES
    assert frames[0].view == views[0] and frames[-1].view == views[-1]
    assert all(f.view in views for f in frames)
    assert "earlier)" in frames[1].caption


def test_the_gif_has_every_frame_and_its_last_frame_is_the_final_position() -> None:
    job, views = _job("dominance", 6, plies=40)
    frames = replay_frames(job)
    gif = Image.open(io.BytesIO(render_replay(job)))
    assert gif.format == "GIF" and gif.n_frames == len(frames)
    gif.seek(gif.n_frames - 1)
    last = gif.convert("RGB")
    header = renderers.Header(players=job.players)
    final = frame_image("dominance", frames[-1], header)
    before = frame_image("dominance", Frame(views[-2], frames[-1].caption), header)
    assert last.size[0] == final.size[0]
    last = last.crop((0, 0, *final.size))
    assert _changed_pixels(final, before) > 200, "the last move changed the picture"
    assert _changed_pixels(last, final) < 0.1 * _changed_pixels(last, before), "the GIF ends on the final position"


async def test_a_running_match_replays_public_views_only(service: MatchService) -> None:
    match_id = await start_match(service, "domino_wars")
    await play_randomly(service, match_id, random.Random(21), max_moves=14)
    row = await service.get(match_id)
    assert row.status == "active"
    moves = await service.store.moves(match_id)
    secret_moves = [m.move for m in moves if not m.public]
    assert secret_moves
    frames = replay_frames(job_for(row, moves, ("alice", "bob")))
    assert all(f.seat is None and "private" not in f.view and "you" not in f.view for f in frames)
    assert frames[-1].view == {k: v for k, v in (await service.view(match_id, None)).items() if k != "match_id"}
    captions = " ".join(f.caption for f in frames)
    assert "(secret)" in captions
    assert not any(move in captions for move in secret_moves if move.startswith(("pick", "shuffle")))
    assert Image.open(io.BytesIO(render_replay(job_for(row, moves, ("alice", "bob"))))).n_frames == len(frames)


async def test_after_the_end_the_last_frames_reveal_each_seats_secrets(service: MatchService) -> None:
    match_id = await start_match(service, "domino_wars")
    await play_randomly(service, match_id, random.Random(22))
    row = await service.get(match_id)
    assert row.status == "finished"
    frames = replay_frames(job_for(row, await service.store.moves(match_id), ("alice", "bob")))
    final = await service.replay(match_id)
    assert [f.seat for f in frames[-2:]] == [0, 1]
    assert [f.view for f in frames[-2:]] == [final.view(0), final.view(1)]
    assert all(f.seat is None for f in frames[:-2]) and frames[-3].view == final.view(None)
