"""Table chat (docs/chat.md, CHAT-n): what people write beside a game, kept apart from its audit log.

Messages live in their own table (`galileo_chat`), never in the hash-chained log: the log, its export
(unless `?chat=1` asks for them), its forks and its verification never hold a word of chat (CHAT-1).
Each game has two channels: `seats` (written by the seats' tokens) and `spectators` (written by signed-in
people who hold no seat). Everyone at the table reads both; a seat may hide another seat's messages for
itself (CHAT-5); the host or any seat may mute a spectator (CHAT-4); a person deletes their own message
(CHAT-3), which leaves a tombstone so every open page removes it too.

Each message has a per-game sequence number `seq` (a deletion takes a new one, so a stream that sent
everything up to `seq` sends the tombstone next) and the game's `version` when it was written (a replay
shows it beside the moves of that moment). Times are fixed-width UTC text (`api.tables.stamp`).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from datetime import datetime, timedelta
from typing import Any

from api.db import PostgresDb, SQLiteDb, create, open_db
from api.tables import stamp

SEATS = "seats"
SPECTATORS = "spectators"
CHANNELS = (SEATS, SPECTATORS)
MAX_LENGTH = 500  # characters of one message (CHAT-2)
RATE_COUNT = 5  # messages of one writer ...
RATE_SECONDS = 10  # ... within this many seconds (CHAT-2)
PAGE = 500  # messages per read

_SCHEMA = (
    """
CREATE TABLE IF NOT EXISTS galileo_chat (
    game_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    message_id TEXT NOT NULL,
    channel TEXT NOT NULL,
    seat INTEGER,
    account_id TEXT,
    author TEXT NOT NULL,
    body TEXT NOT NULL,
    version INTEGER NOT NULL,
    written_at TEXT NOT NULL,
    deleted INTEGER NOT NULL,
    PRIMARY KEY (game_id, seq)
)
""",
    "CREATE UNIQUE INDEX IF NOT EXISTS galileo_chat_message ON galileo_chat (message_id)",
    """
CREATE TABLE IF NOT EXISTS galileo_chat_mutes (
    game_id TEXT NOT NULL,
    account_id TEXT NOT NULL,
    muted_by TEXT NOT NULL,
    muted_at TEXT NOT NULL,
    PRIMARY KEY (game_id, account_id)
)
""",
    """
