"""The action space of Ninjaaa'Tack: its ids and labels, the calls and gestures open to each seat in a round, and
what a gesture names in the partnerships' codebooks."""

from __future__ import annotations

import itertools

from ...core import seat_name
from . import cards as C

PLAYER_COUNTS = (4, 5, 6, 7, 8)

# The two decision steps of a round, each choosing from its part of the action space.
PASS_STEP = 0
SIGNAL_STEP = 1
STEP_NAMES = ("pass", "signal")

NUM_SIGNALS = len(C.SIGNALS)
NO_CHOICE = -1  # a seat that has not decided this step (and, in a sampled world, a pass its seat cannot know)


# --- the action ids ----------------------------------------------------------------------------------------------
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


def action_label(action: int, n: int) -> str:
    """The label of an action id at n players: `pass Fox`, `signal nod`, `silence`, `ninjaaa`, `attack`,
    `attack Player 2`."""
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


# --- a round's teams and the actions they open to each seat ------------------------------------------------------
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


# --- what a gesture names: the partnerships' codebooks ------------------------------------------------------------
PUBLIC_CODE = tuple(range(NUM_SIGNALS))


def codebook_pairs(n: int) -> tuple[tuple[int, int], ...]:
    """The pairs of seats that agree a codebook: the partners at even counts; at odd counts, where the
    partnerships change every round, every pair of seats."""
    if n % 2 == 0:
        return tuple((s, s + n // 2) for s in range(n // 2))
    return tuple(itertools.combinations(range(n), 2))


def code_table(code: tuple[int, ...], n: int) -> dict[str, str]:
    """A codebook in words: gesture to family, for the n families of the game."""
    return {C.SIGNALS[code[f]]: C.FAMILIES[f] for f in range(n)}
