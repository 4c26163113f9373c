"""The kernel contract: a Game describes one game, a State is one game in progress.

Every game implements the same small surface, in the spirit of OpenSpiel: integer actions from a fixed
action space, the seats that must decide now (several at once for a simultaneous decision), a per-seat
view filtered in one place (`secrecy.redact`), a fixed-shape observation, and `sample_world` for search.
Chance comes from the seed kept in the state, so `(game, players, options, seed, moves)` replays exactly.
"""

from __future__ import annotations

import inspect
import random
from abc import ABC, abstractmethod
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar, NamedTuple

import numpy as np

from . import checks
from .errors import BadArgument, BadOptions, IllegalAction
from .options import Option, resolve_options
from .secrecy import redact

# Observations are float32; numpy takes a dtype object, passed by position, fastest (one is made per step).
FLOAT32 = np.dtype(np.float32)


class Event(NamedTuple):
    """Something that happened; `to` is None for a public event, else the only seat that sees it."""

    kind: str
    text: str
    to: int | None = None


class ScoreLine(NamedTuple):
    """One row of the score sheet: a round's points, or a labelled bonus or penalty, per seat."""

    label: str
    points: tuple[int, ...]


class Decision(NamedTuple):
    """What a seat is deciding, in the words every front end shows (terminal, browser, bots' logs).

    `prompt` is one line addressed to the seat ("Play a card", "Set aside cards for your second half").
    `multi` marks one step of a choice made of several actions and ended by the action `confirm` (for example
    `done`): its steps draw no chance and show the seat nothing it did not know, so a front end may hold them
    as a draft, let the player undo, and send them together once confirmed.
    """

    prompt: str
    multi: bool = False
    confirm: int | None = None


class LiveStep(NamedTuple):
    """How a table of people playing in real time runs the current simultaneous step (games with a live mode).

    `held`: the seats' choices are held by the table, unseen, until every seat has chosen (or its time is up and
    its bot chose), then played together on a count ("3, 2, 1, pass!"); otherwise each action is played the moment
    it arrives and is shown at once. `instant`: actions played the moment they arrive even in a held step, the
    first to arrive winning (the gong). `default`: in a step that is not held, what a seat that has not acted in
    time plays (None: its bot chooses). `timing`: the name of the game's `LiveTiming` that times this step.
    """

    held: bool
    instant: frozenset[int] = frozenset()
    default: int | None = None
    timing: str = ""


class LiveTiming(NamedTuple):
    """A kind of step of a game's live mode (`Game.live_timings`): its time limit and the words pages show for it.

    A table's `timings` setting sets the seconds of each kind by `name`; `setting` names it in a form ("Time to
    choose a card to pass (seconds)"); `clock` is what a page says while such a step runs ("Choose within"), and
    `count_word` the last word of the count before held choices are played together ("pass!").
    """

    name: str
    seconds: float
    setting: str
    clock: str
    count_word: str = "go!"


_new_tuple = tuple.__new__


def _discard_event(kind: str, text: str, to: int | None = None) -> None:
    """`State.log` on a quiet state (see `State.make_quiet`)."""


def seat_name(seat: int, viewer: int | None = None) -> str:
    """How seats are named to people: Player 1, Player 2, ... (numbered from 0 in the API); "You" for `viewer`."""
    return "You" if seat == viewer and viewer is not None else f"Player {seat + 1}"


def winners_text(winners: list[int], viewer: int | None = None) -> str:
    """"Player 2 wins", "Player 1 and Player 3 win", "You win"; "nobody wins" for none."""
    names = [seat_name(w, viewer) for w in winners]
    if not names:
        return "nobody wins"
    joined = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    return joined + (" wins" if len(names) == 1 and names[0] != "You" else " win")


def _defines(cls: type, name: str) -> bool:
    """Whether `cls` itself defines the kernel's method `name` (the fast names the kernel published do not count)."""
    if name not in cls.__dict__:
        return False
    protected = dict(State.FAST).get(name)
    return protected is None or cls.__dict__[name] is not getattr(cls, protected)


