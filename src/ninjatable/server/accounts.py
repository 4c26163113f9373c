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
import ipaddress
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
COOKIE_DAYS = 400.0  # the browser keeps the cookie as long as it may: the server decides when a session ends
MAX_NAME_KEY = 160  # the longest folded name the accounts table holds (NFKC may lengthen a name)
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


def check_account_name(name: str | None) -> str:
    """An account's name: a person's name (check_name) that is also a page's address (/people/<name>)."""
    name = check_name(name)
    if len(name_key(name)) > MAX_NAME_KEY:
        raise BadOptions(f"the name {name!r} is too long once normalised; choose a shorter one")
    if set(name) <= {"."}:
        raise BadOptions(f"a name of dots only ({name!r}) cannot be a page's address; choose another")
    return name


def possible_account_name(name: object) -> bool:
    """Whether an account could have this name (a login or a page asking for another is answered as unknown)."""
    try:
        check_account_name(name if isinstance(name, str) else None)
    except BadOptions:
        return False
    return True


def address_group(address: str) -> str:
    """Whose attempts count together: an IPv4 address, or an IPv6 address's /64 (one subscriber's network)."""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if parsed.version == 4:
        return str(parsed)
    if parsed.ipv4_mapped is not None:
        return str(parsed.ipv4_mapped)
    return str(ipaddress.ip_network(f"{parsed}/64", strict=False))


def check_password(password: str) -> str:
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise BadOptions(f"a password has {PASSWORD_MIN} to {PASSWORD_MAX} characters, not {len(password)}")
    return password


@functools.cache
def _hasher() -> Any:
    from argon2 import PasswordHasher

    # argon2id at OWASP's recommended cost (19 MiB, 2 passes, 1 lane): about 40 ms a hash on one core, so that a
    # server with two cores is not brought down by logins while a stolen hash still costs a guesser dearly.
    return PasswordHasher(time_cost=2, memory_cost=19 * 1024, parallelism=1)


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
        name, password = check_account_name(name), check_password(password)
        if not self.signups(address_group(address)).allow():
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
        name = (name or "").strip()
        key = name_key(name)
        known = possible_account_name(name)
        found = await self._check_password(key, password, address,
                                           lambda: self._account_row(key) if known else None, BAD_LOGIN)
        account = Account(found.id, found.name)
        return account, await self.new_session(account)

    async def _check_password(self, key: str, password: str, address: str, read: Any, wrong: str) -> Any:
        """The account's row if `password` is its password (`read()` gives the row, or None: unknown), else
        refused, within the limits per name and per address; a right password does not count against the name."""
        by_name, by_address = self.login_by_name(key), self.login_by_address(address_group(address))
        if not (by_address.allow() and by_name.allow()):
            raise Refused("slow_down", "too many login attempts; wait a minute and try again")
        found = await asyncio.to_thread(read)
        stored = found.password_hash if found is not None else None
        if not await asyncio.to_thread(password_matches, stored, password[:PASSWORD_MAX]):
            raise Refused("bad_login", wrong)
        by_name.refund()
        return found

    def _account_row(self, key: str) -> Any:
        with self.store.engine.connect() as conn:
            return conn.execute(accounts.select().where(accounts.c.name_key == key)).first()

    async def change_password(self, account: Account, old: str, new: str, address: str) -> str:
        """Set a new password, end every session of the account, and return the new session of this browser (the
        current password is checked within the login limits: a browser left logged in is no way to guess it)."""
        check_password(new)
        await self._check_password(name_key(account.name), old, address,
                                   lambda: self._account_row_by_id(account.id), "the current password is wrong")
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
        if not possible_account_name(name.strip()):
            return None
        found = await asyncio.to_thread(self._account_row, name_key(name.strip()))
        return None if found is None else Account(found.id, found.name)

    def _run(self, statement: Any) -> None:
        with self.store.engine.begin() as conn:
            conn.execute(statement)
