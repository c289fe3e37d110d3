"""`/notify`, `/vacation` and `/nudge`, and the duty that sends digests and held-back notices.

The choices and the rules live in bot/services/notices; delivery in cogs/out/notices.py.
Every answer here is private: a player's settings are nobody else's business.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.i18n import joined, tr, tr_n
from bot.services.notices import MODES, NoticePrefs, ServerNotices, describe_quiet, zone_names
from cogs.acknowledge import answer, defer
from cogs.common import BoneyardCog, bot_of, service_of
from cogs.out.notices import NOTICE_DUTY, NOTICE_POLL_SECONDS

if TYPE_CHECKING:
    from bot.app.client import Boneyard

MODE_CHOICES = [
    app_commands.Choice(name="ping in the match's thread (default)", value="ping"),
    app_commands.Choice(name="a direct message", value="dm"),
    app_commands.Choice(name="one daily digest DM at your hour", value="digest"),
    app_commands.Choice(name="off", value="off"),
]
assert [c.value for c in MODE_CHOICES] == list(MODES)

MODE_WORDS = {
    "ping": tr("a ping in the match's thread"),
    "dm": tr("a direct message"),
    "digest": tr("a daily digest DM"),
    "off": tr("nothing (off)"),
}


def describe_prefs(prefs: NoticePrefs, server: ServerNotices) -> str:
    mode = prefs.mode or server.default_mode or "ping"
    told = (
        tr("Your turn is told by: **{how}**.", how=MODE_WORDS[mode])
        if prefs.mode is not None
        else tr("Your turn is told by: **{how}** (this server's default).", how=MODE_WORDS[mode])
    )
    quiet = describe_quiet(prefs.quiet)
    when = (
        tr(
            "Time zone: **{zone}** · quiet hours: **{quiet}** · digest at **{hour}:00**",
            zone=prefs.zone,
            quiet=quiet,
            hour=f"{prefs.digest_hour:02d}",
        )
        if mode == "digest"
        else tr("Time zone: **{zone}** · quiet hours: **{quiet}**", zone=prefs.zone, quiet=quiet)
    )
    reminders = tr("Clock reminders follow this choice; the last warning before a loss on time always comes.")
    return joined("\n", [told, when, reminders])


async def zone_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    typed = current.strip().lower().replace(" ", "_")
    names = [n for n in zone_names() if typed in n.lower()] if typed else ["UTC", "Europe/London", "America/New_York"]
    names.sort(key=lambda n: (not n.lower().startswith(typed), len(n), n))
    return [app_commands.Choice(name=n, value=n) for n in names[:25]]


class NoticesCog(BoneyardCog):
    async def cog_load(self) -> None:
        self.bot.duties.start(NOTICE_DUTY, self.tick, every=NOTICE_POLL_SECONDS, before=self.bot.wait_until_ready)

    async def cog_unload(self) -> None:
        await self.bot.duties.stop(NOTICE_DUTY)

    async def tick(self) -> None:
        """The supervised duty's step: digests, held-back notices, vacations that ran out."""
        await self.bot.notifier.tick()

    @app_commands.command(name="notify", description="How you are told it is your turn: ping, DM, daily digest or off.")
    @app_commands.describe(
        how="ping in the thread (default), a DM, a daily digest DM, or off",
        zone="your time zone (e.g. Europe/Berlin), for quiet hours and the digest",
        hour="the hour of your daily digest (0-23, your time zone)",
        quiet="quiet hours, no pings or DMs then, e.g. 22-7; off to clear",
    )
    @app_commands.choices(how=MODE_CHOICES)
    async def notify(
        self,
        interaction: discord.Interaction,
        how: app_commands.Choice[str] | None = None,
        zone: str | None = None,
        hour: app_commands.Range[int, 0, 23] | None = None,
        quiet: str | None = None,
    ) -> None:
        await defer(interaction, ephemeral=True)
        notices = bot_of(interaction).notices
        if how is None and zone is None and hour is None and quiet is None:
            prefs = await notices.prefs(interaction.user.id)
        else:
            prefs = await notices.choose(
                interaction.user.id, mode=how.value if how else None, zone=zone, hour=hour, quiet=quiet
            )
            if how is not None:  # a new choice after closed DMs: a DM notice is tried again
                bot_of(interaction).presenter.dms_reopened(interaction.user.id)
        server = await notices.server(interaction.guild_id)
        await answer(interaction, describe_prefs(prefs, server), ephemeral=True)

    @notify.autocomplete("zone")
    async def notify_zone(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await zone_autocomplete(interaction, current)

    vacation = app_commands.Group(
        name="vacation", description="Vacation days: pause the clocks of your daily matches.", guild_only=True
    )

    @vacation.command(name="start", description="Start a vacation: your daily-clock matches here are paused.")
    @app_commands.describe(days="how many days (default: all you have left this year)")
    async def vacation_start(
        self, interaction: discord.Interaction, days: app_commands.Range[int, 1, 366] | None = None
    ) -> None:
        assert interaction.guild_id is not None
        await defer(interaction, ephemeral=True)
        bot = bot_of(interaction)
        change = await bot.holidays.start(interaction.guild_id, interaction.user.id, days)
        await bot.notifier.vacation_started(change, interaction.user.display_name)
        paused = len(change.matches)
        await answer(
            interaction,
            joined(
                " ",
                [
                    tr_n(
                        "🏖 Your vacation runs until <t:{until}:f> ({n} day).",
                        "🏖 Your vacation runs until <t:{until}:f> ({n} days).",
                        change.days,
                        until=int(change.vacation.ends_at),
                    ),
                    tr_n(
                        "{n} match clock paused; your opponents were told.",
                        "{n} match clocks paused; your opponents were told.",
                        paused,
                    ),
                    tr("`/vacation end` comes back early (each started day counts)."),
                ],
            ),
            ephemeral=True,
        )

    @vacation.command(name="end", description="End your vacation: the paused clocks run again.")
    async def vacation_end(self, interaction: discord.Interaction) -> None:
        assert interaction.guild_id is not None
        await defer(interaction, ephemeral=True)
        bot = bot_of(interaction)
        change = await bot.holidays.end(interaction.guild_id, interaction.user.id)
        await bot.notifier.vacation_ended(change)
        status = await bot.holidays.status(interaction.guild_id, interaction.user.id)
        resumed = len(change.matches)
        await answer(
            interaction,
            joined(
                "; ",
                [
                    tr_n(
                        "Welcome back: {n} vacation day used, {left} left this year",
                        "Welcome back: {n} vacation days used, {left} left this year",
                        change.days,
                        left=status.left,
                    ),
                    tr_n("{n} match clock running again.", "{n} match clocks running again.", resumed),
                ],
            ),
            ephemeral=True,
        )

    @vacation.command(name="status", description="Your vacation days left this year, and a running vacation.")
    async def vacation_status(self, interaction: discord.Interaction) -> None:
        assert interaction.guild_id is not None
        await defer(interaction, ephemeral=True)
        status = await bot_of(interaction).holidays.status(interaction.guild_id, interaction.user.id)
        days = tr(
            "Vacation days this year: **{left}** left of {allowance} ({used} used).",
            left=status.left,
            allowance=status.allowance,
            used=status.used,
        )
        if status.vacation is not None:
            until = tr("You are on vacation until <t:{until}:f>.", until=int(status.vacation.ends_at))
            await answer(interaction, joined(" ", [days, until]), ephemeral=True)
        else:
            await answer(interaction, days, ephemeral=True)

    @app_commands.command(name="nudge", description="Remind your opponent of their move (no clock; once a day).")
    @app_commands.guild_only()
    async def nudge(self, interaction: discord.Interaction) -> None:
        await defer(interaction, ephemeral=True)
        bot = bot_of(interaction)
        row = await service_of(interaction).match_in_channel(interaction.channel_id or 0, interaction.user.id)
        nudged = await bot.holidays.nudge(row.id, interaction.user.id)
        how = await bot.notifier.nudged(nudged, interaction.user.display_name)
        await answer(
            interaction,
            tr("👋 Nudged. {how} Your next nudge here: <t:{next_at}:R>.", how=how, next_at=int(nudged.next_at)),
            ephemeral=True,
        )


async def setup(bot: Boneyard) -> None:
    await bot.add_cog(NoticesCog(bot))
