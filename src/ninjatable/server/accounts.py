"""Accounts: a name that outlives a table, a password, and the sessions of a logged-in browser.

Passwords are hashed with argon2id (argon2-cffi) and never stored, logged or returned. A session is a random id
in an HttpOnly cookie; the server keeps only its SHA-256 (as for seat tokens), so that logging out and changing the
password end sessions for good, and a stolen database logs nobody in. A login makes a new session id (a session
fixed before the login is worth nothing). Login attempts are limited per name and per address, and an unknown
name costs the same hashing work and gets the same answer as a wrong password.
"""

from __future__ import annotations

import asyncio
import functools
import secrets
import time
import unicodedata
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from ..core import BadOptions
from .config import Limits
from .security import RateLimits, token_hash
from .store import Store, accounts, sessions
from .tables import Refused

MAX_NAME = 32
PASSWORD_MIN = 8
PASSWORD_MAX = 256
SESSION_COOKIE = "ninjatable_session"
SESSION_BYTES = 32  # 256 random bits
SESSION_DAYS = 30.0  # a session unused this long ends; each use within it renews it
BAD_LOGIN = "wrong name or password"


@dataclass(frozen=True)
class Account:
    id: int
    name: str


def check_name(name: str | None) -> str:
    """A person's name as shown at the table: 1 to 32 printable characters."""
    name = (name or "").strip()
    if not name or len(name) > MAX_NAME or not name.isprintable():
        raise BadOptions(f"a name is 1 to {MAX_NAME} printable characters, not {name!r}")
    return name


def name_key(name: str) -> str:
    """What makes two names the same account: compatibility-normalised and case-folded ("Ann", "ANN", "Ａnn")."""
    return unicodedata.normalize("NFKC", name).casefold()


def check_password(password: str) -> str:
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise BadOptions(f"a password has {PASSWORD_MIN} to {PASSWORD_MAX} characters, not {len(password)}")
    return password


@functools.cache
def _hasher() -> Any:
    from argon2 import PasswordHasher

    return PasswordHasher()  # argon2id with the library's recommended cost (RFC 9106's second choice)


@functools.cache
def _unknown_name_hash() -> str:
    """A hash to check a password against when the name is unknown, so that the answer takes as long."""
    return _hasher().hash(secrets.token_urlsafe(16))


def hash_password(password: str) -> str:
    return _hasher().hash(password)


def password_matches(stored_hash: str | None, password: str) -> bool:
    """Whether `password` is the one hashed in `stored_hash` (None: an unknown name, checked all the same)."""
    from argon2.exceptions import InvalidHashError, VerificationError

    try:
        return _hasher().verify(stored_hash or _unknown_name_hash(), password) and stored_hash is not None
    except (VerificationError, InvalidHashError):
        return False


def new_session_id() -> str:
    return secrets.token_urlsafe(SESSION_BYTES)


