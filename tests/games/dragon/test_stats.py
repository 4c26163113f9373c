"""Dragon's designer figures: Shoot the Moon, the trump colours drawn, and what the Bodily Division earns."""

from __future__ import annotations

import pytest

from ninjatable.bots import make_bot, play_game
from ninjatable.core import get_game


def played(seed: int, players: int, **options):
    state = get_game("dragon").new_state(players, seed=seed, **options)
    play_game(state, [make_bot("random", seed=seed * 10 + s) for s in range(players)])
    return state


@pytest.mark.parametrize("players", [3, 4, 5])
def test_one_trump_colour_per_round_and_a_bodily_division_in_each(players):
    state = played(7, players)
    stats = state.stats()
    trumps = sum(v for k, v in stats.items() if k.startswith("trump_"))
    assert trumps == stats["rounds"] == sum(line.label.startswith("Round") for line in state.sheet)
    assert stats["bodily_division_rounds"] == stats["rounds"]  # no Soul-Sucking without the Advanced Variant


def test_shoot_the_moon_counts_the_rounds_scored_as_such():
    for seed in range(6):
        state = played(seed, 4)
        moons = sum("Shoot the Moon" in line.label for line in state.sheet)
        assert state.stats()["shoot_the_moon"] == moons


def test_the_bodily_division_edge_is_the_practitioners_points_against_the_others_mean():
    state = get_game("dragon").new_state(4, seed=3)
    practitioner = None
    while not state.sheet:  # the first round, each seat playing its first legal action
        practitioner = state.jutsu if state.jutsu is not None else practitioner
        seat = state.to_move()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    points = state.sheet[0].points
    others = [p for s, p in enumerate(points) if s != practitioner]
    assert state.stats()["bodily_division_edge"] == pytest.approx(points[practitioner] - sum(others) / 3)
