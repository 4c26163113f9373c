"""Does the post-game analysis mean something? Over games of each game between the heuristic and the random bot,
the analysis should give the random bot's decisions a clearly higher mean cost than the heuristic's (95%
intervals apart), and the same record and seed the same analysis. Prints, per game: decisions analysed per bot,
mean cost with its 95% interval, mistakes per 100 decisions, and the time per decision and per game.

    .venv/bin/python benchmarks/analysis_quality.py --games 6 --jobs 2
"""

from __future__ import annotations

import argparse
import math
import time
from statistics import fmean, stdev

from ninjatable.analysis import analyse
from ninjatable.bots import make_bot, play_game
from ninjatable.core import Record, all_games
from ninjatable.runner import Backend


def game_record(game, seed: int) -> tuple[Record, list[str]]:
    """A game of the heuristic against the random bot, seats alternating (which starts alternates by seed)."""
    state = game.new_state(None, seed=seed)
    lineup = ["heuristic" if (s + seed) % 2 == 0 else "random" for s in range(state.players)]
    play_game(state, [make_bot(spec, seed=seed * 31 + s) for s, spec in enumerate(lineup)])
    return Record.from_state(state), lineup


def interval(values: list[float]) -> tuple[float, float, float]:
    mean = fmean(values)
    half = 1.96 * stdev(values) / math.sqrt(len(values)) if len(values) > 1 else math.inf
    return mean, mean - half, mean + half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="games of each game")
    parser.add_argument("--worlds", type=int, default=12)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--only", default="", help="comma-separated game ids (all by default)")
    args = parser.parse_args()
    backend = Backend(jobs=args.jobs)
    wanted = [g for g in all_games() if not args.only or g.id in args.only.split(",")]
    for game in wanted:
        costs: dict[str, list[float]] = {"heuristic": [], "random": []}
        points: dict[str, list[float]] = {"heuristic": [], "random": []}
        mistakes = {"heuristic": 0, "random": 0}
        seconds, decisions = 0.0, 0
        for seed in range(args.games):
            record, lineup = game_record(game, seed)
            start = time.perf_counter()
            result = analyse(record, worlds=args.worlds, seed=seed, backend=backend)
            seconds += time.perf_counter() - start
            decisions += len(result.decisions)
            for d in result.decisions:
                costs[lineup[d.seat]].append(d.cost)
                points[lineup[d.seat]].append(d.score_cost)
                mistakes[lineup[d.seat]] += d.mistake
        same = analyse(record, worlds=args.worlds, seed=seed, backend=backend).to_dict() == result.to_dict()
        line = [f"{game.id:12s}"]
        for bot in ("heuristic", "random"):
            mean, low, high = interval(costs[bot])
            p_mean, p_low, p_high = interval(points[bot])
            line.append(f"{bot} {len(costs[bot])} decisions, cost {100 * mean:.1f}% [{100 * low:.1f}, "
                        f"{100 * high:.1f}] of a win, {p_mean:.2f} [{p_low:.2f}, {p_high:.2f}] points, "
                        f"{100 * mistakes[bot] / max(1, len(costs[bot])):.1f} mistakes/100")
        apart = interval(costs["random"])[1] > interval(costs["heuristic"])[2]
        apart_points = interval(points["random"])[1] > interval(points["heuristic"])[2]
        line.append(f"apart: {'yes' if apart else 'NO'} (points: {'yes' if apart_points else 'NO'}); same record and seed, same analysis: "
                    f"{'yes' if same else 'NO'}; {1000 * seconds / max(1, decisions):.0f} ms a decision, "
                    f"{seconds / args.games:.1f} s a game ({args.jobs} process{'es' * (args.jobs > 1)})")
        print(" | ".join(line), flush=True)


if __name__ == "__main__":
    main()
