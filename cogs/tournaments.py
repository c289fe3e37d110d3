"""`/tournament …`: sign-up, check-in, items, start, standings, reports, drops.

A tournament belongs to the channel it was created in; its games are played in threads of
that channel, and every command also works from inside those threads.  Hosts are the
creator, members with Manage Server, and members of the roles in `TOURNAMENT_HOST_ROLES`;
the service is only told whether the caller is one.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.games import GAMES
from bot.i18n import DEFAULT, Locale, tr, tr_n, translate
from bot.services.matches import MatchRow, MatchStatus, ServiceError
from bot.services.tournaments import Entry, TournamentRow, item_names, loaded
from bot.tournaments import Format, Tournament
from cogs.acknowledge import answer, defer
from cogs.authority import is_host
from cogs.common import BoneyardCog, sentence_of
from cogs.out.tournament_posts import picture_file
from cogs.play import GAME_CHOICES, parse_options
from cogs.speech import guild_locale, reader_locale, say
from cogs.tournament_runner import TournamentRunner

if TYPE_CHECKING:
    from bot.app.client import Boneyard

log = logging.getLogger(__name__)

FORMAT_CHOICES = [
    app_commands.Choice(name="Single elimination", value=Format.SINGLE_ELIMINATION.value),
    app_commands.Choice(name="Double elimination", value=Format.DOUBLE_ELIMINATION.value),
    app_commands.Choice(name="Round robin", value=Format.ROUND_ROBIN.value),
    app_commands.Choice(name="Swiss", value=Format.SWISS.value),
    app_commands.Choice(name="Death match (two players)", value=Format.DEATHMATCH.value),
]
RESULT_CHOICES = [
    app_commands.Choice(name="won the series", value="win"),
    app_commands.Choice(name="drew the series (round formats)", value="draw"),
]
CHECKIN_POLL_SECONDS = 30
CHECKIN_DUTY = "tournament check-ins"
RESUME_DUTY = "tournament resume"
MENTIONS = discord.AllowedMentions(users=True, everyone=False, roles=False)


def tournament_channel(interaction: discord.Interaction) -> tuple[int, int | None]:
    """The interaction's channel and, inside a thread, its parent (the tournament channel)."""
    channel = interaction.channel
    parent = channel.parent_id if isinstance(channel, discord.Thread) else None
    return interaction.channel_id or 0, parent


