"""How the Ninjaaa'Tack heuristic calls at the gong when its partner's gestures mean nothing.

Player 1 plays the heuristic and is measured. Its partner (the seat opposite) is, by case:
- `random-gestures`: plays like the heuristic, but each gesture (or silence) is drawn at random, whatever the
  codebook says: a partner who ignores the code;
- `random-play`: passes a random card and makes a random gesture or silence, and taps the gong only with a clan
  in hand: a newcomer who ignores the code and has no strategy yet;
- `silent`: the heuristic that never gestures;
- `heuristic`: the heuristic, following the code.
The other seats play the heuristic. For each case: the calls Player 1 made at the gong (resolved calls only),
how many were wrong, the wrong-call rate with its 95% interval (Wilson; calls of one game are not independent,
so the interval is a little narrow), and the share of the games its team won (a shared win counts as a
fraction), with its 95% interval. The target: with a random-gesturing partner, a wrong-call rate near the silent
partner's; with a heuristic partner, no worse than before.
Usage: python benchmarks/ninjaaatack_trust.py [--games G] [--players 4|6|8] [--jobs J] [--cases a,b]
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from ninjatable.arena.stats import wilson
from ninjatable.bots import play_game
from ninjatable.core import Bot, SeatInfo, get_game
from ninjatable.games.ninjaaatack.actions import ninjaaa_action, silence_action
from ninjatable.games.ninjaaatack.cards import CARDS_PER_FAMILY
from ninjatable.games.ninjaaatack.convention import own_hand
from ninjatable.games.ninjaaatack.heuristic import NinjaaaTackHeuristic

CASES = ("random-gestures", "random-play", "silent", "heuristic")
MEASURED = 0


class RandomGestures(NinjaaaTackHeuristic):
    """The heuristic's passes and calls, with a random gesture or silence at every signal step."""

    name = "random-gestures"

    def act(self, info: SeatInfo) -> int:
        action = super().act(info)
        n = info.players
        if action < ninjaaa_action(n) and info.view()["step"] == "signal":
            return self.rng.randrange(n, silence_action(n) + 1)
        return action


class RandomPlay(Bot):
    """A partner who knows no strategy: a random card, a random gesture or silence, and the gong only with a clan in
    hand (4 of a family, certain whatever the Penalty)."""

    name = "random-play"

    def act(self, info: SeatInfo) -> int:
        n = info.players
        legal = info.legal_actions()
        ninjaaa = ninjaaa_action(n)
        if max(own_hand(info.view(), n)) == CARDS_PER_FAMILY and ninjaaa in legal:
            return ninjaaa
        return self.rng.choice([a for a in legal if a < ninjaaa])


def partner_bot(case: str, seed: int) -> Bot:
    """The measured seat's partner in one case."""
    if case == "random-gestures":
        return RandomGestures(seed=seed)
    if case == "random-play":
        return RandomPlay(seed=seed)
    if case == "silent":
        return NinjaaaTackHeuristic(seed=seed, signals=False)
    return NinjaaaTackHeuristic(seed=seed)


@dataclass
class Tally:
    calls: int = 0
    wrong: int = 0
    won: float = 0.0
    games: int = 0

    def add(self, other: Tally) -> None:
        self.calls += other.calls
        self.wrong += other.wrong
        self.won += other.won
        self.games += other.games


def play_one(args: tuple[str, int, int]) -> Tally:
    """One seeded game of a case: the measured seat's resolved calls, wrong calls, and its team's share of the win."""
    case, players, index = args
    game = get_game("ninjaaatack")
    state = game.new_state(players, seed=7000 + index)
    partner = MEASURED + players // 2
    bots = [
        partner_bot(case, index * 10 + s) if s == partner else NinjaaaTackHeuristic(seed=index * 10 + s)
        for s in range(players)
    ]
    tally = Tally(games=1)
    seen = [state.last_call]

    def count_call(after) -> None:
        call = after.last_call
        if call is not seen[0]:
            seen[0] = call
            caller, correct = call[0], call[5]
            if caller == MEASURED:
                tally.calls += 1
                tally.wrong += not correct

    play_game(state, bots, on_step=count_call)
    winners = set(state.winners())
    tally.won = len(winners & {MEASURED, partner}) / len(winners)
    return tally


def measure(case: str, players: int, games: int, jobs: int) -> tuple[Tally, float]:
    """The tally of `games` games of one case, and the seconds per game."""
    total = Tally()
    start = time.perf_counter()
    work = [(case, players, i) for i in range(games)]
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            for tally in pool.map(play_one, work, chunksize=4):
                total.add(tally)
    else:
        for item in work:
            total.add(play_one(item))
    return total, (time.perf_counter() - start) / games


def report(case: str, tally: Tally, seconds: float) -> str:
    """One line of figures for a case."""
    rate = wilson(tally.wrong, tally.calls)
    won = wilson(tally.won, tally.games)
    return (
        f"{case:>15}: {tally.games} games, {tally.calls} calls, {tally.wrong} wrong, wrong-call rate "
        f"{rate.value:.1%} [{rate.low:.1%}, {rate.high:.1%}], team wins {won.value:.1%} "
        f"[{won.low:.1%}, {won.high:.1%}]; {seconds:.2f} s/game"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=4, choices=(4, 6, 8))
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--cases", default=",".join(CASES), help=f"comma-separated, of {', '.join(CASES)}")
    args = parser.parse_args()
    print(f"Player 1 plays the heuristic, {args.players} players; its partner is:", flush=True)
    for case in args.cases.split(","):
        if case not in CASES:
            parser.error(f"unknown case {case!r}; the cases are {', '.join(CASES)}")
        tally, seconds = measure(case, args.players, args.games, args.jobs)
        print(report(case, tally, seconds), flush=True)


if __name__ == "__main__":
    main()
