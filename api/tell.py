"""Telling a person of their turn by mail and Web Push (docs/notifications.md; ACCT-4 to ACCT-6).

When a batch passes the turn to a person's seat, `plan` queues at most one mail row and one push row for
that seat and turn in the webhook outbox (`galileo_outbox`, one row per game, seat, kind and the version
at which the turn began: never more than one mail per turn, whoever else asks). The mail goes to the
address of the account the seat is claimed by (its choice for the game: per turn, a daily digest, or
none), else to the seat's own address; a push to the devices of that account and of the seat. Only a
`confirmed` address is mailed (double opt-in, ACCT-5).

The rows are delivered by the outbox's worker (api/notify.py) with its retries: a failure never delays a
move. A row's `url` names its channel and recipient (`mail:<address_id>`, `push:<seat or account>`); the
address itself is read from its sealed row at each attempt, so an erased address is never mailed.

What a notification says (ACCT-6): the game (its seats' names), whose turn and a link; never anything of
the board, and so nothing hidden.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

import httpx
import orjson
from starlette.concurrency import run_in_threadpool

from api import egress, mail, messages, push
from api.reach import ACCOUNT, BOUNCED, CONFIRMED, DIGEST, OFF, SEAT, Address, seat_owner
from api.tables import NO_RESPONSE, REFUSED, REJECTED, SUPERSEDED, Delivery
from domain import Event
from domain import events as ev
from replays.store import Game

if TYPE_CHECKING:
    from api.runtime import Runtime

logger = logging.getLogger(__name__)

MAIL_TURN, PUSH_TURN, MAIL_CONFIRM = "mail:your-turn", "push:your-turn", "mail:confirm"
CHANNELS = ("mail:", "push:")

Row = tuple[str, str, int, str, int, str, str, str | None]


def is_personal(d: Delivery) -> bool:
    """Whether an outbox row is a mail or a push (else a webhook's)."""
    return d.url.startswith(CHANNELS)


def page_link(runtime: Runtime, game_id: str, seat: int) -> str:
    """The game's page for the seat: a claimed seat opens there from My games' way (`#seat=N`, ACCT-2)."""
    return f"{runtime.settings.public_url.rstrip('/')}/play/{game_id}#seat={seat}"


def _with_lang(link: str, locale: str) -> str:
    """A link that opens its page in the recipient's language (`?lang=`, api/i18n.py); English as is."""
    if locale == "en":
        return link
    path, hash_mark, fragment = link.partition("#")
    joiner = "&" if "?" in path else "?"
    return f"{path}{joiner}lang={locale}{hash_mark}{fragment}"


def unsubscribe_link(runtime: Runtime, address_id: str, game_id: str, locale: str = "en") -> str:
    """The signed one-click link (RFC 8058) that stops one game's mails (`game_id`), or all of an
    address's (empty); its page in the recipient's language."""
    signature = runtime.box.sign(f"unsubscribe|{address_id}|{game_id}")
    base = runtime.settings.public_url.rstrip("/")
    return _with_lang(f"{base}/mail/unsubscribe?a={address_id}&g={game_id}&s={signature}", locale)


def next_digest(now: datetime, hour: int) -> datetime:
    """When the next daily digest leaves: the next `hour`:00 UTC after `now`."""
    at = now.replace(hour=hour % 24, minute=0, second=0, microsecond=0)
    return at if at > now else at + timedelta(days=1)


# -- planning ------------------------------------------------------------------------------------------


def _recipients(
    runtime: Runtime, game_id: str, game: Game, seat: int
) -> tuple[Address | None, str, list[str]]:
    """Who hears of the seat's turn: (the address to mail or None, its mode, the push owners)."""
    account = None
    account_id = runtime.accounts.claimant(game_id, seat)
    if account_id is not None:
        found = runtime.accounts.account(account_id)
        if found is not None and game.claims.get(str(seat)) == found.pseudonym(game_id):
            account = found
    owner = seat_owner(game_id, seat)
    address: Address | None = None
    mode = OFF
    owners: list[str] = []
    reach = runtime.reach
    if account is not None:
        prefs = reach.prefs(account.account_id, game_id)
        found_address = reach.address_of(ACCOUNT, account.account_id)
        if found_address is not None and found_address.status == CONFIRMED:
            mode = prefs.email or found_address.mode
            address = found_address if mode != OFF else None
        if prefs.push and reach.subscriptions(ACCOUNT, account.account_id):
            owners.append(f"{ACCOUNT}:{account.account_id}")
    if address is None:
        seat_address = reach.address_of(SEAT, owner)
        if seat_address is not None and seat_address.status == CONFIRMED:
            address, mode = seat_address, seat_address.mode
    if reach.subscriptions(SEAT, owner):
        owners.append(f"{SEAT}:{owner}")
    return address, mode, owners


def plan_blocking(
    runtime: Runtime,
    game_id: str,
    game: Game,
    events: Sequence[Event],
    people: Sequence[int],
    mark: int,
    resync: bool = False,
) -> tuple[list[Row], list[Row]]:
    """The mail and push rows a stored batch calls for (with `resync`, the game's present): (rows due
    now, digest rows)."""
    state = game.state
    assert state is not None
    handed = {e.seat for e in events if isinstance(e, ev.SeatHandedOver)}
    for seat in handed:  # the address and devices given for the seat were its previous holder's
        runtime.reach.forget_seat(game_id, seat)
    if state.finished or game.cancelled:
        return [], []
    seat = state.turn.seat
    passed = any(
        isinstance(e, (ev.GameStarted, ev.GameForked, ev.TurnEnded, ev.TakenBack, ev.SeatHandedOver))
        for e in events
    )
    if not (passed or resync) or seat not in people or seat in handed:
        return [], []
    address, mode, owners = _recipients(runtime, game_id, game, seat)
    names = [p.name for p in state.players]
    body = {
        "game_id": game_id,
        "seat": seat,
        "seat_name": names[seat],
        "names": names,
        "version": mark,
        "link": page_link(runtime, game_id, seat),
    }
    now_rows: list[Row] = []
    digest_rows: list[Row] = []
    if address is not None:
        row: Row = (
            uuid.uuid4().hex,
            game_id,
            seat,
            MAIL_TURN,
            mark,
            f"mail:{address.address_id}",
            orjson.dumps({**body, "mode": mode}).decode(),
            address.address_id,
        )
        (digest_rows if mode == DIGEST else now_rows).append(row)
    if owners:
        now_rows.append(
            (
                uuid.uuid4().hex,
                game_id,
                seat,
                PUSH_TURN,
                mark,
                "push:" + ",".join(owners),
                orjson.dumps(body).decode(),
                None,
            )
        )
    return now_rows, digest_rows


async def queue(
    runtime: Runtime,
    game_id: str,
    game: Game,
    events: Sequence[Event],
    people: Sequence[int],
    mark: int,
    resync: bool = False,
) -> bool:
    """Queue the mail and push rows of a stored batch (or of the game's present); whether any was new."""
    now_rows, digest_rows = await run_in_threadpool(
        plan_blocking, runtime, game_id, game, events, people, mark, resync
    )
    now = runtime.clock()
    added = 0
    if now_rows:
        added += await run_in_threadpool(runtime.tables.enqueue, now_rows, now)
    if digest_rows:
        due = next_digest(now, runtime.settings.mail_digest_hour)
        added += await run_in_threadpool(runtime.tables.enqueue, digest_rows, now, due)
    return added > 0


def language_of(runtime: Runtime, kind: str, owner: str) -> str:
    """The language an owner is written to in: an account's own choice (`PUT /me/language`), else the
    language negotiated when the address or the device was given, else English."""
    chosen = runtime.accounts.language(owner) if kind == ACCOUNT else None
    return chosen or runtime.reach.language(kind, owner) or "en"


async def queue_confirmation(
    runtime: Runtime, address_id: str, token: str, scope: str, locale: str = "en"
) -> None:
    """Queue the confirmation mail of a new address (the only mail it gets before it is confirmed), in
    the language of the request that gave it (`scope` is already in it)."""
    base = runtime.settings.public_url.rstrip("/")
    link = _with_lang(f"{base}/mail/confirm?token={token}", locale)
    body = {"link": link, "scope": scope, "locale": locale}
    row: Row = (
        uuid.uuid4().hex,
        address_id,
        -1,
        MAIL_CONFIRM,
        0,
        f"mail:{address_id}",
        runtime.box.seal(orjson.dumps(body).decode()),
        address_id,
    )
    await run_in_threadpool(runtime.tables.enqueue, [row], runtime.clock())
    runtime.notifier.wake()


# -- delivering ----------------------------------------------------------------------------------------


def group(claimed: Sequence[Delivery]) -> list[list[Delivery]]:
    """The claimed rows as attempts: a digest's rows of one address together, every other row alone."""
    out: list[list[Delivery]] = []
    digests: dict[str, list[Delivery]] = {}
    for d in claimed:
        if d.kind == MAIL_TURN and orjson.loads(d.body).get("mode") == DIGEST:
            if d.url not in digests:
                digests[d.url] = []
                out.append(digests[d.url])
            digests[d.url].append(d)
        else:
            out.append([d])
    return out


class Teller:
    """Sends claimed mail and push rows (called by the outbox's worker)."""

    def __init__(self, runtime: Runtime, http: httpx.AsyncClient) -> None:
        self._runtime = runtime
        self._http = http

    async def attempt(self, rows: Sequence[Delivery], retry_at: datetime | None) -> None:
        runtime = self._runtime
        tables = runtime.tables
        first = rows[0]
        if first.url.startswith("push:"):
            result = await self._push(first)
        else:
            result = await self._mail(rows)
        for d in rows:
            if result is None:
                code = 201 if first.url.startswith("push:") else 250  # the push service's or SMTP's
                await run_in_threadpool(tables.delivered, d.id, code, runtime.clock())
            else:
                final = result in (SUPERSEDED, REJECTED, REFUSED)
                await run_in_threadpool(
                    tables.attempt_failed, d.id, None, result, None if final else retry_at
                )

    async def _mail(self, rows: Sequence[Delivery]) -> str | None:
        """Send the mail of `rows` (a digest's several); None when sent, else the log's result."""
        runtime = self._runtime
        first = rows[0]
        address = await run_in_threadpool(runtime.reach.address, first.url.removeprefix("mail:"))
        if address is None or address.address_id != first.hook_id or address.status == BOUNCED:
            return SUPERSEDED  # the address was removed, replaced or refused: never mailed again
        if first.kind == MAIL_CONFIRM:
            if address.status != "pending":
                return SUPERSEDED
            body = orjson.loads(runtime.box.open(first.body))
            locale = str(body.get("locale") or "en")
            letter = mail.Mail(
                address.address,
                messages.say(locale, messages.CONFIRM_SUBJECT),
                messages.say(locale, messages.CONFIRM_BODY, scope=body["scope"], link=body["link"]),
            )
        else:
            if address.status != CONFIRMED:
                return SUPERSEDED
            live = [d for d in rows if await self._still_waiting(d)]
            if not live:
                return SUPERSEDED
            locale = await run_in_threadpool(language_of, runtime, address.owner_kind, address.owner)
            letter = self._turn_letter(address, live, locale)
        try:
            await run_in_threadpool(mail.send, runtime.settings, letter)
        except mail.Rejected as rejected:
            # The address bounced: it is marked so (its owner sees why) and nothing else changes.
            await run_in_threadpool(runtime.reach.set_status, address.address_id, BOUNCED, f"{rejected.code}")
            logger.info("mail delivery %s: the recipient was refused (%s)", first.id, rejected.code)
            return REJECTED
        except mail.Failed as failed:
            logger.info("mail delivery %s: not sent (%s)", first.id, failed)
            return NO_RESPONSE
        return None

    def _turn_letter(self, address: Address, rows: Sequence[Delivery], locale: str) -> mail.Mail:
        runtime = self._runtime
        say = messages.say
        bodies = [orjson.loads(d.body) for d in rows]
        if len(bodies) == 1 and bodies[0].get("mode") != DIGEST:
            b = bodies[0]
            game = messages.game_label(b["names"], locale)
            unsubscribe = unsubscribe_link(runtime, address.address_id, b["game_id"], locale)
            text = say(
                locale,
                messages.TURN_BODY,
                seat=b["seat_name"],
                game=game,
                link=_with_lang(b["link"], locale),
                unsubscribe=unsubscribe,
            )
            subject = say(locale, messages.TURN_SUBJECT, game=game)
            return mail.Mail(address.address, subject, text, unsubscribe)
        unsubscribe = unsubscribe_link(runtime, address.address_id, "", locale)
        lines = "\n".join(
            say(
                locale,
                messages.DIGEST_LINE,
                game=messages.game_label(b["names"], locale),
                seat=b["seat_name"],
                link=_with_lang(b["link"], locale),
            )
            for b in bodies
        )
        return mail.Mail(
            address.address,
            messages.digest_subject(locale, len(bodies)),
            say(locale, messages.DIGEST_BODY, lines=lines, unsubscribe=unsubscribe),
            unsubscribe,
        )

    async def _still_waiting(self, d: Delivery) -> bool:
        """Whether the turn a row tells of is still the seat's to play (a retry, or a digest's row, may
        come after the seat played it: then it is not told)."""
        game = await run_in_threadpool(self._runtime.store.game, d.game_id)
        state = game.state
        if state is None or state.finished or game.cancelled or state.turn.seat != d.seat:
            return False
        marks = [m for m in game.clock_log if m[0] in ("turn", "end")]
        return (int(marks[-1][1]) if marks else game.version) == d.version

    async def _push(self, d: Delivery) -> str | None:
        runtime = self._runtime
        settings = runtime.settings
        if not await self._still_waiting(d):
            return SUPERSEDED
        body = orjson.loads(d.body)
        owners = d.url.removeprefix("push:").split(",")
        kind, _, key = owners[0].partition(":")  # the account's when it has devices, else the seat's
        locale = await run_in_threadpool(language_of, runtime, kind, key)
        game = messages.game_label(body["names"], locale)
        payload = orjson.dumps(
            {
                "title": messages.say(locale, messages.PUSH_TITLE),
                "body": messages.say(locale, messages.PUSH_BODY, seat=body["seat_name"], game=game),
                "url": _with_lang(body["link"], locale),
                "game_id": body["game_id"],
                "tag": f"turn-{body['game_id']}",
            }
        )
        subs = []
        for owner in owners:
            kind, _, key = owner.partition(":")
            subs += await run_in_threadpool(runtime.reach.subscriptions, kind, key)
        if not subs:
            return SUPERSEDED
        sent = gone = 0
        results: list[str] = []
        for sub in subs:
            try:
                code = await push.send(
                    self._http,
                    runtime.vapid,
                    sub,
                    payload,
                    settings.push_ttl_seconds,
                    settings.webhook_networks,
                    runtime.resolve,
                    settings.webhook_timeout_seconds,
                )
            except egress.Refused:
                results.append(REFUSED)
                continue
            except (httpx.HTTPError, OSError) as error:
                logger.info("push delivery %s: no answer (%s)", d.id, type(error).__name__)
                results.append(NO_RESPONSE)
                continue
            if 200 <= code < 300:
                sent += 1
            elif code in push.GONE:
                gone += 1
                await run_in_threadpool(runtime.reach.expired, sub.sub_id)
            else:
                results.append(f"{code // 100}xx")
        if sent:
            return None
        if gone == len(subs):
            return SUPERSEDED
        return results[0] if results else NO_RESPONSE
