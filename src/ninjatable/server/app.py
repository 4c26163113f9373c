"""The table server: an HTTP JSON API (FastAPI, with OpenAPI docs at /docs) and one WebSocket per client.

`create_app(db_url)` builds the application; `ninjatable serve` runs it with uvicorn.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import Cookie, FastAPI, Header, Query, Request, Response, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, PlainTextResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..bots import available_bots
from ..core import NinjatableError, all_games, get_game
from .accounts import COOKIE_DAYS, DEVICE_COOKIE, SESSION_COOKIE, Account, address_group
from .analyses import Analyses
from .botpool import BotPool
from .cluster import Cluster
from .config import Limits, Operation
from .health import Readiness, database_check
from .hub import Hub
from .metrics import CONTENT_TYPE, Metrics
from .operations import seat_of_asker
from .pages import PAGE_HEADERS, STATIC, page_html, replay_frames, rules_html
from .people import leaderboard, person_page, seats_of
from .protocol import (
    PROTOCOL,
    AnalysisStatus,
    Created,
    CreateTable,
    Credentials,
    ErrorBody,
    Hint,
    Joined,
    JoinTable,
    Me,
    PasswordChange,
    PlayAction,
    PublicState,
    TableInfo,
    TableSummary,
    Update,
    protocol_schema,
)
from .security import SameSiteWrites, SecurityHeaders, token_hash
from .sockets import STATUS_BY_CODE, client_address, describe_validation, serve_socket
from .store import Store, accounts, is_sqlite
from .tables import Refused, Table

log = logging.getLogger("ninjatable.server")


# How uvicorn serves the app: frames over 64 KiB close the socket (the protocol's own limit is far below that);
# no per-message compression, since views are small and compressing every one would cost more CPU than it saves.
UVICORN_SETTINGS: dict[str, Any] = {"log_level": "warning", "ws_max_size": 1 << 16, "ws_per_message_deflate": False}

SessionCookie = Annotated[str | None, Cookie(alias=SESSION_COOKIE, description="The session of a logged-in browser "
                                            "(set by signup and login).")]

CLUSTER_NEEDS_POSTGRESQL = ("--redis shares the tables of several processes through one database: give --db "
                            "postgresql://..., not SQLite (a file only one process writes)")

# The codes of HTTP errors that no route raised (an unknown address, a body that cannot be read).
CODE_BY_STATUS = {400: "bad_request", 404: "not_found", 405: "method_not_allowed", 413: "too_large"}


def create_app(db_url: str, bot_workers: int = 2, bot_kind: str = "process", limits: Limits | None = None,
               operation: Operation | None = None) -> FastAPI:
    """The application, storing its tables at `db_url` (sqlite:///file or postgresql://...), within `limits`, run
    as `operation` says (metrics, abandoned tables; with `redis`, one process of several sharing the database)."""
    limits = (limits or Limits()).check()
    operation = (operation or Operation()).check()
    if operation.redis and is_sqlite(db_url):
        raise ValueError(CLUSTER_NEEDS_POSTGRESQL)
    store = Store(db_url)
    bots = BotPool(bot_workers, bot_kind)
    metrics = Metrics()
    hub = Hub(store, bots, limits, metrics=metrics, abandoned=operation.abandoned)
    checks = {"database": database_check(store)}
    if operation.redis:
        hub.cluster = Cluster(hub, operation.redis, operation.lease_seconds)
        checks["redis"] = hub.cluster.bus.ping
    analyses = Analyses(store, bots, limits)
    metrics.watch(hub, bots, analyses)
    readiness = Readiness(checks)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await store.open()
        await hub.start()
        yield
        if hub.cluster is not None:
            hub.stop_sweeping()  # it locks tables too: not while they are being handed over
            await hub.cluster.hand_over()
        await hub.settled()
        analyses.stop()
        hub.stop()
        if hub.cluster is not None:
            await hub.cluster.stop()
        bots.close()
        await store.close()

    app = FastAPI(
        title="ninjatable",
        summary="Online tables for ninja card games: create, join, play live over a WebSocket, watch.",
        version=str(PROTOCOL),
        lifespan=lifespan,
    )
    app.state.hub = hub
    app.state.analyses = analyses
    app.state.metrics = metrics
    app.add_middleware(GZipMiddleware, minimum_size=2048)
    app.add_middleware(BodyLimit, max_bytes=limits.body_bytes)
    app.add_middleware(SameSiteWrites, cookie=SESSION_COOKIE)
    app.add_middleware(SecurityHeaders)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.exception_handler(Refused)
    async def refused(_request: Request, e: Refused) -> JSONResponse:
        return JSONResponse({"error": e.message, "code": e.code}, status_code=STATUS_BY_CODE.get(e.code, 400))

    @app.exception_handler(HTTPException)
    async def http_error(_request: Request, e: HTTPException) -> JSONResponse:
        # Errors no route raised (an unknown address, a body that is not JSON) have the same body as the others.
        message = str(e.detail) + (f": {e.__cause__}" if e.__cause__ is not None else "")
        code = CODE_BY_STATUS.get(e.status_code, "bad_request")
        return JSONResponse({"error": message, "code": code}, status_code=e.status_code, headers=e.headers)

    @app.exception_handler(NinjatableError)
    async def bad_input(_request: Request, e: NinjatableError) -> JSONResponse:
        return JSONResponse({"error": str(e), "code": "bad_request"}, status_code=400)

    @app.exception_handler(RequestValidationError)
    async def malformed(_request: Request, e: RequestValidationError) -> JSONResponse:
        return JSONResponse({"error": describe_validation(e.errors()), "code": "malformed"}, status_code=422)

    errors: dict[int | str, dict[str, Any]] = {code: {"model": ErrorBody}
                                               for code in (400, 403, 404, 409, 413, 422, 429)}

    @app.get("/api/games", tags=["games"])
    async def games() -> list[dict[str, Any]]:
        """Every game: id, title, summary, player counts, options with defaults and descriptions."""
        return [g.describe() for g in all_games()]

    @app.get("/api/games/{game_id}/rules", responses=errors, tags=["games"])
    async def rules(game_id: str) -> dict[str, str]:
        """A game's rules as implemented (the text `ninjatable rules <id>` shows): `markdown`, and `html` made from
        it for the table's Rules panel."""
        game = get_game(game_id)
        text = game.rules_text()
        return {"game": game.id, "title": game.title, "markdown": text, "html": rules_html(text)}

    @app.get("/api/protocol", tags=["play"])
    async def protocol() -> dict[str, Any]:
        """The WebSocket protocol of `/ws/tables/{id}` as JSON Schema: `version`, the messages a `client` may send
        and those the `server` sends (each a `type`)."""
        return protocol_schema()

    @app.get("/api/bots", tags=["games"])
    async def bots_list() -> list[str]:
        """The bots a seat may be given (with parameters, e.g. ismcts:ms=500)."""
        return available_bots()

    @app.get("/api/tables", tags=["tables"])
    async def list_tables(request: Request) -> list[TableSummary]:
        """The public tables, newest first."""
        return await hub.listing(str(request.base_url))

    @app.post("/api/tables", status_code=201, responses=errors, tags=["tables"])
    async def create_table(request: Request, body: CreateTable, session: SessionCookie = None) -> Created:
        """Create a table; the answer holds the invite link and the tokens of the seats taken now. Logged in, a
        person's seat without a name is yours; a rated table needs you logged in."""
        hub.check_create_rate(client_address(request))
        table, tokens = await hub.create(body, await hub.accounts.account_for(session))
        return {"table": table.info(str(request.base_url)), "tokens": [{"seat": s, "token": t} for s, t in tokens]}

    @app.get("/api/tables/{table_id}", responses=errors, tags=["tables"])
    async def public_state(request: Request, table_id: str) -> PublicState:
        """A table as a spectator sees it: seats, status, and the public view once play has begun (a public table's)."""
        return await hub.run(table_id, "public_state", base_url=str(request.base_url))

    @app.post("/api/tables/{table_id}/join", responses=errors, tags=["tables"])
    async def join(request: Request, table_id: str, body: JoinTable, session: SessionCookie = None) -> Joined:
        """Take a seat, as your account when logged in (or a seat kept for it), else by name as a guest; keep the
        token of the answer, it reconnects the seat."""
        account = await hub.accounts.account_for(session)
        return await hub.run(table_id, "join", base_url=str(request.base_url), name=body.name, seat=body.seat,
                             account=None if account is None else (account.id, account.name))

    @app.post("/api/tables/{table_id}/rematch", responses=errors, tags=["tables"])
    async def rematch(request: Request, response: Response, table_id: str, session: SessionCookie = None,
                      authorization: Annotated[str | None, Header()] = None) -> Joined:
        """Play again: the same game, options, bots and settings at a new table, seats rotated by one, made by the
        first player of the finished table to ask (as its account, or with `Authorization: Bearer <seat token>`);
        each asker takes their seat there, and each other account's seat is kept for it until it accepts (joins)
        or declines."""
        old = await hub.finished_table(table_id, "play again once the game is over")
        seat = await _seat_of_asker(old, session, authorization)
        joined, made = await hub.rematch(old, seat, str(request.base_url))
        response.status_code = 201 if made else 200
        return joined

    @app.post("/api/tables/{table_id}/decline", responses=errors, tags=["people"])
    async def decline(request: Request, table_id: str, session: SessionCookie = None) -> TableInfo:
        """Leave the seat kept for you at a rematch open for anyone (logged in)."""
        account = await _logged_in(session)
        return await hub.run(table_id, "decline", base_url=str(request.base_url), account_id=account.id)

    async def _check_reader(table: Table, session: str | None, authorization: str | None) -> None:
        """A private table's game is told to its players only."""
        if not table.settings.get("public", True):
            await _seat_of_asker(table, session, authorization)

    async def _seat_of_asker(table: Table, session: str | None, authorization: str | None) -> int:
        """The seat of the person asking: their account's, or their seat token's."""
        account = await hub.accounts.account_for(session)
        return seat_of_asker(table, account.id if account is not None else None, bearer_token(authorization))

    # --- accounts ------------------------------------------------------------------------------------------
    async def _logged_in(session: str | None) -> Account:
        account = await hub.accounts.account_for(session)
        if account is None:
            raise Refused("login", "log in first (POST /api/account/login)")
        return account

    def _start_session(request: Request, response: Response, session_id: str) -> None:
        response.set_cookie(SESSION_COOKIE, session_id, max_age=int(COOKIE_DAYS * 86400), path="/", httponly=True,
                            samesite="lax", secure=request.url.scheme == "https")

    @app.get("/api/account", tags=["people"])
    async def me(session: SessionCookie = None) -> Me:
        """Who is logged in in this browser: the account's name, or None."""
        account = await hub.accounts.account_for(session)
        return Me(name=account.name if account else None)

    def _remember_device(request: Request, response: Response, device_id: str) -> None:
        """Give the browser its device cookie, sent back to the account's addresses only (logging in needs it)."""
        response.set_cookie(DEVICE_COOKIE, device_id, max_age=int(COOKIE_DAYS * 86400), path="/api/account",
                            httponly=True, samesite="lax", secure=request.url.scheme == "https")

    @app.post("/api/account/signup", status_code=201, responses=errors, tags=["people"])
    async def signup(request: Request, response: Response, body: Credentials, session: SessionCookie = None,
                     device: Annotated[str | None, Cookie(alias=DEVICE_COOKIE)] = None) -> Me:
        """Make an account (a name unique regardless of case, that looks like no other account's and mixes no
        scripts to pass for another; a password of 8 to 256 characters) and log in."""
        account, session_id = await hub.accounts.signup(body.name, body.password, client_address(request))
        await hub.accounts.end_session(session)
        _start_session(request, response, session_id)
        _remember_device(request, response, await hub.accounts.new_device(account, device))
        return Me(name=account.name)

    @app.post("/api/account/login", responses=errors, tags=["people"])
    async def login(request: Request, response: Response, body: Credentials, session: SessionCookie = None,
                    device: Annotated[str | None, Cookie(alias=DEVICE_COOKIE, description="This browser's device, "
                                                         "given at its last login: strangers guessing the name do "
                                                         "not hold it back.")] = None) -> Me:
        """Log in: a new session cookie (any session this browser had ends) and a new device cookie. Wrong name or
        password: 401."""
        account, session_id = await hub.accounts.login(body.name, body.password, client_address(request), device)
        await hub.accounts.end_session(session)
        _start_session(request, response, session_id)
        _remember_device(request, response, await hub.accounts.new_device(account, device))
        return Me(name=account.name)

    @app.post("/api/account/logout", tags=["people"])
    async def logout(response: Response, session: SessionCookie = None) -> Me:
        """End this browser's session (its sockets at tables too)."""
        account = await hub.accounts.account_for(session)
        await hub.accounts.end_session(session)
        if account is not None:
            await hub.sessions_ended(account.id, token_hash(session))
        response.delete_cookie(SESSION_COOKIE, path="/")
        return Me(name=None)

    @app.post("/api/account/password", responses=errors, tags=["people"])
    async def change_password(request: Request, response: Response, body: PasswordChange,
                              session: SessionCookie = None) -> Me:
        """Change the password; every session of the account ends, and this browser gets a new one."""
        account = await _logged_in(session)
        session_id = await hub.accounts.change_password(account, body.old_password, body.new_password,
                                                        client_address(request))
        await hub.sessions_ended(account.id)
        _start_session(request, response, session_id)
        return Me(name=account.name)

    @app.get("/api/account/tables", responses=errors, tags=["people"])
    async def my_tables(session: SessionCookie = None) -> dict[str, Any]:
        """Your unfinished tables (`your_move` when a decision waits for you) and the seats kept for you."""
        account = await _logged_in(session)
        rows = await asyncio.to_thread(_read, seats_of, account.id)
        playing, offers = [], []
        for row in rows:
            try:
                entry = {**await hub.run(row.id, "summary", account_id=account.id), "seat": row.seat}
            except Refused:  # gone meanwhile (expired, closed)
                continue
            if row.account_id == account.id:
                playing.append(entry)
            elif row.kind == "open":
                entry.pop("your_move")
                offers.append({**entry, "from": row.rematch_of})
        return {"playing": playing, "offers": offers}

    @app.get("/api/people/{name:path}", responses=errors, tags=["people"])
    async def person(name: str, session: SessionCookie = None) -> dict[str, Any]:
        """A person's ratings per game with their history, games played, places, and finished games (newest
        first; their private tables only to themselves)."""
        found = await hub.accounts.find(name)
        if found is None:
            raise Refused("no_person", f"nobody is called {name!r} here")
        viewer = await hub.accounts.account_for(session)
        return await asyncio.to_thread(_read, _person_page, found.id, viewer is not None and viewer.id == found.id)

    @app.get("/api/leaderboard/{game_id}", responses=errors, tags=["people"])
    async def ranking(game_id: str) -> dict[str, Any]:
        """People and bots of one game, best rating (mu - 3 sigma) first, with the rated games behind each."""
        game = get_game(game_id)
        return {"game": game.id, "title": game.title, "entries": await asyncio.to_thread(_read, leaderboard, game.id)}

    def _read(query: Any, *args: Any) -> Any:
        with store.engine.connect() as conn:
            return query(conn, *args)

    def _person_page(conn: Any, account_id: int, own: bool) -> dict[str, Any]:
        account = conn.execute(accounts.select().where(accounts.c.id == account_id)).first()
        return person_page(conn, account, own)

    @app.get("/api/tables/{table_id}/record", responses=errors, tags=["tables"])
    async def record(table_id: str, session: SessionCookie = None,
                     authorization: Annotated[str | None, Header()] = None) -> dict[str, Any]:
        """A finished game's record, as `ninjatable replay --check` verifies it (not before the end: it tells all;
        a private table's to its players only: their account's session or `Authorization: Bearer <token>`)."""
        table = await hub.finished_table(table_id, "the record is available once the game is over (it shows every "
                                                   "card)")
        await _check_reader(table, session, authorization)
        return table.record().to_dict()

    @app.get("/api/tables/{table_id}/replay", responses=errors, tags=["tables"])
    async def replay(table_id: str, seat: Annotated[int | None, Query(description="A seat's own view; none: the "
                                                                        "spectator's")] = None,
                     session: SessionCookie = None,
                     authorization: Annotated[str | None, Header()] = None) -> dict[str, Any]:
        """A finished game move by move, as the spectator or one seat saw it: each move and the view after it (a
        private table's to its players only, as its record)."""
        table = await hub.finished_table(table_id, "the replay is available once the game is over")
        await _check_reader(table, session, authorization)
        if seat is not None and not 0 <= seat < table.players:
            raise Refused("bad_seat", f"seat {seat} does not exist; seats are 0 to {table.players - 1}")
        return {"seat": seat, "frames": replay_frames(table.record(), seat)}

    @app.get("/api/tables/{table_id}/analysis", responses=errors, tags=["tables"])
    async def analysis(table_id: str, session: SessionCookie = None,
                       authorization: Annotated[str | None, Header()] = None) -> AnalysisStatus:
        """A finished game's post-game analysis, or how far its making has come (a private table's to its players
        only, as its record)."""
        table = await _finished_for_reader(table_id, session, authorization)
        return await analyses.status(table.id)

    @app.post("/api/tables/{table_id}/analysis", status_code=202, responses=errors, tags=["tables"])
    async def analyse(request: Request, table_id: str, session: SessionCookie = None,
                      authorization: Annotated[str | None, Header()] = None) -> AnalysisStatus:
        """Ask for a finished game's post-game analysis: every decision weighed by the search from the deciding
        seat's information alone, in the bot workers no bot needs; made once, then kept. Answers at once with its
        status (poll GET for it); refused while the server makes as many as it may (`busy`)."""
        table = await _finished_for_reader(table_id, session, authorization)
        return await analyses.ask(table.id, table.record(), address_group(client_address(request)))

    async def _finished_for_reader(table_id: str, session: str | None, authorization: str | None) -> Table:
        table = await hub.finished_table(table_id, "the analysis is of a finished game (during play it would tell "
                                                   "the players' secrets)")
        await _check_reader(table, session, authorization)
        return table

    @app.post("/api/tables/{table_id}/hint", responses=errors, tags=["play"])
    async def hint(table_id: str, session: SessionCookie = None,
                   authorization: Annotated[str | None, Header()] = None) -> Hint:
        """At a table that gives hints (setting `hints`): the move the table's bot would make for your seat now,
        from your seat's information alone (as its account, or `Authorization: Bearer <seat token>`)."""
        account = await hub.accounts.account_for(session)
        return await hub.run(table_id, "hint", account_id=account.id if account is not None else None,
                             token=bearer_token(authorization))

    @app.get("/api/tables/{table_id}/seat", responses=errors, tags=["play"])
    async def seat_state(table_id: str, authorization: Annotated[str | None, Header()] = None) -> Update:
        """Your seat's view, legal actions and events (header `Authorization: Bearer <token>`)."""
        return await hub.run(table_id, "seat_state", token=bearer_token(authorization))

    @app.post("/api/tables/{table_id}/actions", responses=errors, tags=["play"])
    async def act(table_id: str, body: PlayAction, authorization: Annotated[str | None, Header()] = None) -> Update:
        """Play an action for your seat (header `Authorization: Bearer <token>`); answers your seat's new state."""
        return await hub.run(table_id, "act", token=bearer_token(authorization), action=body.action)

    @app.get("/", include_in_schema=False)
    @app.get("/login", include_in_schema=False)
    @app.get("/signup", include_in_schema=False)
    @app.get("/account", include_in_schema=False)
    @app.get("/people/{name:path}", include_in_schema=False)
    @app.get("/leaderboard", include_in_schema=False)
    @app.get("/leaderboard/{game_id}", include_in_schema=False)
    @app.get("/t/{table_id}", include_in_schema=False)
    @app.get("/t/{table_id}/watch", include_in_schema=False)
    @app.get("/t/{table_id}/replay", include_in_schema=False)
    async def page(table_id: str | None = None, name: str | None = None, game_id: str | None = None) -> HTMLResponse:
        """The browser client: one page that draws the lobby, a table or a replay, by its address."""
        return HTMLResponse(page_html(), headers=PAGE_HEADERS)

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> FileResponse:
        """Browsers ask for it on every page; the page's icon is the same SVG."""
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")

    @app.get("/games/{game_id}/{name}", include_in_schema=False)
    async def game_file(game_id: str, name: str) -> FileResponse:
        """A game's drawing for the browser (its web.js), from the game's own folder."""
        path = get_game(game_id).web_file(name) if name.endswith((".js", ".css")) else None
        if path is None:
            raise Refused("no_file", f"{game_id} has no file {name!r}")
        kind = "text/javascript" if name.endswith(".js") else "text/css"
        return FileResponse(path, media_type=kind, headers={"Cache-Control": "no-cache"})

    # --- operations: probes and metrics for whoever runs the server (cheap, no auth, no per-call log line) ----------
    @app.get("/healthz", tags=["operations"])
    async def healthz() -> dict[str, str]:
        """The process serves (a liveness probe): answers without asking the database."""
        return {"status": "ok"}

    @app.get("/readyz", tags=["operations"],
             responses={503: {"description": "A service the server needs did not answer (`error` names it)"}})
    async def readyz() -> JSONResponse:
        """The process may be sent players (a readiness probe): 200 when the database answers a trivial query, 503
        naming what failed otherwise."""
        failure = await readiness.failure()
        if failure is not None:
            return JSONResponse({"status": "unavailable", "error": failure}, status_code=503)
        return JSONResponse({"status": "ok", "checks": list(readiness.checks)})

    if operation.metrics:
        allowed = operation.networks()

        @app.get("/metrics", tags=["operations"], response_class=PlainTextResponse)
        async def metrics_text(request: Request) -> Response:
            """This process's metrics in Prometheus' text format: counts only, no table id, name or token (off
            with `serve --no-metrics`; `--metrics-from` names who may read them)."""
            if allowed and not address_in(client_address(request), allowed):
                return JSONResponse({"error": "the metrics are not shown to your address", "code": "not_allowed"},
                                    status_code=403)
            return Response(metrics.text(), media_type=CONTENT_TYPE)

    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(websocket: WebSocket, table_id: str) -> None:
        await websocket.accept()
        await serve_socket(websocket, hub, table_id)

    return app


def bearer_token(authorization: str | None) -> str | None:
    """The seat token the header `Authorization: Bearer <token>` gives, if any."""
    scheme, _, token = (authorization or "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" else None


def address_in(address: str, networks: list[ipaddress.IPv4Network | ipaddress.IPv6Network]) -> bool:
    """Whether the client's address is in one of `networks` (an address that is not one, such as "unknown", is in
    none)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:  # ::ffff:10.0.0.5 is 10.0.0.5
        ip = ip.ipv4_mapped
    return any(ip in network for network in networks)


class BodyLimit:
    """Refuse an HTTP request whose body is over `max_bytes` (413, `too_large`) without reading more of it."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_bytes):
            await self._too_large(scope, receive, send)
            return
        received = 0

        async def bounded() -> Message:
            nonlocal received
            message = await receive()
            received += len(message.get("body", b""))
            if received > self.max_bytes:  # a body sent in chunks, with no length declared
                raise HTTPException(413, self._message())
            return message

        await self.app(scope, bounded, send)

    def _message(self) -> str:
        return f"a request body is at most {self.max_bytes} bytes"

    async def _too_large(self, scope: Scope, receive: Receive, send: Send) -> None:
        body = JSONResponse({"error": self._message(), "code": "too_large"}, status_code=413,
                            headers={"Connection": "close"})
        await body(scope, receive, send)
