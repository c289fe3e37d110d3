"""Delivers what each player chose to hear (bot/services/notices): turn notices, clock
reminders' routes, held-back notices, digests, nudges and vacation notes.

Why beside the presenter: the presenter posts boards; who of the players named under a board
is notified, and how, is this module's one job, so the presenter asks it (`turn_routes`)
and hands the rest over after the board is posted (`deliver`).  A turn notice by DM that
Discord refuses (the player's DMs are closed) becomes a ping in the match's channel: a notice
that reaches nobody is worse than a ping they did not choose.  The first such ping of a match
says why (their DMs are closed: open them, or choose pings), once per player and match even
across restarts (the store's closed-DM notice, shared with the private view's); the match's
later boards then ping them directly, until a DM to them goes through or they use `/notify`.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

import discord

from bot.games import GAMES
from bot.i18n import Joined, joined, tr, tr_n, translate
from bot.services.matches import ClockNotice, MatchRow, Update
from bot.services.notices import Nudged, ReminderRoute, TurnRoute, VacationChange, Waiting
from cogs.out.presenter import channel_link
from cogs.speech import guild_locale, user_locale
from cogs.ui import private

if TYPE_CHECKING:
    from bot.app.client import Boneyard

log = logging.getLogger(__name__)

NOTICE_DUTY = "notices"
NOTICE_POLL_SECONDS = 60.0

Sent = Literal["sent", "closed", "failed"]
"""What became of a DM: delivered, refused by the player's settings (403), or failed otherwise."""


@dataclass
class TurnRoutes:
    """Who of the players a new board names is told how."""

    ping: list[int] = field(default_factory=list)
    dm: list[int] = field(default_factory=list)
    hold: list[int] = field(default_factory=list)

    def mentions(self) -> discord.AllowedMentions:
        """The board's allowed mentions: only who wants a ping (the others are named, not notified)."""
        return discord.AllowedMentions(users=[discord.Object(u) for u in self.ping], everyone=False, roles=False)


