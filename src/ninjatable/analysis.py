"""A finished game's decisions weighed by a search that knows only what the deciding seat knew.

For every decision of the chosen seats (one with more than one legal action), the search samples worlds the seat
could not tell from the real one (`sample_world`, as a bot does when it plays), plays each option it weighs in
every world followed by the same rollout (played as the game's search plays them: at random, or by the game's
heuristic bot for every seat where its search does so; from one random stream per world: common random numbers,
so that two options are compared on the same hidden cards and the same later chances), and measures the seat's
score and every seat's share of the win. Rollouts stop where the game's search stops them (the end of the round,
or a number of moves) or after `rounds` rounds if given (0: the end of the game); the score is then the one at
that point, and the shares of the win are the game's judgement of the standings there (its heuristic's
`estimate`), as the search bot judges them. An option's estimate is the mean over the worlds. The cost of the
move played is how much more of a win the best option brought, the best being chosen on one half of the worlds
and judged on the other (the best of many noisy estimates looks better than it is); a move that cost at least
`MISTAKE` of a win, by more than `Z` standard errors, is a mistake.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from functools import partial
from statistics import fmean
from typing import Any

from .core import BadOptions, Bot, Game, Record, SeatInfo, State, get_game, seat_name
from .runner import Backend, run

WORLDS = 32  # sampled worlds per decision (each option is played in every one)
# How the rollouts play, unless the game's search plays otherwise (`Game.search_defaults`, as the ismcts bot):
# the policy, the rounds they stop after (lines of the score sheet; 0: the end of the game) and the moves they stop
# after (0: no such cut).
ROLLOUT_DEFAULTS = {"rollout": "random", "rounds": 1, "depth": 0}
MAX_OPTIONS = 12  # options weighed at one decision: the heuristic's candidates first, the move played always
MISTAKE = 0.10  # a move that costs this much of a win (or more) is a mistake, if the worlds agree
Z = 2.0  # ...by this many standard errors of the paired difference


@dataclass
class Option:
    action: int
    label: str
    score: float  # the seat's expected score after this option (at the end of the rollouts)
    win: float  # the seat's chance of winning after it (a shared win counts as a share)


@dataclass
class Decision:
    move: int  # the index of the move in the record (0: the first move)
    seat: int
    played: int
    label: str
    options: list[Option]  # best first
    cost: float  # in chances of winning: the best option's less the move played's
    score_cost: float  # in points: the best-scoring option's expected score less the move played's (held out)
    mistake: bool
    chances: list[float]  # every seat's chance of winning after the move played, as the deciding seat saw it


@dataclass
class SeatSummary:
    seat: int
    analysed: int
    mistakes: int
    mean_cost: float


@dataclass
class Analysis:
    game: str
    players: int
    seed: int
    worlds: int
    rounds: int
    decisions: list[Decision] = field(default_factory=list)
    seats: list[SeatSummary] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def decisions_to_analyse(record: Record, seats: Sequence[int] | None = None) -> list[int]:
    """The indexes of the record's moves that were decisions of the chosen seats (more than one legal action)."""
    wanted = set(range(record.players) if seats is None else seats)
    state = record.start()
    found = []
    for index, (seat, action) in enumerate(record.moves):
        if seat in wanted and len(state.legal_actions(seat)) > 1:
            found.append(index)
        state.apply(seat, action)
    return found


def analyse(record: Record, seats: Sequence[int] | None = None, worlds: int = WORLDS, rounds: int | None = None,
            seed: int = 0, jobs: int = 1, backend: Backend | None = None,
            on_decision: Callable[[int, int], None] | None = None) -> Analysis:
    """Weigh every decision of `seats` (all by default) of a finished game; the same record and seed give the same
    analysis wherever the decisions are weighed (`jobs` processes, or `backend`)."""
    work = plan(record, seats, worlds, rounds, seed)
    report = None if on_decision is None else (lambda i, _d: on_decision(i, len(work.indexes)))
    decisions = run(work.weigh, work.indexes, backend or Backend(jobs=jobs), on_result=report)
    return work.analysis(decisions)


