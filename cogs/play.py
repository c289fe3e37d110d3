"""Starting matches: `/play` (a challenge with buttons), `/games`, `/rules`."""

from __future__ import annotations

import io
import logging
import shlex
from typing import TYPE_CHECKING, cast

import discord
from discord import app_commands

from bot.ai import LEVELS
from bot.ai.levels import DEFAULT_LEVEL
from bot.clocks import PRESETS
from bot.games import GAMES
from bot.games.samples import sample_move
from bot.i18n import tr, translate
from cogs.acknowledge import answer, defer
from cogs.common import BoneyardCog, bot_of, presenter_of
from cogs.speech import reader_locale
from cogs.ui import private
from cogs.ui.buttons import DYNAMIC_ITEMS
from cogs.ui.lobby_buttons import challenge_text, challenge_view, threads_possible
from renderers.rules_sample import move_example

if TYPE_CHECKING:
    from bot.app.client import Boneyard
    from cogs.computer import ComputerCog

log = logging.getLogger(__name__)
GAME_CHOICES = [app_commands.Choice(name=rules.info.name, value=key) for key, rules in GAMES.items()]
SEAT_WORDS = {"random": "decided at random", "first": "the challenger", "second": "the opponent"}
COMPUTER_CHOICES = [app_commands.Choice(name=level, value=level) for level in LEVELS]
SEAT_CHOICES = [
    app_commands.Choice(name="random", value="random"),
    app_commands.Choice(name="I move first", value="first"),
    app_commands.Choice(name="I move second", value="second"),
]


def parse_options(text: str | None) -> dict[str, str]:
    """`setup=drop drops=restricted` -> {"setup": "drop", "drops": "restricted"}."""
    if not text:
        return {}
    options: dict[str, str] = {}
    try:
        words = shlex.split(text.replace(",", " "))
    except ValueError:
        words = text.replace(",", " ").split()
    for word in words:
        name, sep, value = word.partition("=")
        if not sep or not name or not value:
            raise app_commands.CheckFailure(
                tr("Write options as name=value pairs, like `setup=drop` (not `{word}`).", word=word[:30])
            )
        options[name.strip().lower()] = value.strip()
    return options