CREATE TABLE IF NOT EXISTS galileo_chat_hidden (
    game_id TEXT NOT NULL,
    viewer INTEGER NOT NULL,
    hidden INTEGER NOT NULL,
    PRIMARY KEY (game_id, viewer, hidden)
)
""",
)


@dataclass(frozen=True, slots=True)
class Message:
    message_id: str
    seq: int
    channel: str
    seat: int | None  # the writing seat (seats' channel)
    author: str  # the seat's name, or the spectator's display name
    text: str  # "" once deleted
    version: int  # the game's version when it was written
    written_at: str
    deleted: bool
    account_id: str | None = None  # the spectator's account (never shown: `public`)

    def public(self) -> dict[str, Any]:
        out = asdict(self)
        del out["account_id"]
        return out


class ChatRefused(Exception):
    """A chat write the rules refuse (CHAT-n): nothing was written."""

    def __init__(self, status: int, code: str, message: str, rule: str, **extra: Any) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.rule, self.extra = status, code, message, rule, extra


def clean_text(raw: str) -> str:
    """A message's text: outer blanks removed, 1 to MAX_LENGTH characters, no control characters but
    line breaks (CHAT-2)."""
    text = raw.strip()
    if not text:
        raise ChatRefused(422, "chat-empty", "a message needs some text", "CHAT-2")
    if len(text) > MAX_LENGTH:
        raise ChatRefused(
            422,
            "chat-too-long",
            f"a message is at most {MAX_LENGTH} characters (this one has {len(text)}); nothing was written",
            "CHAT-2",
            max_length=MAX_LENGTH,
        )
    if any(not ch.isprintable() and ch not in "\n\t" for ch in text):
        raise ChatRefused(422, "chat-control-characters", "a message holds no control characters", "CHAT-2")
    return text


_COLUMNS = "message_id, seq, channel, seat, author, body, version, written_at, deleted, account_id"


def _message(row: Sequence[Any]) -> Message:
    return Message(
        str(row[0]),
        int(row[1]),
        str(row[2]),
        None if row[3] is None else int(row[3]),
        str(row[4]),
        str(row[5]),
        int(row[6]),
        str(row[7]),
        bool(row[8]),
        None if row[9] is None else str(row[9]),
    )


class ChatStore:
    """The chat of every game, in the database of `database_url` (beside the seats and accounts)."""

    def __init__(self, database_url: str) -> None:
        self.db: SQLiteDb | PostgresDb = open_db(database_url)
        create(self.db, _SCHEMA)

    def close(self) -> None:
        self.db.close()

    def post(
        self,
        game_id: str,
        channel: str,
        seat: int | None,
        account_id: str | None,
        author: str,
        text: str,
        version: int,
        now: datetime,
    ) -> Message:
        """Write a message; refused (CHAT-2, CHAT-4) when the writer is muted or writes too fast."""
        since = stamp(now - timedelta(seconds=RATE_SECONDS))
        for attempt in range(3):  # two writers may take the same next seq: the loser tries again
            try:
                with self.db.transaction() as tx:
                    if account_id is not None and seat is None:
                        muted = tx.execute(
                            "SELECT 1 FROM galileo_chat_mutes WHERE game_id = ? AND account_id = ?",
                            (game_id, account_id),
                        )
                        if muted:
                            raise ChatRefused(
                                403,
                                "chat-muted",
                                "a seat or the host muted you at this table: your messages are not taken",
                                "CHAT-4",
                            )
                    who = (
                        ("seat = ?", seat)
                        if seat is not None
                        else ("account_id = ? AND seat IS NULL", account_id)
                    )
                    recent = tx.execute(
                        f"SELECT written_at FROM galileo_chat WHERE game_id = ? AND {who[0]} "
                        "AND written_at > ? ORDER BY written_at",
                        (game_id, who[1], since),
                    )
                    if len(recent) >= RATE_COUNT:
                        first = datetime.fromisoformat(str(recent[-RATE_COUNT][0]))
                        wait = max(
                            1, int((first + timedelta(seconds=RATE_SECONDS) - now).total_seconds()) + 1
                        )
                        raise ChatRefused(
                            429,
                            "chat-too-fast",
                            f"at most {RATE_COUNT} messages in {RATE_SECONDS} seconds; try again in {wait} s",
                            "CHAT-2",
                            retry_after=wait,
                        )
                    top = tx.execute("SELECT MAX(seq) FROM galileo_chat WHERE game_id = ?", (game_id,))
                    seq = int(top[0][0] or 0) + 1
                    message = Message(
                        "msg_" + secrets.token_hex(10),
                        seq,
                        channel,
                        seat,
                        author,
                        text,
                        version,
                        stamp(now),
                        False,
                        account_id,
                    )
                    tx.execute(
                        f"INSERT INTO galileo_chat ({_COLUMNS}, game_id) "
                        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        (
                            message.message_id,
                            seq,
                            channel,
                            seat,
                            author,
                            text,
                            version,
                            message.written_at,
                            0,
                            account_id,
                            game_id,
                        ),
                    )
                return message
            except ChatRefused:
                raise
            except Exception:
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def message(self, game_id: str, message_id: str) -> Message | None:
        rows = self.db.query(
            f"SELECT {_COLUMNS} FROM galileo_chat WHERE game_id = ? AND message_id = ?", (game_id, message_id)
        )
        return _message(rows[0]) if rows else None

    def delete(self, game_id: str, message_id: str) -> Message:
        """Blank a message (CHAT-3): its text goes, a tombstone with a new seq stays."""
        with self.db.transaction() as tx:
            top = tx.execute("SELECT MAX(seq) FROM galileo_chat WHERE game_id = ?", (game_id,))
            seq = int(top[0][0] or 0) + 1
            tx.execute(
                "UPDATE galileo_chat SET body = '', deleted = 1, seq = ? "
                "WHERE game_id = ? AND message_id = ?",
                (seq, game_id, message_id),
            )
        found = self.message(game_id, message_id)
        assert found is not None
        return found

    def after(self, game_id: str, after: int = 0, hidden: Sequence[int] = ()) -> list[Message]:
        """The messages (and tombstones) with seq > `after`, oldest first, without the seats `hidden`."""
        rows = self.db.query(
            f"SELECT {_COLUMNS} FROM galileo_chat WHERE game_id = ? AND seq > ? ORDER BY seq LIMIT ?",
            (game_id, after, PAGE),
        )
        return [m for m in map(_message, rows) if m.seat is None or m.seat not in hidden]

    def all(self, game_id: str) -> list[Message]:
        """Every message of a game, however many (an export with `?chat=1`)."""
        rows = self.db.query(
            f"SELECT {_COLUMNS} FROM galileo_chat WHERE game_id = ? ORDER BY seq", (game_id,)
        )
        return [_message(r) for r in rows]

    def head(self, game_id: str) -> int:
        rows = self.db.query("SELECT MAX(seq) FROM galileo_chat WHERE game_id = ?", (game_id,))
        return int(rows[0][0] or 0)

    def mute(self, game_id: str, account_id: str, by: str, now: datetime) -> None:
        with self.db.transaction() as tx:
            tx.execute(
                "DELETE FROM galileo_chat_mutes WHERE game_id = ? AND account_id = ?", (game_id, account_id)
            )
            tx.execute(
                "INSERT INTO galileo_chat_mutes VALUES (?, ?, ?, ?)", (game_id, account_id, by, stamp(now))
            )

    def unmute(self, game_id: str, account_id: str) -> None:
        self.db.execute(
            "DELETE FROM galileo_chat_mutes WHERE game_id = ? AND account_id = ?", (game_id, account_id)
        )

    def muted(self, game_id: str) -> set[str]:
        rows = self.db.query("SELECT account_id FROM galileo_chat_mutes WHERE game_id = ?", (game_id,))
        return {str(r[0]) for r in rows}

    def hide(self, game_id: str, viewer: int, seat: int, hidden: bool) -> None:
        with self.db.transaction() as tx:
            tx.execute(
                "DELETE FROM galileo_chat_hidden WHERE game_id = ? AND viewer = ? AND hidden = ?",
                (game_id, viewer, seat),
            )
            if hidden:
                tx.execute("INSERT INTO galileo_chat_hidden VALUES (?, ?, ?)", (game_id, viewer, seat))

    def hidden_by(self, game_id: str, viewer: int | None) -> list[int]:
        """The seats whose messages `viewer` hid for itself (none for a spectator)."""
        if viewer is None:
            return []
        rows = self.db.query(
            "SELECT hidden FROM galileo_chat_hidden WHERE game_id = ? AND viewer = ? ORDER BY hidden",
            (game_id, viewer),
        )
        return [int(r[0]) for r in rows]

    def forget_account(self, account_id: str) -> None:
        """An erased account (docs/audit.md, "Personal data"): its messages lose the name and the link."""
        with self.db.transaction() as tx:
            tx.execute(
                "UPDATE galileo_chat SET author = 'deleted account', account_id = NULL WHERE account_id = ?",
                (account_id,),
            )
            tx.execute("DELETE FROM galileo_chat_mutes WHERE account_id = ?", (account_id,))
