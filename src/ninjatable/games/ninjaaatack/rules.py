"""Ninjaaa'Tack: pass a card left all at once, signal your teammate in front of everybody, race to the gong.

The round is a loop of two simultaneous steps: a *pass* step (every seat picks a card; then all cards move
one seat to the left at once) and a *signal* step (every seat makes one gesture or stays silent; the
gestures are published together). At either step a seat may instead call the gong: "Ninjaaa!" (my team has
a clan) or "Attack!" (another team has one). A resolved call reveals the hands concerned, scores, and ends the
round; the cards are reshuffled and redealt.

Seats are numbered around the table to the left: the card a seat passes goes to the next seat.
"""

from __future__ import annotations

import itertools
import random
import struct
from collections.abc import Callable
from functools import cache
from itertools import chain, compress
from operator import add, getitem
from typing import Any, ClassVar

import numpy as np

from ...core import (
    Decision,
    Event,
    Game,
    LiveStep,
    Option,
    Private,
    ScoreLine,
    State,
    deal_by_places,
    seat_name,
    winners_text,
)
from ...core.deal import shuffle, weighted_choice
from . import cards as C

PASS_STEP = 0
SIGNAL_STEP = 1
STEP_NAMES = ("pass", "signal")

NUM_SIGNALS = len(C.SIGNALS)
NO_CHOICE = -1


# --- the action space ------------------------------------------------------------------------------
# For n players: pass <family> (n ids), signal <gesture> (12), silence, ninjaaa, attack (every other team, the
# rulebook's), attack <seat's team> (n, the house rule `attack=team`).
def silence_action(n: int) -> int:
    return n + NUM_SIGNALS


def ninjaaa_action(n: int) -> int:
    return n + NUM_SIGNALS + 1


def attack_action(n: int) -> int:
    """The rulebook's Attack!, judged against every other team."""
    return n + NUM_SIGNALS + 2


def attack_base(n: int) -> int:
    """The house rule's Attack! on one team, named by one of its seats: this id plus the seat."""
    return n + NUM_SIGNALS + 3


def is_call(action: int, n: int) -> bool:
    """A gong call: Ninjaaa! or Attack!."""
    return action >= ninjaaa_action(n)


def teams_for_round(n: int, lone_wolf: int) -> tuple[tuple[int, ...], ...]:
    """The teams of a round, each a sorted tuple of seats.

    Even counts: seat s with the seat opposite, s + n/2. Odd counts: the lone wolf alone, and the other
    seats, taken around the table from the lone wolf's left, paired with the seat opposite among them.
    """
    if n % 2 == 0:
        half = n // 2
        return tuple((s, s + half) for s in range(half))
    others = [(lone_wolf + 1 + i) % n for i in range(n - 1)]
    half = (n - 1) // 2
    pairs = [tuple(sorted((others[i], others[i + half]))) for i in range(half)]
    return tuple(sorted([(lone_wolf,), *pairs]))


def team_name(members: tuple[int, ...]) -> str:
    """`team Player 1+Player 3`, or `lone wolf Player 5`."""
    if len(members) == 1:
        return f"lone wolf {seat_name(members[0])}"
    return "team " + "+".join(seat_name(s) for s in members)


# --- the partnerships' codebooks ---------------------------------------------------------------------
PUBLIC_CODE = tuple(range(NUM_SIGNALS))


