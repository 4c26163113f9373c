"""The table server: an HTTP JSON API (FastAPI, with OpenAPI docs at /docs) and one WebSocket per client.

`create_app(db_url)` builds the application; `ninjatable serve` runs it with uvicorn.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import logging
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import Cookie, FastAPI, Header, Query, Request, Response, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, PlainTextResponse
from fastapi.staticfiles import StaticFiles
from pydantic import ValidationError
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..bots import available_bots
from ..core import NinjatableError, all_games, get_game
from .accounts import COOKIE_DAYS, SESSION_COOKIE, Account, address_group, check_name
from .analyses import Analyses
from .botpool import BotPool
from .config import Limits, Operation
from .health import Readiness, database_check
from .hub import Hub
from .metrics import CONTENT_TYPE, Metrics
from .pages import PAGE_HEADERS, STATIC, page_html, replay_frames, rules_html
from .people import leaderboard, person_page, seats_of
from .protocol import (
    MAX_MESSAGE_BYTES,
    PROTOCOL,
    Act,
    AnalysisStatus,
    ClientMessage,
    Created,
    CreateTable,
    Credentials,
    Error,
    ErrorBody,
    Hello,
    Hint,
    Joined,
    JoinTable,
    Me,
    PasswordChange,
    PlayAction,
    Pong,
    Preview,
    PublicState,
    Say,
    TableInfo,
    TableSummary,
    Update,
    protocol_schema,
)
from .security import RateLimits, SameSiteWrites, SecurityHeaders, same_site, token_hash
from .store import Store, accounts
from .tables import Client, Refused, Table

log = logging.getLogger("ninjatable.server")

HELLO_SECONDS = 10  # a socket that does not say hello in time is closed

# How uvicorn serves the app: frames over 64 KiB close the socket (the protocol's own limit is far below that);
# no per-message compression, since views are small and compressing every one would cost more CPU than it saves.
UVICORN_SETTINGS: dict[str, Any] = {"log_level": "warning", "ws_max_size": 1 << 16, "ws_per_message_deflate": False}

SessionCookie = Annotated[str | None, Cookie(alias=SESSION_COOKIE, description="The session of a logged-in browser "
                                            "(set by signup and login).")]

STATUS_BY_CODE = {
    "no_table": 404, "no_file": 404, "bad_token": 403, "private": 403, "not_finished": 409, "started": 409, "full": 409,
    "taken": 409, "not_started": 409, "over": 409, "illegal": 409, "not_multi": 409, "storage": 503,
    "bad_seat": 400, "slow_down": 429, "too_many_sockets": 429, "too_large": 413,
    "bad_login": 401, "login": 401, "name_taken": 409, "no_person": 404, "seated": 409, "no_offer": 409,
    "not_seated": 403, "cross_site": 403, "logged_out": 401, "busy": 429, "no_hints": 403, "not_your_move": 409, "no_hint": 503,
    "closed": 410,
}
# The codes of HTTP errors that no route raised (an unknown address, a body that cannot be read).
CODE_BY_STATUS = {400: "bad_request", 404: "not_found", 405: "method_not_allowed", 413: "too_large"}


def create_app(db_url: str, bot_workers: int = 2, bot_kind: str = "process", limits: Limits | None = None,
               operation: Operation | None = None) -> FastAPI:
    """The application, storing its tables at `db_url` (sqlite:///file or postgresql://...), within `limits`, run
    as `operation` says (metrics, abandoned tables)."""
    limits = (limits or Limits()).check()
    operation = (operation or Operation()).check()
    store = Store(db_url)
    bots = BotPool(bot_workers, bot_kind)
    metrics = Metrics()
    hub = Hub(store, bots, limits, metrics=metrics, abandoned=operation.abandoned)
    analyses = Analyses(store, bots, limits)
    metrics.watch(hub, bots, analyses)
    readiness = Readiness({"database": database_check(store)})  # and, with several processes, Redis
    hint_limits = RateLimits(limits.hints_per_minute / 60, limits.hints_burst)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await store.open()
        await hub.start()
        yield
        await hub.settled()
        analyses.stop()
        hub.stop()
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
        table = await hub.get(table_id)
        watchable = table.started and table.settings.get("public", True)  # a private table shows only its seats
        return {"table": table.info(str(request.base_url)), "view": table.state.view(None) if watchable else None}

    @app.post("/api/tables/{table_id}/join", responses=errors, tags=["tables"])
    async def join(request: Request, table_id: str, body: JoinTable, session: SessionCookie = None) -> Joined:
        """Take a seat, as your account when logged in (or a seat kept for it), else by name as a guest; keep the
        token of the answer, it reconnects the seat."""
        table = await hub.get(table_id)
        account = await hub.accounts.account_for(session)
        if account is not None:
            seat, token = await table.join(account.name, body.seat, account.id)
        else:
            name = check_name(body.name)
            await hub.check_guest_name(name)
            seat, token = await table.join(name, body.seat)
        return {"table": table.info(str(request.base_url)), "seat": seat, "token": token}

    @app.post("/api/tables/{table_id}/rematch", responses=errors, tags=["tables"])
    async def rematch(request: Request, response: Response, table_id: str, session: SessionCookie = None,
                      authorization: Annotated[str | None, Header()] = None) -> Joined:
        """Play again: the same game, options, bots and settings at a new table, seats rotated by one, made by the
        first player of the finished table to ask (as its account, or with `Authorization: Bearer <seat token>`);
        each asker takes their seat there, and each other account's seat is kept for it until it accepts (joins)
        or declines."""
        old = await hub.get(table_id)
        seat = await _seat_of_asker(old, session, authorization)
        new, taken, token, made = await hub.rematch(old, seat)
        response.status_code = 201 if made else 200
        return {"table": new.info(str(request.base_url)), "seat": taken, "token": token or ""}

    @app.post("/api/tables/{table_id}/decline", responses=errors, tags=["people"])
    async def decline(request: Request, table_id: str, session: SessionCookie = None) -> TableInfo:
        """Leave the seat kept for you at a rematch open for anyone (logged in)."""
        account = await _logged_in(session)
        table = await hub.get(table_id)
        await table.decline(account.id)
        return table.info(str(request.base_url))

    async def _check_reader(table: Table, session: str | None, authorization: str | None) -> None:
        """A private table's game is told to its players only."""
        if not table.settings.get("public", True):
            await _seat_of_asker(table, session, authorization)

    async def _seat_of_asker(table: Table, session: str | None, authorization: str | None) -> int:
        """The seat of the person asking: their account's, or their seat token's."""
        account = await hub.accounts.account_for(session)
        seat = table.seat_for_account(account.id) if account is not None else None
        if seat is None:
            seat = bearer_seat(table, authorization)
        if seat is None:
            raise Refused("bad_token", "only a player of this table may ask: log in as the account that sat here, "
                                       "or give your seat token as the header Authorization: Bearer <token>")
        return seat

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

    @app.post("/api/account/signup", status_code=201, responses=errors, tags=["people"])
    async def signup(request: Request, response: Response, body: Credentials, session: SessionCookie = None) -> Me:
        """Make an account (a name unique regardless of case, a password of 8 to 256 characters) and log in."""
        account, session_id = await hub.accounts.signup(body.name, body.password, client_address(request))
        await hub.accounts.end_session(session)
        _start_session(request, response, session_id)
        return Me(name=account.name)

    @app.post("/api/account/login", responses=errors, tags=["people"])
    async def login(request: Request, response: Response, body: Credentials, session: SessionCookie = None) -> Me:
        """Log in: a new session cookie (any session this browser had ends). Wrong name or password: 401."""
        account, session_id = await hub.accounts.login(body.name, body.password, client_address(request))
        await hub.accounts.end_session(session)
        _start_session(request, response, session_id)
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
            table = hub.tables.get(row.id)
            if table is None:
                continue
            entry = {"id": table.id, "game": table.game.id, "title": table.game.title, "players": table.players,
                     "status": table.status, "seat": row.seat, "rated": table.rated, "url": f"/t/{table.id}"}
            if row.account_id == account.id:
                entry["your_move"] = table.started and row.seat in table.state.to_move()
                playing.append(entry)
            elif row.kind == "open":
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
        table = await hub.get(table_id)
        if table.status != "finished":
            raise Refused("not_finished", "the record is available once the game is over (it shows every card)")
        await _check_reader(table, session, authorization)
        return table.record().to_dict()

    @app.get("/api/tables/{table_id}/replay", responses=errors, tags=["tables"])
    async def replay(table_id: str, seat: Annotated[int | None, Query(description="A seat's own view; none: the "
                                                                        "spectator's")] = None,
                     session: SessionCookie = None,
                     authorization: Annotated[str | None, Header()] = None) -> dict[str, Any]:
        """A finished game move by move, as the spectator or one seat saw it: each move and the view after it (a
        private table's to its players only, as its record)."""
        table = await hub.get(table_id)
        if table.status != "finished":
            raise Refused("not_finished", "the replay is available once the game is over")
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
        table = await hub.get(table_id)
        if table.status != "finished":
            raise Refused("not_finished", "the analysis is of a finished game (during play it would tell the "
                                          "players' secrets)")
        await _check_reader(table, session, authorization)
        return table

    @app.post("/api/tables/{table_id}/hint", responses=errors, tags=["play"])
    async def hint(table_id: str, session: SessionCookie = None,
                   authorization: Annotated[str | None, Header()] = None) -> Hint:
        """At a table that gives hints (setting `hints`): the move the table's bot would make for your seat now,
        from your seat's information alone (as its account, or `Authorization: Bearer <seat token>`)."""
        table = await hub.get(table_id)
        seat = await _seat_of_asker(table, session, authorization)
        if table.settings.get("hints", False) and not hint_limits(f"{table.id}:{seat}").allow():
            raise Refused("slow_down", f"at most {limits.hints_per_minute:g} hints a minute")
        action, version, draft = await table.hint(seat)
        return Hint(action=action, label=table.state.action_label(action), version=version, draft=draft,
                    bot=table.settings["bot"])

    @app.get("/api/tables/{table_id}/seat", responses=errors, tags=["play"])
    async def seat_state(table_id: str, authorization: Annotated[str | None, Header()] = None) -> Update:
        """Your seat's view, legal actions and events (header `Authorization: Bearer <token>`)."""
        table, seat = await _seated(table_id, authorization)
        return table.update_for(Client(seat))

    @app.post("/api/tables/{table_id}/actions", responses=errors, tags=["play"])
    async def act(table_id: str, body: PlayAction, authorization: Annotated[str | None, Header()] = None) -> Update:
        """Play an action for your seat (header `Authorization: Bearer <token>`); answers your seat's new state."""
        table, seat = await _seated(table_id, authorization)
        await table.submit(seat, body.action)
        return table.update_for(Client(seat))

    async def _seated(table_id: str, authorization: str | None) -> tuple[Table, int]:
        table = await hub.get(table_id)
        seat = bearer_seat(table, authorization)
        if seat is None:
            raise Refused("bad_token", "give your seat token as the header Authorization: Bearer <token>")
        return table, seat

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


async def serve_socket(websocket: WebSocket, hub: Hub, table_id: str) -> None:
    """One client's connection, counted against its address's sockets until it ends."""
    address = client_address(websocket)
    try:
        hub.socket_opened(address)
    except Refused as e:
        await _refuse(websocket, e.code, e.message)
        return
    try:
        await _serve_client(websocket, hub, table_id, address)
    finally:
        hub.socket_closed(address)


async def _serve_client(websocket: WebSocket, hub: Hub, table_id: str, address: str) -> None:
    """Hello, then actions until the client leaves; every refusal is an error message."""
    try:
        table = await hub.get(table_id)
        seat, account = await _hello(websocket, table, hub)
        table.check_room(seat)
    except Refused as e:
        await _refuse(websocket, e.code, e.message)
        return
    except WebSocketDisconnect:
        return
    base = str(websocket.base_url).replace("ws://", "http://", 1).replace("wss://", "https://", 1)
    client = Client(seat, base)
    if account is not None:  # seated by a session: closed when that session ends
        client.account_id, client.session_hash = account.id, token_hash(websocket.cookies[SESSION_COOKIE])
    writer = asyncio.create_task(_write(websocket, client))
    table.attach(client)
    # A seat's bucket (a spectator's: its address's) outlives the socket: reconnecting refills nothing.
    limits = hub.limits
    limit = hub.message_limits((address, table.id, seat))
    try:
        while not client.dropped:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            if text is None:
                text = (message.get("bytes") or b"").decode("utf-8", "replace")
            if not limit.allow():
                limit.strikes += 1
                if limit.strikes >= limits.strikes:
                    client.send(_error("flood", "too many messages; the connection is closed"))
                    break
                client.send(_error("slow_down", f"too many messages: at most {limits.message_rate:g} a second; "
                                                "this one is ignored"))
                continue
            size = len(text.encode("utf-8", "surrogatepass"))
            if size > MAX_MESSAGE_BYTES:
                client.send(_error("too_large", f"a message is at most {MAX_MESSAGE_BYTES} bytes, not {size}"))
                continue
            if await _handle(client, table, text):
                limit.refund()
    except WebSocketDisconnect:
        pass
    finally:
        table.detach(client)
        client.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(writer, 2)
        writer.cancel()


async def _hello(websocket: WebSocket, table: Table, hub: Hub) -> tuple[int | None, Account | None]:
    """Read the client's hello: its seat from its token or its account (and that account), or None to watch a
    public table."""
    try:
        text = await asyncio.wait_for(websocket.receive_text(), HELLO_SECONDS)
    except TimeoutError:
        raise Refused("no_hello", f"say hello within {HELLO_SECONDS} s: {{\"type\": \"hello\", \"token\": ...}}")
    except KeyError:  # a binary frame
        raise Refused("bad_message", "messages are JSON text") from None
    if len(text.encode("utf-8", "surrogatepass")) > MAX_MESSAGE_BYTES:
        raise Refused("too_large", f"a message is at most {MAX_MESSAGE_BYTES} bytes")
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
        return await _account_seat(websocket, table, hub)
    if hello.token is None:
        if not table.settings.get("public", True):
            raise Refused("private", "this table is private: only its players may connect")
        return None, None
    seat = table.seat_for_token(hello.token)
    if seat is None:
        raise Refused("bad_token", "this token holds no seat at this table")
    return seat, None


async def _account_seat(websocket: WebSocket, table: Table, hub: Hub) -> tuple[int, Account]:
    """The seat of the account whose session cookie the socket carries; a socket opened by a page of another site
    gets none (browsers send cookies with any site's sockets)."""
    if not same_site(dict(websocket.scope["headers"])):
        raise Refused("cross_site", "a page of another site may not sit at a table as your account")
    account = await hub.accounts.account_for(websocket.cookies.get(SESSION_COOKIE))
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


async def _handle(client: Client, table: Table, text: str) -> bool:
    """Carry out one client message; True if it was an accepted move."""
    try:
        message = ClientMessage.validate_json(text)
    except ValidationError as e:
        client.send(_error("bad_message", describe_validation(e.errors())))
        return False
    if isinstance(message, Hello):
        client.send(_error("bad_message", "hello comes once, at the start"))
    elif isinstance(message, Act):
        if client.seat is None:
            client.send(_error("spectator", "spectators watch; they do not act"))
            return False
        try:
            return await table.submit(client.seat, message.steps(), at=message.at)
        except Refused as e:
            client.send(_error(e.code, e.message))
    elif isinstance(message, Preview):
        if client.seat is None:
            client.send(_error("spectator", "spectators watch; they do not act"))
            return False
        try:
            client.send(table.preview(client.seat, message.actions))
        except Refused as e:
            client.send(_error(e.code, e.message))
    elif isinstance(message, Say):
        if client.seat is None:
            client.send(_error("spectator", "spectators read the chat; only the players write in it"))
            return False
        try:
            table.say(client.seat, message.text)
        except Refused as e:
            client.send(_error(e.code, e.message))
    else:
        client.send(Pong())
    return False


async def _write(websocket: WebSocket, client: Client) -> None:
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


async def _refuse(websocket: WebSocket, code: str, message: str) -> None:
    with contextlib.suppress(Exception):
        await websocket.send_text(_error(code, message).model_dump_json())
        await websocket.close(code=4000 + STATUS_BY_CODE.get(code, 400))


def bearer_seat(table: Table, authorization: str | None) -> int | None:
    """The seat whose token the header `Authorization: Bearer <token>` gives, if any."""
    scheme, _, token = (authorization or "").partition(" ")
    return table.seat_for_token(token.strip()) if scheme.lower() == "bearer" else None


def client_address(connection: Request | WebSocket) -> str:
    """The client's address (behind a trusted proxy, the address the proxy forwarded)."""
    return connection.client.host if connection.client is not None else "unknown"


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


def _error(code: str, message: str) -> Error:
    return Error(code=code, message=message)


def describe_validation(errors: list[dict[str, Any]]) -> str:
    """Pydantic's errors in one line: `field: what is wrong; ...`."""
    parts = []
    for error in errors[:5]:
        where = ".".join(str(p) for p in error.get("loc", ()) if p not in ("body",))
        parts.append(f"{where}: {error.get('msg')}" if where else str(error.get("msg")))
    return "; ".join(parts)
