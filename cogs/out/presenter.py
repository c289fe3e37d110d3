"""Turns service `Update`s into Discord messages: board pictures, DMs, outcomes.

Why a separate module: slash commands, buttons, typed moves and the clock all produce the
same kind of update, and each must be announced the same way.  Pictures are rendered in the
bot's worker processes (`bot.infra.worker_pool`) so the event loop keeps answering while Pillow works.

Private views go by DM only.  When a player's DMs are closed, the channel gets ONE notice
per match asking them to open DMs or use `/hand`; the notice never contains the private view,
and the bot stops DMing that player for that match until `/hand` or a DM that goes through.
"""

from __future__ import annotations

import io
import logging
from typing import TYPE_CHECKING, Any

import discord

import renderers
from bot.games import GAMES
from bot.i18n import Joined, Locale, Text, joined, tr, tr_n, translate
from bot.services.matches import ClockNotice, MatchRow, MatchStatus, Update, clock_of
from cogs.acknowledge import answer
from cogs.out.outbox import NotPosted, Post
from cogs.out.private_dms import PrivateDms, PrivateView, digest
from cogs.out.turn_posts import TurnPost, TurnPosts, actor
from cogs.speech import guild_locale, localize_view, user_locale
from cogs.ui import lobby_buttons, private
from cogs.ui.buttons import move_buttons
from cogs.ui.moves_list import moves_button
from cogs.ui.verify_button import verify_view

if TYPE_CHECKING:
    from bot.app.client import Boneyard
    from cogs.out.notices import TurnRoutes

log = logging.getLogger(__name__)

DM_CLOSED = 50007
BOARD_FILE = "board.png"
CHANNEL_GONE = tr("the channel is gone or hidden from me")
MAX_TOLD = 12
"""Sentences about moves in one announcement; older ones are summarised in a count."""


async def send_keyed(channel: discord.abc.Messageable, nonce: str | None, **fields: Any) -> discord.Message:
    """`channel.send(**fields)`, with `nonce` (its outbox row's key; discord.py adds
    `enforce_nonce`) when there is one: Discord then gives back the message it already made
    for that key instead of a second one."""
    if nonce is not None:
        fields["nonce"] = nonce
    return await channel.send(**fields)


def mention(user_id: int) -> str:
    return f"<@{user_id}>"


def own_move(update: Update, seat: int) -> str | None:
    """The move the seat itself just made (a secret one too: it goes to its own DM only).
    Moves the rules then played for it (a forced `done`) are not named: the channel tells
    them, and "you played" would say the player did what they did not."""
    return update.told[0].move if update.told and actor(update) == seat else None


def status_line(move: str | None, view: dict[str, Any], opponent: str, *, receipt: str | None = None) -> str | None:
    """`▸ ✅ You played `5-3 b2-b3`. Waiting for bob.`: why a private message changed and
    whether the player has something to do, so an edited DM reads on its own.  `receipt`:
    the words the private control confirmed the move with, said instead of the notation."""
    parts: list[str] = []
    if receipt:
        parts.append(receipt)
    elif move:
        parts.append(tr("✅ You played `{move}`.", move=move))
    if view.get("outcome") is None and view.get("you") not in view.get("turn", []):
        parts.append(tr("Waiting for {opponent}.", opponent=opponent))
    return Joined("▸ ", ["", joined(" ", parts)]) if parts else None


def channel_link(row: MatchRow) -> str:
    if row.guild_id is None:
        return f"<#{row.channel_id}>"
    return f"https://discord.com/channels/{row.guild_id}/{row.channel_id}"


class BlockedBoards:
    """Who was told that a match's board could not be posted (told once per outage)."""

    def __init__(self) -> None:
        self._told: set[tuple[int, int]] = set()

    def first_time(self, match_id: int, user_id: int) -> bool:
        key = (match_id, user_id)
        if key in self._told:
            return False
        self._told.add(key)
        return True

    def posted(self, match_id: int) -> None:
        """A board of the match was posted: the next outage is news again."""
        self._told = {key for key in self._told if key[0] != match_id}


