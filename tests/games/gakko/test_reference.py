"""Whole random games checked against a second, plain reading of the rules (docs/rules/gakko.md).

The reference keeps its own hands, table, shuriken token and score sheet, from the hands revealed after each
split, and is compared with the engine after every action: the tiers, the lock, the token, the duty to lead
after a cleaning, who is to move, and every score-sheet row. (Legal moves are checked in test_rules.py.)
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from ninjatable.core import get_game
from ninjatable.games.gakko import actions as A
from ninjatable.games.gakko import cards as C

GAME = get_game("gakko")


def worse_hand(heaven: Counter, earth: Counter) -> int:
    """The score of a player who did not go out: minus the costlier hand, n cards of a number costing n(n+1)/2."""
    return -max(sum(n * (n + 1) // 2 for n in hand.values()) for hand in (heaven, earth))


def lock_of(table: list[list[int]]) -> str | None:
    if len(table) < 2 or table[0][1] == table[-1][1]:
        return None
    return "low" if table[0][1] > table[-1][1] else "high"


def play_round(state, rng: random.Random, starter: int, options: dict) -> tuple[list[int], int]:
    """Play one random round from the end of the split; return the reference's points and next starter."""
    n = state.players
    view = state.view(None)
    heaven = [Counter(state.view(s)["seats"][s]["heaven"]) for s in range(n)]
    earth = [Counter(view["seats"][s]["earth"]) for s in range(n)]
    table = [list(t) for t in view["table"]]
    current, token, turns, used, must_lead = starter, None, 0, 0, False
    while True:
        assert state.to_move() == (current,)
        action = rng.choice(state.legal_actions(current))
        kind, hand, rank, count, end, _ = A.ACTIONS[action]
        cards = heaven[current] if hand == C.HEAVEN else earth[current]
        state.apply(current, action)
        if kind == A.PLAY:
            cards[rank] -= count
            if table and rank < table[0][0]:
                table.insert(0, [rank, count])
            else:
                table.append([rank, count])
            token, must_lead = current, False
        elif kind == A.TAKE:
            taken_rank, taken = table.pop(0 if end == C.LOW else -1)
            cards[taken_rank] += taken
        used += 1
        if sum(heaven[current].values()) + sum(earth[current].values()) == 0:  # out: the round ends at once
            points = [5 if s == current else worse_hand(heaven[s], earth[s]) for s in range(n)]
            return points, current
        if used == 2:
            used, turns, must_lead = 0, turns + 1, False
            current = (current + 1) % n
            if turns == options.get("max_turns", 1000):
                return [worse_hand(heaven[s], earth[s]) for s in range(n)], (starter + 1) % n
            if token == current:  # nobody played since: the table is cleaned
                table = []
                must_lead = options.get("lead_after_cleaning", True)
        view = state.view(None)
        assert [list(t) for t in view["table"]] == table
        assert view["lock"] == lock_of(table)
        assert view["shuriken"] == token and view["must_lead"] == must_lead


def play_and_check(players: int, seed: int, options: dict) -> None:
    state = GAME.new_state(players, seed=seed, **options)
    rng = random.Random(seed)
    sheet, starter = [], None
    for round_no in range(1, 4):
        assert state.view(None)["round"] == round_no
        while state.view(None)["phase"] == "split":
            seat = rng.choice(state.to_move())
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        view = state.view(None)
        if starter is not None:
            assert view["starter"] == starter  # the round's winner (or the next seat after a turn limit)
        tiers = view["table"]
        assert len(tiers) == 2 and tiers[0][0] < tiers[1][0] and 1 in (tiers[0][1], tiers[1][1])
        points, starter = play_round(state, rng, view["starter"], options)
        sheet.append(tuple(points))
        assert [line.points for line in state.sheet] == sheet
    assert state.is_over()


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("options", [{}, {"lead_after_cleaning": False}, {"max_turns": 10}], ids=str)
def test_random_games_follow_a_second_reading_of_the_rules(players, options):
    for seed in range(3):
        play_and_check(players, seed, options)
