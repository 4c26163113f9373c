"""A heuristic bot for Oboro Ninja Star Trick: one-trick lookahead over sampled worlds.

For each legal card it deals several worlds the seat cannot tell from the real one, plays the card, lets the
other seats finish the trick with random legal cards, and scores the result: the points already on the
sheet (a Shuriken scoring or round scoring the trick set off), the round points the Card Areas would earn if
the round ended now (weighted more as the round goes on, since tops still change), and the Shuriken pieces
held. It plays the card with the best average. See the "Heuristic bot" section of docs/rules/oboro.md.
"""

from __future__ import annotations

import random
from typing import Any

from ...core import Bot, SeatInfo
from . import cards as C

# Weight of a Shuriken piece while pieces still count (a Shuriken scoring pays 3/2/1 for 5 pieces).
PIECE_WEIGHT = 0.5


class OboroHeuristic(Bot):
    """Picks the card whose trick, finished at random in sampled worlds, leaves the best standing."""

    name = "heuristic"

    def __init__(self, seed: int | None = None, worlds: int = 12, **params: Any) -> None:
        super().__init__(seed, worlds=worlds, **params)
        self.worlds = worlds

    def act(self, info: SeatInfo) -> int:
        legal = info.legal_actions()
        if len(legal) == 1:
            return legal[0]
        seat = info.seat
        totals = dict.fromkeys(legal, 0.0)
        for _ in range(self.worlds):
            world = info.sample_world(self.rng)
            for card in legal:
                trial = world.clone()
                trial.apply(seat, card)
                finish_trick(trial, self.rng)
                totals[card] += standing(trial, seat)
        best = max(totals.values())
        # Equally good cards are chosen between at random, so the bot is not predictable.
        choices = [c for c in legal if totals[c] >= best - 1e-9]
        return self.rng.choice(choices)


def finish_trick(state: Any, rng: random.Random) -> None:
    """Let every seat still to play in the current trick play a random legal card."""
    while state.trick and not state.is_over():
        mover = state.to_move()[0]
        state.apply(mover, rng.choice(state.legal_actions(mover)))


def standing(state: Any, seat: int) -> float:
    """How good the state is for `seat`: sheet points, provisional round points and pieces, against the rest."""
    totals = state.scores()
    value = margin(totals, seat)
    if state.is_over():
        return value
    if state.tricks_played:
        weight = 0.3 + 0.7 * state.tricks_played / C.TRICKS_PER_ROUND
        value += weight * margin(state.round_points(), seat)
    if state.shuriken_scorings < C.SHURIKEN_SCORINGS_TO_END:
        value += PIECE_WEIGHT * margin(state.pieces, seat)
    return value


def margin(values: list[int], seat: int) -> float:
    """The seat's value minus the mean of the others'."""
    others = [v for s, v in enumerate(values) if s != seat]
    return values[seat] - sum(others) / len(others)
