"""Accounts: a name that outlives a table, a password, and the sessions of a logged-in browser.

Passwords are hashed with argon2id (argon2-cffi) and never stored, logged or returned. A session is a random id
in an HttpOnly cookie; the server keeps only its SHA-256 (as for seat tokens), so that logging out and changing the
password end sessions for good, and a stolen database logs nobody in. A login makes a new session id (a session
fixed before the login is worth nothing). Login attempts are limited per name and per address, and an unknown
name costs the same hashing work and gets the same answer as a wrong password. A browser that logged in before
keeps a device cookie (a random id, stored as its SHA-256 like a session's): its attempts count against its own
device rather than the name, so that strangers guessing a name do not lock its owner out (OWASP's device cookies).

A new account's name may not mix scripts so that it passes for another name (a Cyrillic "А" among Latin letters),
and a name looked up (a guest's, a page's) finds the account whose name it looks exactly like.
"""

from __future__ import annotations

import asyncio
import functools
import ipaddress
import itertools
import secrets
import time
import unicodedata
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from confusable_homoglyphs import categories, confusables

from ..core import BadOptions
from .config import Limits
from .security import RateLimit, RateLimits, new_token, token_hash
from .store import Store, accounts, devices, seats, sessions, tables
from .tables import Refused

MAX_NAME = 32
PASSWORD_MIN = 8
PASSWORD_MAX = 256
SESSION_COOKIE = "ninjatable_session"
SESSION_BYTES = 32  # 256 random bits
SESSION_DAYS = 30.0  # a session unused this long ends; each use within it renews it
COOKIE_DAYS = 400.0  # the browser keeps the cookie as long as it may: the server decides when a session ends
DEVICE_COOKIE = "ninjatable_device"
DEVICE_BYTES = 32
DEVICE_DAYS = 365.0  # a browser that has not logged in for a year counts as a stranger again
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


# --- look-alike names: Unicode's confusables (TR39), as the confusable_homoglyphs package gives them ----------------
# Characters at home in any script: digits, spaces, punctuation, symbols, combining accents.
ANY_SCRIPT = frozenset({"COMMON", "INHERITED"})
# Scripts written together in one language, so that a name using them together is in one script (TR39's augmented
# script sets): Japanese kanji and kana, Korean hangul and hanja, Chinese and bopomofo.
WRITTEN_TOGETHER = {"HAN": {"HAN", "JAPANESE", "KOREAN", "BOPOMOFO"}, "HIRAGANA": {"JAPANESE"},
                    "KATAKANA": {"JAPANESE"}, "HANGUL": {"KOREAN"}, "BOPOMOFO": {"BOPOMOFO"}}
LOOK_ALIKES_PER_SCRIPT = 32  # spellings of a looked-up name tried per script (one of many look-alike letters has more)


def script_of(char: str) -> str:
    """The script of a character, upper case ("LATIN", "CYRILLIC", "HAN"; "COMMON" for digits and punctuation)."""
    return categories.alias(char)


def written_together(script: str, other: str) -> bool:
    """Whether letters of these two scripts may share a name as one script (Latin and Latin, Han and Katakana)."""
    return bool(WRITTEN_TOGETHER.get(script, {script}) & WRITTEN_TOGETHER.get(other, {other}))


def letters_of(name: str) -> str:
    """The characters of `name` that belong to a script (compatibility forms folded: "Ａ" is "A")."""
    return "".join(c for c in unicodedata.normalize("NFKC", name) if script_of(c) not in ANY_SCRIPT)


def look_alike_letter(name: str) -> tuple[str, str] | None:
    """A letter of `name` that looks like a letter of another script the name is written in, with that script
    (the Cyrillic "А" of "Аnn" looks like a Latin letter); None when no letter can make the name pass for another."""
    letters = letters_of(name)
    for script in dict.fromkeys(map(script_of, letters)):
        strangers = "".join(c for c in letters if not written_together(script_of(c), script))
        found = strangers and confusables.is_confusable(strangers, preferred_aliases=[script])
        if found:
            return found[0]["character"], script
    return None