class Game(ABC):
    """Describes one game: its id, player counts, options, action space and how to start a state."""

    id: str = ""
    title: str = ""
    summary: str = ""
    player_counts: tuple[int, ...] = ()
    default_players: int = 0
    options: tuple[Option, ...] = ()
    # The game's own heuristic bot class (a `core.bot.Bot`), set by the game package; None if it has none.
    heuristic_bot: type | None = None
    # The search bot's settings for this game where they differ from its general defaults (see bots/ismcts.py).
    search_defaults: ClassVar[dict[str, Any]] = {}
    # A game that people may play in real time (see `State.live_step`) names the options a live table plays
    # with; None: the game has no live mode. It declares the kinds of steps its live mode times (each `LiveStep`
    # names one) and says in a line what playing live means, for the page that offers it.
    live_options: ClassVar[dict[str, Any] | None] = None
    live_timings: ClassVar[tuple[LiveTiming, ...]] = ()
    live_summary: ClassVar[str] = ""
    # What a seat does when it plays an instant action, in the game's words ("tapped the gong"), for the line that
    # tells a table who won a race and who came too late.
    live_race_words: ClassVar[str] = "acted"

    # --- what each game provides -------------------------------------------------------------------
    # Most games only set these class attributes; a game whose action space or observation depends on
    # the player count overrides the matching method instead.
    state_class: type[State] | None = None  # the State subclass `new_state` builds
    action_labels: tuple[str, ...] = ()  # the labels of a fixed action space, in id order
    observation_size: int = 0  # the length of a flat observation
    renderer: Callable[[dict[str, Any]], Any] | None = None  # render(view) -> a Rich renderable

    def num_actions(self, players: int) -> int:
        """Size of the fixed action space for this player count."""
        return len(self.action_labels)

    def observation_shape(self, players: int) -> tuple[int, ...]:
        """Shape of `State.observation` for this player count."""
        return (self.observation_size,)

    def action_label(self, action: int, players: int) -> str:
        """A short unique name for an action id (`R7`, `done`, `attack Player 2`)."""
        return self.action_labels[action]

    def _new_state(self, players: int, seed: int, options: dict[str, Any]) -> State:
        """A fresh state with checked arguments."""
        return self.state_class(self, players, seed, options)

    def render(self, view: dict[str, Any]) -> Any:
        """A Rich renderable of a seat's view (the terminal's picture of the table)."""
        if self.renderer is not None:
            return self.renderer(view)
        from rich.pretty import Pretty

        return Pretty(view)

    # --- shared behaviour --------------------------------------------------------------------------
    def check_players(self, players: int | None) -> int:
        if players is None:
            return self.default_players
        if not checks.is_integer(players) or int(players) not in self.player_counts:
            counts = ", ".join(map(str, self.player_counts))
            raise BadOptions(f"{self.id} is played by {counts} players, not {checks.shown(players)}")
        return int(players)

    def new_state(self, players: int | None = None, seed: int | None = None, **options: Any) -> State:
        """Start a game; raises BadOptions for a wrong player count, option or value."""
        players = self.check_players(players)
        resolved = resolve_options(self.options, options, self.id)
        seed = random.SystemRandom().getrandbits(63) if seed is None else checks.check_seed(seed)
        return self._new_state(players, seed, resolved)

    def rules_text(self) -> str:
        """The rules as implemented (the game's docs/rules page, shipped beside its module)."""
        import importlib

        module = importlib.import_module(type(self).__module__)
        here = Path(module.__file__).resolve().parent
        # docs/rules/<id>.md in a source checkout; ninjatable/rules/<id>.md inside an installed wheel.
        for candidate in (here.parents[3] / "docs" / "rules" / f"{self.id}.md", here.parents[1] / "rules" / f"{self.id}.md"):
            if candidate.exists():
                return candidate.read_text(encoding="utf-8")
        return f"# {self.title}\n\n{self.summary}\n"

    def web_file(self, name: str) -> Path | None:
        """A file of the game's drawing for the browser (`web.js`), kept beside its terminal renderer; None if the
        game has no such file. The table page loads it by name and knows no game."""
        import importlib

        if not name or "/" in name or "\\" in name or name.startswith("."):
            return None
        module = importlib.import_module(type(self).__module__)
        path = Path(module.__file__).resolve().parent / name
        return path if path.is_file() else None

    def labels(self, players: int) -> dict[str, int]:
        """Every action label (lower case) to its id, for parsing typed moves."""
        cache = self.__dict__.setdefault("_labels", {})
        if players not in cache:
            cache[players] = {
                self.action_label(a, players).lower(): a for a in range(self.num_actions(players))
            }
        return cache[players]

    def describe(self) -> dict[str, Any]:
        """A JSON-safe summary: id, title, player counts and options (with what each allows, for forms)."""
        return {
            "id": self.id,
            "title": self.title,
            "summary": self.summary,
            "players": list(self.player_counts),
            "default_players": self.default_players,
            "live": self.live_options,
            "live_summary": self.live_summary,
            "live_timings": [timing._asdict() for timing in self.live_timings],
            "options": [
                {"name": o.name, "default": o.default, "allowed": o.describe_allowed(), "description": o.description,
                 "choices": list(o.allowed) if o.choices is not None or isinstance(o.default, bool) else None,
                 "minimum": o.minimum, "maximum": o.maximum}
                for o in self.options
            ],
        }

    def __repr__(self) -> str:
        return f"<Game {self.id}>"

    def __reduce__(self) -> str | tuple[Any, ...]:
        # Games are registered singletons: pickle them by id so states can cross process boundaries.
        from .registry import get_game

        return (get_game, (self.id,))


