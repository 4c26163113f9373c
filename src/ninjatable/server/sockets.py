"""The WebSocket of one client at a table: hello, then messages until it leaves; every refusal is an error message.

A socket is served where it arrived. When its table is driven by another process of a cluster, the socket is
relayed there (server/cluster.py), and the process that drives the table runs the same steps on what the relay
forwards: `seat_from_hello` for the hello, `take` for each message.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from fastapi import WebSocket, WebSocketDisconnect
from pydantic import ValidationError
from starlette.requests import HTTPConnection

from .accounts import SESSION_COOKIE, Account
from .protocol import MAX_MESSAGE_BYTES, PROTOCOL, Act, ClientMessage, Error, Hello, Pong, Preview, Say
from .security import same_site, token_hash
from .tables import Client, Refused, Table

if TYPE_CHECKING:
    from .hub import Hub

HELLO_SECONDS = 10  # a socket that does not say hello in time is closed
SPECTATORS_MAY_NOT = {
    Act: "spectators watch; they do not act",
    Preview: "spectators watch; they do not act",
    Say: "spectators read the chat; only the players write in it",
}

# The HTTP status of each error code; a socket refused with a code closes with 4000 + its status.
STATUS_BY_CODE = {
    "no_table": 404, "no_file": 404, "bad_token": 403, "private": 403, "not_finished": 409, "started": 409, "full": 409,
    "taken": 409, "not_started": 409, "over": 409, "illegal": 409, "not_multi": 409, "storage": 503,
    "bad_seat": 400, "slow_down": 429, "too_many_sockets": 429, "too_large": 413,
    "bad_login": 401, "login": 401, "name_taken": 409, "no_person": 404, "seated": 409, "no_offer": 409,
    "not_seated": 403, "cross_site": 403, "logged_out": 401, "busy": 429, "no_hints": 403, "not_your_move": 409,
    "no_hint": 503, "closed": 410, "unavailable": 503,
}


async def serve_socket(websocket: WebSocket, hub: Hub, table_id: str) -> None:
    """One client's connection, counted against its address's sockets until it ends."""
    address = client_address(websocket)
    try:
        hub.socket_opened(address)
    except Refused as e:
        await refuse(websocket, e.code, e.message)
        return
    try:
        await _serve_client(websocket, hub, table_id, address)
    finally:
        hub.socket_closed(address)


async def _serve_client(websocket: WebSocket, hub: Hub, table_id: str, address: str) -> None:
    """Hello, then actions until the client leaves (here, or relayed to the process that drives the table)."""
    try:
        table = await hub.get(table_id) if hub.cluster is None else None
        text = await read_hello(websocket)
        if hub.cluster is not None:
            await hub.cluster.serve_relayed(websocket, table_id, text, address)
            return
        client = Client(None, socket_base_url(websocket))
        await admit(client, table, hub, text, dict(websocket.scope["headers"]), websocket.cookies.get(SESSION_COOKIE))
    except Refused as e:
        await refuse(websocket, e.code, e.message)
        return
    except WebSocketDisconnect:
        return
    writer = asyncio.create_task(write(websocket, client))
    try:
        await serve_messages(client, table, hub, address, lambda: receive_text(websocket))
    finally:
        table.detach(client)
        client.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(writer, 2)
        writer.cancel()


async def admit(client: Client, table: Table, hub: Hub, hello: str, headers: dict[bytes, bytes],
                session: str | None) -> None:
    """Seat a client as its hello asks (checked where the table is driven, whichever process its socket reached),
    within the table's room, and attach it: a welcome and every event of its seat from the first."""
    seat, account = await seat_from_hello(hello, table, hub, headers, session)
    table.check_room(seat)
    client.seat, client.events_sent = seat, 0
    if account is not None:  # seated by a session: closed when that session ends
        client.account_id, client.session_hash = account.id, token_hash(session)
    table.attach(client)


def socket_base_url(websocket: WebSocket) -> str:
    """The site's address as the client reached it (for the links the server sends it)."""
    return str(websocket.base_url).replace("ws://", "http://", 1).replace("wss://", "https://", 1)


async def receive_text(websocket: WebSocket) -> str | None:
    """The client's next message as text (a binary frame decoded), or None when it has gone."""
    try:
        message = await websocket.receive()
    except WebSocketDisconnect:
        return None
    if message["type"] == "websocket.disconnect":
        return None
    text = message.get("text")
    if text is None:
        text = (message.get("bytes") or b"").decode("utf-8", "replace")
    return text


async def serve_messages(client: Client, table: Table, hub: Hub, address: str,
                         receive: Callable[[], Awaitable[str | None]]) -> None:
    """Carry out the client's messages until it leaves (`receive` gives None), floods, or is dropped."""
    while not client.dropped:
        text = await receive()
        if text is None or not await take(client, table, hub, address, text):
            break


async def take(client: Client, table: Table, hub: Hub, address: str, text: str) -> bool:
    """One message of a client, within its seat's message rate; False when the connection is to be closed (a
    flood)."""
    # A seat's bucket (a spectator's: its address's) outlives the socket: reconnecting refills nothing.
    limits = hub.limits
    limit = hub.message_limits((address, table.id, client.seat))
    if not limit.allow():
        limit.strikes += 1
        if limit.strikes >= limits.strikes:
            client.send(error("flood", "too many messages; the connection is closed"))
            return False
        client.send(error("slow_down", f"too many messages: at most {limits.message_rate:g} a second; this one is "
                                       "ignored"))
        return True
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_MESSAGE_BYTES:
        client.send(error("too_large", f"a message is at most {MAX_MESSAGE_BYTES} bytes, not {size}"))
        return True
    if await handle(client, table, text):
        limit.refund()
    return True


