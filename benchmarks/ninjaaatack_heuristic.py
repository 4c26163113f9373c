"""Strength of the Ninjaaa'Tack heuristic bot against random players.

Even counts: one team of two heuristic seats against random teams. Odd counts: one heuristic seat (a different
one each game) among random players. Prints the heuristic side's win rate (a shared win counts as a fraction),
the share it would get by chance, and how many games ended on the round safeguard rather than at the target.
Usage: python benchmarks/ninjaaatack_heuristic.py [--players N] [--games G]
"""

from __future__ import annotations

import argparse
import time

from ninjatable.bots import play_game
from ninjatable.core import RandomBot, get_game


def heuristic_seats(players: int, game_index: int) -> set[int]:
    if players % 2 == 0:
        return {0, players // 2}
    return {game_index % players}


def measure(players: int, games: int) -> dict:
    game = get_game("ninjaaatack")
    wins = 0.0
    capped = 0
    start = time.perf_counter()
    for i in range(games):
        state = game.new_state(players, seed=1000 + i)
        ours = heuristic_seats(players, i)
        bots = [game.heuristic_bot(seed=i * 10 + s) if s in ours else RandomBot(seed=i * 10 + s) for s in range(players)]
        play_game(state, bots)
        winners = set(state.winners())
        if winners & ours:
            wins += len(winners & ours) / len(winners)
        if max(state.scores()) < state.options["points_to_win"]:
            capped += 1
    chance = 2 / players if players % 2 == 0 else 1 / players
    return {
        "players": players,
        "games": games,
        "win_rate": wins / games,
        "chance": chance,
        "safeguard_endings": capped,
        "seconds_per_game": (time.perf_counter() - start) / games,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, action="append", help="player counts (default 4 and 5)")
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    print(f"{'players':>7} {'games':>6} {'win rate':>9} {'by chance':>10} {'safeguard':>10} {'s/game':>7}")
    for players in args.players or [4, 5]:
        r = measure(players, args.games)
        print(f"{r['players']:>7} {r['games']:>6} {r['win_rate']:>9.1%} {r['chance']:>10.1%} "
              f"{r['safeguard_endings']:>10} {r['seconds_per_game']:>7.2f}", flush=True)


if __name__ == "__main__":
    main()