class TournamentsCog(BoneyardCog):
    tournament = app_commands.Group(name="tournament", description="Run a tournament in this channel.", guild_only=True)
    item = app_commands.Group(name="item", description="Game items held by players.", parent=tournament)

    def __init__(self, bot: Boneyard) -> None:
        super().__init__(bot)
        self.runner = TournamentRunner(bot)

    async def cog_load(self) -> None:
        self.bot.duties.start(CHECKIN_DUTY, self.checkins, every=CHECKIN_POLL_SECONDS, before=self.bot.wait_until_ready)

    async def cog_unload(self) -> None:
        await self.bot.duties.stop(CHECKIN_DUTY)
        await self.bot.duties.stop(RESUME_DUTY)

    # --- helpers -----------------------------------------------------------------------

    async def _here(self, interaction: discord.Interaction) -> TournamentRow:
        channel_id, parent = tournament_channel(interaction)
        return await self.bot.tournaments.in_channel(channel_id, parent_id=parent)

    # --- sign-up -----------------------------------------------------------------------

    @tournament.command(name="create", description="Open a tournament in this channel (you become its host).")
    @app_commands.describe(
        name="What to call it",
        game="Which game",
        format="How players are paired",
        best_of="Games per pairing (7 and 9: death matches only)",
        clock="Time control of every game: blitz, rapid, daily, or e.g. 1m+3m",
        options="Game options as name=value pairs (items are given with /tournament item give)",
        max_players="Cap on sign-ups",
        checkin="Minutes of check-in when you start (0: no check-in)",
        rounds="Swiss only: number of rounds (default: enough for a clear winner)",
        rated="Whether the games change players' ratings",
    )
    @app_commands.choices(game=GAME_CHOICES, format=FORMAT_CHOICES)
    async def create(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, 80],
        game: app_commands.Choice[str],
        format: app_commands.Choice[str],
        best_of: Literal[1, 3, 5, 7, 9] = 1,
        clock: str | None = None,
        options: str | None = None,
        max_players: app_commands.Range[int, 2, 1024] | None = None,
        checkin: app_commands.Range[int, 0, 1440] = 0,
        rounds: app_commands.Range[int, 1, 30] | None = None,
        rated: bool = True,
    ) -> None:
        if isinstance(interaction.channel, discord.Thread):
            raise ServiceError(tr("Create tournaments in a text channel: their games get threads of it."))
        await defer(interaction)
        row = await self.bot.tournaments.create(
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id or 0,
            host_id=interaction.user.id,
            name=name,
            game=game.value,
            format=format.value,
            best_of=best_of,
            rounds=rounds,
            options=parse_options(options),
            clock=clock,
            max_players=max_players,
            checkin_minutes=checkin,
            rated=rated,
        )
        locale = await reader_locale(interaction, public=True)
        embed = self._info_embed(row, [], locale)
        embed.description = translate(
            locale, tr("Hosted by {host}. Join with `/tournament join`!", host=interaction.user.mention)
        )
        await answer(interaction, embed=embed, ephemeral=False)

    @tournament.command(name="join", description="Sign up for this channel's tournament.")
    async def join(self, interaction: discord.Interaction) -> None:
        await defer(interaction)
        row = await self._here(interaction)
        count = await self.bot.tournaments.join(row.id, interaction.user.id, interaction.user.display_name)
        await answer(
            interaction,
            tr_n(
                "✅ {mention} joined **{name}** ({n} player).",
                "✅ {mention} joined **{name}** ({n} players).",
                count,
                mention=interaction.user.mention,
                name=row.name,
            ),
            allowed_mentions=discord.AllowedMentions.none(),
            ephemeral=False,
        )

    @tournament.command(name="leave", description="Withdraw your sign-up before the tournament starts.")
    async def leave(self, interaction: discord.Interaction) -> None:
        await defer(interaction)
        row = await self._here(interaction)
        await self.bot.tournaments.leave(row.id, interaction.user.id)
        await answer(
            interaction,
            tr("👋 {mention} left **{name}**.", mention=interaction.user.mention, name=row.name),
            allowed_mentions=discord.AllowedMentions.none(),
            ephemeral=False,
        )

    @tournament.command(name="checkin", description="Confirm you are here to play (during check-in).")
    async def checkin(self, interaction: discord.Interaction) -> None:
        await defer(interaction, ephemeral=True)
        row = await self._here(interaction)
        await self.bot.tournaments.check_in(row.id, interaction.user.id)
        await answer(interaction, tr("☑️ You are checked in for **{name}**.", name=row.name), ephemeral=True)

    # --- items -------------------------------------------------------------------------

    @item.command(name="give", description="Give a player one of the game's items (host).")
    @app_commands.describe(player="Who receives it", item="The item", giver="Who gives it (shown in the announcement)")
    async def item_give(
        self,
        interaction: discord.Interaction,
        player: discord.Member,
        item: str,
        giver: discord.Member | None = None,
    ) -> None:
        await defer(interaction)
        row = await self._here(interaction)
        await self.bot.tournaments.give_item(row.id, player.id, item, host=is_host(interaction, row))
        lower = item.strip().lower()
        await answer(
            interaction,
            tr(
                "🎁 {mention} receives the item **{lower}** (a gift from {giver}).",
                mention=player.mention,
                lower=lower,
                giver=giver.mention,
            )
            if giver is not None
            else tr("🎁 {mention} receives the item **{lower}**.", mention=player.mention, lower=lower),
            allowed_mentions=MENTIONS,
            ephemeral=False,
        )

    @item.command(name="take", description="Take an item back from a player (host).")
    async def item_take(self, interaction: discord.Interaction, player: discord.Member, item: str) -> None:
        await defer(interaction)
        row = await self._here(interaction)
        await self.bot.tournaments.take_item(row.id, player.id, item, host=is_host(interaction, row))
        await answer(
            interaction,
            tr("{mention} no longer holds **{lower}**.", mention=player.mention, lower=item.strip().lower()),
            allowed_mentions=discord.AllowedMentions.none(),
            ephemeral=False,
        )

    @item_give.autocomplete("item")
    @item_take.autocomplete("item")
    async def item_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        try:
            row = await self._here(interaction)
        except ServiceError:
            return []
        rules = GAMES[row.game]
        locale = await reader_locale(interaction)
        helps = {o.name: translate(locale, o.help) for o in rules.info.options}
        return [
            app_commands.Choice(name=f"{name} — {helps[name]}"[:100], value=name)
            for name in item_names(rules)
            if name.startswith(current.strip().lower())
        ]

    # --- running -----------------------------------------------------------------------

    @tournament.command(name="start", description="Start the tournament, or open check-in if it has one (host).")
    async def start(self, interaction: discord.Interaction) -> None:
        await defer(interaction)
        row = await self._here(interaction)
        started = await self.bot.tournaments.begin(row.id, host=is_host(interaction, row))
        if started.status == "checkin":
            entrants = " ".join(f"<@{e.user_id}>" for e in await self.bot.tournaments.entries(row.id))
            until = int(started.checkin_until or 0)
            said = await say(
                interaction,
                tr(
                    "📋 Check-in for **{name}** is open until <t:{until}:t> (<t:{until}:R>). "
                    "Use `/tournament checkin` to play.",
                    name=row.name,
                    until=until,
                ),
                public=True,
            )
            await answer(
                interaction,
                f"{said} {entrants}"[:2000],
                allowed_mentions=MENTIONS,
                ephemeral=False,
            )
            return
        await self._announce_start(started, interaction)

    async def _announce_start(self, row: TournamentRow, interaction: discord.Interaction | None = None) -> None:
        tournament = loaded(row)
        assert tournament is not None
        byes = [tournament.player(p.winner).name for p in tournament.pairings if p.method == "bye" and p.winner]
        locale = await guild_locale(self.bot, row.guild_id)
        text = translate(
            locale,
            tr(
                "🏁 **{name}** begins with {count} players! Each game gets its own thread below.",
                name=row.name,
                count=len(tournament.players),
            ),
        )
        if byes:
            text += "\n" + translate(locale, tr("First-round bye: {names}.", names=", ".join(byes)))
        file = await picture_file(self.bot, row, standings=False)
        assert file is not None  # a started event has its picture
        if interaction is not None:
            await interaction.followup.send(text, file=file)
        else:
            channel = self.bot.get_channel(row.channel_id)
            if isinstance(channel, discord.abc.Messageable):
                await channel.send(text, file=file)
        await self.runner.advance(row.id)

    @tournament.command(name="resume", description="Open any games that are due (host; e.g. after fixing permissions).")
    async def resume(self, interaction: discord.Interaction) -> None:
        await defer(interaction, ephemeral=True)
        row = await self._here(interaction)
        if not is_host(interaction, row):
            raise ServiceError(tr("Only the tournament's host (or a server manager) can do that."))
        progress = await self.runner.advance(row.id)
        opened = tr_n("Checked: {n} game opened.", "Checked: {n} games opened.", len(progress.to_open))
        await interaction.followup.send(await say(interaction, opened), ephemeral=True)

    @tournament.command(name="report", description="Set or correct a series result (host).")
    @app_commands.describe(player="The player whose latest series this is", result="What happened")
    @app_commands.choices(result=RESULT_CHOICES)
    async def report(
        self, interaction: discord.Interaction, player: discord.Member, result: app_commands.Choice[str]
    ) -> None:
        await defer(interaction)
        row = await self._here(interaction)
        tournament = self._started(row)
        pairing = _latest_pairing(tournament, player.id)
        winner = player.id if result.value == "win" else None
        to_abort = await self.bot.tournaments.report(row.id, pairing, winner, host=is_host(interaction, row))
        for match_id in to_abort:
            update = await self.bot.service.abort(match_id, interaction.user.id, moderator=True)
            if update is not None:
                await self.bot.presenter.announce(update, intro=tr("The host decided this series; this game is void."))
        reported = (
            tr("📝 Reported: {player} wins pairing {pairing}.", player=player.mention, pairing=pairing)
            if winner is not None
            else tr("📝 Reported: {player} draws pairing {pairing}.", player=player.mention, pairing=pairing)
        )
        await interaction.followup.send(
            await say(interaction, reported, public=True), allowed_mentions=discord.AllowedMentions.none()
        )
        await self.runner.advance(row.id)

    @tournament.command(name="drop", description="Withdraw from the tournament (or withdraw a player, as host).")
    async def drop(self, interaction: discord.Interaction, player: discord.Member | None = None) -> None:
        await defer(interaction)
        row = await self._here(interaction)
        target = player or interaction.user
        to_end = await self.bot.tournaments.drop(
            row.id, target.id, host=is_host(interaction, row), by=interaction.user.id
        )
        for match_id in to_end:
            update = await self.bot.service.resign(match_id, target.id)
            await self.bot.presenter.announce(update, intro=tr("{name} left the tournament.", name=target.display_name))
        await interaction.followup.send(
            await say(interaction, tr("🚪 {who} has left **{name}**.", who=target.mention, name=row.name), public=True),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        if row.status == "running":
            await self.runner.advance(row.id)

    @tournament.command(name="cancel", description="Cancel the tournament; running games are aborted (host).")
    async def cancel(self, interaction: discord.Interaction) -> None:
        await defer(interaction)
        row = await self._here(interaction)
        to_abort = await self.bot.tournaments.cancel(row.id, host=is_host(interaction, row))
        for match_id in to_abort:
            update = await self.bot.service.abort(match_id, interaction.user.id, moderator=True)
            if update is not None:
                await self.bot.presenter.announce(update, intro=tr("The tournament was cancelled."))
        cancelled = tr("🛑 **{name}** was cancelled by {who}.", name=row.name, who=interaction.user.mention)
        await interaction.followup.send(await say(interaction, cancelled, public=True))

    # --- looking -----------------------------------------------------------------------

    @tournament.command(name="standings", description="The standings table as a picture.")
    async def standings(self, interaction: discord.Interaction) -> None:
        await self._picture(interaction, standings=True)

    @tournament.command(name="bracket", description="The bracket (or Swiss table) as a picture.")
    @app_commands.describe(whole="Every round, not just the round being played and the next")
    async def bracket(self, interaction: discord.Interaction, whole: bool = False) -> None:
        await self._picture(interaction, standings=False, whole=whole or None)

    async def _picture(self, interaction: discord.Interaction, *, standings: bool, whole: bool | None = None) -> None:
        await defer(interaction)
        row = await self._here(interaction)
        if row.state is None:
            names = ", ".join(e.name for e in await self.bot.tournaments.entries(row.id))
            said = (
                tr("**{name}** has not started. Signed up: {names}.", name=row.name, names=names)
                if names
                else tr("**{name}** has not started. Signed up: nobody yet.", name=row.name)
            )
            await answer(interaction, await say(interaction, said), ephemeral=True)
            return
        file = await picture_file(self.bot, row, standings=standings, whole=whole)
        assert file is not None
        await interaction.followup.send(f"**{row.name}**", file=file)

    @tournament.command(name="info", description="Settings, host and players of this channel's tournament.")
    async def info(self, interaction: discord.Interaction) -> None:
        await defer(interaction, ephemeral=True)
        row = await self._here(interaction)
        entries = await self.bot.tournaments.entries(row.id)
        embed = self._info_embed(row, entries, await reader_locale(interaction))
        await answer(interaction, embed=embed, ephemeral=True)

    def _info_embed(self, row: TournamentRow, entries: list[Entry], locale: Locale = DEFAULT) -> discord.Embed:
        """The event's settings and players, in `locale`."""

        def say(text: str) -> str:
            return translate(locale, text)

        info = GAMES[row.game].info
        embed = discord.Embed(title=f"🏆 {row.name}", colour=discord.Colour.from_rgb(230, 159, 0))
        embed.add_field(name=say(tr("Game")), value=info.name)
        embed.add_field(name=say(tr("Format")), value=row.format.replace("_", " "))
        embed.add_field(name=say(tr("Series")), value=say(tr("best of {n}", n=row.best_of)))
        embed.add_field(name=say(tr("Clock")), value=row.clock or say(tr("none")))
        embed.add_field(name=say(tr("Status")), value=row.status)
        embed.add_field(name=say(tr("Host")), value=f"<@{row.host_id}>")
        if row.options:
            embed.add_field(name=say(tr("Options")), value=" ".join(f"`{k}={v}`" for k, v in row.options.items()))
        tournament = loaded(row)
        if tournament is not None:
            players = [say(_player_line(p.name, p.items, p.dropped)) for p in tournament.players]
        else:
            players = [say(_player_line(e.name, list(e.items), False)) for e in entries]
        if players:
            embed.add_field(
                name=say(tr("Players ({n})", n=len(players))), value="\n".join(players)[:1024], inline=False
            )
        return embed

    @staticmethod
    def _started(row: TournamentRow) -> Tournament:
        tournament = loaded(row)
        if tournament is None:
            raise ServiceError(tr("The tournament has not started."))
        return tournament

    # --- events ------------------------------------------------------------------------

    @commands.Cog.listener()
    async def on_match_finished(self, match: MatchRow) -> None:
        """Dispatched by the bot after any match ended: a tournament game moves its event on."""
        tournament = await self.bot.tournaments.of_match(match.id)
        if tournament is not None:
            await self.runner.advance(tournament.id)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Resume the running tournaments, supervised until it once succeeds (a database away
        at that moment delays the resume, never skips it)."""
        self.bot.duties.start(RESUME_DUTY, self.runner.resume_all, every=None)

    @commands.Cog.listener()
    async def on_thread_update(self, before: discord.Thread, after: discord.Thread) -> None:
        """Keep a game's thread open while its match runs (Discord archives idle threads)."""
        if not after.archived or after.locked:
            return
        match = await self.bot.service.running_in(after.id)
        if match is None or match.status != MatchStatus.ACTIVE:
            return
        try:
            await after.edit(archived=False)
        except discord.HTTPException:
            log.warning("could not unarchive the thread of match %d", match.id)

    async def checkins(self) -> None:
        """Start tournaments whose check-in window closed (the deadline is stored, so a
        restart during check-in still starts the event on time)."""
        for row in await self.bot.tournaments.due_checkins():
            if not self.bot.owns(row.guild_id):
                continue  # another shard process runs this guild's events
            try:
                started = await self.bot.tournaments.close_checkin(row.id)
            except ServiceError as exc:
                channel = self.bot.get_channel(row.channel_id)
                if isinstance(channel, discord.abc.Messageable):
                    said = translate(await guild_locale(self.bot, row.guild_id), sentence_of(exc))
                    await channel.send(f"🛑 **{row.name}**: {said}")
                continue
            if started is not None:
                await self._announce_start(started)


def _player_line(name: str, items: list[str], dropped: bool) -> str:
    if dropped:
        return tr("~~{name}~~ (dropped)", name=name)
    return f"{name} · {', '.join(items)}" if items else name


def _latest_pairing(tournament: Tournament, player_id: int) -> int:
    """The series a report is about: the player's live one, else their last decided one."""
    mine = [p for p in tournament.pairings_of(player_id) if p.ready]
    live = [p for p in mine if not p.finished]
    if live:
        return live[0].id
    if mine:
        return mine[-1].id
    raise ServiceError(tr("That member has no series in this tournament."))


async def setup(bot: Boneyard) -> None:
    await bot.add_cog(TournamentsCog(bot))
