"""Sending mail (docs/notifications.md): through the SMTP server of the settings (`GALILEO_SMTP_HOST`,
port, `GALILEO_SMTP_SECURITY` `starttls` / `tls` / `none`, user and password, `GALILEO_MAIL_FROM`), or,
with no SMTP host (`make serve`), written as `.eml` files into the mail folder (`GALILEO_MAIL_DIR`, by
default `mail/` beside the SQLite database, or `./data/mail`), where a person reads them and the links
work as in a sent mail.

A mail server that refuses the recipient for good (a 5xx answer to `RCPT TO`) makes the address
`bounced`: `Rejected`. Anything else that fails (no answer, a 4xx, a dropped connection) is `Failed`
and retried by the outbox.
"""

from __future__ import annotations

import contextlib
import os
import smtplib
import ssl
import uuid
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from pathlib import Path
from urllib.parse import unquote

from api.settings import Settings


class Rejected(Exception):
    """The mail server refused the recipient for good (its code and text, for the address's state)."""

    def __init__(self, code: int, text: str) -> None:
        super().__init__(f"{code} {text}")
        self.code = code


class Failed(Exception):
    """A delivery that may succeed later."""


@dataclass(frozen=True, slots=True)
class Mail:
    to: str
    subject: str
    body: str
    unsubscribe: str | None = None  # the one-click URL (RFC 8058), for turn mails and digests

    def message(self, sender: str) -> EmailMessage:
        msg = EmailMessage()
        msg["From"] = sender
        msg["To"] = self.to
        msg["Subject"] = self.subject
        msg["Date"] = formatdate(localtime=False, usegmt=True)
        msg["Message-ID"] = make_msgid(domain=_domain(sender))
        msg["Auto-Submitted"] = "auto-generated"  # RFC 3834: no auto-replies
        if self.unsubscribe is not None:
            msg["List-Unsubscribe"] = f"<{self.unsubscribe}>"
            msg["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
        msg.set_content(self.body)
        return msg


def _domain(sender: str) -> str:
    return sender.rsplit("@", 1)[-1].strip(" >") or "localhost"


def mail_dir(settings: Settings) -> Path:
    """The folder of the mails written when no SMTP host is set."""
    if settings.mail_dir:
        return Path(settings.mail_dir)
    url = settings.database_url
    if url.startswith("sqlite:///"):
        path = unquote(url[len("sqlite:///") :])
        if path and path != ":memory:":
            return Path(path).parent / "mail"
    return Path("data") / "mail"


def send(settings: Settings, mail: Mail) -> None:
    """Send one mail (blocking: called in a worker thread), or write it into the mail folder."""
    msg = mail.message(settings.mail_from)
    if not settings.smtp_host:
        _write(mail_dir(settings), msg)
        return
    try:
        with _connect(settings) as smtp:
            if settings.smtp_username:
                smtp.login(settings.smtp_username, settings.smtp_password)
            smtp.send_message(msg)
    except smtplib.SMTPRecipientsRefused as refused:
        code, text = next(iter(refused.recipients.values()))
        if code >= 500:
            raise Rejected(
                code, text.decode("utf-8", "replace") if isinstance(text, bytes) else str(text)
            ) from None
        raise Failed(f"recipient deferred ({code})") from None
    except (smtplib.SMTPException, OSError) as error:
        raise Failed(type(error).__name__) from None


def _connect(settings: Settings) -> smtplib.SMTP:
    context = ssl.create_default_context(cafile=settings.smtp_ca_file or None)
    timeout = settings.smtp_timeout_seconds
    if settings.smtp_security == "tls":
        return smtplib.SMTP_SSL(
            settings.smtp_host, settings.smtp_port_or_default, timeout=timeout, context=context
        )
    smtp = smtplib.SMTP(settings.smtp_host, settings.smtp_port_or_default, timeout=timeout)
    if settings.smtp_security == "starttls":
        try:
            smtp.starttls(context=context)
        except BaseException:
            with contextlib.suppress(Exception):
                smtp.close()
            raise
    return smtp


def _write(folder: Path, msg: EmailMessage) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    name = f"{uuid.uuid4().hex}.eml"
    partial = folder / f".{name}.part"
    partial.write_bytes(bytes(msg))
    os.replace(partial, folder / name)  # a reader never sees half a mail