class State(ABC):
    """One game in progress. Mutable; `clone()` for an independent copy.

    The public methods that take a seat, an action or any other argument are the kernel's: they check every
    argument (`checks`) before anything changes, then call the game's protected method with plain ints.
    """

    # A game implements the protected method behind each of these (`_legal_actions`, `_apply`, ...), never these.
    CHECKED: ClassVar[tuple[str, ...]] = (
        "apply", "legal_actions", "view", "observation", "decision", "refusals", "sample_world", "parse_action",
        "action_label", "events_for",
    )

    # The unchecked public methods, published under their public names by `__init_subclass__` (see `advance`).
    FAST: ClassVar[tuple[tuple[str, str], ...]] = (
        ("advance", "_apply"), ("next_choice", "_next_choice"), ("legal_for", "_legal_actions"), ("observe_into", "_observe"),
    )

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        kernel_only = State.CHECKED + ("apply_offered", "set_position") + tuple(p for p, _ in State.FAST)
        # Every class the state is made of counts, its mixins (Observer, WorldSampler, ...) included.
        own = [c for c in cls.__mro__ if c is not State and not issubclass(State, c)]
        overridden = [name for name in kernel_only if any(_defines(c, name) for c in own)]
        if overridden:
            raise TypeError(
                f"{cls.__qualname__} overrides {', '.join(overridden)}: the kernel checks the arguments of these or "
                "publishes them; implement the protected method instead (_legal_actions, _apply, _next_choice, _set_position, "
                "_view, _extend_view, _observe, ...)"
            )
        # A search steps its worlds millions of times: `advance` and `next_choice` are the game's own functions under
        # public names, so the fast path costs no extra call.
        for public, protected in State.FAST:
            setattr(cls, public, getattr(cls, protected))

    # A search that plays a world only until the score sheet has this many lines sets it on the world: the game
    # may then leave the round that would start there undealt (see `deals_next_round`). None: play on.
    search_horizon: int | None = None
    # (seat, len(history), the actions) that `legal_actions` last handed out, for `apply` (see `legal_actions`).
    _asked_legal: tuple[int, int, tuple[int, ...]] | None = None
    # True on a search's rollout world (`make_quiet`): `log` keeps nothing there.
    quiet: bool = False

    def __init__(self, game: Game, players: int, seed: int, options: dict[str, Any]) -> None:
        self.game = game
        self.players = players
        self.seed = seed
        self.options = options
        self.history: list[tuple[int, int]] = []
        self.events: list[Event] = []
        self.sheet: list[ScoreLine] = []
        self.tallies: dict[str, float] = {}  # named counts kept during play for `stats` (see `count`)
        self._chance = 0

    # --- what each game provides -------------------------------------------------------------------
    @abstractmethod
    def to_move(self) -> tuple[int, ...]:
        """Seats that must decide now; several for a simultaneous decision; () when the game is over."""

    @abstractmethod
    def _legal_actions(self, seat: int) -> list[int]:
        """Sorted legal action ids for `seat`, a checked plain int ([] when it need not decide)."""

    @abstractmethod
    def _apply(self, seat: int, action: int) -> None:
        """Carry out a legal action (already checked by `apply`)."""

    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def _view(self) -> dict[str, Any]:
        """Everything about the game, secrets wrapped in `Private`; `view` filters it per seat."""

    @abstractmethod
    def _observe(self, seat: int, out: np.ndarray) -> None:
        """Write the seat's observation into the zeroed buffer `out`."""

    @abstractmethod
    def _copy_mutables(self, other: State) -> None:
        """Give `other` (a shallow copy of self) its own copies of every mutable field."""

    @abstractmethod
    def _sample_hidden(self, world: State, seat: int, rng: random.Random) -> None:
        """Redistribute in `world` (a clone) everything `seat` cannot see, consistently with what it saw."""

    # --- the contract, shared ------------------------------------------------------------------------
    def legal_actions(self, seat: int) -> list[int]:
        """Sorted legal action ids for `seat` ([] when it need not decide); IllegalAction for a bad seat."""
        # The common case (a plain int in range) is tested inline: this is on every engine's hot path.
        if seat.__class__ is not int or not 0 <= seat < self.players:
            seat = checks.check_seat(self, seat)
        legal = self._legal_actions(seat)
        # Kept for `apply`, since a caller mostly applies one of the actions it has just asked for: until the history
        # grows, that list answers whether the move is legal (a copy, in case the caller changes the list it got).
        # A state moved with `advance` (a search's world) is never moved with `apply`, so its history tells every move.
        self._asked_legal = (seat, len(self.history), tuple(legal))
        return legal

    def apply(self, seat: int, action: int) -> None:
        """Carry out `action` for `seat`; raise IllegalAction and change nothing if it is not allowed."""
        if seat.__class__ is not int or not 0 <= seat < self.players:
            seat = checks.check_seat(self, seat)
        if action.__class__ is not int:
            action = checks.check_action(self, action)
        asked = self._asked_legal
        if asked is not None and asked[0] == seat and asked[1] == len(self.history) and action in asked[2]:
            # Legal by the list just handed out for this seat at this position (and so the seat is to move).
            self._apply(seat, action)
            self.history.append((seat, action))
            return
        if seat not in self.to_move():
            checks.check_turn(self, seat)
        legal = self._legal_actions(seat)
        if action not in legal:
            raise IllegalAction(self._illegal_message(seat, action, legal))
        self._apply(seat, action)
        self.history.append((seat, action))

    # --- fast stepping, for searches and environments ------------------------------------------------
    # A state is moved either always with `apply` (its history records every move) or, as a search's world, always
    # with `advance`: data a game keeps for speed may rely on it.
    def advance(self, seat: int, action: int) -> None:
        """Carry out a legal action on a search's world, unchecked and unrecorded (no history): the caller took
        `action` from the seat's legal actions at this position. Published as the game's `_apply` itself."""
        self._apply(seat, action)

    def next_choice(self) -> tuple[int, list[int]] | None:
        """The first seat to move and its legal actions; None once the game is over. Unchecked, for a search's
        rollouts, which ask it at every step. Published as the game's `_next_choice` itself."""
        return self._next_choice()

    def legal_for(self, seat: int) -> list[int]:
        """The seat's legal actions, unchecked (`seat` a plain int in range) and not kept for `apply`: for a search's
        world and an environment that knows its seats. Published as the game's `_legal_actions` itself."""
        return self._legal_actions(seat)

    def observe_into(self, seat: int, out: np.ndarray) -> None:
        """Write the seat's observation into `out`, a zeroed, C-contiguous float32 buffer of the observation's shape,
        unchecked: for an environment that makes its own buffers. Published as the game's `_observe` itself."""
        self._observe(seat, out)

    def apply_offered(self, seat: int, action: int, offered: tuple[int, list[int]]) -> None:
        """`apply`, for a caller that asked `legal_actions(seat)` at this state and kept `offered`, (len(history)
        then, the list): the action is checked against that list instead of asking the game again."""
        if offered[0] == len(self.history) and action.__class__ is int and action in offered[1]:
            self._apply(seat, action)
            self.history.append((seat, action))
        else:
            self.apply(seat, action)

    def _next_choice(self) -> tuple[int, list[int]] | None:
        """`next_choice`: the kernel answers from `to_move` and `_legal_actions`; a game may answer in one call."""
        movers = self.to_move()
        if not movers:
            return None
        return movers[0], self._legal_actions(movers[0])

    def set_position(self, **position: Any) -> None:
        """Set a position by hand, for tests, examples and puzzles (the game names its fields: hands, a leader...).
        Every value kept for speed is dropped first, so nothing of the position before (the legal actions last
        handed out, what worlds were dealt from) survives; a script the game cannot set raises BadArgument."""
        try:
            inspect.signature(self._set_position).bind(**position)
        except TypeError as e:
            keywords = ", ".join(p for p in inspect.signature(self._set_position).parameters if p != "unknown")
            raise BadArgument(f"{self.game.id} positions: {e}; the keywords are: {keywords}") from None
        self._forget_kept()
        self._set_position(**position)
        self._forget_kept()

    def _set_position(self, **position: Any) -> None:
        """Change the state's fields to the scripted position (a game that can be scripted overrides it)."""
        raise BadArgument(f"{self.game.id} has no scripted positions")

    def decision(self, seat: int) -> Decision | None:
        """What `seat` is deciding now, with a prompt in words; None when it need not decide."""
        seat = checks.check_seat(self, seat)
        if seat not in self.to_move():
            return None
        return self._decision(seat)

    def _decision(self, seat: int) -> Decision:
        """The prompt of the seat's decision (a game names each of its steps)."""
        return Decision("Choose your move")

    def refusals(self, seat: int) -> dict[int, str]:
        """Why actions a player might reach for are not allowed now (a card held that does not follow suit):
        action id to reason, for front ends to show beside what they grey out. Only the seat's own knowledge."""
        seat = checks.check_seat(self, seat)
        if seat not in self.to_move():
            return {}
        return self._refusals(seat)

    def _refusals(self, seat: int) -> dict[int, str]:
        return {}

    def live_step(self) -> LiveStep | None:
        """How a live table runs the current step (for a state made with the game's `live_options`); None when
        the game has no live mode or the game is over."""
        return None

    def _illegal_message(self, seat: int, action: int, legal: list[int]) -> str:
        size = self.game.num_actions(self.players)
        if 0 <= action < size:
            what = f"{self.game.action_label(action, self.players)} is not allowed now"
        else:
            what = f"{checks.shown(action)} is not an action of {self.game.id} (actions are 0 to {size - 1})"
        allowed = ", ".join(self.action_label(a) for a in legal)
        return f"{what}; {seat_name(seat)} may choose: {allowed}"

    def scores(self) -> list[int]:
        """Running totals, by default the sum of the score sheet."""
        sheet = self.sheet
        if not sheet:
            return [0] * self.players
        # The sheet only grows (`score` appends), so totals are kept for its length (observations read them often).
        kept = self.__dict__.get("_totals_kept")
        if kept is None or kept[0] is not sheet or kept[1] != len(sheet):
            kept = self._totals_kept = (sheet, len(sheet), list(map(sum, zip(*[line.points for line in sheet]))))
        return kept[2].copy()

    def winners(self) -> list[int]:
        """Seats sharing the best total once the game is over; [] before."""
        if not self.is_over():
            return []
        totals = self.scores()
        best = max(totals)
        return [s for s, t in enumerate(totals) if t == best]

    def stats(self) -> dict[str, float]:
        """Named counts a designer reads at game end (Shoot the Moon successes, raids, wrong calls): what the game
        tallied with `count` during play and what `_stats` reads from the state. {} for a game that declares none.

        A name a game did not tally in some game counts 0 there; `rounds`, when given, is the game's length in
        rounds (the balance report draws it beside the length in moves).
        """
        figures = dict(self.tallies)
        figures.update(self._stats())
        return figures

    def _stats(self) -> dict[str, float]:
        """Figures read from the state at game end (a game overrides it); none by default."""
        return {}

    def score_sheet(self) -> list[ScoreLine]:
        return list(self.sheet)

    def result(self) -> dict[str, Any]:
        """What a record stores: final (or running) scores, winners and the labelled score sheet."""
        return {
            "over": self.is_over(),
            "scores": self.scores(),
            "winners": self.winners(),
            "score_sheet": [{"label": line.label, "points": list(line.points)} for line in self.sheet],
            "moves": len(self.history),
        }

    def view(self, seat: int | None) -> dict[str, Any]:
        """A JSON-safe dict of exactly what `seat` may know; `None` is a spectator."""
        seat = checks.check_viewer(self, seat)
        view = {
            "game": self.game.id,
            "players": self.players,
            "seat": seat,
            "to_move": list(self.to_move()),
            "over": self.is_over(),
            "scores": self.scores(),
            "winners": self.winners(),
            "score_sheet": [{"label": line.label, "points": list(line.points)} for line in self.sheet],
        }
        view.update(redact(self._view(), seat))
        self._extend_view(view, seat)
        return view

    def _extend_view(self, view: dict[str, Any], seat: int | None) -> None:
        """Add to a seat's filtered view what a game shows under keys of its own (shortcuts to its own hand)."""

    def observation(self, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        """The seat's observation as a float32 vector of `game.observation_shape(players)`."""
        if seat.__class__ is not int or not 0 <= seat < self.players:
            seat = checks.check_seat(self, seat)
        shape = self.game.observation_shape(self.players)
        if out is None:
            out = np.zeros(shape, FLOAT32)
        elif not checks.check_buffer(out, shape).flags.c_contiguous:
            # Games write through memoryview or struct, which need one run of memory: write a fresh one, then copy.
            out[...] = self.observation(seat)
            return out
        else:
            out.fill(0.0)
        self._observe(seat, out)
        return out

    def action_label(self, action: int) -> str:
        """The short name of an action id; IllegalAction for an id outside the action space."""
        return self.game.action_label(checks.check_action(self, action), self.players)

    def parse_action(self, text: str, seat: int | None = None) -> int:
        """The action named by `text` (a label such as `R7`, case-insensitive, or an action id)."""
        key = checks.check_text(text).strip().lower()
        seat = checks.check_viewer(self, seat)
        labels = self.game.labels(self.players)
        if key in labels:
            return labels[key]
        # Only ASCII digits: `str.isdigit` also accepts superscripts such as "²", which `int` cannot read.
        if key.isascii() and key.isdigit() and int(key) < self.game.num_actions(self.players):
            return int(key)
        hint = ""
        legal = self._legal_actions(seat) if seat is not None else []
        if legal:
            hint = "; legal now: " + ", ".join(self.game.action_label(a, self.players) for a in legal)
        raise IllegalAction(f"{checks.shown(text.strip())} is not a move of {self.game.id}{hint}")

    def events_for(self, seat: int | None) -> list[Event]:
        """The public events and those addressed to `seat`."""
        seat = checks.check_viewer(self, seat)
        return self._events_seen(seat).copy()

    def _events_seen(self, seat: int | None) -> list[Event]:
        """`events_for(seat)`, kept per seat and extended by the events logged since (search samples many worlds
        from one state; filtering the whole log each time cost as much as the deal). Callers must not change it."""
        events = self.events
        cache = self.__dict__.get("_seen_cache")
        if cache is None or cache[0] is not events:
            cache = self._seen_cache = (events, {})
        entry = cache[1].get(seat)
        if entry is None or entry[0] > len(events):  # new seat, or the log was cut short
            entry = cache[1][seat] = [0, []]
        done, seen = entry
        if done < len(events):
            seen += [e for e in events[done:] if e.to is None or e.to == seat]
            entry[0] = len(events)
        return seen

    def _worlds_prepared(self, seat: int, prepare: Callable[[int], Any]) -> Any:
        """`prepare(seat)`, what the seat's sampled worlds are dealt from (a `DealPlan` and the like), kept until
        the next move: a search samples many worlds from one position. A move is known by the history or the log
        growing, so a game using this logs every move (a search's world records no history). Only read it."""
        if self.quiet:  # its moves may log nothing: what was prepared cannot be known to be of this position
            return prepare(seat)
        position = (len(self.history), len(self.events))
        prepared = self.__dict__.get("_worlds_prepared_by_seat")
        if prepared is None:
            prepared = self._worlds_prepared_by_seat = {}
        kept = prepared.get(seat)
        if kept is None or kept[0] != position:
            kept = prepared[seat] = (position, prepare(seat))
        return kept[1]

    def __getstate__(self) -> dict[str, Any]:
        # The per-seat event cache, the kept totals, the worlds' preparations and the legal actions last asked for
        # are derived data: copies, pickles and snapshots leave them out (a game keeping data of its own for speed
        # extends this).
        state = self.__dict__.copy()
        state.pop("_seen_cache", None)
        state.pop("_totals_kept", None)
        state.pop("_worlds_prepared_by_seat", None)
        state.pop("_asked_legal", None)
        return state

    def _forget_kept(self) -> None:
        """Drop every value kept for speed (what `__getstate__` leaves out: the legal actions last handed out among
        them): for code that changes the state's fields by hand, such as a scripted deal, rather than by moves."""
        self.__dict__ = self.__getstate__()

    def _shallow_copy(self) -> State:
        """A new state sharing every field with this one, less the derived data `__getstate__` leaves out (what
        `copy.copy` makes, without its generic machinery)."""
        other = object.__new__(self.__class__)
        other.__dict__ = self.__getstate__()
        return other

    def clone(self) -> State:
        """An independent copy."""
        other = self._shallow_copy()
        other.history = self.history.copy()
        other.events = self.events.copy()
        other.sheet = self.sheet.copy()
        other.tallies = self.tallies.copy()
        self._copy_mutables(other)
        return other

    def sample_world(self, seat: int, rng: random.Random) -> State:
        """A full state `seat` cannot tell apart from this one, with a fresh random future.

        Hidden cards are redistributed consistently with what the seat has seen; the world's history
        holds no moves (they would tell hidden choices) and its events are those the seat saw.
        """
        if seat.__class__ is not int or not 0 <= seat < self.players:  # the common case tested inline (searches)
            seat = checks.check_seat(self, seat)
        if rng.__class__ is not random.Random:
            checks.check_rng(rng)
        # A clone without copies of the history and the log, which the world replaces.
        world = self._shallow_copy()
        world.history = []
        world.events = self._events_seen(seat).copy()
        world.sheet = self.sheet.copy()
        world.tallies = self.tallies.copy()
        self._copy_mutables(world)
        self._sample_hidden(world, seat, rng)
        world.seed = rng.getrandbits(63)
        world._chance = 0
        return world

    # --- helpers for games ---------------------------------------------------------------------------
    def deals_next_round(self) -> bool:
        """Whether to deal the next round when one ends: always, except in a search's world that has reached its
        `search_horizon`, which nothing reads beyond (dealing costs a search a sixth of its time). A game whose bot
        `estimate` reads the next round's hands deals regardless."""
        horizon = self.search_horizon
        return horizon is None or len(self.sheet) < horizon

    def chance(self) -> random.Random:
        """A generator for the next chance event (shuffle, deal, reveal), derived from seed and count."""
        self._chance += 1
        return random.Random(f"{self.seed}:{self._chance}")

    def count(self, name: str, amount: float = 1) -> None:
        """Add `amount` to the named tally that `stats` reports at game end."""
        self.tallies[name] = self.tallies.get(name, 0) + amount

    def make_quiet(self) -> None:
        """Make `log` keep nothing on this state, and let games skip building their texts: for a search's rollout
        world, whose log nobody reads. Its events are then incomplete (a game may still append some directly);
        scores, tallies and everything else the rules keep go on as before."""
        self.quiet = True
        self.log = _discard_event  # shadows the method on this state alone: states that log pay nothing for the switch

    def log(self, kind: str, text: str, to: int | None = None) -> None:
        self.events.append(_new_tuple(Event, (kind, text, to)))  # Event(kind, text, to), a Python call fewer

    def score(self, label: str, points: list[int] | tuple[int, ...]) -> None:
        """Add a row to the score sheet (and so to the running totals)."""
        self.sheet.append(ScoreLine(label, tuple(points)))
        if self.quiet:
            return
        shown = ", ".join(f"{seat_name(s)} {p:+d}" for s, p in enumerate(points))
        self.log("score", f"{label}: {shown}")

    def __repr__(self) -> str:
        return f"<{self.game.id} state, {self.players} players, {len(self.history)} moves>"

