"""Engine speed: random playouts, clones and sampled worlds per second, one row per game.

A step is `legal_actions` then `apply`, as a learning loop or a search rollout does it. Run:
    python benchmarks/engine_speed.py [--seconds 2] [game ...]
"""

from __future__ import annotations

import argparse
import random
import time
from functools import partial

from ninjatable.core import all_games, get_game


def playout_speed(game, players: int, seconds: float) -> tuple[float, float]:
    """Steps and games per second of uniformly random play, new_state included."""
    rng = random.Random(0)
    steps = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_state(players, seed=games)
        games += 1
        while not state.is_over():
            seat = state.to_move()[0]
            legal = state.legal_actions(seat)
            state.apply(seat, legal[rng.randrange(len(legal))])
            steps += 1
    elapsed = time.perf_counter() - start
    return steps / elapsed, games / elapsed


def mid_game(game, players: int, seed: int = 7):
    """A state a third of the way into a random game."""
    rng = random.Random(seed)
    probe = game.new_state(players, seed=seed)
    length = 0
    while not probe.is_over():
        seat = probe.to_move()[0]
        probe.apply(seat, rng.choice(probe.legal_actions(seat)))
        length += 1
    state = game.new_state(players, seed=seed)
    rng = random.Random(seed)
    for _ in range(length // 3):
        seat = state.to_move()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return state


def per_second(action, seconds: float) -> float:
    count = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        action()
        count += 1
    return count / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="game ids (default: every game)")
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    args = parser.parse_args()
    games = [get_game(g) for g in args.games] or all_games()
    print(f"{'game':<12}{'players':>8}{'steps/s':>12}{'games/s':>10}{'clone/s':>11}{'sample/s':>11}")
    for game in games:
        players = game.default_players
        steps, played = playout_speed(game, players, args.seconds)
        state = mid_game(game, players)
        seat = state.to_move()[0]
        rng = random.Random(1)
        clones = per_second(state.clone, args.seconds / 2)
        samples = per_second(partial(state.sample_world, seat, rng), args.seconds / 2)
        print(f"{game.id:<12}{players:>8}{steps:>12,.0f}{played:>10,.0f}{clones:>11,.0f}{samples:>11,.0f}")


if __name__ == "__main__":
    main()
