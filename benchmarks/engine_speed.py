"""Engine speed for every registered game and player count.

Prints complete random games per second, steps per second (a step is `legal_actions` then `apply`, with a random
choice between them), microseconds per `clone` and per `sample_world` and their ratio (a search samples a world
where a perfect-information search would clone), and the search bot's iterations per second (ISMCTS with the
game's search settings, `ismcts:iterations=50`, deciding at the same positions), each the median of several repeats.
Runs on one core. Usage: python benchmarks/engine_speed.py [--seconds S] [--repeats R] [--game ID ...]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from ninjatable.bots import make_bot
from ninjatable.core import all_games, get_game


def random_steps(game, players: int, seconds: float, seed: int) -> tuple[float, float]:
    """Play random games back to back for `seconds`; return (steps/s, games/s)."""
    rng = random.Random(seed)
    pick = rng.random
    steps = games = 0
    state = game.new_state(players, seed=seed)
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        if state.is_over():
            games += 1
            if time.perf_counter() > deadline:
                break
            state = game.new_state(players, seed=seed + games)
        seat = state.to_move()[0]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[int(pick() * len(legal))])
        steps += 1
    elapsed = time.perf_counter() - start
    return steps / elapsed, games / elapsed


def sample_positions(game, players: int, count: int, seed: int) -> list:
    """States taken at random points of random games."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = game.new_state(players, seed=seed + len(found))
        target = rng.random()
        history = []
        probe = state.clone()
        while not probe.is_over():
            seat = probe.to_move()[0]
            action = rng.choice(probe.legal_actions(seat))
            probe.apply(seat, action)
            history.append((seat, action))
        for seat, action in history[: int(target * len(history))]:
            state.apply(seat, action)
        if not state.is_over():
            found.append(state)
    return found


def micros(fn, states, rounds: int) -> float:
    start = time.perf_counter()
    for _ in range(rounds):
        for s in states:
            fn(s)
    return (time.perf_counter() - start) / (rounds * len(states)) * 1e6


def search_rate(positions: list, iterations: int = 50) -> float:
    """ISMCTS iterations per second over decisions at `positions` (decisions with one legal action skipped)."""
    bot = make_bot(f"ismcts:iterations={iterations}", seed=1)
    done = 0
    start = time.perf_counter()
    for state in positions:
        bot.choose(state, state.to_move()[0])
        done += bot.last_iterations
    return done / (time.perf_counter() - start)


def measure(game, players: int, seconds: float, repeats: int) -> dict:
    runs = [random_steps(game, players, seconds, seed=r) for r in range(repeats)]
    positions = sample_positions(game, players, 20, seed=7)
    rng = random.Random(1)
    clone_us = [micros(lambda s: s.clone(), positions, 50) for _ in range(repeats)]
    world_us = [micros(lambda s: s.sample_world(s.to_move()[0], rng), positions, 5) for _ in range(repeats)]
    search = [search_rate(positions[:5]) for _ in range(repeats)]
    return {
        "game": game.id,
        "players": players,
        "steps_per_s": statistics.median(r[0] for r in runs),
        "games_per_s": statistics.median(r[1] for r in runs),
        "clone_us": statistics.median(clone_us),
        "sample_world_us": statistics.median(world_us),
        "world_per_clone": statistics.median(w / c for w, c in zip(world_us, clone_us)),
        "ismcts_per_s": statistics.median(search),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="length of one timed run")
    parser.add_argument("--repeats", type=int, default=3, help="runs per figure (the median is shown)")
    parser.add_argument("--game", action="append", help="only these game ids")
    args = parser.parse_args()
    games = [get_game(g) for g in args.game] if args.game else all_games()
    print(f"{'game':<12} {'players':>7} {'steps/s':>10} {'games/s':>9} {'clone us':>9} {'sample_world us':>16} "
          f"{'world/clone':>11} {'ismcts it/s':>11}")
    for game in games:
        for players in game.player_counts:
            r = measure(game, players, args.seconds, args.repeats)
            print(f"{r['game']:<12} {r['players']:>7} {r['steps_per_s']:>10,.0f} {r['games_per_s']:>9.1f} "
                  f"{r['clone_us']:>9.1f} {r['sample_world_us']:>16.1f} {r['world_per_clone']:>11.1f} "
                  f"{r['ismcts_per_s']:>11,.0f}", flush=True)


if __name__ == "__main__":
    main()
