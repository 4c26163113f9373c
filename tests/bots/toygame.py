"""A tiny game for testing the bots and the arena on the kernel contract alone.

Two or three players are dealt 4 of the cards 1 to 12. Four tricks: in tricks 1 and 3 everyone picks a
card at the same time (hidden until all have picked); in tricks 2 and 4 the seats play in turn, each
seeing the cards already played. The single highest card takes the trick and scores the sum of its
cards; a tie for highest scores nothing. It is not registered with the kernel; tests register it.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from ninjatable.core import Bot, Game, Private, SeatInfo, State

CARDS = 12
HAND = 4


class ToyState(State):
    def __init__(self, game: Game, players: int, seed: int, options: dict[str, Any]) -> None:
        super().__init__(game, players, seed, options)
        deck = list(range(CARDS))
        self.chance().shuffle(deck)
        self.hands = [sorted(deck[s * HAND:(s + 1) * HAND]) for s in range(players)]
        self.trick = 0
        self.played: list[int | None] = [None] * players  # cards shown in the current trick
        self.pending: list[int | None] = [None] * players  # hidden picks of a simultaneous trick
        self.turn = 0

    def simultaneous(self) -> bool:
        return self.trick % 2 == 0

    def to_move(self) -> tuple[int, ...]:
        if self.trick >= HAND:
            return ()
        if self.simultaneous():
            return tuple(s for s in range(self.players) if self.pending[s] is None)
        return (self.turn,)

    def _legal_actions(self, seat: int) -> list[int]:
        if seat not in self.to_move():
            return []
        return list(self.hands[seat])

    def _apply(self, seat: int, action: int) -> None:
        if self.simultaneous():
            self.pending[seat] = action
            if all(p is not None for p in self.pending):
                for s, card in enumerate(self.pending):
                    self.hands[s].remove(card)
                self.played = list(self.pending)
                self.pending = [None] * self.players
                self._finish_trick()
            return
        self.hands[seat].remove(action)
        self.played[seat] = action
        if all(p is not None for p in self.played):
            self._finish_trick()
        else:
            self.turn = (self.turn + 1) % self.players

    def _finish_trick(self) -> None:
        best = max(self.played)
        points = [0] * self.players
        if self.played.count(best) == 1:
            points[self.played.index(best)] = sum(c + 1 for c in self.played)
        self.score(f"Trick {self.trick + 1}", points)
        self.trick += 1
        self.played = [None] * self.players
        self.turn = self.trick % self.players

    def is_over(self) -> bool:
        return self.trick >= HAND

    def _view(self) -> dict[str, Any]:
        return {
            "trick": self.trick,
            "hands": [Private(list(h), s, len(h)) for s, h in enumerate(self.hands)],
            "played": list(self.played),
            "picked": [Private(p, s, p is not None) for s, p in enumerate(self.pending)],
        }

    def _observe(self, seat: int, out: np.ndarray) -> None:
        for c in self.hands[seat]:
            out[c] = 1.0
        for s, c in enumerate(self.played):
            if c is not None:
                out[CARDS + c] = 1.0

    def _copy_mutables(self, other: State) -> None:
        other.hands = [list(h) for h in self.hands]
        other.played = list(self.played)
        other.pending = list(self.pending)

    def _sample_hidden(self, world: State, seat: int, rng: random.Random) -> None:
        others = [s for s in range(self.players) if s != seat]
        pool = sorted(c for s in others for c in self.hands[s])  # sorted: independent of the true deal
        rng.shuffle(pool)
        for s in others:
            size = len(self.hands[s])
            world.hands[s], pool = sorted(pool[:size]), pool[size:]
            # Another seat's hidden pick is re-chosen among the cards it may now hold.
            if self.pending[s] is not None:
                world.pending[s] = rng.choice(world.hands[s])


class ToyGame(Game):
    id = "toy"
    title = "Toy tricks"
    summary = "A test game: simultaneous and sequential tricks with hidden hands."
    player_counts = (2, 3)
    default_players = 2

    def num_actions(self, players: int) -> int:
        return CARDS

    def observation_shape(self, players: int) -> tuple[int, ...]:
        return (2 * CARDS,)

    def action_label(self, action: int, players: int) -> str:
        return f"C{action + 1}"

    def _new_state(self, players: int, seed: int, options: dict[str, Any]) -> State:
        return ToyState(self, players, seed, options)


class ToyHeuristic(Bot):
    """Plays its highest card when it can still take the trick, else its lowest."""

    name = "toy-heuristic"

    def act(self, info: SeatInfo) -> int:
        legal = info.legal_actions()
        shown = [c for c in info.view()["played"] if c is not None]
        if shown and max(shown) > legal[-1]:
            return legal[0]
        return legal[-1]


ToyGame.heuristic_bot = ToyHeuristic
TOY = ToyGame()
