"""The messages of the table server, as pydantic models: HTTP bodies and the WebSocket protocol.

Every WebSocket message is one JSON object with a `type`. A client opens `/ws/tables/{id}`, sends `hello` (with
its seat token, or none to watch), and then `act` with an action id whenever its seat may move; the server
answers `welcome` once, then `update` on every change, and `error` for anything it refuses.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, model_validator

PROTOCOL = 1
MAX_MESSAGE_BYTES = 4096  # a client message larger than this is refused (the connection stays open)
MAX_SEED = 2**63 - 1
MAX_STEPS = 64  # actions sent together (the steps of one multi-step choice)


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


# --- HTTP ----------------------------------------------------------------------------------------------
class SeatRequest(Strict):
    """One seat of a new table: left open for someone to join, taken by a person now, or given to a bot."""

    kind: Literal["open", "person", "bot"] = "open"
    name: str | None = Field(None, description="The person's name (kind person); left out by a logged-in creator, "
                             "the seat is their account's.")
    bot: str | None = Field(None, description="The bot, e.g. heuristic, random, ismcts:ms=500 (kind bot).")


class TableSettings(Strict):
    """How a table runs: grace before a bot takes a person's seat, clocks, the takeover bot, visibility."""

    grace_seconds: float = Field(60.0, ge=0, le=3600, description="A person away longer than this is played by "
                                 "the table's bot until they come back.")
    clock_seconds: float | None = Field(None, ge=1, le=3600, description="Time for each decision of a person; on "
                                        "expiry the bot decides for them. None: no clock.")
    bot: str = Field("heuristic", description="The bot that plays a seat whose person is away or out of time.")
    public: bool = Field(True, description="Listed in the lobby and open to spectators; otherwise only the "
                         "seated players can connect.")
    bot_pause: float = Field(0.6, ge=0, le=10, description="Seconds a bot waits before it moves, so that people "
                             "can follow the play.")
    chat: bool = Field(True, description="The seated players may write lines that everybody at the table reads.")
    rated: bool = Field(False, description="The result changes the players' ratings: only accounts may sit (bots "
                        "too), and the creator must be logged in.")
    hints: bool = Field(False, description="A seated player may ask for a hint: the move the table's bot would "
                        "make for them, from their own information. Never at a rated table.")
    live: bool | None = Field(None, description="Play in real time (games with a live mode: Ninjaaa'Tack). "
                              "None: live when people sit at the table.")
    timings: dict[str, Annotated[float, Field(ge=0.5, le=300)]] = Field(
        default_factory=dict, description="Live: seconds for each kind of step the game's live mode times, by name "
        "(GET /api/games lists each game's `live_timings`); a kind left out gets the game's default. When a "
        "step's time runs out, bots choose for the seats that have not, or the step's default is played.")
    countdown_seconds: float = Field(3.0, ge=0, le=10, description="Live: the count before held choices are "
                                     "played together.")
    reaction_min: float = Field(0.6, ge=0, le=10, description="Live: a bot's shortest reaction time (seconds).")
    reaction_max: float = Field(1.5, ge=0, le=10, description="Live: a bot's longest reaction time (seconds).")

    @model_validator(mode="after")
    def reactions_in_order(self) -> TableSettings:
        if self.reaction_min > self.reaction_max:
            raise ValueError(f"reaction_min ({self.reaction_min}) must not exceed reaction_max ({self.reaction_max})")
        if self.rated and self.hints:
            raise ValueError("a rated table gives no hints: turn off hints or rated")
        return self


class CreateTable(Strict):
    game: str = Field(description="A game id, e.g. dragon (GET /api/games lists them).")
    players: int | None = Field(None, description="Number of players; the game's usual count if omitted.")
    options: dict[str, Any] = Field(default_factory=dict, description="Game options by name (GET /api/games).")
    seats: list[SeatRequest] | None = Field(None, description="One entry per seat; omitted: every seat open.")
    settings: TableSettings = Field(default_factory=TableSettings)
    seed: int | None = Field(None, ge=0, le=MAX_SEED, description="The deal's seed; random if omitted.")


class JoinTable(Strict):
    name: str | None = Field(None, description="The name shown to the other players (1 to 32 characters); left out "
                             "when logged in: the seat is the account's.")
    seat: int | None = Field(None, description="The seat to take (from 0); the first open seat if omitted.")


class SeatInfo(Strict):
    """A seat as every client sees it: never its token."""

    seat: int
    kind: Literal["open", "person", "bot"]
    name: str | None
    bot: str | None = None
    connected: bool = False
    bot_playing: bool = Field(False, description="A bot plays this person's seat (away, or out of time).")
    account: str | None = Field(None, description="The account holding this person's seat (its page: "
                                "/people/<account>); None: a guest.")
    offered: str | None = Field(None, description="An open seat kept for this account (a rematch's invitation).")


