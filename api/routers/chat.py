"""Table chat (docs/chat.md, CHAT-n): read and write a game's two channels, delete, mute, hide.

A seat's token writes in the seats' channel; a signed-in person without a seat (the session cookie and
its CSRF token) writes in the spectators' channel. Chat is never part of the game's log.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request, status
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool

from api import limits
from api.chat import MAX_LENGTH, SEATS, SPECTATORS, ChatRefused, Message, clean_text
from api.contract import errors
from api.deps import GameId, RuntimeDep
from api.play import names_of
from api.problems import ApiError
from api.routers.table import Caller, any_caller
from api.runtime import Runtime
from api.sessions import OptionalSession, Session, check_csrf
from rulebook import rule_url

router = APIRouter(prefix="/games/{game_id}/chat", tags=["chat"])

SEAT_OR_SESSION = {"x-seat-token": "optional-seat-or-session"}
CallerDep = Annotated[Caller | None, Depends(any_caller)]


class ChatIn(BaseModel):
    text: str = Field(max_length=4 * MAX_LENGTH, description=f"The message, 1 to {MAX_LENGTH} characters.")


class ChatMessage(BaseModel):
    message_id: str
    seq: int = Field(description="The message's place in the game's chat (a deletion takes a new one).")
    channel: str = Field(description="`seats` or `spectators`.")
    seat: int | None = Field(description="The writing seat (seats' channel); null for a spectator.")
    author: str
    text: str = Field(description="Empty once deleted (`deleted`: true).")
    version: int = Field(description="The game's version when it was written: a replay shows it there.")
    written_at: str
    deleted: bool


class ChatPage(BaseModel):
    game_id: str
    messages: list[ChatMessage]
    hidden: list[int] = Field(description="The seats whose messages the calling seat hid for itself.")
    you: dict[str, Any] = Field(description="Who the caller is at this table: `seat`, `host`, `spectator`.")
    muted_messages: list[str] = Field(
        default_factory=list,
        description="To a seat or the host (who may mute, CHAT-4): the listed messages whose spectator is "
        "muted now; empty for anyone else.",
    )


class MuteIn(BaseModel):
    message_id: str = Field(max_length=64, description="A message of the spectator to (un)mute.")
    muted: bool = True


class HideIn(BaseModel):
    seat: int = Field(ge=0, le=3)
    hidden: bool = True


def _refused(error: ChatRefused) -> ApiError:
    headers = {"Retry-After": str(error.extra["retry_after"])} if "retry_after" in error.extra else None
    return ApiError(
        error.status,
        error.code,
        error.message,
        headers,
        rule_id=error.rule,
        rule_url=rule_url(error.rule),
        **error.extra,
    )


def _out(message: Message) -> ChatMessage:
    return ChatMessage(**message.public())


async def _game(runtime: Runtime, game_id: str) -> tuple[tuple[str, ...], int]:
    state, version = await run_in_threadpool(runtime.store.current, game_id)
    return names_of(state), version


async def chat_rate(request: Request, runtime: RuntimeDep) -> None:
    await limits.rate(runtime, request, "command")


@router.get(
    "",
    operation_id="listChat",
    response_model=ChatPage,
    responses=errors(401, 403, 404, 422),
    openapi_extra={"x-seat-token": "optional-seat-or-host"},
)
async def list_chat(
    game_id: GameId,
    runtime: RuntimeDep,
    caller: CallerDep,
    session: OptionalSession,
    after: Annotated[int, Query(ge=0, le=2**53, description="Messages after this `seq`.")] = 0,
) -> ChatPage:
    """Both channels of the game's chat after `after` (at most 500), oldest first, without the seats the
    calling seat hid for itself (CHAT-5). Anyone may read (the chat is public, like the board)."""
    await _game(runtime, game_id)
    viewer = caller.seat.seat if caller is not None and caller.seat is not None else None
    hidden = await run_in_threadpool(runtime.chat.hidden_by, game_id, viewer)
    messages = await run_in_threadpool(runtime.chat.after, game_id, after, hidden)
    you: dict[str, Any] = {"seat": viewer, "host": caller is not None and caller.host}
    you["spectator"] = viewer is None and not you["host"] and session is not None
    if you["spectator"] and session is not None:
        you["muted"] = session.account.account_id in await run_in_threadpool(runtime.chat.muted, game_id)
    muted: list[str] = []
    if caller is not None and messages:
        silenced = await run_in_threadpool(runtime.chat.muted, game_id)
        muted = [m.message_id for m in messages if m.account_id is not None and m.account_id in silenced]
    return ChatPage(
        game_id=game_id, messages=[_out(m) for m in messages], hidden=hidden, you=you, muted_messages=muted
    )


async def _spectator(request: Request, session: Session | None) -> Session:
    if session is None:
        raise ApiError(
            401,
            "sign-in-required",
            "a seat writes with its seat token; a spectator signs in first (/account) to chat (CHAT-1)",
            rule_id="CHAT-1",
            rule_url=rule_url("CHAT-1"),
        )
    check_csrf(request, session)
    return session


@router.post(
    "",
    operation_id="postChat",
    status_code=status.HTTP_201_CREATED,
    response_model=ChatMessage,
    responses=errors(401, 403, 404, 422, 429),
    dependencies=[Depends(chat_rate)],
    openapi_extra=SEAT_OR_SESSION,
)
async def post_chat(
    game_id: GameId,
    body: ChatIn,
    request: Request,
    runtime: RuntimeDep,
    caller: CallerDep,
    session: OptionalSession,
) -> ChatMessage:
    """Write a message: with a seat token in the seats' channel, signed in without one in the spectators'
    channel (CHAT-1). At most 500 characters, 5 messages in 10 seconds per writer (CHAT-2: 422
    `chat-too-long`, 429 `chat-too-fast`); a muted spectator is refused (403 `chat-muted`, CHAT-4)."""
    if caller is not None and caller.host:
        raise ApiError(
            403,
            "chat-host-token",
            "the host token does not write in the chat: use a seat token or sign in (CHAT-1)",
            rule_id="CHAT-1",
            rule_url=rule_url("CHAT-1"),
        )
    names, version = await _game(runtime, game_id)
    try:
        text = clean_text(body.text)
        if caller is not None and caller.seat is not None:
            seat = caller.seat.seat
            channel, seat_of, account_id = SEATS, seat, None
            author = names[seat] if seat < len(names) else f"Seat {seat}"
        else:
            spectator = await _spectator(request, session)
            channel, seat_of, account_id = SPECTATORS, None, spectator.account.account_id
            author = spectator.account.name
        now = runtime.clock()
        message = await run_in_threadpool(
            runtime.chat.post, game_id, channel, seat_of, account_id, author, text, version, now
        )
    except ChatRefused as error:
        raise _refused(error) from None
    await runtime.fanout.nudge(game_id)
    return _out(message)


@router.delete(
    "/{message_id}",
    operation_id="deleteChat",
    response_model=ChatMessage,
    responses=errors(401, 403, 404, 422),
    openapi_extra=SEAT_OR_SESSION,
)
async def delete_chat(
    game_id: GameId,
    message_id: str,
    request: Request,
    runtime: RuntimeDep,
    caller: CallerDep,
    session: OptionalSession,
) -> ChatMessage:
    """Delete your own message (CHAT-3): its text goes; every open page removes it."""
    message = await run_in_threadpool(runtime.chat.message, game_id, message_id)
    if message is None:
        raise ApiError(404, "chat-message-not-found", "no such message in this game's chat")
    if message.seat is not None:
        mine = caller is not None and caller.seat is not None and caller.seat.seat == message.seat
    else:
        mine = session is not None and session.account.account_id == message.account_id
        if mine and session is not None:
            check_csrf(request, session)
    if not mine:
        raise ApiError(
            403,
            "chat-not-yours",
            "only its writer deletes a message (CHAT-3)",
            rule_id="CHAT-3",
            rule_url=rule_url("CHAT-3"),
        )
    deleted = await run_in_threadpool(runtime.chat.delete, game_id, message_id)
    await runtime.fanout.nudge(game_id)
    return _out(deleted)


@router.post(
    "/mutes",
    operation_id="muteSpectator",
    response_model=ChatPage,
    responses=errors(401, 403, 404, 422),
    openapi_extra={"x-seat-token": "seat-or-host"},
)
async def mute(game_id: GameId, body: MuteIn, runtime: RuntimeDep, caller: CallerDep) -> ChatPage:
    """Mute (or unmute) the spectator who wrote `message_id` at this table (CHAT-4): the host or any seat.
    A muted spectator's new messages are refused (403 `chat-muted`); what they wrote before stays."""
    if caller is None:
        raise ApiError(
            401,
            "token-required",
            "muting needs a seat token or the host token (CHAT-4)",
            rule_id="CHAT-4",
            rule_url=rule_url("CHAT-4"),
        )
    message = await run_in_threadpool(runtime.chat.message, game_id, body.message_id)
    if message is None:
        raise ApiError(404, "chat-message-not-found", "no such message in this game's chat")
    if message.account_id is None or message.seat is not None:
        raise ApiError(
            422,
            "chat-not-a-spectator",
            "only a spectator is muted; a seat's messages can be hidden (CHAT-4, CHAT-5)",
            rule_id="CHAT-4",
            rule_url=rule_url("CHAT-4"),
        )
    by = "host" if caller.host else f"seat {caller.seat.seat if caller.seat else '?'}"
    if body.muted:
        await run_in_threadpool(runtime.chat.mute, game_id, message.account_id, by, runtime.clock())
    else:
        await run_in_threadpool(runtime.chat.unmute, game_id, message.account_id)
    viewer = caller.seat.seat if caller.seat is not None else None
    hidden = await run_in_threadpool(runtime.chat.hidden_by, game_id, viewer)
    return ChatPage(game_id=game_id, messages=[], hidden=hidden, you={"seat": viewer, "host": caller.host})


