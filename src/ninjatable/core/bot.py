"""The bot interface: a bot decides for one seat from that seat's information only.

It lives in the kernel because games ship their own heuristic bot (`Game.heuristic_bot`), and a game
imports nothing but the kernel.
"""

from __future__ import annotations

import math
import random
from abc import ABC, abstractmethod
from typing import Any

from .game import Game, State


class SeatInfo:
    """What one seat may know: its view, its legal actions, and worlds consistent with what it saw.

    Bots receive this instead of the state, so they cannot read hidden cards.
    """

    __slots__ = ("_state", "seat")

    def __init__(self, state: State, seat: int) -> None:
        self._state = state
        self.seat = seat

    @property
    def game(self) -> Game:
        return self._state.game

    @property
    def players(self) -> int:
        return self._state.players

    @property
    def options(self) -> dict[str, Any]:
        return dict(self._state.options)

    def view(self) -> dict[str, Any]:
        return self._state.view(self.seat)

    def legal_actions(self) -> list[int]:
        return self._state.legal_actions(self.seat)

    def action_label(self, action: int) -> str:
        return self._state.action_label(action)

    def observation(self):
        return self._state.observation(self.seat)

    def sample_world(self, rng: random.Random) -> State:
        """A full state this seat cannot tell apart from the real one."""
        return self._state.sample_world(self.seat, rng)


class Bot(ABC):
    """Chooses actions for a seat; seeded, so a match replays exactly."""

    name = "bot"

    def __init__(self, seed: int | None = None, **params: Any) -> None:
        self.rng = random.Random(seed)
        self.params = params

    @abstractmethod
    def act(self, info: SeatInfo) -> int:
        """One of `info.legal_actions()`."""

    def choose(self, state: State, seat: int) -> int:
        return self.act(SeatInfo(state, seat))

    # --- what a game's heuristic bot may offer a search bot (all optional) ------------------------------
    @classmethod
    def for_rollouts(cls, seed: int) -> Bot:
        """The bot as a search plays it for every seat in its rollouts (a game may make it cheaper there)."""
        return cls(seed=seed)

    @staticmethod
    def estimate(state: State) -> list[float] | None:
        """A static judgement of an unfinished state: one value in [0, 1] per seat (higher is better).

        A search that cuts a rollout short reads this; None means the game offers none, and the search
        reads the running totals instead.
        """
        return None

    @staticmethod
    def world_weight(view: dict[str, Any], world: State, seat: int) -> float:
        """How plausible `world` is to `seat`, given conventions the rules do not enforce (1: fully).

        `sample_world` deals what the rules allow; a strategy that reads table talk can say which deals
        the talk makes likely.
        """
        return 1.0

    @classmethod
    def believed_worlds(cls, info: SeatInfo, rng: random.Random, count: int) -> list[State] | None:
        """`count` worlds drawn from what the bot reads of the table, equally likely; None if it reads nothing.

        Finer than `world_weight` where the whole round must be replayed to judge a deal (what was passed,
        who gestured when); a search asks once per decision and plays its iterations in these worlds. The
        other seats' pending choices of a simultaneous step may be left open in them, for the search to make.
        """
        return None

    @classmethod
    def search_candidates(cls, info: SeatInfo, legal: list[int]) -> list[int]:
        """The actions a search should weigh at this decision: all of `legal` unless the strategy rules some out.

        A search spreads its iterations over the actions it weighs; moves that can only be worse (a gesture
        that would mislead one's own teammate) are better left out than sampled.
        """
        return legal

    def __repr__(self) -> str:
        extra = ",".join(f"{k}={v}" for k, v in self.params.items())
        return f"{self.name}:{extra}" if extra else self.name


class RandomBot(Bot):
    """Plays a uniformly random legal action."""

    name = "random"

    def act(self, info: SeatInfo) -> int:
        return self.rng.choice(info.legal_actions())


def win_chances(values: list[float], spread: float) -> list[float]:
    """Turn per-seat standings (higher is better) into shares of one win that sum to 1.

    A seat `spread` ahead of another is e (about 2.7) times as likely to win: the softmax of values / spread.
    A static `estimate` uses it so that a clear lead counts for more than a narrow one.
    """
    top = max(values)
    weights = [math.exp((v - top) / spread) for v in values]
    total = sum(weights)
    return [w / total for w in weights]
