"""Does table talk pay in Ninjaaa'Tack? A signalling partnership against a silent one, same bots otherwise.

Every seat plays the heuristic; the seats of one partnership signal by their private codebook, the other
partnership's seats never make a gesture (they still read the opponents' gestures as the heuristic does). The
signalling partnership alternates between the two teams from game to game. Prints its share of the games (a
shared win counts as a fraction) with its 95% interval; 50% is even.
Usage: python benchmarks/ninjaaatack_table_talk.py [--players 4|6|8] [--games G] [--codebooks true|false]
"""

from __future__ import annotations

import argparse
import time

from ninjatable.arena.stats import wilson
from ninjatable.bots import play_game
from ninjatable.core import get_game
from ninjatable.games.ninjaaatack.heuristic import NinjaaaTackHeuristic


def measure(players: int, games: int, codebooks: bool) -> dict:
    """The signalling partnership's share of `games` games against silent partnerships."""
    game = get_game("ninjaaatack")
    half = players // 2
    won = 0.0
    by_rules = 0
    start = time.perf_counter()
    for i in range(games):
        state = game.new_state(players, seed=5000 + i, codebooks=codebooks)
        talkers = {i % half, i % half + half}
        bots = [NinjaaaTackHeuristic(seed=i * 10 + s, signals=s in talkers) for s in range(players)]
        play_game(state, bots)
        winners = set(state.winners())
        won += len(winners & talkers) / len(winners)
        by_rules += max(state.scores()) >= state.target
    rate = wilson(won, games)
    return {
        "players": players,
        "games": games,
        "share": rate.value,
        "low": rate.low,
        "high": rate.high,
        "by_rules": by_rules,
        "seconds_per_game": (time.perf_counter() - start) / games,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4, choices=(4, 6, 8))
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--codebooks", default="true", choices=("true", "false"))
    args = parser.parse_args()
    r = measure(args.players, args.games, args.codebooks == "true")
    print(
        f"{r['players']} players, {r['games']} games, codebooks={args.codebooks}: the signalling partnership wins "
        f"{r['share']:.1%} [{r['low']:.1%}, {r['high']:.1%}] (even: {1 / (r['players'] // 2):.0%}); "
        f"{r['by_rules']} games ended by the rules; {r['seconds_per_game']:.2f} s/game"
    )


if __name__ == "__main__":
    main()
