"""The computer opponent on Discord: starts matches against it and keeps it playing.

`/play game computer:<level>` or `/play game opponent:@Boneyard` (the bot's own user)
starts a match at once, the bot in the other seat.  The `ComputerPlayer` (bot.services.computer)
thinks in worker processes; this cog only wires it: every announced update
(`match_update`, dispatched by the presenter) lets it look whether it must move, and at
start-up it takes up the matches it was playing.  Matches against the computer are
unrated unless the bot's settings enable it (`COMPUTER_RATED=on`).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord.ext import commands

from bot.ai import LEVELS
from bot.i18n import tr
from bot.services.computer import ComputerPlayer
from bot.services.matches import Update
from cogs.acknowledge import answer, defer
from cogs.common import BoneyardCog
from cogs.playing import announce_move

if TYPE_CHECKING:
    from bot.app.client import Boneyard

log = logging.getLogger(__name__)

LEVEL_WORDS = {"easy": tr("thinks briefly"), "normal": tr("thinks a second or two"), "hard": tr("thinks longest")}


class ComputerCog(BoneyardCog):
    _player: ComputerPlayer | None = None
    _resumed = False

    @property
    def player(self) -> ComputerPlayer | None:
        """The computer, made once the bot knows its own user (after login)."""
        if self._player is None and self.bot.user is not None:
            self._player = ComputerPlayer(
                self.bot.service,
                self.bot.user.id,
                self._announce,
                iterations=self.bot.settings.computer_iterations,
                owns=self.bot.owns,
            )
        return self._player

    async def cog_unload(self) -> None:
        if self._player is not None:
            self._player.close()

    async def _announce(self, update: Update) -> None:
        await self.bot.presenter.announce(update)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        player = self.player
        if player is not None and not self._resumed:
            self._resumed = True
            await player.resume()

    @commands.Cog.listener()
    async def on_match_update(self, update: Update) -> None:
        seats = update.match.seats
        player = self.player
        if player is not None and seats is not None and player.user_id in seats and update.outcome is None:
            player.consider(update.match.id)

    async def start_match(
        self,
        interaction: discord.Interaction,
        *,
        game: str,
        level: str,
        options: dict[str, str],
        seat_pref: str,
        clock: str | None,
        rated: bool,
    ) -> None:
        """Open and accept a match against the computer, then show its first board (the
        command is acknowledged before any database work, as every one is)."""
        player = self.player
        assert player is not None and interaction.channel_id is not None
        await defer(interaction)
        service = self.bot.service
        row = await service.challenge(
            game=game,
            channel_id=interaction.channel_id,
            guild_id=interaction.guild_id,
            challenger_id=interaction.user.id,
            opponent_id=player.user_id,
            options=options,
            seat_pref=seat_pref,
            clock=clock,
            rated=rated and self.bot.settings.computer_rated,
        )
        await player.set_level(row.id, level)
        update = await service.accept(row.id, player.user_id, intro=tr("Match #{match} begins!", match=row.id))
        plays = tr(
            "🤖 {who} plays the computer (**{level}**: it {how}).",
            who=interaction.user.mention,
            level=level,
            how=LEVEL_WORDS[level],
        )
        await answer(
            interaction,
            plays if update.match.rated else tr("{plays} Unrated.", plays=plays),
            allowed_mentions=discord.AllowedMentions(users=True),
            ephemeral=False,
        )
        await announce_move(self.bot, update, mover_id=interaction.user.id, told=interaction)


assert set(LEVEL_WORDS) == set(LEVELS)


async def setup(bot: Boneyard) -> None:
    await bot.add_cog(ComputerCog(bot))