async def read_hello(websocket: WebSocket) -> str:
    """The client's first message (its hello, checked by `seat_from_hello`)."""
    try:
        text = await asyncio.wait_for(websocket.receive_text(), HELLO_SECONDS)
    except TimeoutError:
        raise Refused("no_hello", f"say hello within {HELLO_SECONDS} s: {{\"type\": \"hello\", \"token\": ...}}")
    except KeyError:  # a binary frame
        raise Refused("bad_message", "messages are JSON text") from None
    if len(text.encode("utf-8", "surrogatepass")) > MAX_MESSAGE_BYTES:
        raise Refused("too_large", f"a message is at most {MAX_MESSAGE_BYTES} bytes")
    return text


async def seat_from_hello(text: str, table: Table, hub: Hub, headers: dict[bytes, bytes],
                          session: str | None) -> tuple[int | None, Account | None]:
    """The seat a hello asks for: its token's, or its account's (and that account, from the `session` cookie of
    a socket opened by the site's own pages, as `headers` tell), or None to watch a public table."""
    try:
        hello = ClientMessage.validate_json(text)
    except ValidationError as e:
        if _hello_with_broken_token(text):
            raise Refused("bad_token", "a seat token is text (the 32 characters your join answered); this one is "
                                       "not valid text") from None
        raise Refused("bad_message", "the first message must be hello: " + describe_validation(e.errors())) from None
    if not isinstance(hello, Hello):
        raise Refused("bad_message", "the first message must be hello, with your seat token or none to watch")
    if hello.protocol != PROTOCOL:
        raise Refused("protocol", f"this server speaks protocol {PROTOCOL}, not {hello.protocol}")
    if hello.account:
        return await _account_seat(table, hub, headers, session)
    if hello.token is None:
        if not table.settings.get("public", True):
            raise Refused("private", "this table is private: only its players may connect")
        return None, None
    seat = table.seat_for_token(hello.token)
    if seat is None:
        raise Refused("bad_token", "this token holds no seat at this table")
    return seat, None


async def _account_seat(table: Table, hub: Hub, headers: dict[bytes, bytes],
                        session: str | None) -> tuple[int, Account]:
    """The seat of the account whose session cookie the socket carries; a socket opened by a page of another site
    gets none (browsers send cookies with any site's sockets)."""
    if not same_site(headers):
        raise Refused("cross_site", "a page of another site may not sit at a table as your account")
    account = await hub.accounts.account_for(session)
    if account is None:
        raise Refused("login", "log in to sit as your account (or say hello with your seat token)")
    seat = table.seat_for_account(account.id)
    if seat is None:
        raise Refused("not_seated", f"{account.name} holds no seat at this table")
    return seat, account


def _hello_with_broken_token(text: str) -> bool:
    """Whether `text` is a hello whose token is no valid text (a lone surrogate escape, say)."""
    try:
        message = json.loads(text)
    except ValueError:
        return False
    token = message.get("token") if isinstance(message, dict) and message.get("type") == "hello" else None
    if not isinstance(token, str):
        return False
    try:
        token.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


async def handle(client: Client, table: Table, text: str) -> bool:
    """Carry out one client message; True if it was an accepted move."""
    try:
        message = ClientMessage.validate_json(text)
    except ValidationError as e:
        client.send(error("bad_message", describe_validation(e.errors())))
        return False
    if isinstance(message, Hello):
        client.send(error("bad_message", "hello comes once, at the start"))
    elif isinstance(message, (Act, Preview, Say)):
        if client.seat is None:
            client.send(error("spectator", SPECTATORS_MAY_NOT[type(message)]))
            return False
        try:
            return await _carry_out(client, table, message)
        except Refused as e:
            client.send(error(e.code, e.message))
    else:
        client.send(Pong())
    return False


async def _carry_out(client: Client, table: Table, message: Act | Preview | Say) -> bool:
    """A seated client's action, preview or chat line; True if it was an accepted move."""
    if isinstance(message, Act):
        return await table.submit(client.seat, message.steps(), at=message.at)
    if isinstance(message, Preview):
        client.send(table.preview(client.seat, message.actions))
    else:
        table.say(client.seat, message.text)
    return False


async def write(websocket: WebSocket, client: Client) -> None:
    """Send the client's outbox in order; None closes the socket."""
    try:
        while True:
            text = await client.outbox.get()
            if text is None:
                break
            await websocket.send_text(text)
    except Exception:  # the peer went away; the reader notices and detaches
        pass
    with contextlib.suppress(Exception):
        await websocket.close()


async def refuse(websocket: WebSocket, code: str, message: str) -> None:
    with contextlib.suppress(Exception):
        await websocket.send_text(error(code, message).model_dump_json())
        await websocket.close(code=4000 + STATUS_BY_CODE.get(code, 400))


def client_address(connection: HTTPConnection) -> str:
    """The client's address (behind a trusted proxy, the address the proxy forwarded)."""
    return connection.client.host if connection.client is not None else "unknown"


def error(code: str, message: str) -> Error:
    return Error(code=code, message=message)


def describe_validation(errors: list[dict]) -> str:
    """Pydantic's errors in one line: `field: what is wrong; ...`."""
    parts = []
    for found in errors[:5]:
        where = ".".join(str(p) for p in found.get("loc", ()) if p not in ("body",))
        parts.append(f"{where}: {found.get('msg')}" if where else str(found.get("msg")))
    return "; ".join(parts)