class TableInfo(Strict):
    """A table as its clients see it (never a seat's token)."""

    id: str
    game: str
    title: str
    players: int
    options: dict[str, Any]
    status: Literal["waiting", "playing", "finished"]
    settings: TableSettings
    seats: list[SeatInfo]
    version: int = Field(description="Moves played so far.")
    invite_url: str
    spectate_url: str
    rated: bool = False
    rematch: str | None = Field(None, description="The table \"Play again\" made from this one, once made.")
    rematch_of: str | None = Field(None, description="The table this one is the rematch of.")


class TableSummary(BaseModel):
    """A table as the lobby lists it."""

    id: str
    game: str
    title: str
    players: int
    status: Literal["waiting", "playing", "finished"]
    open_seats: int
    rated: bool = False
    seats: list[dict[str, Any]] = Field(description="Each seat: kind, name (a person's), bot, and account (the "
                                        "account holding a person's seat; None for a guest).")
    invite_url: str


class SeatToken(BaseModel):
    seat: int
    token: str = Field(description="Keep it: it reconnects the seat. It is shown only once.")


class Created(BaseModel):
    table: TableInfo
    tokens: list[SeatToken] = Field(description="The tokens of the seats taken by people at creation.")


class Joined(BaseModel):
    table: TableInfo
    seat: int
    token: str


class AnalysisStatus(BaseModel):
    """A finished game's post-game analysis: not asked for yet (none), waiting for a spare worker, being made
    (`done` of `of` decisions weighed), or done (`analysis`: as `ninjatable analyse --json` prints it)."""

    status: Literal["none", "waiting", "running", "done"]
    done: int
    of: int
    analysis: dict[str, Any] | None = None


class Hint(BaseModel):
    """The move the table's bot would make for your seat now, from your seat's information alone."""

    action: int
    label: str
    version: int = Field(description="The move count the hint is for: once the table has moved on, it is stale.")
    draft: list[int] = Field(description="The steps of your unconfirmed choice it is for (a multi-step choice): "
                             "the hint is a next step; once your draft changes, it is stale.")
    bot: str = Field(description="The bot that was asked (the table's setting `bot`).")


class Credentials(Strict):
    """An account's name and password (signing up, logging in)."""

    name: str = Field(max_length=200, description="1 to 32 printable characters, unique regardless of case.")
    password: str = Field(max_length=1000, description="8 to 256 characters.")


class PasswordChange(Strict):
    old_password: str = Field(max_length=1000)
    new_password: str = Field(max_length=1000)


class Me(BaseModel):
    name: str | None = Field(description="The logged-in account's name; None for a guest.")


class PublicState(BaseModel):
    table: TableInfo
    view: dict[str, Any] | None = Field(description="The spectator's view (public information only) once started.")


class ErrorBody(BaseModel):
    """Every refusal over HTTP: what was wrong and what is allowed, and a code naming the kind."""

    error: str
    code: str


# --- WebSocket: client to server ------------------------------------------------------------------------
class ClientStrict(BaseModel):
    # Strict: an action id is a JSON integer, never true, "3" or 3.0.
    model_config = ConfigDict(extra="forbid", strict=True)


class Hello(ClientStrict):
    type: Literal["hello"]
    protocol: int = PROTOCOL
    token: str | None = Field(None, max_length=200, description="The seat token; none to watch.")
    account: bool = Field(False, description="Sit as the logged-in account's seat at this table (the session "
                          "cookie of the connection), instead of a token.")


class Act(ClientStrict):
    """One action, or the steps of a multi-step choice and its confirmation, applied together (all or none)."""

    type: Literal["act"]
    action: int | None = Field(None, ge=0, description="An action id from the legal actions of the last update.")
    actions: list[Annotated[int, Field(ge=0)]] | None = Field(
        None, min_length=1, max_length=MAX_STEPS, description="Several actions of your seat in a row: the steps "
        "of a multi-step choice, then the last one (usually its confirmation).")
    at: int | None = Field(None, ge=0, description="The version of the update the action was chosen from; at a "
                           "live table, a tap at the gong from before another seat's call is answered 'late'.")

    @model_validator(mode="after")
    def one_of_action_or_actions(self) -> Act:
        if (self.action is None) == (self.actions is None):
            raise ValueError("give either action or actions")
        return self

    def steps(self) -> list[int]:
        return [self.action] if self.action is not None else list(self.actions)


class Preview(ClientStrict):
    """Where the steps of a multi-step choice would lead, before confirming them; nothing is played."""

    type: Literal["preview"]
    actions: list[Annotated[int, Field(ge=0)]] = Field(max_length=MAX_STEPS)


class PlayAction(ClientStrict):
    """An action over HTTP (POST /api/tables/{id}/actions)."""

    action: int = Field(ge=0, description="An action id from your seat's legal actions.")


class Ping(ClientStrict):
    type: Literal["ping"]


class Say(ClientStrict):
    """A chat line from a seated player, shown to everybody at the table."""

    type: Literal["say"]
    text: str = Field(min_length=1, max_length=200)