def check_unmistakable(name: str) -> str:
    """A new account's name that cannot pass for another by mixing scripts (a Cyrillic or Greek look-alike among
    Latin letters); a name wholly in one script, with any digits, spaces and punctuation, passes."""
    found = look_alike_letter(name)
    if found is not None:
        letter, script = found
        raise BadOptions(f"the name {name!r} could pass for another: {letter!r} is a {script_of(letter).title()} "
                         f"letter that looks like a {script.title()} one; write a name's letters in one script "
                         "(digits, spaces and punctuation go with any)")
    return name


@functools.lru_cache(maxsize=4096)
def look_alikes_by_script(char: str) -> dict[str, list[str]]:
    """The single characters that look like `char` (Unicode's confusables), folded as in a name's key, by script."""
    found = confusables.is_confusable(char, greedy=True)
    by_script: dict[str, list[str]] = {}
    for glyph in (g["c"] for g in found[0]["homoglyphs"]) if found else ():
        if len(glyph) == 1 and name_key(glyph) not in by_script.setdefault(script_of(glyph), []):
            by_script[script_of(glyph)].append(name_key(glyph))
    return by_script


def look_alikes_in(char: str, script: str) -> list[str]:
    """The letters of `script` that look like `char`, folded as in a name's key ([] if `char` is at home there)."""
    if script_of(char) in ANY_SCRIPT or written_together(script_of(char), script):
        return []
    return look_alikes_by_script(char).get(script, [])


