"""Random games checked move by move against a second, plain reading of the rulebook's trick rules.

The reference below knows only the rulebook: follow the led colour if the current hand holds it; no purple lead
until someone has taken a purple card this round, unless the hand holds only purple; the highest trump wins,
else the highest card of the led colour; +5 a trick, minus each purple's number, the scale's purples to the last
trick's winner; 60 / -20 for all 12 purples; the end at -100 or after as many rounds as players.
"""

from __future__ import annotations

import random

import pytest

from ninjatable.core import get_game
from ninjatable.games.dragon.actions import PLAY

GAME = get_game("dragon")


def colour(c: int) -> int:
    return c // 12


def rank(c: int) -> int:
    return c % 12 + 1


def reference_legal(hand: list[int], trick: list[int], purple_taken: bool) -> set[int]:
    if trick:
        same = {c for c in hand if colour(c) == colour(trick[0])}
        return same or set(hand)
    if purple_taken or all(colour(c) == 0 for c in hand):
        return set(hand)
    return {c for c in hand if colour(c) != 0}


def reference_winner(trick: list[int], trump: int) -> int:
    trumps = [i for i, c in enumerate(trick) if colour(c) == trump]
    led = [i for i, c in enumerate(trick) if colour(c) == colour(trick[0])]
    return max(trumps or led, key=lambda i: rank(trick[i]))


def reference_points(tricks_won: list[int], purples: list[list[int]]) -> list[int]:
    for s, taken in enumerate(purples):
        if len(taken) == 12:
            return [60 if t == s else -20 for t in range(len(purples))]
    return [5 * tricks_won[s] - sum(rank(c) for c in purples[s]) for s in range(len(purples))]


@pytest.mark.parametrize("advanced", [False, True])
@pytest.mark.parametrize("players", [3, 4, 5])
def test_random_games_follow_the_plain_reading(players, advanced):
    for seed in range(12):
        state = GAME.new_state(players, seed=seed, advanced=advanced)
        rng = random.Random(seed)
        rounds_scored = 0
        while not state.is_over():
            rnd = state.round
            purple_taken = False
            won = [0] * players
            purples: list[list[int]] = [[] for _ in range(players)]
            trick: list[tuple[int, int]] = []
            while state.round == rnd and not state.is_over():
                movers = state.to_move()
                seat = movers[rng.randrange(len(movers))]
                legal = state.legal_actions(seat)
                if state.phase != PLAY:
                    state.apply(seat, rng.choice(legal))
                    continue
                assert set(legal) == reference_legal(state.hands[seat], [c for _, c in trick], purple_taken)
                if not trick:
                    assert seat == state.leader
                else:
                    assert seat == (trick[-1][0] + 1) % players, "clockwise"
                card = rng.choice(legal)
                trump, scale = state.trump, list(state.scale)
                last_trick = state.tricks_played == state.setup.hand - 1
                state.apply(seat, card)
                trick.append((seat, card))
                if len(trick) < players:
                    continue
                winner = trick[reference_winner([c for _, c in trick], trump)][0]
                won[winner] += 1
                taken = [c for _, c in trick if colour(c) == 0]
                purples[winner] += taken
                purple_taken = purple_taken or bool(taken)
                trick = []
                if last_trick:
                    purples[winner] += [c for c in scale if colour(c) == 0]
                    line = state.score_sheet()[-1]
                    assert list(line.points) == reference_points(won, purples)
                    rounds_scored += 1
                    if not state.is_over():
                        assert state.leader == state.summoner == winner
                else:
                    assert state.leader == winner
        totals = state.scores()
        assert rounds_scored == players or min(totals) <= -100
        assert rounds_scored == 1 or all(min(sum(line.points[s] for line in state.score_sheet()[:k])
                                             for s in range(players)) > -100 for k in range(1, rounds_scored))
        assert state.winners() == [s for s in range(players) if totals[s] == max(totals)]
