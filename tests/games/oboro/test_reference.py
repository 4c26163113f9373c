"""Whole random games checked against a second, plain reading of the rulebook (docs/rules/oboro.md).

The reference below keeps its own hands, Card Areas, Shuriken stock and score sheet from the rules' words, by
card labels, and is compared with the engine after every trick and round: who leads, what may be played,
and every score-sheet row.
"""

from __future__ import annotations

import random

import pytest

from ninjatable.core import get_game

GAME = get_game("oboro")


def value(label: str) -> int:
    return int(label[1])


def paid(keys: dict[int, tuple[int, ...]]) -> tuple[int, ...]:
    """3/2/1 by rank; a shared 1st pays 2 each, a shared 2nd or 3rd 1 each (ranks 1,1,3 pay 2,2,1)."""
    points = [0, 0, 0]
    for seat, key in keys.items():
        rank = 1 + sum(1 for other in keys.values() if other > key)
        shared = sum(1 for other in keys.values() if other == key) > 1
        points[seat] = {1: 2, 2: 1, 3: 1}[rank] if shared else {1: 3, 2: 2, 3: 1}[rank]
    return tuple(points)


def play_and_check(seed: int, options: dict) -> None:
    state = GAME.new_state(3, seed=seed, **options)
    rng = random.Random(seed)
    mission = options.get("mission_value", 9)
    arrows = {"B4", "G4"} | ({"R8"} if options.get("red8_arrow", True) else set())
    sheet: list[tuple[str, tuple[int, ...]]] = []
    stock, pieces, scorings, round_no = 5, [0, 0, 0], 0, 0
    while True:
        round_no += 1
        hands = [set(state.view(s)["seats"][s]["hand"]) for s in range(3)]
        assert sorted(len(h) for h in hands) == [8, 8, 8]
        leader = state.to_move()[0]
        if round_no == 1 or options.get("round_leader", "red8") == "red8":
            assert "R8" in hands[leader]
        areas = [[[], [], []] for _ in range(3)]  # seat -> colour -> labels, bottom to top
        for _ in range(7):
            assert state.to_move() == (leader,)
            trick: list[tuple[int, str]] = []
            for i in range(3):
                seat = (leader + i) % 3
                follow = [c for c in hands[seat] if trick and c[0] == trick[0][1][0]]
                allowed = sorted(follow or hands[seat])
                assert sorted(state.action_label(a) for a in state.legal_actions(seat)) == allowed
                card = rng.choice(allowed)
                state.apply(seat, state.parse_action(card))
                hands[seat].remove(card)
                trick.append((seat, card))
            winner = trick[0]
            for played in trick[1:]:
                if value(played[1]) >= value(winner[1]):  # the later card wins a tie
                    winner = played
            taker = winner[0]
            leader = taker
            for seat, card in trick:  # the last Arrow played decides
                if card in arrows:
                    leader = seat
            for k, colour in enumerate("RBG"):
                won = [c for _, c in trick if c[0] == colour]
                areas[taker][k] += sorted(won, key=value, reverse=True)  # lowest ends on top
            sixes = sum(1 for _, c in trick if c[1] == "6")
            if sixes and stock:
                got = min(sixes, stock)
                stock -= got
                pieces[taker] += got
                if stock == 0 and scorings < 2:
                    scorings += 1
                    holders = {s: (p,) for s, p in enumerate(pieces) if p}
                    sheet.append((f"Shuriken scoring {scorings}", paid(holders)))
                    stock, pieces = 5, [0, 0, 0]
        ranked = {}
        for seat in range(3):
            tops = [stack[-1] for stack in areas[seat] if stack]
            power = sum(value(c) for c in tops)
            if power <= mission:
                ranked[seat] = (power, len(tops))
        sheet.append((f"Round {round_no}", paid(ranked)))
        assert [(line.label, line.points) for line in state.sheet] == sheet
        if scorings == 2:
            assert state.is_over()
            return
        assert not state.is_over()
        if options.get("round_leader") == "last_trick":
            assert state.to_move() == (leader,)


@pytest.mark.parametrize("options", [{}, {"mission_value": 11}, {"red8_arrow": False},
                                     {"round_leader": "last_trick"}], ids=str)
def test_random_games_follow_a_second_reading_of_the_rules(options):
    for seed in range(60):
        play_and_check(seed, options)
