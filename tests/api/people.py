"""People for tests of the table and the community: accounts signed in without a ceremony.

An account made the way an OpenID Connect sign-in makes one (`register_identity`) and a session opened
for it in the store, as `POST /session` would: the cookie and CSRF token a browser would hold. The
ceremonies themselves are tested in test_accounts.py, test_oidc.py and test_passkeys_browser.py.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import timedelta

from api.accounts import Account, csrf_token, new_session_token, session_hash
from api.runtime import Runtime
from api.sessions import COOKIE


@dataclass(frozen=True, slots=True)
class Person:
    account: Account
    token: str  # the session cookie's value

    @property
    def csrf(self) -> str:
        return csrf_token(self.token)

    @property
    def cookies(self) -> dict[str, str]:
        return {COOKIE: self.token}

    def headers(self) -> dict[str, str]:
        return {"Cookie": f"{COOKIE}={self.token}", "X-CSRF-Token": self.csrf}


def person(runtime: Runtime, name: str) -> Person:
    """A new account named `name`, signed in."""
    now = runtime.clock()
    account = runtime.accounts.register_identity(name, "https://people.test", secrets.token_hex(8), now)
    token = new_session_token()
    runtime.accounts.open_session(account.account_id, session_hash(token), now, now + timedelta(days=1))
    return Person(account, token)