@dataclass
class Plan:
    """The work of one analysis: the decisions to weigh (`weigh(index)` weighs one, in any process), and how the
    weighed decisions make the analysis."""

    record: Record
    seats: Sequence[int] | None
    worlds: int
    rounds: int
    seed: int
    indexes: list[int]
    weigh: Callable[[int], Decision]

    def analysis(self, decisions: list[Decision]) -> Analysis:
        return Analysis(self.record.game, self.record.players, self.seed, self.worlds, self.rounds, decisions,
                        summarise(decisions, self.record.players, self.seats))


def plan(record: Record, seats: Sequence[int] | None = None, worlds: int = WORLDS, rounds: int | None = None,
         seed: int = 0) -> Plan:
    """Check what is asked (a finished game, seats that exist, sound settings) and list the decisions to weigh."""
    if not record.replay().is_over():
        raise BadOptions("the analysis is of a finished game: this record stops before the end (it would tell "
                         "the players' secrets during play)")
    if worlds < 1:
        raise BadOptions(f"--worlds must be at least 1, not {worlds}")
    if rounds is not None and rounds < 0:
        raise BadOptions(f"--rounds must be 0 (to the end of the game) or more, not {rounds}")
    settings = rollout_settings(get_game(record.game), rounds)
    for seat in seats or ():
        if not 0 <= seat < record.players:
            raise BadOptions(f"seat {seat + 1} does not exist; this game has seats 1 to {record.players}")
    weigh = partial(weigh_decision, record.to_dict(), worlds=worlds, settings=settings, seed=seed)
    return Plan(record, seats, worlds, settings["rounds"], seed, decisions_to_analyse(record, seats), weigh)


def summarise(decisions: list[Decision], players: int, seats: Sequence[int] | None) -> list[SeatSummary]:
    out = []
    for seat in range(players) if seats is None else seats:
        mine = [d for d in decisions if d.seat == seat]
        out.append(SeatSummary(seat, len(mine), sum(d.mistake for d in mine),
                               round(fmean(d.cost for d in mine), 4) if mine else 0.0))
    return out


def rollout_settings(game: Game, rounds: int | None) -> dict[str, Any]:
    """How the rollouts play this game: as its search does, with `rounds` if given."""
    settings = {name: game.search_defaults.get(name, value) for name, value in ROLLOUT_DEFAULTS.items()}
    if rounds is not None:
        settings["rounds"] = rounds
    return settings


def weigh_decision(record: dict[str, Any], index: int, worlds: int, settings: dict[str, Any], seed: int) -> Decision:
    """The analysis of move `index` of a record: every option weighed in the same sampled worlds."""
    game = Record.from_dict(record)
    state = game.start()
    for seat, action in game.moves[:index]:
        state.apply(seat, action)
    seat, played = game.moves[index]
    info = SeatInfo(state, seat)
    options = options_to_weigh(info, played)
    rng = random.Random(seed * 1_000_003 + index)
    scores: dict[int, list[float]] = {a: [] for a in options}
    wins: dict[int, list[list[float]]] = {a: [] for a in options}
    for _ in range(worlds):
        world = info.sample_world(rng)
        stream = rng.getrandbits(32)
        horizon = len(world.sheet) + settings["rounds"] if settings["rounds"] else None
        for action in options:
            final = play_out(world.clone(), seat, action, stream, horizon, settings)
            scores[action].append(final.scores()[seat])
            wins[action].append(win_shares(final))
    return judge(info, seat, played, index, scores, wins)


def options_to_weigh(info: SeatInfo, played: int) -> list[int]:
    """The legal actions, or when there are many the game's heuristic's candidates, always with the move played."""
    legal = info.legal_actions()
    if len(legal) > MAX_OPTIONS and info.game.heuristic_bot is not None:
        legal = info.game.heuristic_bot.search_candidates(info, legal) or legal
    chosen = list(dict.fromkeys([played, *legal[:MAX_OPTIONS]]))
    return sorted(chosen)