class Notifier:
    def __init__(self, bot: Boneyard) -> None:
        self.bot = bot

    # --- a new board -----------------------------------------------------------------------

    async def turn_routes(self, update: Update, targets: Sequence[int]) -> TurnRoutes:
        """How to tell each of `targets` (the players a new board would ping) that it is their turn."""
        routes = TurnRoutes()
        now = self.bot.service.now()
        for user_id in targets:
            try:
                route: TurnRoute = await self.bot.notices.turn_route(user_id, update.match.guild_id, now)
            except Exception:  # the database away: the board still goes out, with the default ping
                log.warning("could not read how %d wants to be told; pinging", user_id, exc_info=True)
                route = "ping"
            route = self._reachable(update.match.id, user_id, route)
            if route == "ping":
                routes.ping.append(user_id)
            elif route == "dm":
                routes.dm.append(user_id)
            elif route == "hold":
                routes.hold.append(user_id)
        return routes

    async def deliver(self, update: Update, routes: TurnRoutes) -> None:
        """After the board is posted: the DMs and the notices held back for later.  A player
        whose controls come by DM with this update (Domino Wars, Wonderland) gets no second DM.
        A failure is logged, never raised: the board is out, and must not be posted again."""
        try:
            await self._deliver(update, routes)
        except Exception:
            log.warning("could not deliver the turn notices of match %d", update.match.id, exc_info=True)

    async def _deliver(self, update: Update, routes: TurnRoutes) -> None:
        row = update.match
        prompted = set(update.prompt) if private.has_controls(row.game) else set()
        for user_id in routes.dm:
            if row.seat_of(user_id) in prompted:
                continue
            if await self._refused(user_id, await self._turn_text(row, user_id), [row.id]):
                await self._turn_by_ping(row, user_id)
        await self.hold(row, routes)

    async def _turn_by_ping(self, row: MatchRow, user_id: int) -> None:
        """The turn notice of a player whose DMs are closed: a ping in the match's channel,
        saying why the first time in this match (never again, restarts included: the claim is
        stored before the line is posted); the match's next boards ping them (`turn_routes`)."""
        try:
            first = await self.bot.announcements.first_dm_notice(row.id, user_id)
        except Exception:  # the database away: the ping matters more than the explanation
            log.warning("could not claim the closed-DM notice of %d in match %d", user_id, row.id, exc_info=True)
            first = False
        if first and GAMES[row.game].info.has_private_info:  # the private view's notice is this one
            text = tr(
                "<@{user}>, your move. I could not send you the DM you chose for your turns: your direct "
                "messages are closed. Allow DMs from this server's members (Privacy Settings), or choose "
                "`/notify how:ping`; `/hand` shows your private view here, just for you.",
                user=user_id,
            )
        elif first:
            text = tr(
                "<@{user}>, your move. I could not send you the DM you chose for your turns: your direct "
                "messages are closed. Allow DMs from this server's members (Privacy Settings), or choose "
                "`/notify how:ping`.",
                user=user_id,
            )
        else:
            text = tr("<@{user}>, your move.", user=user_id)
        await self.post(row, text, ping=[user_id])

    async def hold(self, row: MatchRow, routes: TurnRoutes) -> None:
        """Keep the notices of the players in their quiet hours for when those end."""
        for user_id in routes.hold:
            await self.bot.notices.hold(user_id, row.id, self.bot.service.now())

    async def _turn_text(self, row: MatchRow, user_id: int) -> str:
        info = GAMES[row.game].info
        seats = row.seats or (0, 0)
        opponent = seats[1] if seats[0] == user_id else seats[0]
        return tr(
            "♟ Your move in **{game}** against {opponent} — match #{match}: {link}",
            game=info.name,
            opponent=await self.bot.presenter.name(opponent),
            match=row.id,
            link=channel_link(row),
        )

    # --- clock reminders -------------------------------------------------------------------

    async def reminder_route(self, notice: ClockNotice) -> ReminderRoute:
        """Where the reminder goes; where its control sends it when the choice cannot be read."""
        try:
            return await self.bot.notices.reminder_route(
                notice.user_id, notice.match.guild_id, self.bot.service.now(), notice.via, last=notice.last
            )
        except Exception:
            log.warning("could not read how %d wants reminders; using the clock's way", notice.user_id, exc_info=True)
            return "dm" if notice.via == "dm" else "channel"

    # --- what the duty delivers ------------------------------------------------------------

    async def tick(self) -> None:
        """One pass of the notices duty: vacations whose days ran out, held-back notices whose
        quiet hours ended, digests whose hour came.  Each is claimed in the store before it is
        sent, so a crash or a second pass never sends it twice."""
        for change in await self.bot.holidays.end_due():
            await self.vacation_ended(change)
        now = self.bot.service.now()
        for user_id, waiting in await self.bot.notices.due_releases(now):
            await self.release(user_id, waiting)
        for user_id in await self.bot.notices.due_digests(now):
            waiting = await self.bot.notices.waiting_for(user_id)
            if waiting:
                await self.dm(user_id, await self.digest_text(waiting))

    async def digest_text(self, waiting: Sequence[Waiting]) -> str:
        count = len(waiting)
        lines: list[str] = [
            tr_n(
                "☀ Your daily digest: {n} match waiting for your move.",
                "☀ Your daily digest: {n} matches waiting for your move.",
                count,
            )
        ]
        for item in waiting:
            info = GAMES[item.match.game].info
            opponent = await self.bot.presenter.name(item.opponent_id)
            said = {"game": info.name, "opponent": opponent, "match": item.match.id, "link": channel_link(item.match)}
            if item.time_left:
                lines.append(
                    tr(
                        "• **{game}** against {opponent} (match #{match}, your clock {left}): {link}",
                        left=item.time_left,
                        **said,
                    )
                )
            else:
                lines.append(tr("• **{game}** against {opponent} (match #{match}, no clock): {link}", **said))
        return joined("\n", lines)

    async def release(self, user_id: int, waiting: Sequence[Waiting]) -> None:
        """The notices held back by quiet hours, the way the player chose now."""
        mode = await self.bot.notices.mode_of(user_id, waiting[0].match.guild_id)
        if mode in ("digest", "off"):
            return
        if mode == "dm":
            lines: list[str] = [tr("🌅 While your quiet hours lasted, these matches came to your move:")]
            lines += [tr("• match #{match}: {link}", match=w.match.id, link=channel_link(w.match)) for w in waiting]
            if not await self._refused(user_id, joined("\n", lines), [w.match.id for w in waiting]):
                return
        for item in waiting:
            held = tr("<@{user}>, your move (held back during your quiet hours).", user=user_id)
            await self.post(item.match, held, ping=[user_id])

    async def nudged(self, nudge: Nudged, by_name: str) -> str:
        """Tell the opponent of a nudge their way; the sentence for the player who nudged."""
        row, target = nudge.match, nudge.opponent_id
        route = self._reachable(
            row.id, target, await self.bot.notices.turn_route(target, row.guild_id, self.bot.service.now())
        )
        text = tr(
            "👋 <@{target}>, {name} is waiting for your move in match #{match}.",
            target=target,
            name=by_name,
            match=row.id,
        )
        if route == "ping":
            await self.post(row, text, ping=[target])
            return tr("Your opponent was pinged in the match's thread.")
        if route == "dm":
            told = tr(
                "👋 {name} is waiting for your move in match #{match}: {link}",
                name=by_name,
                match=row.id,
                link=channel_link(row),
            )
            if await self._refused(target, told, [row.id]):  # their DMs are closed: a ping instead
                await self.post(row, text, ping=[target])
                return tr("Your opponent was pinged in the match's thread.")
            return tr("Your opponent was told by DM.")
        if route == "hold":
            await self.bot.notices.hold(target, row.id, self.bot.service.now())
            return tr("Your opponent is in their quiet hours: they will be told when these end.")
        return tr("Your opponent turned their turn notices off (or reads a daily digest): they will see it there.")

    # --- vacations -------------------------------------------------------------------------

    async def vacation_started(self, change: VacationChange, name: str) -> None:
        """Each paused match's opponent is told once, in the match's thread, their way."""
        for row in change.matches:
            opponent = self._opponent(row, change.vacation.user_id)
            text = tr(
                "🏖 {name} is on vacation until <t:{until}:f>: the clock of match #{match} is paused until they "
                "are back.",
                name=name,
                until=int(change.vacation.ends_at),
                match=row.id,
            )
            await self._tell(row, opponent, text)

    async def vacation_ended(self, change: VacationChange) -> None:
        name = await self.bot.presenter.name(change.vacation.user_id)
        for row in change.matches:
            back = tr(
                "▶ {name} is back from vacation: the clock of match #{match} runs again.", name=name, match=row.id
            )
            await self.post(row, back, ping=[])

    async def _tell(self, row: MatchRow, user_id: int | None, text: str) -> None:
        """One line in the match's thread naming `user_id`, notifying them their way (by DM
        when they chose it; a DM their closed DMs refuse becomes the line's ping)."""
        if user_id is None:
            return
        route = self._reachable(
            row.id, user_id, await self.bot.notices.turn_route(user_id, row.guild_id, self.bot.service.now())
        )
        if route == "dm" and await self._refused(user_id, Joined(" ", [text, channel_link(row)]), [row.id]):
            route = "ping"  # their DMs are closed: the line pings them instead
        await self.post(row, Joined(": ", [f"<@{user_id}>", text]), ping=[user_id] if route == "ping" else [])

    @staticmethod
    def _opponent(row: MatchRow, user_id: int) -> int | None:
        if row.seats is None:
            return None
        return row.seats[1] if row.seats[0] == user_id else row.seats[0]

    # --- sending ---------------------------------------------------------------------------

    def _reachable(self, match_id: int, user_id: int, route: TurnRoute) -> TurnRoute:
        """`route`, except a ping where a DM of this match was refused already (closed DMs):
        every notice of the match asks this, so none tries a DM known to fail."""
        return "ping" if route == "dm" and self.bot.presenter.dms_closed(match_id, user_id) else route

    async def _refused(self, user_id: int, text: str, match_ids: Sequence[int]) -> bool:
        """DM `text`; True when closed DMs refused it, remembered for `match_ids` so that their
        next boards and lines there ping instead (`_reachable`).  Any other failure is logged
        by `send_dm` and has no fallback."""
        if await self.send_dm(user_id, text) != "closed":
            return False
        for match_id in match_ids:
            self.bot.presenter.note_dms_closed(match_id, user_id)
        return True

    async def dm(self, user_id: int, text: str) -> bool:
        return await self.send_dm(user_id, text) == "sent"

    async def send_dm(self, user_id: int, text: str) -> Sent:
        """DM `text` to the player in their language; what became of it (never raises for
        Discord's refusals: the caller decides the fallback)."""
        if self.bot.user is not None and user_id == self.bot.user.id:
            return "failed"
        text = translate(await user_locale(self.bot, user_id), text)  # the player's language
        try:
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            await user.send(content=text[:2000])
        except discord.Forbidden as error:  # 50007 on the send, or a 403 creating the DM channel
            log.info("notice DM to %d refused: %s", user_id, error)
            return "closed"
        except discord.HTTPException as error:
            log.info("notice DM to %d failed: %s", user_id, error)
            return "failed"
        self.bot.presenter.dms_reopened(user_id)
        return "sent"

    async def post(self, row: MatchRow, text: str, *, ping: Sequence[int]) -> bool:
        channel = await self.bot.presenter.channel(row.channel_id)
        if channel is None:
            return False
        mentions = discord.AllowedMentions(users=[discord.Object(u) for u in ping], everyone=False, roles=False)
        text = translate(await guild_locale(self.bot, row.guild_id), text)  # the server's language
        try:
            await channel.send(content=text[:2000], allowed_mentions=mentions)
        except discord.HTTPException as error:
            log.warning("could not post a notice in channel %d: %s", row.channel_id, error)
            return False
        return True
