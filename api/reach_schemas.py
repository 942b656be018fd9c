"""Request and response bodies of the notification routes (api/routers/reach.py, docs/notifications.md)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

Mode = Literal["turn", "digest"]


class EmailIn(BaseModel):
    address: str = Field(max_length=254, description="The address to tell of your turns.")
    mode: Mode = Field("turn", description="`turn`: one mail per turn; `digest`: one mail a day.")


class EmailOut(BaseModel):
    address: str
    mode: Mode
    status: Literal["pending", "confirmed", "bounced", "unsubscribed"] = Field(
        description="`pending` until the link of the confirmation mail is opened (nothing else is sent "
        "before); `bounced`: the mail server refused the address (`error` has its code): give another."
    )
    error: str | None = None


class PushKeys(BaseModel):
    p256dh: str = Field(max_length=200, description="The browser's P-256 public key (base64url).")
    auth: str = Field(max_length=100, description="The subscription's authentication secret (base64url).")


class PushIn(BaseModel):
    """A `PushSubscription.toJSON()` of the browser (`endpoint`, `keys`)."""

    endpoint: str = Field(max_length=2000)
    keys: PushKeys


class PushOut(BaseModel):
    endpoint: str = Field(max_length=2000)


class Reach(BaseModel):
    email: EmailOut | None = Field(description="The address, or null.")
    push_devices: int = Field(description="How many devices are subscribed to push notifications.")
    vapid_public_key: str = Field(description="The `applicationServerKey` to subscribe with.")


class GameChoice(BaseModel):
    email: Literal["turn", "digest", "off"] | None = Field(
        None, description="This game's mails: per turn, daily digest, none; null: your address's mode."
    )
    push: bool = Field(True, description="Push notifications of this game to your devices.")


class VapidKey(BaseModel):
    public_key: str = Field(description="The service's VAPID public key (base64url): `applicationServerKey`.")