@router.put(
    "/hidden",
    operation_id="hideChat",
    response_model=ChatPage,
    responses=errors(401, 403, 404, 422),
    openapi_extra={"x-seat-token": "required"},
)
async def hide(game_id: GameId, body: HideIn, runtime: RuntimeDep, caller: CallerDep) -> ChatPage:
    """Hide (or show again) another seat's messages for yourself only (CHAT-5)."""
    if caller is None or caller.seat is None:
        raise ApiError(
            401,
            "token-required",
            "hiding is a seat's choice: send its seat token (CHAT-5)",
            rule_id="CHAT-5",
            rule_url=rule_url("CHAT-5"),
        )
    names, _ = await _game(runtime, game_id)
    if body.seat >= len(names) or body.seat == caller.seat.seat:
        raise ApiError(
            422,
            "chat-bad-seat",
            "hide another seat of this game (CHAT-5)",
            rule_id="CHAT-5",
            rule_url=rule_url("CHAT-5"),
        )
    await run_in_threadpool(runtime.chat.hide, game_id, caller.seat.seat, body.seat, body.hidden)
    hidden = await run_in_threadpool(runtime.chat.hidden_by, game_id, caller.seat.seat)
    return ChatPage(
        game_id=game_id, messages=[], hidden=hidden, you={"seat": caller.seat.seat, "host": False}
    )