ClientUnion = Annotated[Hello | Act | Preview | Ping | Say, Field(discriminator="type")]
ClientMessage = TypeAdapter(ClientUnion)


# --- WebSocket: server to client ------------------------------------------------------------------------
# Every message the server sends is built through one of these models (unknown fields refused), so that what a
# client receives is what `GET /api/protocol` publishes.
class Out(BaseModel):
    model_config = ConfigDict(extra="forbid")


class LegalAction(Out):
    id: int
    label: str


class EventOut(Out):
    kind: str
    text: str


class DecisionOut(Out):
    prompt: str
    multi: bool = Field(description="A step of a choice of several actions ended by `confirm`: hold the steps, "
                        "preview them, and send them together.")
    confirm: int | None


class Refusal(Out):
    id: int
    label: str
    reason: str


class Said(Out):
    """A chat line, sent to everybody at the table."""

    type: Literal["said"] = "said"
    seat: int
    name: str
    text: str


class Welcome(Out):
    """The first message of a connection: the seat it holds, the table and the chat so far."""

    type: Literal["welcome"] = "welcome"
    protocol: int = PROTOCOL
    seat: int | None = Field(description="Your seat, or None as a spectator.")
    table: TableInfo
    chat: list[Said] = Field(description="The table's latest chat lines, oldest first.")


class Clock(Out):
    seat: int
    seconds: float = Field(description="Time left for the seat's decision.")


class LiveOut(Out):
    """A live table's current step, as one seat may see it."""

    held: bool = Field(description="Choices are held unseen until every seat has chosen, then played on a count.")
    chosen: list[int] = Field(description="The seats that have chosen (not what).")
    timed_out: list[int] = Field(description="The seats whose time ran out in this step (their bots chose).")
    mine: LegalAction | None = Field(description="This seat's own held choice.")
    instant: list[int] = Field(description="Actions played the moment they arrive, first come (the gong).")
    count: float | None = Field(description="Seconds left in the count before the held choices are played.")
    ends: float | None = Field(description="Seconds left in the step; then bots choose, or the default is played.")
    timing: str = Field(description="The kind of step, as the game declares it (GET /api/games `live_timings`).")
    clock: str = Field(description="What to say beside the time left, in the game's words (\"Choose within\").")
    count_word: str = Field(description="The count's last word, in the game's words (\"pass!\").")


class Notice(Out):
    """A line everybody at the table sees at once (a tap at the gong that came too late)."""

    type: Literal["notice"] = "notice"
    text: str


class Update(Out):
    """What changed, as one seat may see it: its whole view, its legal actions and its new events."""

    type: Literal["update"] = "update"
    version: int
    status: Literal["waiting", "playing", "finished"]
    seat: int | None
    view: dict[str, Any] | None = Field(description="view(seat) (spectators: view(None)); None before the start.")
    legal: list[LegalAction] = Field(description="What this seat may do now, with labels.")
    decision: DecisionOut | None = Field(description="What this seat is deciding, in words; None if nothing.")
    refused: list[Refusal] = Field(description="Actions the seat might reach for that are not allowed, and why.")
    draft: list[int] | None = Field(description="The steps of a multi-step choice this seat sent one by one and "
                                    "has not confirmed yet (view and legal include them); None if none.")
    events: list[EventOut] = Field(description="Events addressed to this seat or to all, not sent before.")
    events_from: int = Field(description="How many of this seat's events came before these.")
    seats: list[SeatInfo]
    clocks: list[Clock] = Field(description="The running clocks of seats deciding now.")
    live: LiveOut | None = Field(description="A live table's step timing; None at a table played in turns.")


class PreviewOut(Out):
    """The seat's view, legal actions and decision after the previewed steps (nothing was played)."""

    type: Literal["preview"] = "preview"
    version: int
    actions: list[int]
    view: dict[str, Any]
    legal: list[LegalAction]
    decision: DecisionOut | None
    refused: list[Refusal]


class Error(Out):
    """A refusal: `code` names its kind (docs/server.md lists them), `message` says what was wrong."""

    type: Literal["error"] = "error"
    code: str
    message: str


class Pong(Out):
    """The answer to a ping."""

    type: Literal["pong"] = "pong"


class Rematch(Out):
    """\"Play again\" made a new table from this finished one: the same game, seats rotated by one."""

    type: Literal["rematch"] = "rematch"
    table: str = Field(description="The new table's id.")
    url: str = Field(description="The new table's page.")


ServerMessage = Annotated[Welcome | Update | PreviewOut | Said | Notice | Error | Pong | Rematch,
                          Field(discriminator="type")]


def protocol_schema() -> dict[str, Any]:
    """The WebSocket protocol as JSON Schema: its version, what a client may send and what the server sends."""
    return {
        "version": PROTOCOL,
        "client": ClientMessage.json_schema(),
        "server": TypeAdapter(ServerMessage).json_schema(),
    }