def play_out(world: State, seat: int, action: int, stream: int, horizon: int | None,
             settings: dict[str, Any]) -> State:
    """`world` after the seat's `action` and the rest of the game (up to `horizon` lines of the score sheet, and
    the rollouts' depth) played by the rollout policy from `stream`."""
    rng = random.Random(stream)
    bots = rollout_bots(world, stream) if settings["rollout"] == "heuristic" else None
    # Seats deciding at the same step choose without seeing the seat's choice (a simultaneous step).
    moves = [(s, action if s == seat else policy(bots, world, s, rng)) for s in world.to_move()]
    for s, a in moves:
        world.advance(s, a)
    world.search_horizon = horizon
    steps, depth = 0, settings["depth"]
    while not world.is_over() and (horizon is None or len(world.sheet) < horizon) and not (depth and steps >= depth):
        mover = world.to_move()[0]
        world.advance(mover, policy(bots, world, mover, rng))
        steps += 1
    return world


def rollout_bots(world: State, stream: int) -> list[Bot] | None:
    """The game's heuristic bot for every seat, seeded from the world's stream (None: random play)."""
    cls = world.game.heuristic_bot
    return None if cls is None else [cls.for_rollouts(stream + s) for s in range(world.players)]


def policy(bots: list[Bot] | None, world: State, seat: int, rng: random.Random) -> int:
    if bots is None:
        return rng.choice(world.legal_actions(seat))
    return bots[seat].act(SeatInfo(world, seat))


def win_shares(final: State) -> list[float]:
    """Each seat's share of the win: at the end, the winners'; before it, the game's judgement of the standings
    (its heuristic's `estimate`), or the leaders' shares if it offers none."""
    if not final.is_over():
        heuristic = final.game.heuristic_bot
        judged = heuristic.estimate(final) if heuristic is not None and heuristic.estimate is not Bot.estimate else None
        if judged is not None and sum(judged) > 0:
            return [v / sum(judged) for v in judged]
        scores = final.scores()
        winners = [s for s, t in enumerate(scores) if t == max(scores)]
    else:
        winners = final.winners()
    return [1.0 / len(winners) if s in winners else 0.0 for s in range(final.players)]


def judge(info: SeatInfo, seat: int, played: int, index: int, scores: dict[int, list[float]],
          wins: dict[int, list[list[float]]]) -> Decision:
    """The decision's options best first, the cost of the move played, and whether it was a mistake."""
    win = {a: fmean(w[seat] for w in wins[a]) for a in scores}
    score = {a: fmean(scores[a]) for a in scores}
    ranked = sorted(scores, key=lambda a: (-win[a], -score[a], a))
    differences = held_out_differences({a: [w[seat] for w in wins[a]] for a in wins}, played)
    cost = fmean(differences)
    mistake = cost >= MISTAKE and cost > Z * standard_error(differences)
    chances = [round(fmean(w[s] for w in wins[played]), 4) for s in range(info.players)]
    return Decision(
        move=index, seat=seat, played=played, label=info.action_label(played),
        options=[Option(a, info.action_label(a), round(score[a], 3), round(win[a], 4)) for a in ranked],
        cost=round(cost, 4), score_cost=round(fmean(held_out_differences(scores, played)), 3), mistake=mistake,
        chances=chances,
    )


def held_out_differences(values: dict[int, list[float]], played: int) -> list[float]:
    """Per world, how much more the best option brought than the move played (of a win, or points), the best being
    chosen on the other half of the worlds: the best of many noisy estimates looks better than it is, and judged
    on worlds that did not choose it, it does not (so a move is not blamed for the sampling's noise)."""
    count = len(values[played])
    halves = [range(0, count, 2), range(1, count, 2)]
    out = []
    for chosen_on, judged_on in (halves, halves[::-1]):
        if not chosen_on or not judged_on:
            judged_on = chosen_on = range(count)
        best = max(sorted(values), key=lambda a: fmean(values[a][i] for i in chosen_on))
        out.extend(values[best][i] - values[played][i] for i in judged_on)
    return out


def standard_error(values: list[float]) -> float:
    if len(values) < 2:
        return math.inf
    mean = fmean(values)
    return math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1) / len(values))


def describe(analysis: Analysis) -> list[str]:
    """One line per player: moves analysed, mistakes, average cost (in chances of winning)."""
    return [f"{seat_name(s.seat)}: {s.analysed} moves analysed, {s.mistakes} mistake{'s' * (s.mistakes != 1)}, "
            f"average cost {100 * s.mean_cost:.1f}% of a win" for s in analysis.seats]