class PlayCog(BoneyardCog):
    @app_commands.command(name="play", description="Challenge someone (or anyone) to a game in this channel.")
    @app_commands.describe(
        game="Which game",
        opponent="Who to challenge (leave empty: anyone may accept)",
        options="Game options as name=value pairs, e.g. setup=drop (see /games)",
        seat="Who moves first",
        clock="Time control: blitz, rapid, daily, none, or e.g. 2m+5m (default: the server's, see /settings)",
        rated="Whether the result changes both players' ratings (default: yes)",
        expires="How long the challenge stays open: 30m, 2h, 3d (default 24h)",
        computer="Play the computer at this level (or pick me as the opponent)",
    )
    @app_commands.choices(game=GAME_CHOICES, seat=SEAT_CHOICES, computer=COMPUTER_CHOICES)
    @app_commands.guild_only()
    async def play(
        self,
        interaction: discord.Interaction,
        game: app_commands.Choice[str],
        opponent: discord.Member | None = None,
        options: str | None = None,
        seat: app_commands.Choice[str] | None = None,
        clock: str | None = None,
        rated: bool = True,
        expires: str | None = None,
        computer: app_commands.Choice[str] | None = None,
    ) -> None:
        presenter_of(interaction).remember(interaction.user)
        me = self.bot.user
        if computer is not None or (opponent is not None and me is not None and opponent.id == me.id):
            if opponent is not None and (me is None or opponent.id != me.id):
                raise app_commands.CheckFailure("Choose either an opponent or the computer, not both.")
            # The extension loader gives each cog module its own copy: no isinstance here.
            cog = cast("ComputerCog | None", self.bot.get_cog("ComputerCog"))
            if cog is None:
                raise app_commands.CheckFailure("The computer opponent is not available on this bot.")
            await cog.start_match(
                interaction,
                game=game.value,
                level=computer.value if computer else DEFAULT_LEVEL,
                options=parse_options(options),
                seat_pref=seat.value if seat else "random",
                clock=clock,
                rated=rated,
            )
            return
        if opponent is not None and opponent.bot:
            raise app_commands.CheckFailure(
                "Other bots do not play: challenge a person, me, or leave the opponent empty."
            )
        assert interaction.channel_id is not None
        await defer(interaction)
        row = await bot_of(interaction).lobby.challenge(
            game=game.value,
            channel_id=interaction.channel_id,
            guild_id=interaction.guild_id,
            challenger_id=interaction.user.id,
            opponent_id=opponent.id if opponent else None,
            options=parse_options(options),
            seat_pref=seat.value if seat else "random",
            clock=clock,
            rated=rated,
            expires=expires,
            threads_possible=threads_possible(interaction.channel, interaction.app_permissions),
        )
        who = opponent.mention if opponent else "Anyone"
        await answer(
            interaction,
            await challenge_text(bot_of(interaction), row, interaction.user.mention, who),
            view=challenge_view(row.id),
            allowed_mentions=discord.AllowedMentions(users=True),
            ephemeral=False,
        )
        try:  # so an expired challenge's message can say so
            message = await interaction.original_response()
            await bot_of(interaction).lobby.set_message(row.id, message.id)
        except discord.HTTPException:
            log.warning("could not note the message of challenge %d", row.id)

    @play.autocomplete("options")
    async def play_options_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        key = getattr(interaction.namespace, "game", None)
        rules = GAMES.get(str(key)) if key else None
        if rules is None:
            return []
        head, _, last = current.rpartition(" ")
        prefix = f"{head} " if head else ""
        suggestions = []
        for option in rules.info.options:
            values = option.choices or (str(option.default),)
            for value in values:
                candidate = f"{option.name}={value}"
                if candidate.startswith(last.lower()):
                    suggestions.append(
                        app_commands.Choice(name=(prefix + candidate)[:100], value=(prefix + candidate)[:100])
                    )
        return suggestions[:25]

    @play.autocomplete("clock")
    async def play_clock_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The presets with what they mean; anything typed is offered as it is, too."""
        typed = current.strip().lower()
        locale = await reader_locale(interaction)
        choices = [
            app_commands.Choice(name=translate(locale, control.describe())[:100], value=key)
            for key, control in PRESETS.items()
            if key.startswith(typed)
        ]
        if typed and typed not in PRESETS:
            choices.insert(0, app_commands.Choice(name=current[:100], value=current[:100]))
        return choices[:25]

    @app_commands.command(name="games", description="The games Boneyard hosts, with their options.")
    async def games(self, interaction: discord.Interaction) -> None:
        locale = await reader_locale(interaction)
        embed = discord.Embed(
            title=translate(locale, tr("Boneyard games")), colour=discord.Colour.from_rgb(0, 114, 178)
        )
        for rules in GAMES.values():
            info = rules.info
            lines = [translate(locale, info.blurb)]
            lines += [f"• {translate(locale, opt.describe())}" for opt in info.options]
            embed.add_field(name=f"{info.name} (`{info.key}`)", value="\n".join(lines)[:1024], inline=False)
        embed.set_footer(text=translate(locale, tr("Start one with /play · rules with /rules")))
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name="rules", description="How to play a game.")
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(self, interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        """The rules text with a labelled picture: a sample position, a move in notation, the result."""
        await defer(interaction, ephemeral=True)
        info = GAMES[game.value].info
        locale = await reader_locale(interaction)
        embed = discord.Embed(
            title=translate(locale, tr("How to play {game}", game=info.name)),
            description=translate(locale, info.how_to_play)[:4000],
        )
        embed.colour = discord.Colour.from_rgb(230, 159, 0)
        sample = sample_move(game.value)
        png = await self.bot.pictures.run(
            move_example, game.value, sample.before, sample.after, sample.seat, sample.move
        )
        embed.set_image(url="attachment://move.png")
        file = discord.File(io.BytesIO(png), filename="move.png")
        await answer(interaction, embed=embed, file=file, ephemeral=True)


async def setup(bot: Boneyard) -> None:
    bot.add_dynamic_items(*DYNAMIC_ITEMS, *private.dynamic_items())
    await bot.add_cog(PlayCog(bot))