def codebook_pairs(n: int) -> tuple[tuple[int, int], ...]:
    """The pairs of seats that agree a codebook: the partners at even counts; at odd counts, where the
    partnerships change every round, every pair of seats."""
    if n % 2 == 0:
        return tuple((s, s + n // 2) for s in range(n // 2))
    return tuple(itertools.combinations(range(n), 2))


def draw_codebook(rng: random.Random) -> tuple[int, ...]:
    """A private code: the gestures in a random order; the k-th gesture of the order names family k."""
    order = list(PUBLIC_CODE)
    shuffle(rng, order)
    return tuple(order)


_MASK64 = (1 << 64) - 1


def derived_codebook(seed: int, pair: tuple[int, int]) -> tuple[int, ...]:
    """A private code made from `seed` and the pair alone, for a sampled world's codes that its seat cannot know:
    splitmix64's mixing of the two, read as the digits of a shuffle of the gestures (the shuffle `draw_codebook`
    makes, uniform within one part in 10**10). Nothing else is drawn, so the codes come out the same whatever order
    they are read in."""
    z = (seed + (pair[0] * 8 + pair[1] + 1) * 0x9E3779B97F4A7C15) & _MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    z ^= z >> 31
    order = list(PUBLIC_CODE)
    for i in range(NUM_SIGNALS - 1, 0, -1):
        z, j = divmod(z, i + 1)
        order[i], order[j] = order[j], order[i]
    return tuple(order)


def code_table(code: tuple[int, ...], n: int) -> dict[str, str]:
    """A codebook in words: gesture to family, for the n families of the game."""
    return {C.SIGNALS[code[f]]: C.FAMILIES[f] for f in range(n)}


_DECKS = {n: tuple(f for f in range(n) for _ in range(C.CARDS_PER_FAMILY)) for n in range(4, 9)}
# The deck dealt as codes: a card of family f is 8**f, so the sum of a hand's four codes spells its family counts,
# one octal digit per family (a count is at most 4). A shuffle moves the codes as it would move the families.
_CODE_DECKS = {n: tuple(8**f for f in deck) for n, deck in _DECKS.items()}
# _DEAL_SLICES[n]: the places of the shuffled deck dealt to each seat, in seat order.
_DEAL_SLICES = {n: tuple(slice(s * C.HAND_SIZE, (s + 1) * C.HAND_SIZE) for s in range(n)) for n in _DECKS}
_ALL_SEATS = {n: tuple(range(n)) for n in _DECKS}
_FAMILY_IDS = range(len(C.FAMILIES))
# _UNKNOWN_CODES[n][seat]: the pairs whose code `seat` does not know, each with None (see `pair_code`); _KNOWN_PAIRS
# the others.
_UNKNOWN_CODES = {n: tuple({pair: None for pair in codebook_pairs(n) if seat not in pair} for seat in range(n))
                  for n in _DECKS}
_KNOWN_PAIRS = {n: tuple(tuple(pair for pair in codebook_pairs(n) if seat in pair) for seat in range(n)) for n in _DECKS}
# _SEATS_FROM[n][seat]: the seats from `seat` round to the left; relative seat i of an observation is entry i.
_SEATS_FROM = {n: tuple(tuple((seat + i) % n for i in range(n)) for seat in range(n)) for n in _DECKS}
# For a sampled world: the first k other seats (nearest on the left first).
_FIRST_PLACES = tuple(tuple(range(k)) for k in range(len(C.FAMILIES)))

# The private events logged at every pass, made once (events are immutable, so every game shares them):
# _CHOICE_EVENTS[seat][family] and _RECEIVED_EVENTS[seat][passed][received].
_SEATS = range(len(C.FAMILIES))
_CHOICE_EVENTS = tuple(tuple(Event("choice", f"You choose to pass {name}", s) for name in C.FAMILIES) for s in _SEATS)
_RECEIVED_EVENTS = tuple(
    tuple(tuple(Event("received", f"You pass {a} and receive {b}", s) for b in C.FAMILIES) for a in C.FAMILIES)
    for s in _SEATS
)
# The texts, events and rows below are remembered per argument (`functools.cache`): a game tells the same few hands,
# calls and score rows over and over, and the end of a round is a large share of a step.


@cache
def dealt_event(seat: int, counts: tuple[int, ...]) -> Event:
    """The private event telling `seat` the hand it is dealt: its cards by family, in family order."""
    names = [C.FAMILIES[f] for f, c in enumerate(counts) for _ in range(c)]
    return Event("deal", "You are dealt " + ", ".join(names), seat)


class DealtHands(dict):
    """For one player count: a dealt hand's code (the sum of its cards' codes, see `_CODE_DECKS`) to its family
    counts and each seat's deal event for it, made the first time that hand is dealt."""

    def __init__(self, n: int) -> None:
        super().__init__()
        self.n = n

    def __missing__(self, code: int) -> tuple[tuple[int, ...], tuple[Event, ...]]:
        counts = tuple(code >> (3 * f) & 7 for f in range(self.n))
        entry = self[code] = (counts, tuple(dealt_event(s, counts) for s in range(self.n)))
        return entry


_DEALT_HANDS = {n: DealtHands(n) for n in _DECKS}


@cache
def counts_text(counts: tuple[int, ...]) -> str:
    """A hand in words, `2x Fox, 1x Crane, 1x Owl`."""
    return ", ".join(f"{c}x {C.FAMILIES[f]}" for f, c in enumerate(counts) if c) or "nothing"


@cache
def reveal_event(seat: int, counts: tuple[int, ...]) -> Event:
    """The public event showing the hand `seat` reveals at a call."""
    return Event("reveal", f"{seat_name(seat)} reveals {counts_text(counts)}")


@cache
def call_terms(teams: tuple[tuple[int, ...], ...], team: tuple[int, ...], caller: int, action: int) -> tuple:
    """How a call by `caller` (of `team`, among `teams`) is judged and told, remembered per table layout: the seats
    whose hands are revealed, the teams judged (names), the call and its score label in words, the names of
    the tallies it counts (calls, right, wrong), and the gong's log line."""
    n = sum(len(t) for t in teams)
    if action == ninjaaa_action(n):
        target = team
        judged = team_name(team)
        call = "Ninjaaa!"
        label = f"Ninjaaa! by {seat_name(caller)}"
    elif action == attack_action(n):
        target = tuple(s for t in teams if t != team for s in t)
        judged = "; ".join(team_name(t) for t in teams if t != team)
        call = "Attack!"
        label = f"Attack! by {seat_name(caller)}"
    else:
        target = next(t for t in teams if action - attack_base(n) in t)
        judged = team_name(target)
        call = f"Attack! on {team_name(target)}"
        label = f"Attack! by {seat_name(caller)} on {team_name(target)}"
    kind = "ninjaaa" if target == team else "attack"
    tallies = (f"{kind}_calls", f"{kind}_right", f"{kind}_wrong")
    return target, judged, call, label, tallies, f"{seat_name(caller)} taps the gong: {call}"


@cache
def call_order_text(order: tuple[int, ...]) -> str:
    """The gong's log line for simultaneous calls registered in this order of callers."""
    return f"Several calls at once; registered in the order {', '.join(seat_name(s) for s in order)}"


@cache
def wrong_call_label(caller: int, call: str) -> str:
    """`Wrong call by Player 2 (Attack!)`, the score label of a wrong call."""
    return f"Wrong call by {seat_name(caller)} ({call})"


@cache
def score_text(row: tuple[int, ...]) -> str:
    """A score row in words, `Player 1 +1, Player 2 +0, ...`."""
    return ", ".join(f"{seat_name(s)} {p:+d}" for s, p in enumerate(row))


@cache
def score_row(n: int, seats: tuple[int, ...], points: int) -> tuple[int, ...]:
    """A score row of n seats giving `points` to each of `seats` and 0 to the others."""
    return tuple(points if s in seats else 0 for s in range(n))


@cache
def score_entry(label: str, row: tuple[int, ...]) -> tuple[ScoreLine, str]:
    """A line of the score sheet and its log line, `label: Player 1 +1, ...`, as `State.score` words it."""
    return ScoreLine(label, row), f"{label}: {score_text(row)}"


_SETUPS: dict[tuple[int, int], tuple] = {}


def round_setup(n: int, lone_wolf: int, per_team: bool = False) -> tuple:
    """Teams, each seat's team, each seat's gong calls, the teams' names and each seat's choices at a signal step
    (the gestures, silence and its calls) for a round (cached).

    The gong calls open to a seat are Ninjaaa! and Attack! (the rulebook's, on every other team at once; with
    `per_team`, the house rule's, on each other team, named by the team's first seat); every decision offers
    them, so they are computed once per table layout.
    """
    key = (n, lone_wolf, per_team)
    if key not in _SETUPS:
        teams = teams_for_round(n, lone_wolf)
        team_of: list[tuple[int, ...]] = [()] * n
        for members in teams:
            for s in members:
                team_of[s] = members
        if per_team:
            first = attack_base(n)
            calls = tuple((ninjaaa_action(n), *(first + t[0] for t in teams if s not in t)) for s in range(n))
        else:
            calls = tuple((ninjaaa_action(n), attack_action(n)) for _ in range(n))
        gestures = tuple(range(n, silence_action(n) + 1))
        signal_choices = tuple(gestures + seat_calls for seat_calls in calls)
        _SETUPS[key] = (teams, tuple(team_of), calls, "; ".join(team_name(t) for t in teams), signal_choices)
    return _SETUPS[key]


def observation_size(n: int) -> int:
    """The length of an observation at n players (see `NinjaaaTackState._observe`)."""
    # hand (n families), step (2), per relative seat: teammate, lone wolf, score, penalised, decided (5n),
    # latest signals per relative seat (n x 13), my last pass and receipt (2n), passes used (1), the
    # teammate's latest gesture read by the partnership's codebook (n).
    return n + 2 + 5 * n + n * (NUM_SIGNALS + 1) + 2 * n + 1 + n


_OBSERVATION_SHAPES = {n: (observation_size(n),) for n in _DECKS}
WIDTH = NUM_SIGNALS + 1  # a relative seat's latest gestures: one slot per gesture, then silence
# An observation is written by one struct store of float32 runs (bytes) and one float, part by part in the order of
# `observation_size`: hand, step, teammate and lone wolf, score, penalised, decided, latest gestures, my last pass
# and receipt, passes used, the teammate's family. Each run comes from a table below, made once per value it shows.
_OBSERVATION_STRUCTS = {
    n: struct.Struct(f"={4 * n}s8s{8 * n}s{4 * n}s{4 * n}s{4 * n}s{4 * n * WIDTH}s{8 * n}sf{4 * n}s") for n in _DECKS
}


def float32s(values: list[float]) -> bytes:
    """Values as native float32 bytes, a run the observation copies whole."""
    return struct.pack(f"={len(values)}f", *values)


def one_hot(width: int, at: int) -> bytes:
    """A run of `width` floats, 1.0 at `at` (none for at = -1)."""
    return float32s([1.0 if i == at else 0.0 for i in range(width)])


_STEP_RUNS = (one_hot(2, PASS_STEP), one_hot(2, SIGNAL_STEP))
_ZERO_RUNS = {n: bytes(4 * n) for n in {*_DECKS, *(n * WIDTH for n in _DECKS)}}
_NO_PASS = (NO_CHOICE,) * len(C.FAMILIES)  # the last pass before the round's first: none
# _ONE_HOT[n][i]: n floats, 1.0 at i (none at -1, the last entry).
_ONE_HOT = {n: tuple(one_hot(n, i) for i in (*range(n), -1)) for n in _DECKS}
# _PASS_RUNS[n][mine][received]: my last pass and my receipt (2n floats); -1, unknown in a sampled world, shows none.
_PASS_RUNS = {n: tuple(tuple(a + b for b in _ONE_HOT[n]) for a in _ONE_HOT[n]) for n in _DECKS}


class RunsPerSeat(dict):
    """For one player count: a value the observation shows to each observing seat's run of it (made by
    `make(value, seat, n)` the first time the value is seen; forgotten past a bound, as a long game meets many)."""

    BOUND = 4096

    def __init__(self, n: int, make: Callable[[Any, int, int], bytes]) -> None:
        super().__init__()
        self.n = n
        self.make = make

    def __missing__(self, value: Any) -> tuple[bytes, ...]:
        if len(self) >= self.BOUND:
            self.clear()
        runs = self[value] = tuple(self.make(value, seat, self.n) for seat in range(self.n))
        return runs


def team_run(lone_wolf: int, seat: int, n: int) -> bytes:
    """The teammate and lone-wolf parts (2n floats) in a round with this lone wolf (-1: none, at even counts)."""
    run = [0.0] * (2 * n)
    for s in round_setup(n, lone_wolf)[1][seat]:
        if s != seat:
            run[(s - seat) % n] = 1.0
    if lone_wolf >= 0:
        run[n + (lone_wolf - seat) % n] = 1.0
    return float32s(run)


def score_run(key: tuple[int, ...], seat: int, n: int) -> bytes:
    """The score part for (points to win, each seat's points): each relative seat's points over the points to win."""
    target, *points = key
    return float32s([points[(seat + i) % n] / target for i in range(n)])


def seats_run(seats: frozenset[int] | tuple[int, ...], seat: int, n: int) -> bytes:
    """1.0 for each relative seat among `seats` (the penalised part)."""
    return float32s([float((seat + i) % n in seats) for i in range(n)])


def decided_run(movers: tuple[int, ...], seat: int, n: int) -> bytes:
    """1.0 for each relative seat that has decided this step: every seat not among `movers`, those still to."""
    return float32s([float((seat + i) % n not in movers) for i in range(n)])


def gestures_run(masks: tuple[int, ...], seat: int, n: int) -> bytes:
    """The latest gestures' part from each seat's gestures as a bitmask (bit g: gesture g; none: silence)."""
    run = []
    for i in range(n):
        mask = masks[(seat + i) % n]
        run += [float(mask >> g & 1) for g in range(NUM_SIGNALS)] + [float(not mask)]
    return float32s(run)


class HandRuns(dict):
    """A hand (its family counts) to its part of an observation, each count over 4 (made the first time it is seen)."""

    def __missing__(self, counts: tuple[int, ...]) -> bytes:
        run = self[counts] = float32s([c / C.CARDS_PER_FAMILY for c in counts])
        return run


_HAND_RUNS = HandRuns()
_TEAM_RUNS = {n: RunsPerSeat(n, team_run) for n in _DECKS}
_SCORE_RUNS = {n: RunsPerSeat(n, score_run) for n in _DECKS}
_PENALISED_RUNS = {n: RunsPerSeat(n, seats_run) for n in _DECKS}
_DECIDED_RUNS = {n: RunsPerSeat(n, decided_run) for n in _DECKS}
_GESTURE_RUNS = {n: RunsPerSeat(n, gestures_run) for n in _DECKS}


class NinjaaaTack(Game):
    id = "ninjaaatack"
    title = "Ninjaaa'Tack"
    summary = (
        "Teams of two pass cards left at the same time, signal each other in plain sight, and race to the "
        "gong: Ninjaaa! when your team holds a whole clan, Attack! when another team does. First to 3 points."
    )
    player_counts = (4, 5, 6, 7, 8)
    default_players = 4
    # Every seat decides at every step, so a tree that searched all four would spend its iterations on the
    # others' random calls: they play the heuristic (its table-talk convention) in the tree and in the
    # rollouts, each iteration plays in one of the deals the heuristic reads from the round, and a Penalty
    # counts in the estimate.
    search_defaults: ClassVar[dict[str, Any]] = {
        "iterations": 200,
        "rollout": "heuristic",
        "depth": 40,
        "reward": "win",
        "beliefs": 128,
        "paired": 1,
    }
    options = (
        Option(
            "gong_order",
            "random",
            "calls in one step: 'random' = seeded draw once all have decided; 'arrival' = first submitted wins",
            choices=("random", "arrival"),
        ),
        Option(
            "attack",
            "all",
            "what Attack! claims: 'all' = the rulebook's, some other team holds a clan (every enemy clan scores); "
            "'team' = a house rule, the one named team holds a clan",
            choices=("all", "team"),
        ),
        Option(
            "codebooks",
            True,
            "each partnership agrees in private what its gestures mean (drawn from the game's seed); "
            "false: one public code for everybody (the k-th gesture names the k-th family)",
        ),
        Option(
            "max_passes",
            40,
            "passes after which a round with no call is redealt, unscored",
            minimum=1,
        ),
        Option(
            "max_rounds",
            100,
            "rounds after which the game stops; the best totals win",
            minimum=1,
        ),
        Option("points_to_win", C.POINTS_TO_WIN, "points a team (or player) needs to win", minimum=1, maximum=20),
        Option(
            "talk",
            "together",
            "gestures of one step: 'together' = shown when every seat has decided; 'at_once' = shown as made",
            choices=("together", "at_once"),
        ),
    )
    # People at a live table race to the gong (the first call to arrive wins) and see each gesture as it is made.
    live_options: ClassVar[dict[str, Any] | None] = {"gong_order": "arrival", "talk": "at_once"}

    def num_actions(self, players: int) -> int:
        return attack_base(players) + players

    def observation_shape(self, players: int) -> tuple[int, ...]:
        return _OBSERVATION_SHAPES[players]

    def action_label(self, action: int, players: int) -> str:
        n = players
        if action < n:
            return f"pass {C.FAMILIES[action]}"
        if action < silence_action(n):
            return f"signal {C.SIGNALS[action - n]}"
        if action == silence_action(n):
            return "silence"
        if action == ninjaaa_action(n):
            return "ninjaaa"
        if action == attack_action(n):
            return "attack"
        return f"attack {seat_name(action - attack_base(n))}"

    def _new_state(self, players: int, seed: int, options: dict[str, Any]) -> NinjaaaTackState:
        return NinjaaaTackState(self, players, seed, options)

    def render(self, view: dict[str, Any]) -> Any:
        from .render import render

        return render(view)


class NinjaaaTackState(State):
    """A game of Ninjaaa'Tack in progress."""

    # What a sampled world makes the codes its seat cannot know from (see `pair_code`); a dealt game knows them all.
    unknown_codes: int | None = None

    def __init__(self, game: Game, players: int, seed: int, options: dict[str, Any]) -> None:
        super().__init__(game, players, seed, options)
        n = players
        self.arrival = options["gong_order"] == "arrival"
        self.talk_at_once = options["talk"] == "at_once"
        self.per_team = options["attack"] == "team"
        self.private_codes = options["codebooks"]
        self.max_passes = options["max_passes"]
        self.max_rounds = options["max_rounds"]
        self.target = options["points_to_win"]
        self.points = [0] * n
        # hands[s * n + f]: how many cards of family f seat s holds.
        self.hands = [0] * (n * n)
        self.pending = [NO_CHOICE] * n
        self.waiting = n
        self.step = PASS_STEP
        self.round = 0
        self.passes = 0
        self.lone_wolf = -1
        self.teams: tuple[tuple[int, ...], ...] = ()
        self.calls: tuple[tuple[int, ...], ...] = ()
        self.signal_choices: tuple[tuple[int, ...], ...] = ()
        self.team_names = ""
        self.movers: tuple[int, ...] = ()
        self.team_of: tuple[tuple[int, ...], ...] = ()
        self.penalised: frozenset[int] = frozenset()
        self.penalised_next: frozenset[int] = frozenset()
        # This round's published gestures: (pass number, seat, signal index).
        self.signals: list[tuple[int, int, int]] = []
        # passed[k][s]: the family seat s passed at pass k of this round (-1 where unknown in a sampled world).
        self.passed: list[tuple[int, ...]] = []
        # The last resolved call, for the views: (caller, action, the teams judged (names), revealed hands, points,
        # correct).
        self.last_call: tuple | None = None
        self.over = False
        # codebooks[(a, b)]: the code seats a and b agreed before play (see `draw_codebook`). Drawn from a stream
        # of their own, so the deals of a seed are the same with or without private codes.
        rng = random.Random(f"{seed}:codebooks")
        self.codebooks = {
            pair: draw_codebook(rng) if self.private_codes else PUBLIC_CODE for pair in codebook_pairs(n)
        }
        self._start_round()

    # --- rounds ----------------------------------------------------------------------------------------
    def _start_round(self) -> None:
        """Set up the teams and penalties of the next round, then shuffle and deal."""
        n = self.players
        self.round += 1
        if n % 2:
            # The lone wolf starts with Player 1 and moves one seat to the left each round.
            self.lone_wolf = (self.round - 1) % n
        self.teams, self.team_of, self.calls, self.team_names, self.signal_choices = round_setup(
            n, self.lone_wolf, self.per_team
        )
        # A penalty earned in the previous round applies to this round only.
        self.penalised = self.penalised_next
        self.penalised_next = frozenset()
        self._deal()
        self.step = PASS_STEP
        self.passes = 0
        self.signals = []
        self.passed = []
        self._reset_step()
        self.log("round", f"Round {self.round}: {self.team_names}")
        if self.penalised:
            for s in sorted(self.penalised):
                self.log("penalty", f"{seat_name(s)} is under the Penalty this round")

    def _deal(self) -> None:
        n = self.players
        deck = list(_CODE_DECKS[n])
        shuffle(self.chance(), deck)
        # Speed: each step below runs through the hands in C (`map`, `zip`, `chain`), not a Python loop.
        codes = map(sum, map(deck.__getitem__, _DEAL_SLICES[n]))
        counts, events = zip(*map(_DEALT_HANDS[n].__getitem__, codes))
        self.hands = list(chain.from_iterable(counts))
        self.events += map(getitem, events, _ALL_SEATS[n])  # each seat's own deal event

    def _reset_step(self) -> None:
        n = self.players
        self.pending = [NO_CHOICE] * n
        self.waiting = n
        self.movers = _ALL_SEATS[n]

    # --- the contract ------------------------------------------------------------------------------------
    def to_move(self) -> tuple[int, ...]:
        return () if self.over else self.movers

    def _legal_actions(self, seat: int) -> list[int]:
        if self.over or self.pending[seat] != NO_CHOICE:
            return []
        if self.step == PASS_STEP:
            n = self.players
            row = seat * n
            moves = list(compress(_FAMILY_IDS, self.hands[row : row + n]))  # the families held
            moves += self.calls[seat]
            return moves
        return list(self.signal_choices[seat])

    def _apply(self, seat: int, action: int) -> None:
        n = self.players
        if action < n:
            self.events.append(_CHOICE_EVENTS[seat][action])
        elif action <= n + NUM_SIGNALS:  # a gesture or silence (see `silence_action`)
            if self.talk_at_once:
                self._publish_signal(seat, action)
        elif self.arrival:
            # Live play: the first call to reach the gong is the one resolved, at once.
            self._resolve_call(seat, action)
            return
        self.pending[seat] = action
        self.waiting -= 1
        movers = self.movers
        i = movers.index(seat)
        self.movers = movers[:i] + movers[i + 1 :]
        if self.waiting == 0:
            self._finish_step()

    def is_over(self) -> bool:
        return self.over

    def _decision(self, seat: int) -> Decision:
        alone = len(self.team_of[seat]) == 1
        if self.step == PASS_STEP:
            return Decision("Choose a card to pass to the left, or tap the gong")
        if alone:
            return Decision("You are the lone wolf: make a gesture or stay silent, or tap the gong")
        return Decision("Make a gesture to your teammate or stay silent, or tap the gong")

    def live_step(self) -> LiveStep | None:
        """Passes are held and made together on a count; gestures are shown as made; the gong is first come."""
        if self.over or not self.arrival:
            return None
        n = self.players
        calls = frozenset(range(ninjaaa_action(n), attack_base(n) + n))
        if self.step == PASS_STEP:
            return LiveStep(held=True, instant=calls)
        return LiveStep(held=False, instant=calls, default=silence_action(n))

    def scores(self) -> list[int]:
        return list(self.points)

    def winners(self) -> list[int]:
        """Every seat that reached the target (teammates together); the best totals after the safeguard."""
        if not self.over:
            return []
        reached = [s for s, p in enumerate(self.points) if p >= self.target]
        if reached:
            return reached
        best = max(self.points)
        return [s for s, p in enumerate(self.points) if p == best]

    # --- a decision step completes -------------------------------------------------------------------------
    def _finish_step(self) -> None:
        n = self.players
        pending = self.pending
        first_call = ninjaaa_action(n)
        callers = [s for s, a in enumerate(pending) if a >= first_call] if max(pending) >= first_call else None
        if callers:
            if len(callers) > 1:
                # Simultaneous calls: a seeded random draw orders them; the first registered is resolved.
                order = callers[:]
                shuffle(self.chance(), order)
                self.log("gong", call_order_text(tuple(order)))
                callers = order
            self._resolve_call(callers[0], self.pending[callers[0]])
        elif self.step == PASS_STEP:
            self._pass_cards()
        else:
            self._publish_signals()

    def _pass_cards(self) -> None:
        """Every chosen card moves one seat to the left at the same time."""
        n = self.players
        chosen = tuple(self.pending)
        hands = self.hands
        for s, f in enumerate(chosen):
            hands[s * n + f] -= 1
            hands[((s + 1) % n) * n + f] += 1
        self.passed.append(chosen)
        self.passes += 1
        self.log("pass", f"Pass {self.passes}: every player passes a card to the left")
        self.events += [_RECEIVED_EVENTS[s][f][chosen[s - 1]] for s, f in enumerate(chosen)]
        self.step = SIGNAL_STEP
        self._reset_step()

    def _publish_signal(self, seat: int, action: int) -> None:
        """A gesture is seen by everybody, attributed to its maker."""
        n = self.players
        if action != silence_action(n):
            self.signals.append((self.passes, seat, action - n))
            self.log("signal", f"{seat_name(seat)} signals: {C.SIGNALS[action - n]}")

    def _publish_signals(self) -> None:
        """The gestures are seen by everybody (already, when shown as made); then the next pass or a redeal."""
        if not self.talk_at_once:
            for s, a in enumerate(self.pending):
                self._publish_signal(s, a)
        if self.passes >= self.max_passes:
            self.log("redeal", f"Round {self.round} reaches {self.passes} passes with no call: redealt, no score")
            self._next_round()
            return
        self.step = PASS_STEP
        self._reset_step()

    def _next_round(self) -> None:
        if self.round >= self.max_rounds:
            self.over = True
            self.log("end", f"The game stops after {self.round} rounds (safeguard); the best totals win")
            self.count("stopped_by_safeguard")
            return
        self._start_round()

    # --- the gong ---------------------------------------------------------------------------------------------
    def clans(self, members: tuple[int, ...]) -> int:
        """How many clans the hands of `members` assemble together (4 of a family; 3 for a lone wolf)."""
        n = self.players
        hands = self.hands
        # The counts are compared with the clan size by `map` (`size.__le__(count)` is `count >= size`).
        if len(members) == 1:
            row = members[0] * n
            return sum(map(C.CLAN_SIZE_LONE_WOLF.__le__, hands[row : row + n]))
        a, b = members[0] * n, members[1] * n
        return sum(map(C.CLAN_SIZE_PAIR.__le__, map(add, hands[a : a + n], hands[b : b + n])))

    def solo_clans(self, seats: tuple[int, ...], need: int) -> int:
        """How many families one of `seats` holds alone, `need` cards or more (the Penalty's test)."""
        n = self.players
        hands = self.hands
        return sum(1 for s in seats for f in range(n) if hands[s * n + f] >= need)

    def ninjaaa_points(self, caller: int) -> int:
        """The clans a Ninjaaa! by `caller` is worth (0 makes it a wrong call)."""
        team = self.team_of[caller]
        if not self.penalised.intersection(team):
            return self.clans(team)
        need = C.clan_size(team)
        if self.players % 2:
            # Odd counts: the Penalty is personal, so it binds only a penalised caller, who must hold it alone.
            if caller not in self.penalised:
                return self.clans(team)
            return self.solo_clans((caller,), need)
        return self.solo_clans(team, need)

    def attack_points(self, caller: int) -> int:
        """The clans the rulebook's Attack! by `caller` is worth: every other team's (0 makes it a wrong call)."""
        team = self.team_of[caller]
        return sum(self.clans(t) for t in self.teams if t != team)

    def _resolve_call(self, caller: int, action: int) -> None:
        """Reveal the hands concerned, score the call, and end the round."""
        n = self.players
        team = self.team_of[caller]
        target, judged, call, label, kind, gong = call_terms(self.teams, team, caller, action)
        if action == ninjaaa_action(n):
            points = self.ninjaaa_points(caller)
        elif action == attack_action(n):
            # The rulebook's Attack!: every other team is judged, and every enemy clan scores.
            points = self.attack_points(caller)
        else:
            points = self.clans(target)
        self.log("gong", gong)
        self.count(kind[0])
        self.count(kind[1] if points else kind[2])
        hands = self.hands
        revealed = tuple([(s, tuple(hands[s * n : s * n + n])) for s in target])
        self.events += [reveal_event(s, counts) for s, counts in revealed]
        if points:
            self._score(label, score_row(n, team, points))
        else:
            self._wrong_call(caller, call)
        self.last_call = (caller, action, judged, revealed, points, bool(points))
        self._reset_step()
        if max(self.points) >= self.target:
            self.over = True
            self.log("end", f"The game is over: {winners_text(self.winners())}")
            return
        self._next_round()

    def _wrong_call(self, caller: int, call: str) -> None:
        """A wrong call costs a point; with no point to lose, the Penalty for the next round."""
        n = self.players
        # Even counts: the team shares its score; odd counts: only the caller answers for the call.
        losers = self.team_of[caller] if n % 2 == 0 else (caller,)
        what = wrong_call_label(caller, call)
        if self.points[caller] >= 1:
            self._score(what, score_row(n, losers, -1))
        else:
            self.penalised_next = frozenset(losers)
            self.count("penalties", len(losers))
            self._score(what + ": Penalty next round", score_row(n, (), 0))

    def _score(self, label: str, row: tuple[int, ...]) -> None:
        """Add a row to the running totals and to the score sheet, logged as `State.score` logs it."""
        points = self.points
        points[:] = map(add, points, row)
        line, text = score_entry(label, row)
        self.sheet.append(line)
        self.log("score", text)

    # --- views ---------------------------------------------------------------------------------------------------
    def code_of(self, seat: int) -> tuple[int, ...] | None:
        """The codebook `seat` shares with its partner this round (None for a lone wolf)."""
        team = self.team_of[seat]
        return self.pair_code(team) if len(team) == 2 else None

    def pair_code(self, pair: tuple[int, int]) -> tuple[int, ...]:
        """The codebook the two seats of `pair` agreed. In a sampled world, a code its seat cannot know is made
        when first read (see `_sample_hidden`)."""
        code = self.codebooks[pair]
        if code is None:
            code = self.codebooks[pair] = derived_codebook(self.unknown_codes, pair)
        return code

    def hand_counts(self, seat: int) -> list[int]:
        n = self.players
        return self.hands[seat * n : seat * n + n]

    def counts_text(self, counts: Any) -> str:
        return counts_text(tuple(counts))

    def hand_text(self, seat: int) -> str:
        return self.counts_text(self.hand_counts(seat))

    def _view(self) -> dict[str, Any]:
        n = self.players
        hands = [
            Private({C.FAMILIES[f]: c for f, c in enumerate(self.hand_counts(s)) if c}, s, shown=C.HAND_SIZE)
            for s in range(n)
        ]
        pending = [
            Private(None if a == NO_CHOICE else self.action_label(a), s, shown=None) for s, a in enumerate(self.pending)
        ]
        # Each seat knows what it passed and what it received at each pass of the round.
        own = [
            Private(
                [{"passed": _family_name(p[s]), "received": _family_name(p[s - 1])} for p in self.passed],
                s,
                shown=None,
            )
            for s in range(n)
        ]
        teams = [
            {
                "name": team_name(t),
                "seats": list(t),
                "lone_wolf": len(t) == 1,
                "score": self.points[t[0]] if n % 2 == 0 else None,
                "penalised": bool(self.penalised.intersection(t)),
            }
            for t in self.teams
        ]
        return {
            "families": list(C.FAMILIES[:n]),
            "round": self.round,
            "step": STEP_NAMES[self.step],
            "passes": self.passes,
            "max_passes": self.max_passes,
            "points_to_win": self.target,
            "gong_order": "arrival" if self.arrival else "random",
            "talk": "at_once" if self.talk_at_once else "together",
            "attack": "team" if self.per_team else "all",
            "individual_scores": n % 2 == 1,
            "teams": teams,
            "lone_wolf": self.lone_wolf if self.lone_wolf >= 0 else None,
            "penalised": sorted(self.penalised),
            "penalised_next_round": sorted(self.penalised_next),
            "signals": [
                {"pass": k, "seat": s, "player": seat_name(s), "signal": C.SIGNALS[g]} for k, s, g in self.signals
            ],
            "last_call": self._last_call_view(),
            "codebooks_private": self.private_codes,
            # Each codebook is known to the two seats that agreed it (to everybody when the code is public).
            "codebooks": [
                Private(
                    {"seats": list(pair), "code": code_table(code, n)},
                    pair,
                    shown=None if self.private_codes else {"seats": list(pair), "code": code_table(code, n)},
                )
                for pair, code in zip(self.codebooks, map(self.pair_code, self.codebooks))
            ],
            "hands": hands,
            "pending": pending,
            "pass_log": own,
        }

    def _extend_view(self, view: dict[str, Any], seat: int | None) -> None:
        """The looking seat's own hand, pending choice and passes under short keys."""
        mine = seat is not None
        view["hand"] = view["hands"][seat] if mine else None
        view["my_choice"] = view["pending"][seat] if mine else None
        view["my_passes"] = view["pass_log"][seat] if mine else None
        code = self.code_of(seat) if mine else None
        # The code of this round's partnership: what the seat's and its partner's gestures mean.
        view["codebook"] = code_table(code, self.players) if code is not None else None

    def _last_call_view(self) -> dict[str, Any] | None:
        if self.last_call is None:
            return None
        caller, action, judged, revealed, points, correct = self.last_call
        return {
            "caller": caller,
            "call": self.action_label(action),
            "target": judged,
            "revealed": {seat_name(s): self.counts_text(c) for s, c in revealed},
            "points": points,
            "correct": correct,
        }

    def _observe(self, seat: int, out: np.ndarray) -> None:
        # Speed: one struct store of runs from tables (see _OBSERVATION_STRUCTS), a few Python steps in all.
        n = self.players
        row = seat * n
        points = self.points
        passed = self.passed
        last = passed[-1] if passed else _NO_PASS
        family = self.partner_family(seat) if self.signals else None
        _OBSERVATION_STRUCTS[n].pack_into(
            out,
            0,
            _HAND_RUNS[tuple(self.hands[row : row + n])],
            _STEP_RUNS[self.step],
            _TEAM_RUNS[n][self.lone_wolf][seat],
            _SCORE_RUNS[n][self.target, *points][seat] if any(points) else _ZERO_RUNS[n],
            _PENALISED_RUNS[n][self.penalised][seat],
            # The seats that decided this step are those no longer to move (`pending` holds their choices).
            _DECIDED_RUNS[n][self.movers][seat],
            self._gestures_run(seat),
            # In a sampled world another seat's passes are unknown (NO_CHOICE, the last entry): shown blank.
            _PASS_RUNS[n][last[seat]][last[seat - 1]],
            self.passes / self.max_passes,
            _ONE_HOT[n][NO_CHOICE if family is None else family],
        )

    def _gestures_run(self, seat: int) -> bytes:
        """The gestures of the latest signal step of this round, per relative seat (silence when it made none);
        all blank before the round's first signal step."""
        n = self.players
        latest = self.passes if self.step == PASS_STEP else self.passes - 1
        if latest < 1:
            return _ZERO_RUNS[n * WIDTH]
        masks = [0] * n
        # Scanned from the end of the round's gestures (in pass order).
        for k, s, g in reversed(self.signals):
            if k == latest:
                masks[s] |= 1 << g
            elif k < latest:
                break
        return _GESTURE_RUNS[n][tuple(masks)][seat]

    def partner_family(self, seat: int) -> int | None:
        """The family the seat's partner last gestured this round, read by their codebook (None if none)."""
        team = self.team_of[seat]
        if len(team) == 1:
            return None
        mate = team[1] if team[0] == seat else team[0]
        for _, s, g in reversed(self.signals):
            if s == mate:
                f = self.pair_code(team).index(g)
                return f if f < self.players else None
        return None

    # --- copies and sampled worlds -------------------------------------------------------------------------------
    def _stats(self) -> dict[str, float]:
        return {"rounds": self.round}

    def _copy_mutables(self, other: State) -> None:
        other.points = self.points[:]
        other.hands = self.hands[:]
        other.pending = self.pending[:]
        other.signals = self.signals[:]
        other.passed = self.passed[:]
        other.codebooks = dict(self.codebooks)

    def _sample_hidden(self, world: State, seat: int, rng: random.Random) -> None:
        """Deal the cards the seat cannot see among the other hands, keeping what it knows of its passes.

        A card the seat passed k passes ago moves at most one seat per pass, so it lies among the k seats to
        its left: for k up to n - 2 that is a true constraint. Other seats' pending choices are re-chosen.
        """
        n = self.players
        row = seat * n
        unseen = [C.CARDS_PER_FAMILY - c for c in self.hands[row : row + n]]
        # The cards the seat passed k passes ago, (k, family) by increasing k; then the other unseen cards.
        tracked: list[tuple[int, int]] = []
        passed = self.passed
        total = len(passed)
        for k in range(1, min(total, n - 2) + 1):
            f = passed[total - k][seat]
            if f == NO_CHOICE:  # a world sampled for another seat does not know this seat's passes
                continue
            tracked.append((k, f))
            unseen[f] -= 1
        free = [f for f, count in enumerate(unseen) for _ in range(count)]
        hands = world.hands
        for s, families in zip(_SEATS_FROM[n][seat][1:], deal_unseen(tracked, free, n - 1, rng)):
            counts = [0] * n
            for f in families:
                counts[f] += 1
            hands[s * n : s * n + n] = counts
        # The seat knows only its own passes and what it received; the rest of the pass log is unknown.
        if passed:
            world.passed = _known_passes(passed, seat, (seat - 1) % n)
        # Other seats that already decided this step decide again in the sampled world (a pass or a gesture).
        pending = world.pending
        for s in range(n):
            if s != seat and pending[s] != NO_CHOICE:
                if world.step == PASS_STEP:
                    held = [f for f in range(n) if hands[s * n + f]]
                    pending[s] = rng.choice(held)
                elif not self.talk_at_once:  # gestures shown as made are public: kept
                    pending[s] = n + rng.randrange(NUM_SIGNALS + 1)
        # The codes of the pairs the seat is not in are secret: made afresh (the seat has no code to go on), from
        # one draw, when first read (`pair_code`): most sampled worlds are only counted for their hands.
        if self.private_codes:
            codebooks = world.codebooks
            if self.unknown_codes is not None:  # a world sampled from a world: the seat's own codes, as made there
                for pair in _KNOWN_PAIRS[n][seat]:
                    codebooks[pair] = self.pair_code(pair)
            world.unknown_codes = rng.getrandbits(64)
            codebooks.update(_UNKNOWN_CODES[n][seat])

    def place_hands(self, seat: int, counts: list[list[int]], passes: list[list[int]] | None = None) -> None:
        """In a world sampled for `seat`: give the other seats these hands (family counts per seat).

        For a seat's own reading of the table (see reading.py); the counts must keep the seat's hand and use
        every card once. `passes`, if given, fills in the last passes of the round (the family each seat
        passed, oldest first), which must keep what the seat knows: its own passes and what it received.
        """
        n = self.players
        if (
            list(counts[seat]) != self.hand_counts(seat)
            or any(sum(counts[s][f] for s in range(n)) != C.CARDS_PER_FAMILY for f in range(n))
            or any(sum(h) != C.HAND_SIZE for h in counts)
        ):
            raise ValueError(f"hands to place keep {seat_name(seat)}'s hand and use every card once")
        if passes:
            first = len(self.passed) - len(passes)
            right = (seat - 1) % n
            if first < 0 or any(
                len(p) != n or any(known[s] not in (NO_CHOICE, p[s]) for s in (seat, right))
                for p, known in zip(passes, self.passed[first:])
            ):
                raise ValueError(f"passes to place keep what {seat_name(seat)} passed and received")
        self._forget_kept()  # the kernel keeps the legal actions it handed out
        self._place_hands(counts, passes)

    def _place_hands(self, counts: list[list[int]], passes: list[list[int]] | None = None) -> None:
        """`place_hands` without its checks, for hands a reading made (the heuristic places thousands)."""
        self.__dict__.pop("_asked_legal", None)  # all `_forget_kept` would drop that the hands decide
        if passes:
            self.passed[len(self.passed) - len(passes):] = [tuple(p) for p in passes]
        self.hands = [c for hand in counts for c in hand]

    def reopen_choices(self, seat: int) -> None:
        """In a world sampled for `seat`: the other seats that already decided this step have not decided yet.

        Their true choices are hidden from `seat`; a search can then let its own model of those players
        decide for them, the gong included, instead of a choice drawn with the world.
        """
        self._forget_kept()  # the kernel keeps the legal actions it handed out
        self.pending = [a if s == seat else NO_CHOICE for s, a in enumerate(self.pending)]
        self.movers = tuple(s for s, a in enumerate(self.pending) if a == NO_CHOICE)
        self.waiting = len(self.movers)

    # --- scripting (tests and tutorials) ----------------------------------------------------------------------
    def set_hands(self, hands: list[list[str] | list[int]]) -> None:
        """Script a deal: one list of families (names or indices) per seat, 4 each, every card once."""
        n = self.players
        counts = [0] * (n * n)
        for s, hand in enumerate(hands):
            for card in hand:
                f = C.FAMILIES.index(card) if isinstance(card, str) else card
                counts[s * n + f] += 1
        per_family = [sum(counts[s * n + f] for s in range(n)) for f in range(n)]
        if (
            len(hands) != n
            or any(len(h) != C.HAND_SIZE for h in hands)
            or any(c != C.CARDS_PER_FAMILY for c in per_family)
        ):
            raise ValueError(f"a deal is {n} hands of {C.HAND_SIZE} cards using each of the {n} families 4 times")
        self._forget_kept()  # the kernel keeps the legal actions it handed out
        self.hands = counts


def deal_unseen(tracked: list[tuple[int, int]], free: list[int], places: int, rng: random.Random) -> list[list[int]]:
    """The families of the cards each of `places` other seats (nearest on the left first) holds in a sampled world.

    `tracked`: (k, family) of each card the seat passed k passes ago (k < places, increasing), which lies among
    the first k places; `free`: the families of the other unseen cards (in increasing order), which lie anywhere.
    Each place holds 4 cards. The deal is `deal_by_places`'s (cards as tokens in this order, the tracked ones first)
    with the same generator, which it leaves in the same state, specialised to these places: its greedy pass never
    fails (the card of reach k finds room among the 4k cards of its places, at most k - 1 of them dealt already)
    and deals the tracked cards by increasing reach (all reaches differ), weighted by room as it does.
    """
    if type(rng) is not random.Random:
        families = [f for _, f in tracked] + free
        reach = [_FIRST_PLACES[k] for k, _ in tracked] + [_FIRST_PLACES[places]] * len(free)
        dealt = deal_by_places(range(len(families)), (C.HAND_SIZE,) * places, reach.__getitem__, rng)
        return [[families[token] for token in tokens] for tokens in dealt]
    room = [C.HAND_SIZE] * places
    dealt: list[list[int]] = [[] for _ in range(places)]
    # `deal_by_places` shuffles the tracked cards, then sorts them by reach: only the shuffle's draws matter.
    shuffle(rng, list(range(len(tracked))))
    for k, f in tracked:
        open_places = [p for p in range(k) if room[p]]
        p = weighted_choice(rng, open_places, [room[p] for p in open_places])  # as `deal_by_places` draws
        room[p] -= 1
        dealt[p].append(f)
    shuffle(rng, free)
    start = 0
    for p, r in enumerate(room):
        dealt[p] += free[start : start + r]
        start += r
    return dealt


def _known_passes(passed: list[tuple[int, ...]], seat: int, right: int) -> list[tuple[int, ...]]:
    """The pass log as `seat` knows it: what it passed and what its right-hand neighbour passed it, NO_CHOICE for
    the other seats' passes."""
    n = len(passed[0])
    known: dict[tuple[int, int], tuple[int, ...]] = {}
    log = []
    for p in passed:
        key = (p[seat], p[right])
        row = known.get(key)
        if row is None:
            blank = [NO_CHOICE] * n
            blank[seat], blank[right] = key
            row = known[key] = tuple(blank)
        log.append(row)
    return log


def _family_name(f: int) -> str | None:
    return C.FAMILIES[f] if f >= 0 else None