def look_alike_names(name: str) -> list[str]:
    """The names, folded, that `name` looks exactly like once its letters of other scripts are written as their
    look-alikes in one script ("Аnn" with a Cyrillic "А" looks like "ann"; the Cyrillic "Роре" like "pope")."""
    letters = letters_of(name)
    written = {script_of(c) for c in letters}
    reachable = {script for c in letters for script in look_alikes_by_script(c)} - ANY_SCRIPT - written
    # A script the name is not written in gives a name only if every letter has a look-alike there.
    whole = {script for script in reachable if all(look_alikes_in(c, script) for c in letters)}
    spelled = unicodedata.normalize("NFKC", name)
    found: dict[str, None] = {}
    for script in sorted(written | whole):
        choices = [look_alikes_in(c, script) or [c] for c in spelled]
        for spelling in itertools.islice(itertools.product(*choices), LOOK_ALIKES_PER_SCRIPT):
            found[name_key("".join(spelling))] = None
    found.pop(name_key(name), None)
    return list(found)


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
        # A browser with a device cookie of the account gets an allowance of its own, as large as a name's.
        self.login_by_device = RateLimits(limits.logins_per_name / 60, limits.login_name_burst)
        self.login_by_address = RateLimits(limits.logins_per_address / 60, limits.login_address_burst)
        self.signups = RateLimits(limits.signups_per_minute / 60, limits.signups_burst)

    # --- signing up and in ---------------------------------------------------------------------------------
    async def signup(self, name: str, password: str, address: str) -> tuple[Account, str]:
        """A new account and its first session id; refused if the name is taken (regardless of case) or looks like
        an account's name, or could pass for another by mixing scripts."""
        name, password = check_unmistakable(check_account_name(name)), check_password(password)
        if not self.signups(address_group(address)).allow():
            raise Refused("slow_down", f"too many new accounts from your address: at most "
                                       f"{self.limits.signups_per_minute:g} a minute; try again in a while")
        holder = await self.find(name)
        if holder is not None and name_key(holder.name) != name_key(name):
            raise Refused("name_taken", f"the name {name!r} looks like {holder.name!r}, an account's; choose another")
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

    async def login(self, name: str, password: str, address: str, device: str | None = None) -> tuple[Account, str]:
        """The account and a new session id, if the password is right; one answer for every failure. `device`:
        the browser's device cookie, if it has one."""
        name = (name or "").strip()
        key = name_key(name)
        known = possible_account_name(name)
        found = await self._check_password(key, password, address,
                                           lambda: self._account_row(key) if known else None, BAD_LOGIN, device)
        account = Account(found.id, found.name)
        return account, await self.new_session(account)

    async def _check_password(self, key: str, password: str, address: str, read: Any, wrong: str,
                              device: str | None = None) -> Any:
        """The account's row if `password` is its password (`read()` gives the row, or None: unknown), else
        refused, within the limits per address and per name (or, for a device of the account, per device); a
        right password does not count against the name or the device."""
        if not self.login_by_address(address_group(address)).allow():
            raise Refused("slow_down", "too many login attempts; wait a minute and try again")
        found = await asyncio.to_thread(read)
        attempts = await self._attempts_of(key, found, device)
        if not attempts.allow():
            raise Refused("slow_down", "too many login attempts; wait a minute and try again")
        stored = found.password_hash if found is not None else None
        if not await asyncio.to_thread(password_matches, stored, password[:PASSWORD_MAX]):
            raise Refused("bad_login", wrong)
        attempts.refund()
        return found

    async def _attempts_of(self, key: str, found: Any, device: str | None) -> RateLimit:
        """Whose allowance a login attempt uses: the device's if `device` is a device of the account found (a
        browser that logged in as it before), else the name's, which strangers guessing the name use up too."""
        if found is not None and device and await asyncio.to_thread(self._is_device_of, found.id, device):
            return self.login_by_device(token_hash(device))
        return self.login_by_name(key)

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
            # The browsers that knew the old password (maybe a thief's among them) are strangers again.
            conn.execute(devices.delete().where(devices.c.account_id == account_id))
            # The seat tokens the account was given stop working at every unfinished table, also at one no process
            # holds in memory now (in a cluster, between a dead process and the one taking it over).
            unfinished = sa.select(tables.c.id).where(tables.c.status.in_(("waiting", "playing")))
            conn.execute(seats.update().where(seats.c.account_id == account_id, seats.c.table_id.in_(unfinished))
                         .values(token_hash=token_hash(new_token())))

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
        """Forget the sessions and the devices that have expired."""
        now = time.time()
        await asyncio.to_thread(self._run, sessions.delete().where(sessions.c.expires_at <= now))
        await asyncio.to_thread(self._run, devices.delete().where(devices.c.expires_at <= now))

    # --- devices: the browsers that logged in before -------------------------------------------------------
    async def new_device(self, account: Account, old_device: str | None = None) -> str:
        """The id of a new device cookie for a browser that has just logged in as `account` (or signed up); the
        device it had before, if any, is forgotten."""
        device = secrets.token_urlsafe(DEVICE_BYTES)
        now = time.time()
        values = {"id_hash": token_hash(device), "account_id": account.id, "created_at": now,
                  "expires_at": now + DEVICE_DAYS * 86400}
        await asyncio.to_thread(self._replace_device, old_device, values)
        return device

    def _replace_device(self, old_device: str | None, values: dict[str, Any]) -> None:
        with self.store.engine.begin() as conn:
            if old_device:
                conn.execute(devices.delete().where(devices.c.id_hash == token_hash(old_device)))
            conn.execute(devices.insert().values(**values))

    def _is_device_of(self, account_id: int, device: str) -> bool:
        """Whether `device` is the id of an unexpired device cookie given to a browser logged in as the account."""
        if len(device) > 100:
            return False
        query = sa.select(devices.c.account_id).where(devices.c.id_hash == token_hash(device),
                                                      devices.c.expires_at > time.time())
        with self.store.engine.connect() as conn:
            return conn.execute(query).scalar() == account_id

    # --- names ---------------------------------------------------------------------------------------------
    async def find(self, name: str) -> Account | None:
        """The account of this name (in any case), or else of a name it looks exactly like (a Cyrillic "А" for
        the Latin "A" of "Ann"; see look_alike_names), or None."""
        name = name.strip()
        if not possible_account_name(name):
            return None
        return await asyncio.to_thread(self._account_like, name)

    def _account_like(self, name: str) -> Account | None:
        keys = [name_key(name), *look_alike_names(name)]
        with self.store.engine.connect() as conn:
            rows = conn.execute(accounts.select().where(accounts.c.name_key.in_(keys))).all()
        by_key = {row.name_key: row for row in rows}
        found = next((by_key[key] for key in keys if key in by_key), None)  # the name itself first
        return None if found is None else Account(found.id, found.name)

    def _run(self, statement: Any) -> None:
        with self.store.engine.begin() as conn:
            conn.execute(statement)
