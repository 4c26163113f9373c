"""Games per second of the balance runner: one process, two local processes (--jobs 2) and a local Ray of two CPUs.

For each game it plays the same seeded games on each backend (the results are checked equal), then prints games per
second, the overhead per game of the Ray path (measured with empty games, and as the CPU time a game costs on Ray
beyond one process) and, from these, an estimate of games per second on a cluster of K nodes: K x cores / (time of
one game + Ray overhead per game). Ray's start-up is timed apart. On a busy machine the parallel figures show the
load more than the backends.
Usage: python benchmarks/scale.py [--games G] [--bots heuristic] [--cores-per-node C] [--game ID ...]
"""

from __future__ import annotations

import argparse
import time

from ninjatable.balance import BalanceTask, play_balance_game
from ninjatable.core import get_game
from ninjatable.runner import Backend, batches, run

CPUS = 2


def timed(tasks: list[BalanceTask], backend: Backend) -> tuple[float, list]:
    start = time.perf_counter()
    results = run(play_balance_game, tasks, backend)
    return time.perf_counter() - start, results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games per backend and game")
    parser.add_argument("--bots", default="heuristic", help="the bot in every seat")
    parser.add_argument("--cores-per-node", type=int, default=8, help="cores of a cluster node, for the estimate")
    parser.add_argument("--game", nargs="*", default=["oboro", "clanwars"])
    args = parser.parse_args()

    import ray

    start = time.perf_counter()
    ray.init(num_cpus=CPUS, include_dashboard=False, log_to_driver=False, configure_logging=False)
    print(f"Ray start-up (local, {CPUS} CPUs): {time.perf_counter() - start:.1f} s")
    ray_backend = Backend("ray")
    run(abs, list(range(2 * CPUS)), ray_backend)  # warm the workers, as a long run would have them
    empty = 2000
    start = time.perf_counter()
    run(abs, list(range(empty)), ray_backend)
    path = (time.perf_counter() - start) / empty
    print(f"Ray path with nothing to play: {1e6 * path:.0f} us per game ({empty} empty games in "
          f"{len(batches(empty, CPUS))} Ray tasks): the overhead per game of the Ray path")
    c = args.cores_per_node
    try:
        for game_id in args.game:
            game = get_game(game_id)
            players = game.default_players
            tasks = [BalanceTask(game.id, players, {}, i, (args.bots,) * players) for i in range(args.games)]
            one, expected = timed(tasks, Backend())
            two, results_two = timed(tasks, Backend(jobs=CPUS))
            on_ray, results_ray = timed(tasks, ray_backend)
            same = _same(expected, results_two) and _same(expected, results_ray)
            per_game = one / args.games
            observed = (on_ray * CPUS - one) / args.games
            print(f"\n{game.id}, {players} players, {args.bots}, {args.games} games (results identical: {same})")
            for name, seconds in (("1 process", one), (f"--jobs {CPUS}", two), (f"Ray, {CPUS} CPUs", on_ray)):
                print(f"  {name:<12} {args.games / seconds:8.1f} games/s  ({seconds:.2f} s)")
            print(f"  one game: {1000 * per_game:.1f} ms in one process; on Ray {1000 * observed:+.1f} ms of CPU per "
                  "game beyond that (start-up of the workers' imports, and any other load on the machine)")
            rate = c / (per_game + path)
            print(f"  estimate on K nodes of {c} cores: K x {rate:.0f} games/s "
                  f"(K=4: {4 * rate:.0f}, K=16: {16 * rate:.0f}), while one driver keeps up")
    finally:
        ray.shutdown()


def _same(a: list, b: list) -> bool:
    return [vars(x) for x in a] == [vars(x) for x in b]


if __name__ == "__main__":
    main()