class Presenter:
    def __init__(self, bot: Boneyard) -> None:
        self.bot = bot
        self.blocked_boards = BlockedBoards()
        self._names: dict[int, str] = {}
        self.turn_posts = TurnPosts()
        self.private_dms = PrivateDms(bot, bot.private_messages)
        self._receipts: dict[tuple[int, int], Text] = {}
        """(match, user) -> the receipt of a move just played from private controls, for the
        status line of the private message edited next (memory only: a restart in between
        only loses the wording, the line then names the move)."""
        self._dms_closed: set[tuple[int, int]] = set()
        """(match, user) whose DM failed with 50007 (a private view) or 403 (a turn notice): not
        DMed again for that match, and pinged on its boards instead of a DM notice, until they
        use `/hand` or `/notify`, or a DM to them succeeds (failed DMs count toward Discord's
        limit of invalid requests)."""

    # --- names -------------------------------------------------------------------------

    def note_receipt(self, match_id: int, user_id: int, text: Text) -> None:
        """The words a private control used to confirm a move (`cogs.ui.private`), not yet in
        the player's language: the next edit of that player's private message says them instead
        of the bare notation, translated once with the rest of its status line."""
        self._receipts[(match_id, user_id)] = text

    def remember(self, user: discord.abc.User) -> None:
        """Keep a player's display name (seen in an interaction or message) for headers."""
        self._names[user.id] = user.display_name

    async def name(self, user_id: int) -> str:
        if user_id in self._names:
            return self._names[user_id]
        user = self.bot.get_user(user_id)
        if user is None:
            try:
                user = await self.bot.fetch_user(user_id)
            except discord.HTTPException:
                return f"Player {str(user_id)[-4:]}"
        self._names[user_id] = user.display_name
        return user.display_name

    # --- languages ---------------------------------------------------------------------

    async def public_locale(self, row: MatchRow) -> Locale:
        """The language of the match's channel: its server's."""
        return await guild_locale(self.bot, row.guild_id)

    async def player_locale(self, row: MatchRow, user_id: int) -> Locale:
        """The language of a player's DMs about the match."""
        return await user_locale(self.bot, user_id, row.guild_id)

    async def header(self, row: MatchRow, view: dict[str, Any], locale: Locale = "en") -> renderers.Header:
        seats = row.seats or (row.challenger_id, row.opponent_id or 0)
        names = (await self.name(seats[0]), await self.name(seats[1]))
        ply = view.get("ply")
        clock = clock_of(row)
        return renderers.Header(
            players=names,
            ply=int(ply) if isinstance(ply, int) else None,
            clocks=self.bot.service.clock_header(row),
            status=translate(locale, tr("clock paused"))
            if clock is not None and clock.paused and row.status == MatchStatus.ACTIVE
            else None,
            locale=locale,
        )

    # --- pictures ----------------------------------------------------------------------

    async def board_file(self, row: MatchRow, view: dict[str, Any], locale: Locale | None = None) -> discord.File:
        """The board picture, in the server's language unless `locale` says otherwise."""
        header = await self.header(row, view, await self.public_locale(row) if locale is None else locale)
        png = await self.bot.pictures.run(renderers.render, row.game, view, header)
        return discord.File(
            io.BytesIO(png), filename=BOARD_FILE, description=renderers.describe(row.game, view, header)
        )

    async def private_file(self, row: MatchRow, view: dict[str, Any], locale: Locale = "en") -> discord.File | None:
        header = await self.header(row, view, locale)
        png = await self.bot.pictures.run(renderers.render_private, row.game, view, header)
        if png is None:
            return None
        return discord.File(
            io.BytesIO(png), filename="hand.png", description=renderers.describe_private(row.game, view, locale)
        )

    async def text_board(self, row: MatchRow, view: dict[str, Any], locale: Locale = "en") -> str:
        """`/board`'s text form: the position in characters inside a code block."""
        header = await self.header(row, view, locale)
        return f"```\n{renderers.text_board(row.game, view, header)}\n```"

    # --- announcements -----------------------------------------------------------------

    async def told_lines(self, update: Update, locale: Locale | None = None) -> list[str]:
        """What happened, in the engine's words where it has some: one line per move, in
        `locale` (default: the server's)."""
        row = update.match
        if locale is None:
            locale = await self.public_locale(row)
        info = GAMES[row.game].info
        seats = row.seats or (0, 0)

        def played(name: str, seat: int, move: str) -> str:
            return translate(
                locale, tr("{name} ({seat}) played `{move}`.", name=name, seat=info.seat_names[seat], move=move)
            )

        if not update.told:
            return [played(await self.name(seats[seat]), seat, move) for seat, move in update.played[-4:]]
        lines = []
        for told in update.told:
            name = translate(locale, info.seat_names[told.seat]) if told.seat in (0, 1) else ""
            if told.text:
                text = translate(locale, told.text)
                text = text if text.endswith((".", "!", "?")) else f"{text}."
                if name and text.startswith(f"{name} "):  # "Blue has drafted." -> "**bob** (Blue) has drafted."
                    text = f"**{await self.name(seats[told.seat])}** ({name}){text[len(name) :]}"
                lines.append(text)
            elif told.public and told.seat in (0, 1):
                lines.append(played(await self.name(seats[told.seat]), told.seat, told.move))
        if len(lines) > MAX_TOLD:
            earlier = len(lines) - MAX_TOLD + 1
            lines = [
                translate(
                    locale, tr_n("… {n} earlier move (see the board).", "… {n} earlier moves (see the board).", earlier)
                ),
                *lines[-MAX_TOLD + 1 :],
            ]
        return lines

    async def describe(self, update: Update, *, told: list[str] | None = None, locale: Locale | None = None) -> str:
        """The text under the board: who played what, who is to move, or the result, in
        `locale` (default: the server's)."""
        row = update.match
        if locale is None:
            locale = await self.public_locale(row)
        seats = row.seats or (0, 0)
        lines: list[str] = list(await self.told_lines(update, locale) if told is None else told)
        if update.outcome is not None:
            winners = sorted(update.outcome.winners)
            reason = translate(locale, update.outcome.reason)  # a Text, or read back from the store
            if update.note == "aborted":  # no result at all, which "draw" would misstate
                lines.append(tr("⛔ **Aborted**: {reason}", reason=reason))
            elif winners:
                lines.append(tr("🏆 **{name}** wins: {reason}", name=await self.name(seats[winners[0]]), reason=reason))
            else:
                lines.append(tr("🤝 **Draw**: {reason}", reason=reason))
            ratings = await self.rating_line(row)
            if ratings:
                lines.append(ratings)
            lines.append(tr("Secret seed (check every roll and draw): `{seed}`", seed=row.seed))
        if update.completed_for is not None:
            name = await self.name(seats[update.completed_for])
            lines.append(tr("⏰ {name}'s draft time ran out: the missing picks were completed at random.", name=name))
        if update.outcome is None and update.to_move:
            if update.note == "timeout":
                lines.append(tr("⏰ Time ran out: that move was played automatically (`timeout=pass`)."))
            who = ", ".join(mention(u) for u in update.to_move)
            lines.append(tr("{who} to move.", who=who))
        return "\n".join(translate(locale, line) for line in lines)

    async def rating_line(self, row: MatchRow) -> str | None:
        """`Ratings: alice 1520 (+20) · bob 1480 (−20)` for a rated match that just ended."""
        changes = await self.bot.ratings.changes_of(row.id)
        if not changes:
            return None
        parts = [f"{await self.name(c.user_id)} {c.after:.0f} ({c.delta:+.0f})" for c in changes]
        return tr("📈 Ratings: {changes}", changes=" · ".join(parts))

    async def announce_clock(self, notice: ClockNotice) -> None:
        """A reminder, where the player chose (cogs/out/notices.py); by default in the match
        channel with a mention (short controls) or by DM (long ones; the channel is the
        fallback when DMs are closed)."""
        row = notice.match
        info = GAMES[row.game].info
        if self.bot.user is not None and notice.user_id == self.bot.user.id:
            return  # the computer is reminded of nothing: it is already thinking
        route = await self.bot.notifier.reminder_route(notice)  # the player's choice
        if route == "none":
            return
        if route == "dm":
            text = translate(
                await self.player_locale(row, notice.user_id),
                tr(
                    "⏰ {left} for your move in **{game}** — match #{match} in {link} (your clock: {clock}).",
                    left=notice.text,
                    game=info.name,
                    match=row.id,
                    link=channel_link(row),
                    clock=notice.display,
                ),
            )
            try:
                user = self.bot.get_user(notice.user_id) or await self.bot.fetch_user(notice.user_id)
                await user.send(content=text)
                self.dms_reopened(notice.user_id)
                return
            except discord.HTTPException:
                log.info("clock reminder DM to %d failed; posting in the channel", notice.user_id)
        channel = await self.channel(row.channel_id)
        if channel is None:
            return
        try:
            await channel.send(
                translate(
                    await self.public_locale(row),
                    tr(
                        "⏰ {player}, {left} for your move (clock {clock}).",
                        player=mention(notice.user_id),
                        left=notice.text,
                        clock=notice.display,
                    ),
                ),
                allowed_mentions=discord.AllowedMentions(users=True, everyone=False, roles=False),
            )
        except discord.HTTPException:
            log.warning("could not post a clock reminder in channel %d", row.channel_id)

    async def board_post(self, update: Update, *, intro: str | None = None) -> Post:
        """The board message of an update as one `Post` (text, picture drawn when posted,
        buttons), for the dispatcher's own rendering of a stored board."""
        row = update.match
        intro = intro or update.intro
        locale = await self.public_locale(row)
        told = ([translate(locale, intro)] if intro else []) + await self.told_lines(update, locale)
        text = await self.describe(update, told=told, locale=locale)
        actions = [t.move for t in update.told if t.public and t.seat in (0, 1)]

        async def picture() -> discord.File:
            return await self.board_file(row, self._with_actions(update, actions))

        # the players' choices hold here too (a ping only for who wants one); the DM notices and
        # the held ones follow once the row is marked posted (`Post.after`), as on the live path
        routes = await self.bot.notifier.turn_routes(update, self._pings(update))

        async def notices() -> None:
            await self.bot.notifier.deliver(update, routes)

        buttons = localize_view(await self._board_buttons(update), locale)
        return Post(text[:2000], picture, buttons, routes.mentions(), after=notices)

    async def announce(
        self, update: Update, *, intro: str | None = None, interaction: discord.Interaction | None = None
    ) -> str | None:
        """Post a NEW message with the board (old ones stay as they were: a play-by-post
        channel reads like a game record).  With `interaction`, the board is its reply.

        Three exceptions keep the channel readable and secrets private:
        - a quiet update (a pick of a secret draft) posts no board, only the engine's line
          when there is one ("Blue has drafted."), added to the post of the phase when it can;
        - a player's further steps in their own turn (and each seat's part of a turn of both)
          are added to the turn's post (`TurnPosts`), so a turn is one post, not ten;
        - the reply to an interaction whose move was secret, or that only extended the turn
          post, is private (`private_reply`), so the channel never sees a secret move.

        An update the service stored an announcement for (`update.announcement`) is posted
        through the outbox dispatcher (`deliver_by`), which marks it sent: after a crash the
        drain announces it (through here), and never twice.  The turn notices of a new board
        (DMs, held ones) follow the mark, by whoever marked it: the mark is their claim, so a
        board posted again after a crash (its nonce brings back the same message) is never
        noticed twice; a crash between the mark and the DM loses that DM, never repeats it.

        Returns None once the channel was told, else why it could not be (Discord's error
        text), so the caller can tell the players (`cogs.playing.board_not_posted`)."""
        row = update.match
        intro = intro or update.intro
        locale = await self.public_locale(row)
        told = ([translate(locale, intro)] if intro else []) + await self.told_lines(update, locale)
        post = self.turn_posts.continuing(update) if told or not update.quiet else None
        private_reply = self.private_reply(update)
        text = "\n".join(told) if update.quiet else await self.describe(update, told=told, locale=locale)

        replied_to = interaction if not private_reply else None
        shown: list[TurnRoutes | None] = []  # what `show` did: a board with its routes, or None

        async def show(nonce: str | None = None) -> str | None:
            if post is not None and await self._extend(post, update, told):
                shown.append(None)
                return None
            if update.quiet:
                shown.append(None)
                return await self._post_text(row, text, nonce=nonce) if told else None
            routes = await self.bot.notifier.turn_routes(update, self._pings(update))
            why_not = await self._post_board(update, told, replied_to, routes, text=text, nonce=nonce)
            shown.append(routes)
            return why_not

        async def notices() -> None:
            """The turn's notices of a board this call marked posted; without `show`, it was
            found posted before a restart, as an interaction's reply: a board."""
            routes = shown[0] if shown else await self.bot.notifier.turn_routes(update, self._pings(update))
            if routes is not None:
                await self.bot.notifier.deliver(update, routes)

        not_posted: str | None = None
        if update.announcement is None:
            not_posted = await show()
            if not_posted is None:
                await notices()
        else:
            why_not: list[str] = []

            async def send(nonce: str) -> int | None:
                reason = await show(nonce)
                if reason is not None:
                    why_not.append(reason)
                    raise NotPosted(reason, gone=reason == CHANNEL_GONE)
                return None

            follow_up_of = replied_to.id if replied_to is not None else None
            delivered = await self.bot.outbox.deliver_by(
                update.announcement, send, follow_up_of=follow_up_of, fresh=update.fresh, after=notices
            )
            if delivered is False:  # posted already (by the drain, or before a restart)
                if interaction is not None:
                    await self._answered_elsewhere(interaction)
                return None
            not_posted = why_not[0] if why_not else None
        if interaction is not None and private_reply:
            await self._acknowledge(interaction, update)
        await self.send_private(update)
        for key in update.followups:  # the result where the thread is, then its archiving
            await self.bot.outbox.deliver(key)
        self.bot.dispatch("match_update", update)  # the computer player looks whether it must move
        return not_posted

    @staticmethod
    async def _answered_elsewhere(interaction: discord.Interaction) -> None:
        """A deferred interaction whose board was already posted (by the drain)."""
        try:
            await answer(interaction, tr("The board is posted in the channel."), ephemeral=True)
        except discord.HTTPException:
            log.info("could not answer interaction %s", interaction.id)

    def private_reply(self, update: Update) -> bool:
        """Whether the reply to the player who made `update` is only for them: it is no public
        reply (`Update.public_reply`: a secret move, or no board), or it extends the turn's post."""
        return not update.public_reply or self.turn_posts.continuing(update) is not None

    async def _acknowledge(self, interaction: discord.Interaction, update: Update) -> None:
        """The private reply to a mover whose move is not (or not only) answered in public;
        `answer` swaps a public "thinking…" message of a deferred `/move` for a private one."""
        moves = [
            t.move for t in update.told if t.seat in (0, 1) and t.seat == update.match.seat_of(interaction.user.id)
        ]
        if moves and update.secret_move:
            said = tr("✅ Played `{move}` (only you see this reply).", move=moves[0])
        elif moves:
            said = tr(
                "✅ Played `{move}` (only you see this reply). It is added to this turn's message in the channel.",
                move=moves[0],
            )
        elif update.secret_move:
            said = tr("✅ Played (only you see this reply).")
        else:
            said = tr("✅ Played (only you see this reply). It is added to this turn's message in the channel.")
        try:
            await answer(interaction, said, ephemeral=True)
        except discord.HTTPException:
            log.warning("could not acknowledge a move in match %d", update.match.id, exc_info=True)

    async def _post_text(self, row: MatchRow, text: str, *, nonce: str | None = None) -> str | None:
        """Post `text` in the match's channel (with `nonce`: its outbox row's key); None once
        posted, else why not."""
        self.turn_posts.interrupted(row.id)
        channel = await self.channel(row.channel_id)
        if channel is None:
            return CHANNEL_GONE
        try:
            await send_keyed(channel, nonce, content=text[:2000], allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as error:
            log.warning("could not post in channel %d for match %d: %s", row.channel_id, row.id, error)
            return CHANNEL_GONE if isinstance(error, discord.NotFound) else error.text or str(error)
        return None

    def _with_actions(self, update: Update, actions: list[str]) -> dict[str, Any]:
        """The public view with the moves of the current post marked (`last_actions`)."""
        return {**update.public_view, "last_actions": list(actions)} if actions else update.public_view

    async def _board_buttons(self, update: Update) -> discord.ui.View | None:
        """The move buttons, or under a final board Verify dice and Rematch."""
        if update.outcome is None:
            return self._move_buttons(update)
        buttons = verify_view(update.match)  # the seed is out: anyone can check the dice
        buttons.add_item(moves_button(update.match.id))
        await lobby_buttons.add_rematch(self.bot, update.match, buttons)
        return buttons

    async def _post_board(
        self,
        update: Update,
        told: list[str],
        interaction: discord.Interaction | None,
        routes: TurnRoutes,
        *,
        text: str | None = None,
        nonce: str | None = None,
    ) -> str | None:
        """Post the board (as `interaction`'s reply when given, else in the channel with `nonce`:
        its outbox row's key), pinging whom `routes` says; None once posted, else why not.  The
        caller delivers the routes' other notices once the post is marked (`announce`)."""
        row = update.match
        if text is None:
            text = await self.describe(update, told=told)
        mentions = routes.mentions()
        buttons = localize_view(await self._board_buttons(update), await self.public_locale(row))
        extra: dict[str, Any] = {"view": buttons} if buttons is not None else {}
        actions = [t.move for t in update.told if t.public and t.seat in (0, 1)]
        try:
            file = await self.board_file(row, self._with_actions(update, actions))
            message: discord.Message
            if interaction is not None:
                message = await interaction.followup.send(
                    content=text[:2000], file=file, allowed_mentions=mentions, wait=True, **extra
                )
            else:
                channel = await self.channel(row.channel_id)
                if channel is None:
                    self.turn_posts.interrupted(row.id)
                    return CHANNEL_GONE
                message = await send_keyed(
                    channel, nonce, content=text[:2000], file=file, allowed_mentions=mentions, **extra
                )
        except discord.HTTPException as error:
            log.warning("could not post the board of match %d in channel %d: %s", row.id, row.channel_id, error)
            self.turn_posts.interrupted(row.id)
            return CHANNEL_GONE if isinstance(error, discord.NotFound) else error.text or str(error)
        self.turn_posts.started(update, message, told)
        return None

    @staticmethod
    def _pings(update: Update) -> list[int]:
        """Who a new board would ping: the players now to move, except the one who just acted
        (their turn goes on; they are looking at it).  The text still names them; each is then
        told the way they chose (`cogs.out.notices`).  A move the rules played for a player (a
        forced `done`, an only placement) is not that player acting: their turn came, and they
        are told."""
        row, seat = update.match, actor(update)
        acted = {row.seats[seat]} if row.seats is not None and seat is not None else set()
        return [u for u in update.to_move if u not in acted]

    async def _extend(self, post: TurnPost, update: Update, told: list[str]) -> bool:
        """Add `update` to the turn's post (text and board); False if that post cannot be edited."""
        row = update.match
        actions = post.actions + [t.move for t in update.told if t.public and t.seat in (0, 1)]
        text = await self.describe(update, told=post.lines + told)
        buttons = self._move_buttons(update)
        try:
            file = await self.board_file(row, self._with_actions(update, actions))
            await post.message.edit(
                content=text[:2000],
                attachments=[file],
                view=buttons,
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except discord.HTTPException:
            log.warning("could not extend the turn post of match %d; posting anew", row.id, exc_info=True)
            self.turn_posts.interrupted(row.id)
            return False
        self.turn_posts.extended(post, update, told)
        return True

    @staticmethod
    def _move_buttons(update: Update) -> discord.ui.View | None:
        """The one-click moves of `update`'s position, carrying its version (an old button
        is refused by the service)."""
        return move_buttons(update.match.id, update.match.version, update.buttons)

    async def send_private(self, update: Update) -> None:
        """Show each seat whose private view changed, and each seat prompted to act privately
        (with its controls), its private view: in its one private message of the match,
        edited in place, or a new one when its turn just began (`PrivateDms`)."""
        row = update.match
        if row.seats is None:
            return
        try:
            await self._send_private(update, row.seats)
        finally:  # a receipt not used by this update's edit would mislabel a later one
            for user_id in row.seats:
                self._receipts.pop((row.id, user_id), None)

    async def _send_private(self, update: Update, seats: tuple[int, int]) -> None:
        row = update.match
        prompted = set(update.prompt) if private.has_controls(row.game) else set()
        for seat in sorted(set(update.private_views) | prompted):
            user_id = seats[seat]
            if self.bot.user is not None and user_id == self.bot.user.id:
                continue  # the computer's seat: it reads its view itself, nobody to DM
            view = update.private_views.get(seat) or await self.bot.service.view(row.id, user_id)
            controls = await self.controls(row, user_id, seat, view) if seat in prompted else None
            if seat in update.private_views or controls is not None:
                await self.dm_view(
                    row,
                    user_id,
                    seat,
                    view,
                    controls=controls,
                    new_turn=seat in update.turn_began,
                    played=own_move(update, seat),
                )

    async def controls(self, row: MatchRow, user_id: int, seat: int, view: dict[str, Any]) -> discord.ui.View | None:
        """The private selects/buttons for a seat that must act now, built from its `view`
        (the one the caller is showing) and its legal moves (None: none to offer)."""
        if not private.has_controls(row.game):
            return None
        moves = await self.bot.service.legal_moves(row.id, user_id)
        return private.controls_for(row.game, row.id, seat, view, moves)

    async def dm_view(
        self,
        row: MatchRow,
        user_id: int,
        seat: int,
        view: dict[str, Any],
        *,
        controls: discord.ui.View | None = None,
        new_turn: bool = False,
        played: str | None = None,
    ) -> bool:
        """Show a player their private view (and controls) by DM: the match's private message
        edited in place, or a new one (`PrivateDms.show`).  On closed DMs, one notice in the
        channel and no more DMs for that match until `/hand` or a DM that succeeds
        (`dms_reopened`).  Whether the DM shows it now."""
        if (row.id, user_id) in self._dms_closed:
            return False
        info = GAMES[row.game].info
        seats = row.seats or (0, 0)
        opponent = seats[1] if seats[0] == user_id else seats[0]
        locale = await self.player_locale(row, user_id)
        text = translate(
            locale,
            tr(
                "**{game}** against {opponent} — match #{match} in {link}.\n"
                "This is your private view: only you can see it.",
                game=info.name,
                opponent=await self.name(opponent),
                match=row.id,
                link=channel_link(row),
            ),
        )
        summary = private.summary(row.game, view)
        if summary:
            text += "\n" + translate(locale, summary)
        receipt = self._receipts.pop((row.id, user_id), None)
        status = status_line(played, view, await self.name(opponent), receipt=receipt)
        if status:
            text += "\n" + translate(locale, status)
        with_board = controls is not None and private.board_beside(row.game, view)
        board_view = await self.bot.service.view(row.id, None) if with_board else None

        async def pictures() -> list[discord.File]:
            files = []
            mine = await self.private_file(row, view, locale)
            if mine is not None:
                files.append(mine)
            if board_view is not None:
                files.append(await self.board_file(row, board_view, locale))
            return files

        controls = localize_view(controls, locale)
        components = controls.to_components() if controls is not None else None
        wanted = PrivateView(text[:2000], pictures, controls, digest(text, view, board_view, components))
        try:
            await self.private_dms.show(row.id, seat, user_id, wanted, version=row.version, new_turn=new_turn)
            self.dms_reopened(user_id)
            return True
        except discord.Forbidden as exc:
            if exc.code != DM_CLOSED:
                log.warning("DM to %d refused: %s", user_id, exc)
            else:
                self._dms_closed.add((row.id, user_id))
            if await self.bot.announcements.first_dm_notice(row.id, user_id):
                channel = await self.channel(row.channel_id)
                if channel is not None:
                    await channel.send(
                        translate(
                            await self.public_locale(row),
                            tr(
                                "{player}, I cannot send you direct messages. Allow DMs from server members "
                                "(Privacy Settings) or use `/hand` to see your private view here, just for you.",
                                player=mention(user_id),
                            ),
                        )
                    )
            return False
        except discord.HTTPException:
            log.exception("could not DM the private view of match %d to %d", row.id, user_id)
            return False

    def dms_closed(self, match_id: int, user_id: int) -> bool:
        """Whether a DM to `user_id` about `match_id` was refused (and nothing reopened them since)."""
        return (match_id, user_id) in self._dms_closed

    def note_dms_closed(self, match_id: int, user_id: int) -> None:
        """A DM to `user_id` about `match_id` was refused: no more DMs of that match for now."""
        self._dms_closed.add((match_id, user_id))

    def dms_reopened(self, user_id: int, match_id: int | None = None) -> None:
        """DM `user_id` again (all matches, or `match_id` only): a DM to them went through,
        or they asked for their view with `/hand`."""
        self._dms_closed = {(m, u) for m, u in self._dms_closed if not (u == user_id and match_id in (None, m))}

    async def private_files(
        self, row: MatchRow, view: dict[str, Any], *, with_board: bool, locale: Locale = "en"
    ) -> list[discord.File]:
        """The private picture, and beside it the board when the game shows one with a seat's
        controls (Domino Wars' turn: choose a placement without switching to the channel),
        both in the player's `locale`."""
        files = []
        mine = await self.private_file(row, view, locale)
        if mine is not None:
            files.append(mine)
        if with_board and private.board_beside(row.game, view):
            public = await self.bot.service.view(row.id, None)
            files.append(await self.board_file(row, public, locale))
        return files

    async def channel(self, channel_id: int) -> discord.abc.Messageable | None:
        """A channel the bot can post in, from the cache or by REST (None: gone or hidden)."""
        channel = self.bot.get_channel(channel_id)
        if channel is None:
            try:
                fetched = await self.bot.fetch_channel(channel_id)
            except discord.HTTPException:
                log.warning("match channel %d is gone or hidden from the bot", channel_id)
                return None
            channel = fetched
        if not isinstance(channel, discord.abc.Messageable):
            return None
        return channel
