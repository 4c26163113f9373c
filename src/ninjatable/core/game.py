"""The kernel contract: a Game describes one game, a State is one game in progress.

Every game implements the same small surface, in the spirit of OpenSpiel: integer actions from a fixed
action space, the seats that must decide now (several at once for a simultaneous decision), a per-seat
view filtered in one place (`secrecy.redact`), a fixed-shape observation, and `sample_world` for search.
Chance comes from the seed kept in the state, so `(game, players, options, seed, moves)` replays exactly.
"""

from __future__ import annotations

import copy
import random
from abc import ABC, abstractmethod
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar, NamedTuple

import numpy as np

from .errors import BadOptions, IllegalAction
from .options import Option, resolve_options
from .secrecy import redact


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
        if isinstance(players, bool) or not isinstance(players, int) or players not in self.player_counts:
            counts = ", ".join(map(str, self.player_counts))
            raise BadOptions(f"{self.id} is played by {counts} players, not {players}")
        return players

    def new_state(self, players: int | None = None, seed: int | None = None, **options: Any) -> State:
        """Start a game; raises BadOptions for a wrong player count, option or value."""
        players = self.check_players(players)
        resolved = resolve_options(self.options, options, self.id)
        if seed is None:
            seed = random.SystemRandom().getrandbits(63)
        elif isinstance(seed, bool) or not isinstance(seed, int):
            raise BadOptions(f"the seed must be an integer, not {seed!r}")
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
    """One game in progress. Mutable; `clone()` for an independent copy."""

    def __init__(self, game: Game, players: int, seed: int, options: dict[str, Any]) -> None:
        self.game = game
        self.players = players
        self.seed = seed
        self.options = options
        self.history: list[tuple[int, int]] = []
        self.events: list[Event] = []
        self.sheet: list[ScoreLine] = []
        self._chance = 0

    # --- what each game provides -------------------------------------------------------------------
    @abstractmethod
    def to_move(self) -> tuple[int, ...]:
        """Seats that must decide now; several for a simultaneous decision; () when the game is over."""

    @abstractmethod
    def legal_actions(self, seat: int) -> list[int]:
        """Sorted legal action ids for `seat` ([] when it need not decide)."""

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
    def apply(self, seat: int, action: int) -> None:
        """Carry out `action` for `seat`; raise IllegalAction and change nothing if it is not allowed."""
        movers = self.to_move()
        if seat not in movers:
            if not movers:
                raise IllegalAction("the game is over; no more moves")
            waiting = ", ".join(seat_name(s) for s in movers)
            raise IllegalAction(f"it is not {_seat_text(seat)}'s turn; waiting for {waiting}")
        legal = self.legal_actions(seat)
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)) or action not in legal:
            raise IllegalAction(self._illegal_message(seat, action, legal))
        self._apply(seat, int(action))
        self.history.append((seat, int(action)))

    def decision(self, seat: int) -> Decision | None:
        """What `seat` is deciding now, with a prompt in words; None when it need not decide."""
        self._check_seat(seat)
        if seat not in self.to_move():
            return None
        return self._decision(seat)

    def _decision(self, seat: int) -> Decision:
        """The prompt of the seat's decision (a game names each of its steps)."""
        return Decision("Choose your move")

    def refusals(self, seat: int) -> dict[int, str]:
        """Why actions a player might reach for are not allowed now (a card held that does not follow suit):
        action id to reason, for front ends to show beside what they grey out. Only the seat's own knowledge."""
        self._check_seat(seat)
        if seat not in self.to_move():
            return {}
        return self._refusals(seat)

    def _refusals(self, seat: int) -> dict[int, str]:
        return {}

    def _illegal_message(self, seat: int, action: Any, legal: list[int]) -> str:
        if isinstance(action, (int, np.integer)) and 0 <= action < self.game.num_actions(self.players):
            what = f"{self.action_label(int(action))} is not allowed now"
        else:
            what = f"{action!r} is not an action of {self.game.id}"
        allowed = ", ".join(self.action_label(a) for a in legal)
        return f"{what}; {seat_name(seat)} may choose: {allowed}"

    def scores(self) -> list[int]:
        """Running totals, by default the sum of the score sheet."""
        totals = [0] * self.players
        for line in self.sheet:
            for s, p in enumerate(line.points):
                totals[s] += p
        return totals

    def winners(self) -> list[int]:
        """Seats sharing the best total once the game is over; [] before."""
        if not self.is_over():
            return []
        totals = self.scores()
        best = max(totals)
        return [s for s, t in enumerate(totals) if t == best]

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
        self._check_seat(seat, allow_none=True)
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
        return view

    def observation(self, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        """The seat's observation as a float32 vector of `game.observation_shape(players)`."""
        self._check_seat(seat)
        shape = self.game.observation_shape(self.players)
        if out is None:
            out = np.zeros(shape, dtype=np.float32)
        else:
            out.fill(0.0)
        self._observe(seat, out)
        return out

    def action_label(self, action: int) -> str:
        return self.game.action_label(action, self.players)

    def parse_action(self, text: str, seat: int | None = None) -> int:
        """The action named by `text` (a label such as `R7`, case-insensitive, or an action id)."""
        key = text.strip().lower()
        labels = self.game.labels(self.players)
        if key in labels:
            return labels[key]
        if key.isdigit() and int(key) < self.game.num_actions(self.players):
            return int(key)
        hint = ""
        if seat is not None and self.legal_actions(seat):
            hint = "; legal now: " + ", ".join(self.action_label(a) for a in self.legal_actions(seat))
        raise IllegalAction(f"{text!r} is not a move of {self.game.id}{hint}")

    def events_for(self, seat: int | None) -> list[Event]:
        """The public events and those addressed to `seat`."""
        return [e for e in self.events if e.to is None or e.to == seat]

    def clone(self) -> State:
        """An independent copy."""
        other = copy.copy(self)
        other.history = self.history.copy()
        other.events = self.events.copy()
        other.sheet = self.sheet.copy()
        self._copy_mutables(other)
        return other

    def sample_world(self, seat: int, rng: random.Random) -> State:
        """A full state `seat` cannot tell apart from this one, with a fresh random future.

        Hidden cards are redistributed consistently with what the seat has seen; the world's history
        holds no moves (they would tell hidden choices) and its events are those the seat saw.
        """
        self._check_seat(seat)
        world = self.clone()
        self._sample_hidden(world, seat, rng)
        world.seed = rng.getrandbits(63)
        world._chance = 0
        world.history = []
        world.events = self.events_for(seat)
        return world

    # --- helpers for games ---------------------------------------------------------------------------
    def chance(self) -> random.Random:
        """A generator for the next chance event (shuffle, deal, reveal), derived from seed and count."""
        self._chance += 1
        return random.Random(f"{self.seed}:{self._chance}")

    def log(self, kind: str, text: str, to: int | None = None) -> None:
        self.events.append(Event(kind, text, to))

    def score(self, label: str, points: list[int] | tuple[int, ...]) -> None:
        """Add a row to the score sheet (and so to the running totals)."""
        self.sheet.append(ScoreLine(label, tuple(points)))
        shown = ", ".join(f"{seat_name(s)} {p:+d}" for s, p in enumerate(points))
        self.log("score", f"{label}: {shown}")

    def _check_seat(self, seat: int | None, allow_none: bool = False) -> None:
        if seat is None and allow_none:
            return
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise IllegalAction(f"seat {seat!r} does not exist; seats are 0 to {self.players - 1}")

    def __repr__(self) -> str:
        return f"<{self.game.id} state, {self.players} players, {len(self.history)} moves>"


def _seat_text(seat: Any) -> str:
    return seat_name(seat) if isinstance(seat, int) and not isinstance(seat, bool) else repr(seat)
