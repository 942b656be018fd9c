"""Request and response schemas of accounts, sessions and claimed seats (docs/accounts.md)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from api.accounts import NAME_MAX
from api.schemas import Request


class RegisterOptionsIn(Request):
    name: str | None = Field(
        None,
        min_length=1,
        max_length=NAME_MAX,
        description="The new account's display name; left out when a signed-in person adds a passkey.",
    )


class SignInOptionsIn(Request):
    pass


class CeremonyOut(BaseModel):
    ceremony: str = Field(
        description="Send it back with the browser's answer (valid for five minutes, once)."
    )
    public_key: dict[str, Any] = Field(
        description="The options of `navigator.credentials.create` or `.get`, in their JSON form "
        "(`PublicKeyCredential.parseCreationOptionsFromJSON` / `parseRequestOptionsFromJSON`)."
    )


class CredentialIn(Request):
    ceremony: str = Field(min_length=1, max_length=100)
    credential: dict[str, Any] = Field(description="The browser's answer, `PublicKeyCredential.toJSON()`.")


class AccountOut(BaseModel):
    account_id: str
    name: str
    created_at: str
    passkeys: int = Field(description="How many passkeys sign this account in.")
    csrf_token: str = Field(
        description="Send it as `X-CSRF-Token` with every write this session's cookie authenticates (ACCT-3)."
    )


class SessionOut(BaseModel):
    account: AccountOut | None = Field(description="The signed-in account, or null when nobody is.")
    oidc: str | None = Field(
        None, description="The OpenID Connect provider to sign in with (`/session/oidc/login`), if any."
    )


class SeatClock(BaseModel):
    seconds_left: float = Field(description="The seat's time for its current or next turn.")
    deadline: str | None = Field(None, description="When the seat runs out, while it is to act.")
    paused: bool


class MyGame(BaseModel):
    game_id: str
    seat: int
    seat_name: str
    status: str = Field(description="active, finished or cancelled")
    version: int
    to_act: int | None = Field(description="The seat whose turn it is (None once the game is over).")
    to_act_name: str | None
    your_turn: bool
    clock: SeatClock | None = Field(None, description="The seat's clock, in a game that has one.")
    link: str = Field(
        description="Opens the seat on this device: the play page recovers the seat (ACCT-2) when this "
        "browser holds no working token for it."
    )
    replay_link: str


class MyGames(BaseModel):
    games: list[MyGame]


class InviteIn(BaseModel):
    name: str = Field(max_length=80, description="The invitee's account name (its display name).")
    command_id: str = Field(
        min_length=1, max_length=100, description="The client's ID: a retry records nothing new."
    )


class RecoveredSeat(BaseModel):
    game_id: str
    seat: int
    version: int = Field(description="The game's version after the recovery (SeatRecovered).")
    token: str = Field(description="This device's new seat token (the one before stopped working).")
    link: str = Field(description="The seat's page, the token in the fragment.")
