"""Bot strength for every registered game at its most common player count.

Two seat-rotated arena matches per game, one bot against a table of the weaker one:
- heuristic against random (1 heuristic seat, the others random),
- ISMCTS at its default budget against heuristic (1 search seat, the others heuristic),
each reported as the stronger bot's win share per seat with its 95% interval, beside the even share 1/N.
In a game played in fixed partnerships the stronger bot takes a whole partnership instead (every other
seat: partners sit opposite), since a strategy there is a partnership's: a seat whose partner plays at
random loses the points its partner throws away, whatever it does itself.
Then the ISMCTS decision time (median and 95th percentile, one core, at positions taken from heuristic
games) and its iteration rate. Matches run in `--jobs` processes; the timing runs alone in this one.

Usage: python benchmarks/bot_strength.py [--game ID ...] [--games G] [--search-games G] [--positions P]
       [--search SPEC] [--jobs J] [--seed S] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from rich.console import Console
from rich.table import Table

from ninjatable.arena import run_arena
from ninjatable.bots import make_bot, play_game
from ninjatable.bots.ismcts import IsmctsBot
from ninjatable.core import SeatInfo, all_games, get_game

# Games played in fixed partnerships of two at even player counts, partners sitting opposite.
PARTNERSHIP_GAMES = {"ninjaaatack"}


def lineup(game, strong: str, weak: str, players: int) -> list[str]:
    """One seat for `strong` and the rest for `weak`, or every other seat in a partnership game.

    The arena rotates the lineup through the seats; alternating bots stay partners in every rotation.
    """
    if game.id in PARTNERSHIP_GAMES and players % 2 == 0:
        return [strong, weak] * (players // 2)
    return [strong] + [weak] * (players - 1)


def share(game, players: int, strong: str, weak: str, games: int, seed: int, jobs: int) -> dict:
    bots = lineup(game, strong, weak, players)
    result = run_arena(game.id, players, bots, games=games, seed=seed, jobs=jobs)
    s = result.summary(strong)
    return {
        "bot": strong,
        "against": weak,
        "lineup": bots,
        "games": len(result.games),
        "win_share": s.win_rate.to_dict(),
        "even_share": result.even_share,
        "beats": s.win_rate.low > result.even_share,
        "mean_score": s.mean_score.to_dict(),
    }


def decision_positions(game, players: int, count: int, seed: int) -> list:
    """States where some seat has a real choice, taken from games between heuristic bots."""
    rng = random.Random(seed)
    found: list = []
    g = 0
    while len(found) < count:
        bots = [make_bot("heuristic" if game.heuristic_bot else "random", seed=seed + g * 10 + s)
                for s in range(players)]
        state = game.new_state(players, seed=seed + g)
        played = play_game(state.clone(), bots)
        marks = sorted(rng.sample(range(len(played.history)), min(len(played.history), 6)))
        for step, (seat, action) in enumerate(played.history):
            if step in marks and len(state.legal_actions(seat)) > 1:
                found.append((state.clone(), seat))
            state.apply(seat, action)
        g += 1
    return found[:count]


def search_timing(game, players: int, spec: str, count: int, seed: int) -> dict:
    """Median and 95th percentile of one ISMCTS decision, and iterations per second, on this core."""
    times, iterations = [], 0
    for i, (state, seat) in enumerate(decision_positions(game, players, count, seed)):
        bot = make_bot(spec, seed=seed + i)
        start = time.perf_counter()
        bot.act(SeatInfo(state, seat))
        times.append(time.perf_counter() - start)
        iterations += getattr(bot, "last_iterations", 0)
    times.sort()
    p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
    return {
        "decisions": len(times),
        "median_ms": 1000 * statistics.median(times),
        "p95_ms": 1000 * p95,
        "iterations_per_s": iterations / sum(times),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", help="Only this game (repeatable); default: every game.")
    parser.add_argument("--players", type=int, help="Player count (default: each game's usual count).")
    parser.add_argument("--games", type=int, default=400, help="Games of heuristic against random.")
    parser.add_argument("--search-games", type=int, default=200, help="Games of ISMCTS against heuristic.")
    parser.add_argument("--positions", type=int, default=60, help="Positions for the decision timing.")
    parser.add_argument("--search", default="ismcts", help="The search bot (default: ISMCTS's default budget).")
    parser.add_argument("--jobs", type=int, default=1, help="Parallel processes for the matches.")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="Print the figures as JSON.")
    args = parser.parse_args()

    games = [get_game(g) for g in args.game] if args.game else all_games()
    console = Console(stderr=args.json)
    rows = []
    for game in games:
        players = args.players or game.default_players
        row = {"game": game.id, "players": players}
        if game.heuristic_bot is None:
            console.print(f"{game.id}: no heuristic bot; ISMCTS is matched against random")
        weak = "heuristic" if game.heuristic_bot else "random"
        started = time.perf_counter()
        if game.heuristic_bot is not None and args.games:
            row["heuristic_vs_random"] = share(game, players, "heuristic", "random", args.games, args.seed,
                                               args.jobs)
        if args.search_games:
            row["search_vs_heuristic"] = share(game, players, args.search, weak, args.search_games, args.seed,
                                               args.jobs)
        if args.positions:
            row["search_timing"] = search_timing(game, players, args.search, args.positions, args.seed)
        row["seconds"] = time.perf_counter() - started
        rows.append(row)
        console.print(f"{game.id} done in {row['seconds']:.0f} s")
    budget = make_bot(args.search)
    search_name = args.search if not isinstance(budget, IsmctsBot) else (
        f"{args.search} ({budget.iterations} iterations)" if budget.iterations else args.search)
    if args.json:
        print(json.dumps({"search": search_name, "rows": rows}, indent=2))
        return
    table = Table(title=f"Bot strength: one seat against the rest; search = {search_name}", header_style="bold")
    for column in ("game", "N", "even", "heuristic vs random", "ISMCTS vs heuristic", "median ms", "p95 ms",
                   "iter/s"):
        table.add_column(column, justify="left" if column == "game" else "right", no_wrap=column == "game")
    for row in rows:
        timing = row.get("search_timing", {})
        table.add_row(
            row["game"], str(row["players"]), f"{1 / row['players']:.1%}",
            _share(row.get("heuristic_vs_random")), _share(row.get("search_vs_heuristic")),
            f"{timing.get('median_ms', 0):.0f}", f"{timing.get('p95_ms', 0):.0f}",
            f"{timing.get('iterations_per_s', 0):.0f}",
        )
    Console().print(table)
    print("Win share per seat with its 95% interval (Wilson) and the number of games; * = interval above even.")
    partnered = [row["game"] for row in rows if row["game"] in PARTNERSHIP_GAMES and row["players"] % 2 == 0]
    if partnered:
        print(f"Played partnership against partnership: {', '.join(partnered)}.")


def _share(cell: dict | None) -> str:
    if not cell:
        return "-"
    w = cell["win_share"]
    mark = "*" if cell["beats"] else " "
    return f"{w['value']:.1%} [{w['low']:.1%}, {w['high']:.1%}] n={cell['games']}{mark}"


if __name__ == "__main__":
    main()
