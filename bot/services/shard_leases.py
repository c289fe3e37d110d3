"""Each shard is run by one live process: leases claimed at start-up, renewed while running.

Why leases: two processes running one shard would both fire its clocks and post its outbox
rows, and two processes with different SHARD_COUNTs would split the guilds differently
(some guilds owned by none, others by two).  So a process claims its shard ids in the store
(bot/store/leases.py) under a token drawn at each start, and renews the claim every
`RENEW_EVERY` seconds.

Start-up (`ShardLeases.claim`): a claim blocked by another token's lease renewed within
`LEASE_SECONDS` is not refused at once, because that lease may be this process's own from
before a crash (a restart under systemd or Docker comes within seconds).  The start waits
and watches: if the lease is renewed meanwhile, a live process runs the shard and the start
is refused (`ShardsTaken`, naming the shards); if it lapses, the start takes it over.  A live
process is therefore refused within about one renewal, and a restart after a crash waits at
most `LEASE_SECONDS`.  A clean stop releases the leases, so a normal restart does not wait.

While running (`holds`): a process acts for a shard only while its lease is surely its own,
i.e. until `LEASE_SECONDS - MARGIN` after the start of its last successful renewal (measured
on the monotonic clock).  A process that could not renew for that long (a database outage, a
long pause) stops firing that shard's clocks, posting its outbox rows and running its
tournaments until a renewal succeeds; if meanwhile another process took the shard over, the
renewal says so and the shard is lost for good (logged as an error).  Another process takes
a lease over only `LEASE_SECONDS` after its last renewal by the wall clock, so the two never
act for one shard at once while the hosts' clocks differ by less than `MARGIN`.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Final

from bot.clocks.scheduler import Now, Sleep
from bot.infra.duties import Duties
from bot.infra.shards import ShardLayout, shard_of
from bot.store import Store
from bot.store.leases import Lease, LeaseStore

log = logging.getLogger(__name__)

LEASE_SECONDS: Final = 30.0
"""A lease not renewed for this long (wall clock) may be taken over by another process."""
RENEW_EVERY: Final = 5.0
RENEWAL_DUTY: Final = "lease renewal"
MARGIN: Final = 10.0
"""The holder stops acting this long before anyone may take over (clock differences, slow
renewals)."""

LostHandler = Callable[[frozenset[int]], Awaitable[None]]


class ShardsTaken(RuntimeError):
    """Another live process runs some of these shards, or runs another SHARD_COUNT; the
    message names them and says what to do."""


class ShardLeases:
    """The shard leases of this process (an `Ownership`, bot/infra/shards.py)."""

    def __init__(
        self,
        store: Store,
        layout: ShardLayout,
        *,
        now: Now = time.time,
        monotonic: Now = time.monotonic,
        sleep: Sleep = asyncio.sleep,
        lease_seconds: float = LEASE_SECONDS,
        renew_every: float = RENEW_EVERY,
        margin: float = MARGIN,
    ) -> None:
        if not renew_every < lease_seconds - margin:
            raise ValueError("leases must be renewed well within their lifetime")
        self.leases = LeaseStore(store)
        self.layout = layout
        self.owner = secrets.token_hex(8)
        """This start's token: a restart is another owner (it may take over once this lapses)."""
        self.held: frozenset[int] = frozenset()
        self.lost: frozenset[int] = frozenset()
        """Shards another process took over from this one (never acted for again)."""
        self.lost_listeners: list[LostHandler] = []
        self._now = now
        self._monotonic = monotonic
        self._sleep = sleep
        self._lease_seconds = lease_seconds
        self._renew_every = renew_every
        self._margin = margin
        self._sure_until = float("-inf")
        self._duties: Duties | None = None

    # --- what the duties ask ---------------------------------------------------------

    def valid(self) -> bool:
        """The leases are surely this process's now (renewed recently enough)."""
        return bool(self.held) and self._monotonic() < self._sure_until

    @property
    def current(self) -> ShardLayout:
        """The shards to act for now: those held, or none while the leases are unsure."""
        return ShardLayout(self.layout.count, self.held if self.valid() else frozenset())

    def holds(self, guild_id: int | None) -> bool:
        """This process may act for the guild now (its clocks, outbox rows, tournaments)."""
        return self.valid() and shard_of(guild_id, self.layout.count) in self.held

    # --- life cycle ------------------------------------------------------------------

    async def claim(self, *, sole_process: bool = False) -> None:
        """Claim every shard of the layout, waiting out a lease that may be a dead process's;
        raises ShardsTaken when a live process holds one (or runs another SHARD_COUNT).

        `sole_process`: this process holds the SQLite file's lock (bot/app/startup.py), which no
        other live process can hold, so any other lease is a stopped process's: taken over at
        once rather than waited out."""
        first_seen: dict[int, float] = {}
        alive_within = float("-inf") if sole_process else self._lease_seconds
        while True:
            started = self._monotonic()
            now = self._now()
            blocking = await self.leases.claim(
                self.layout.ids, self.layout.count, self.owner, now=now, alive_within=alive_within
            )
            if not blocking:
                self.held = self.layout.ids
                self._sure_until = started + self._lease_seconds - self._margin
                log.info("running shards %s of %d", sorted(self.held), self.layout.count)
                return
            renewed = [b for b in blocking if b.shard in first_seen and b.refreshed_at > first_seen[b.shard]]
            if renewed:
                raise ShardsTaken(self._refusal(renewed, now))
            for lease in blocking:
                first_seen.setdefault(lease.shard, lease.refreshed_at)
            lapse = max(lease.refreshed_at + self._lease_seconds - now for lease in blocking)
            log.warning(
                "%s; if that process stopped without releasing them, their leases lapse in %.0f s: "
                "waiting to see whether it is still running",
                self._claimed_by(blocking, now),
                lapse,
            )
            await self._sleep(max(0.05, min(self._renew_every, lapse + 0.05)))

    def start(self, duties: Duties | None = None) -> None:
        """Renew the leases every `RENEW_EVERY` seconds until `close`, as a supervised duty of
        `duties` (the bot's, for `/status`; else one of its own): a failed renewal is retried
        after a backoff no longer than the renewal period, so a database back within the
        lease's margin loses nothing."""
        if self._duties is None:
            self._duties = duties or Duties(sleep=self._sleep)
            self._duties.start(
                RENEWAL_DUTY,
                self.renew,
                every=self._renew_every,
                first_delay=self._renew_every,
                backoff_max=self._renew_every,
            )

    async def close(self, *, release: bool = True) -> None:
        """Stop renewing and acting; with `release`, give the leases up so a restart need not
        wait (without, they stay until they lapse, as after a crash)."""
        if self._duties is not None:
            await self._duties.stop(RENEWAL_DUTY)
            self._duties = None
        held, self.held = self.held, frozenset()
        if release and held:
            try:
                await self.leases.release(self.owner)
            except Exception:
                log.exception("could not release the shard leases (they lapse in %.0f s)", self._lease_seconds)

    async def renew(self) -> None:
        """One renewal: extends how long the leases are surely ours, or finds shards lost."""
        if not self.held:
            return
        started = self._monotonic()
        still = await self.leases.renew(self.held, self.owner, now=self._now())
        gone = self.held - still
        self.held = still
        self._sure_until = started + self._lease_seconds - self._margin
        if gone:
            self.lost |= gone
            log.error(
                "another process took over shards %s after this one failed to renew them for %.0f s: "
                "this process no longer fires their clocks or posts for their servers; stop it",
                sorted(gone),
                self._lease_seconds,
            )
            for listener in self.lost_listeners:
                await listener(gone)

    # --- messages --------------------------------------------------------------------

    def _claimed_by(self, blocking: list[Lease], now: float) -> str:
        shards = sorted(b.shard for b in blocking)
        age = min(now - b.refreshed_at for b in blocking)
        return f"shards {shards} are claimed by another process (renewed {age:.0f} s ago)"

    def _refusal(self, renewed: list[Lease], now: float) -> str:
        other_counts = sorted({b.shard_count for b in renewed if b.shard_count != self.layout.count})
        shards = sorted(b.shard for b in renewed)
        if other_counts:
            counts = ", ".join(str(c) for c in other_counts)
            return (
                f"SHARD_COUNT={self.layout.count}, but processes with SHARD_COUNT={counts} still run shards "
                f"{shards}: with two layouts some servers would have no owner. Stop every process before "
                "changing the count."
            )
        return (
            f"SHARD_IDS: shards {shards} are run by another live process (it renewed its claim while this one "
            f"waited). Stop that process, or give this one other SHARD_IDS (SHARD_COUNT={self.layout.count})."
        )
