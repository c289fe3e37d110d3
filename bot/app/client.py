"""The discord.py Bot subclass: opens the store, loads the cogs, syncs commands on request.

Why `setup_hook`: it runs once before the gateway connects, so the database is open and
every persistent button is registered before the first interaction can arrive.

Clocks: the `ClockKeeper` is started in `setup_hook` after the cogs are loaded, because
re-arming may fire overdue reminders and timeouts at once and someone must be listening.
Each due event goes through `MatchService.on_clock_event`; what it returns is dispatched
as the `clock_result` event, which `cogs.clock` announces (the bot layer never imports a
cog).  `start_clocks(now=..., sleep=...)` is also the test hook that swaps in a fake time.

Match ends: the service's finish listener rates the match (`RatingBook`) and dispatches
`match_finished`, which `cogs.tournaments` turns into tournament progress.  Ratings missed
by a crash are caught up at start-up, tournaments re-synced when the cog is ready.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import time

import discord
import yarl
from discord.ext import commands

from bot.app.config import Settings
from bot.clocks import ClockKeeper, Gate
from bot.clocks.keeper import HEARTBEAT_SECONDS, MAX_SLEEP_SECONDS
from bot.clocks.scheduler import Now, Sleep
from bot.infra.duties import Duties
from bot.infra.worker_pool import WorkerPool
from bot.services.analysis import AnalysisService
from bot.services.languages import Languages
from bot.services.matches import Agreements, ClockResult, Lobby, MatchService, attach_clocks
from bot.services.notices import Holidays, NoticeService
from bot.services.outbox import Outbox
from bot.services.private_messages import PrivateMessages
from bot.services.ratings import RatingBook
from bot.services.shard_leases import ShardLeases
from bot.services.tournaments import TournamentService
from bot.store import MatchRow, Store
from bot.store.health import damaged
from cogs.out.match_end import MATCH_END_POSTS
from cogs.out.notices import Notifier
from cogs.out.outbox import Dispatcher
from cogs.out.presenter import Presenter
from cogs.out.tournament_posts import TOURNAMENT_POSTS
from cogs.translator import CatalogueTranslator

log = logging.getLogger(__name__)

CLOCK_DUTY = "clock keeper"

PICTURE_MODULES = (
    "renderers",
    "renderers.dominance",
    "renderers.domineering",
    "renderers.domino_wars",
    "renderers.focus",
    "renderers.rating_chart",
    "renderers.replay",
    "renderers.rules_sample",
    "renderers.tournament",
    "renderers.wonderland",
    "renderers.replay_frames",
    "bot.records.verify",
    "bot.ai.analysis",
    "renderers.analysis",
)
"""Imported once by the workers' fork server (names only: bot never imports renderers).  The
same pool draws boards, replays and charts and checks records (`/replay`, Verify dice)."""

EXTENSIONS = (
    "cogs.play",
    "cogs.moves",
    "cogs.clock",
    "cogs.tournaments",
    "cogs.ratings",
    "cogs.admin",
    "cogs.lobby",
    "cogs.help",
    "cogs.records",
    "cogs.computer",
    "cogs.notices",
    "cogs.drain",  # last: its start-up drain may post for any of the others
)


def point_discord_at(api_base: str) -> None:
    """Send every REST call and the gateway to `api_base` (the fake Discord of the tests).

    Both are needed: login calls REST before `setup_hook`, and discord.py reconnects to
    `DEFAULT_GATEWAY` after an invalid session even when it asked REST for the URL.
    """
    base = api_base.rstrip("/")
    discord.http.Route.BASE = f"{base}/api/v10"
    ws = base.replace("http://", "ws://", 1).replace("https://", "wss://", 1)
    # The gateway is served at the root of the host, as Discord's own (wss://gateway.discord.gg/).
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"{ws}/")


def intents_for(settings: Settings) -> discord.Intents:
    intents = discord.Intents.default()
    intents.message_content = settings.typed_moves
    return intents


class Boneyard(commands.AutoShardedBot):
    """The bot; sharded always (one process runs `SHARD_IDS` of `SHARD_COUNT`, by default the
    one shard of one), so one code path serves a single process and a fleet of them."""

    store: Store
    service: MatchService
    ratings: RatingBook
    tournaments: TournamentService
    lobby: Lobby
    languages: Languages
    """Who is spoken to in which language (bot/services/languages.py)."""
    agreements: Agreements
    clocks: ClockKeeper | None = None
    pictures: WorkerPool
    """The worker processes every picture is rendered in (rendering holds the GIL)."""
    announcements: Outbox
    """The stored announcements, for the dispatcher that posts them."""
    private_messages: PrivateMessages
    """Which DM shows each player their private view of a match (cogs/out/private_dms.py)."""
    presenter: Presenter
    """Turns every service `Update` into Discord messages: the one place that announces."""
    outbox: Dispatcher
    """Posts the stored announcements and marks them sent (cogs/out/outbox.py)."""
    leases: ShardLeases
    """This process's claim on its shards (bot/services/shard_leases.py): every per-shard duty asks
    `owns(guild_id)` before acting."""
    notices: NoticeService
    """What each player chose to hear, and when (bot/services/notices)."""
    holidays: Holidays
    """Vacations and nudges."""
    notifier: Notifier
    """Delivers turn notices, digests, nudges and vacation notes the way each player chose."""
    duties: Duties
    """The supervised background duties (bot/infra/duties.py), shown by `/status`."""
    analyses: AnalysisService
    """The computer's analyses of finished matches (`/analyse`), run span by span in `pictures`."""
    clock_time: tuple[Now, Sleep] = (time.time, asyncio.sleep)
    """The time the clocks started by `setup_hook` run on (tests set a fake one before start)."""

    def __init__(self, settings: Settings, *, sole_process: bool = False) -> None:
        """`sole_process`: the caller holds the SQLite file's lock, so no other bot process runs
        on this database (a lease left in it is a stopped process's, bot/services/shard_leases.py)."""
        shards = settings.shards
        super().__init__(
            shard_ids=sorted(shards.ids),
            shard_count=shards.count,
            command_prefix=commands.when_mentioned_or("!"),
            intents=intents_for(settings),
            owner_ids=set(settings.owner_ids) or None,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True, replied_user=False),
            help_command=None,
        )
        self.settings = settings
        self.sole_process = sole_process
        self.pictures = WorkerPool(preload=PICTURE_MODULES)
        self.duties = Duties(said_in_one_line=damaged)
        if settings.api_base:
            point_discord_at(settings.api_base)

    async def setup_hook(self) -> None:
        self.store = await Store.open(self.settings.database_location)
        self.leases = ShardLeases(self.store, self.settings.shards)
        await self.leases.claim(sole_process=self.sole_process)  # before any duty: a refused start did nothing
        self.leases.lost_listeners.append(self._leave_shards)
        self.leases.start(self.duties)
        await self.pictures.warm()
        self.service = MatchService(self.store, cache_size=self.settings.state_cache_size)
        self.ratings = RatingBook(self.store)
        self.tournaments = TournamentService(self.service, self.ratings)
        self.lobby = Lobby(self.service)
        self.languages = Languages(self.store)
        self.agreements = Agreements(self.service)
        self.service.finish_listeners.append(self._on_match_finished)
        # One worker fewer than the pool has: a board is never stuck behind analyses.
        self.analyses = AnalysisService(self.service, self.pictures.run, runners=max(1, self.pictures.workers - 1))
        self.analyses.start(self.duties)
        self.announcements = Outbox(self.store)
        self.private_messages = PrivateMessages(self.store)
        self.outbox = Dispatcher(self, {**MATCH_END_POSTS, **TOURNAMENT_POSTS})
        self.presenter = Presenter(self)
        self.notices = NoticeService(self.service)
        self.holidays = Holidays(self.service, self.notices)
        self.notifier = Notifier(self)
        caught_up = await self.ratings.catch_up()
        if caught_up:
            log.info("rated %d finished matches missed before the last shutdown", caught_up)
        for extension in EXTENSIONS:
            # The module's own `setup`, not `load_extension`: discord.py executes an extension's
            # module anew at every load (so that `reload_extension` can swap it), which made a
            # second copy of every cog class beside the one the other modules imported, and cost
            # each start of the bot 10 ms.  Boneyard never reloads a cog.
            await importlib.import_module(extension).setup(self)
        now, sleep = self.clock_time
        await self.start_clocks(now=now, sleep=sleep)
        await self.tree.set_translator(CatalogueTranslator())
        await self._sync_commands()

    async def start_clocks(
        self,
        *,
        now: Now = time.time,
        sleep: Sleep = asyncio.sleep,
        heartbeat_every: float = HEARTBEAT_SECONDS,
        max_sleep: float = MAX_SLEEP_SECONDS,
    ) -> ClockKeeper:
        """(Re)start the match clocks: re-armed from the store, with downtime charged or forgiven
        per `FORGIVE_DOWNTIME_MINUTES`.  Tests call it again with a fake `now`/`sleep` (and may
        slow the keeper's wake-ups down when they advance fake time by days)."""
        if self.clocks is not None:
            await self.clocks.close()
        self.clocks = attach_clocks(
            self.service,
            self._on_clock_result,
            now=now,
            sleep=sleep,
            forgive_downtime_over=self.settings.forgive_downtime_seconds,
            shards=self.leases,
            gate=self._clock_gate,
            heartbeat_every=heartbeat_every,
            max_sleep=max_sleep,
            report=self._clock_report,
        )
        self.duties.watch(CLOCK_DUTY, HEARTBEAT_SECONDS)
        await self.clocks.start()
        return self.clocks

    def _clock_report(self, error: BaseException | None) -> None:
        if error is None:
            self.duties.succeeded(CLOCK_DUTY)
        else:
            self.duties.failed(CLOCK_DUTY, error)

    def owns(self, guild_id: int | None) -> bool:
        """This process acts for the guild now: it runs the guild's shard and its lease on it
        is surely current (bot/services/shard_leases.py)."""
        return self.leases.holds(guild_id)

    async def _clock_gate(self, match_id: int) -> Gate:
        """Fire a due clock only while the match's shard is surely ours: retry later while the
        leases are unsure, drop the clock when another process took its shard over."""
        if not self.leases.valid():
            return "later"
        row = await self.service.get(match_id)
        return "fire" if self.leases.holds(row.guild_id) else "drop"

    async def _leave_shards(self, shards: frozenset[int]) -> None:
        """Another process took these shards over: stop listening on their connections too,
        so their servers' commands are answered by that process alone."""
        for shard_id in sorted(shards):
            shard = self.get_shard(shard_id)
            if shard is not None:
                await shard.disconnect()

    async def _on_clock_result(self, result: ClockResult) -> None:
        self.dispatch("clock_result", result)

    async def _on_match_finished(self, row: MatchRow) -> None:
        await self.ratings.record(row)
        self.dispatch("match_finished", row)

    async def _sync_commands(self) -> None:
        target = self.settings.sync_commands
        if not target:
            return
        if target == "global":
            synced = await self.tree.sync()
        else:
            guild = discord.Object(id=int(target))
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
        log.info("synced %d application commands (%s)", len(synced), target)

    async def on_ready(self) -> None:
        log.info("connected as %s to %d servers", self.user, len(self.guilds))

    async def close(self) -> None:
        if self.clocks is not None:
            await self.clocks.close()  # its last heartbeat marks when the bot went down
            self.clocks = None
        await self._cancel_ready_task()
        await self.duties.close()
        loop: object = self.loop  # a placeholder until logging in sets the running loop
        if not isinstance(loop, asyncio.AbstractEventLoop):
            # never logged in (a client built to list its commands): the sharded client's
            # close() needs the queue that logging in creates
            await self._async_setup_hook()
        await super().close()
        leases = getattr(self, "leases", None)
        if leases is not None:
            await leases.close()  # released: a restart need not wait for them to lapse
        store = getattr(self, "store", None)
        if store is not None:
            await store.close()
        await self.pictures.close()

    async def _cancel_ready_task(self) -> None:
        """Stop discord.py's pending `on_ready` announcer before closing.

        READY starts a task that waits `guild_ready_timeout` for more guilds, then dispatches
        `on_ready`; `Client.close()` leaves it running, so a bot closed within those seconds
        (SIGTERM right after connecting, a short test) had it wake up in the closed client
        and die with "Task exception was never retrieved ... _delay_ready".
        """
        state = self._connection
        pending = [state._ready_task, *getattr(state, "_ready_tasks", {}).values()]  # and one per shard
        waiting = [task for task in pending if task is not None and not task.done()]
        for task in waiting:
            task.cancel()
        if waiting:
            await asyncio.wait(waiting)
        state._ready_task = None  # the sharded state clears them only when READY completes
        if hasattr(state, "_ready_tasks"):
            state._ready_tasks = {}