class Accounts:
    """Sign-up, login, logout, password change and the account of a session, stored in the server's database."""

    def __init__(self, store: Store, limits: Limits) -> None:
        self.store = store
        self.limits = limits
        self.login_by_name = RateLimits(limits.logins_per_name / 60, limits.login_name_burst)
        self.login_by_address = RateLimits(limits.logins_per_address / 60, limits.login_address_burst)
        self.signups = RateLimits(limits.signups_per_minute / 60, limits.signups_burst)

    # --- signing up and in ---------------------------------------------------------------------------------
    async def signup(self, name: str, password: str, address: str) -> tuple[Account, str]:
        """A new account and its first session id; refused if the name is taken (regardless of case)."""
        name, password = check_name(name), check_password(password)
        if not self.signups(address).allow():
            raise Refused("slow_down", f"too many new accounts from your address: at most "
                                       f"{self.limits.signups_per_minute:g} a minute; try again in a while")
        hashed = await asyncio.to_thread(hash_password, password)
        account = await asyncio.to_thread(self._insert_account, name, hashed)
        return account, await self.new_session(account)

    def _insert_account(self, name: str, hashed: str) -> Account:
        key = name_key(name)
        try:
            with self.store.engine.begin() as conn:
                found = conn.execute(accounts.insert().values(
                    name=name, name_key=key, password_hash=hashed, created_at=time.time()))
                return Account(found.inserted_primary_key[0], name)
        except sa.exc.IntegrityError:
            raise Refused("name_taken", f"the name {name!r} is taken; choose another") from None

    async def login(self, name: str, password: str, address: str) -> tuple[Account, str]:
        """The account and a new session id, if the password is right; one answer for every failure."""
        key = name_key((name or "").strip())
        by_name, by_address = self.login_by_name(key), self.login_by_address(address)
        if not (by_address.allow() and by_name.allow()):
            raise Refused("slow_down", "too many login attempts; wait a minute and try again")
        found = await asyncio.to_thread(self._account_row, key)
        stored = found.password_hash if found is not None else None
        if not await asyncio.to_thread(password_matches, stored, password[:PASSWORD_MAX]):
            raise Refused("bad_login", BAD_LOGIN)
        by_name.refund()  # the right password does not count against the name
        account = Account(found.id, found.name)
        return account, await self.new_session(account)

    def _account_row(self, key: str) -> Any:
        with self.store.engine.connect() as conn:
            return conn.execute(accounts.select().where(accounts.c.name_key == key)).first()

    async def change_password(self, account: Account, old: str, new: str) -> str:
        """Set a new password, end every session of the account, and return the new session of this browser."""
        check_password(new)
        found = await asyncio.to_thread(self._account_row_by_id, account.id)
        if found is None or not await asyncio.to_thread(password_matches, found.password_hash, old[:PASSWORD_MAX]):
            raise Refused("bad_login", "the current password is wrong")
        hashed = await asyncio.to_thread(hash_password, new)
        await asyncio.to_thread(self._set_password, account.id, hashed)
        return await self.new_session(account)

    def _account_row_by_id(self, account_id: int) -> Any:
        with self.store.engine.connect() as conn:
            return conn.execute(accounts.select().where(accounts.c.id == account_id)).first()

    def _set_password(self, account_id: int, hashed: str) -> None:
        with self.store.engine.begin() as conn:
            conn.execute(accounts.update().where(accounts.c.id == account_id).values(password_hash=hashed))
            conn.execute(sessions.delete().where(sessions.c.account_id == account_id))

    # --- sessions ------------------------------------------------------------------------------------------
    async def new_session(self, account: Account) -> str:
        session_id = new_session_id()
        now = time.time()
        values = {"id_hash": token_hash(session_id), "account_id": account.id, "created_at": now,
                  "expires_at": now + SESSION_DAYS * 86400}
        await asyncio.to_thread(self._run, sessions.insert().values(**values))
        return session_id

    async def end_session(self, session_id: str | None) -> None:
        if session_id:
            await asyncio.to_thread(self._run, sessions.delete().where(sessions.c.id_hash == token_hash(session_id)))

    async def account_for(self, session_id: str | None) -> Account | None:
        """The account of a session cookie's id, or None (no cookie, an ended or expired session)."""
        if not session_id or len(session_id) > 100:
            return None
        return await asyncio.to_thread(self._account_for, token_hash(session_id))

    def _account_for(self, id_hash: str) -> Account | None:
        now = time.time()
        query = (sa.select(accounts.c.id, accounts.c.name, sessions.c.expires_at)
                 .join(sessions, sessions.c.account_id == accounts.c.id)
                 .where(sessions.c.id_hash == id_hash, sessions.c.expires_at > now))
        with self.store.engine.connect() as conn:
            found = conn.execute(query).first()
        if found is None:
            return None
        if found.expires_at - now < SESSION_DAYS * 86400 / 2:  # used in its second half: renewed
            self._run(sessions.update().where(sessions.c.id_hash == id_hash)
                      .values(expires_at=now + SESSION_DAYS * 86400))
        return Account(found.id, found.name)

    async def expire_sessions(self) -> None:
        await asyncio.to_thread(self._run, sessions.delete().where(sessions.c.expires_at <= time.time()))

    async def find(self, name: str) -> Account | None:
        """The account of this name (in any case), or None."""
        found = await asyncio.to_thread(self._account_row, name_key(name.strip()))
        return None if found is None else Account(found.id, found.name)

    def _run(self, statement: Any) -> None:
        with self.store.engine.begin() as conn:
            conn.execute(statement)
