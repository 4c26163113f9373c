"""How Ninjaaa'Tack rounds end between heuristic players: at which decision, on which call, right or wrong.

Every seat plays the heuristic bot. A round's decisions alternate pass and signal steps (decision 1 is the
pass right after the deal, decision 2 the table talk after it, ...); a call at a decision ends the round there.
Prints, per decision, how many rounds ended on a Ninjaaa! or an Attack!, right or wrong, and the share of all
rounds; then how many rounds reached the pass limit.
Usage: python benchmarks/ninjaaatack_rounds.py [--players N] [--games G]
"""

from __future__ import annotations

import argparse
from collections import Counter

from ninjatable.core import get_game
from ninjatable.games.ninjaaatack.rules import PASS_STEP, ninjaaa_action


def round_endings(players: int, games: int) -> tuple[Counter, int]:
    """Rounds ended by a call, keyed by (decision, call, right); and the rounds redealt at the pass limit."""
    game = get_game("ninjaaatack")
    endings: Counter = Counter()
    redealt = 0
    for i in range(games):
        state = game.new_state(players, seed=2000 + i)
        bots = [game.heuristic_bot(seed=i * 10 + s) for s in range(players)]
        while not state.is_over():
            round_, passes, step, rows = state.round, state.passes, state.step, len(state.sheet)
            seat = state.to_move()[0]
            state.apply(seat, bots[seat].choose(state, seat))
            if len(state.sheet) > rows:  # every resolved call writes a row of the score sheet
                _, action, _, _, _, right = state.last_call
                decision = 2 * passes + (1 if step == PASS_STEP else 0)
                call = "Ninjaaa!" if action == ninjaaa_action(players) else "Attack!"
                endings[(decision, call, right)] += 1
            elif state.round != round_:
                redealt += 1
    return endings, redealt


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    endings, redealt = round_endings(args.players, args.games)
    rounds = sum(endings.values()) + redealt
    print(f"{args.games} games between heuristic players at {args.players} players: {rounds} rounds")
    print(f"{'decision':>8} {'call':>9} {'right':>6} {'wrong':>6} {'rounds':>7}")
    for decision in sorted({d for d, _, _ in endings}):
        for call in ("Ninjaaa!", "Attack!"):
            right, wrong = endings[(decision, call, True)], endings[(decision, call, False)]
            if right or wrong:
                print(f"{decision:>8} {call:>9} {right:>6} {wrong:>6} {(right + wrong) / rounds:>7.1%}")
    print(f"redealt at the pass limit: {redealt}")


if __name__ == "__main__":
    main()
