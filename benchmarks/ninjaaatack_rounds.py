"""How Ninjaaa'Tack games and rounds end between heuristic players: by the rules or by the safeguard, after how
many rounds, and on which calls, right or wrong.

Every seat plays the heuristic bot. Prints, per player count: the games that ended by a team (odd counts: a
player) reaching the points to win, rather than by the `max_rounds` safeguard; the mean rounds per game; the
right and wrong Ninjaaa! and Attack! calls; the rounds redealt at the pass limit; and the mean decision at which
a call ended a round (decision 1 is the pass right after the deal, 2 the table talk after it, ...).
Usage: python benchmarks/ninjaaatack_rounds.py [--players N ...] [--games G]
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

from ninjatable.core import get_game
from ninjatable.games.ninjaaatack.actions import PASS_STEP, ninjaaa_action


def play(players: int, games: int) -> dict:
    """Play `games` heuristic games at `players` and count how they and their rounds ended."""
    game = get_game("ninjaaatack")
    calls: Counter = Counter()  # (call, right) -> rounds
    by_rules = rounds = redealt = decisions = 0
    start = time.perf_counter()
    for i in range(games):
        state = game.new_state(players, seed=2000 + i)
        bots = [game.heuristic_bot(seed=i * 10 + s) for s in range(players)]
        while not state.is_over():
            round_, passes, step, rows = state.round, state.passes, state.step, len(state.sheet)
            seat = state.to_move()[0]
            state.apply(seat, bots[seat].choose(state, seat))
            if len(state.sheet) > rows:  # every resolved call writes a row of the score sheet
                _, action, _, _, _, right = state.last_call
                call = "Ninjaaa!" if action == ninjaaa_action(players) else "Attack!"
                calls[(call, right)] += 1
                decisions += 2 * passes + (1 if step == PASS_STEP else 0)
            elif state.round != round_ and not state.is_over():
                redealt += 1
        rounds += state.round
        by_rules += max(state.scores()) >= state.target
    called = sum(calls.values())
    return {
        "players": players,
        "games": games,
        "by_rules": by_rules,
        "mean_rounds": rounds / games,
        "calls": calls,
        "redealt": redealt,
        "mean_decision": decisions / called if called else 0.0,
        "seconds_per_game": (time.perf_counter() - start) / games,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, action="append", help="player counts (default 4 to 8)")
    parser.add_argument("--games", type=int, default=100)
    args = parser.parse_args()
    print(
        f"{'players':>7} {'games':>5} {'by rules':>9} {'rounds':>7} {'Ninjaaa! right/wrong':>21} "
        f"{'Attack! right/wrong':>20} {'redealt':>7} {'decision':>8} {'s/game':>7}"
    )
    for players in args.players or [4, 5, 6, 7, 8]:
        r = play(players, args.games)
        c = r["calls"]
        ninjaaa = f"{c[('Ninjaaa!', True)]}/{c[('Ninjaaa!', False)]}"
        attack = f"{c[('Attack!', True)]}/{c[('Attack!', False)]}"
        print(
            f"{players:>7} {r['games']:>5} {r['by_rules'] / r['games']:>9.1%} {r['mean_rounds']:>7.1f} "
            f"{ninjaaa:>21} {attack:>20} {r['redealt']:>7} {r['mean_decision']:>8.1f} {r['seconds_per_game']:>7.2f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
