"""A tiny game for the research adapters' tests, not registered with the kernel.

Blind Bids: each of 2 or 3 players holds 3 cards dealt from the values 1-9. Each round the leader first
chooses the stake (single or double), then every player picks a card at the same time, in secret; the
highest card wins the stake (a tie wins nothing) and the round's winner leads next. Three rounds.
It mixes a turn-by-turn decision with a simultaneous one, so the adapters' handling of pending choices is
tested even before any registered game has a simultaneous decision.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from ninjatable.core import Game, Private, State, seat_name

CARDS = 9
SINGLE, DOUBLE = CARDS, CARDS + 1
HAND = 3
MAX_SEATS = 3
OBS_SIZE = 3 * CARDS + 2 + 2 * MAX_SEATS


class BlindBidsState(State):
    def __init__(self, game: Game, players: int, seed: int, options: dict[str, Any]) -> None:
        super().__init__(game, players, seed, options)
        deck = list(range(CARDS))
        self.chance().shuffle(deck)
        self.hands = [sorted(deck[s * HAND:(s + 1) * HAND]) for s in range(players)]
        self.revealed: list[int] = []
        self.pending: dict[int, int] = {}
        self.leader = 0
        self.stake = 0  # 0 while the leader has not chosen
        self.rounds = 0

    def to_move(self) -> tuple[int, ...]:
        if self.rounds == HAND:
            return ()
        if not self.stake:
            return (self.leader,)
        return tuple(s for s in range(self.players) if s not in self.pending)

    def _legal_actions(self, seat: int) -> list[int]:
        if seat not in self.to_move():
            return []
        return [SINGLE, DOUBLE] if not self.stake else self.hands[seat].copy()

    def _apply(self, seat: int, action: int) -> None:
        if not self.stake:
            self.stake = 2 if action == DOUBLE else 1
            return
        self.hands[seat].remove(action)
        self.pending[seat] = action
        self.log("bid", f"{seat_name(seat)} bids {action + 1}", to=seat)
        if len(self.pending) == self.players:
            self._resolve()

    def _resolve(self) -> None:
        bids = [self.pending[s] for s in range(self.players)]
        self.revealed.extend(bids)
        best = max(bids)
        points = [0] * self.players
        if bids.count(best) == 1:
            self.leader = bids.index(best)
            points[self.leader] = self.stake
        self.rounds += 1
        self.score(f"Round {self.rounds}", points)
        self.pending = {}
        self.stake = 0

    def is_over(self) -> bool:
        return self.rounds == HAND

    def _view(self) -> dict[str, Any]:
        return {
            "stake": self.stake,
            "leader": self.leader,
            "revealed": [c + 1 for c in self.revealed],
            "hands": [Private([c + 1 for c in h], s, len(h)) for s, h in enumerate(self.hands)],
            "bids": [Private(self.pending[s] + 1, s, "chosen") if s in self.pending else None
                     for s in range(self.players)],
        }

    def _observe(self, seat: int, out: np.ndarray) -> None:
        for c in self.hands[seat]:
            out[c] = 1.0
        for c in self.revealed:
            out[CARDS + c] = 1.0
        if seat in self.pending:
            out[2 * CARDS + self.pending[seat]] = 1.0
        out[3 * CARDS] = self.stake / 2
        out[3 * CARDS + 1] = self.leader == seat
        totals = self.scores()
        for s in range(self.players):
            rel = (s - seat) % self.players
            out[3 * CARDS + 2 + rel] = s in self.pending
            out[3 * CARDS + 2 + MAX_SEATS + rel] = totals[s] / 6

    def _copy_mutables(self, other: State) -> None:
        other.hands = [h.copy() for h in self.hands]
        other.revealed = self.revealed.copy()
        other.pending = dict(self.pending)

    def _sample_hidden(self, world: State, seat: int, rng: random.Random) -> None:
        # The other seats' hands and pending bids are hidden: deal them again from the unseen cards.
        others = [s for s in range(self.players) if s != seat]
        unseen = [c for s in others for c in self.hands[s]] + [self.pending[s] for s in others if s in self.pending]
        unseen += [c for c in range(CARDS) if c not in unseen and c not in self.revealed
                   and c not in self.hands[seat] and c != self.pending.get(seat)]
        rng.shuffle(unseen)
        for s in others:
            if s in self.pending:
                world.pending[s] = unseen.pop()
            world.hands[s] = sorted(unseen.pop() for _ in self.hands[s])


class BlindBids(Game):
    id = "blindbids"
    title = "Blind Bids"
    summary = "A test game: stake, then simultaneous secret bids."
    player_counts = (2, 3)
    default_players = 2
    state_class = BlindBidsState
    action_labels = (*(str(value) for value in range(1, CARDS + 1)), "single", "double")
    observation_size = OBS_SIZE


GAME = BlindBids()
