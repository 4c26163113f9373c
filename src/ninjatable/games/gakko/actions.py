"""Shinobi no Gakko's action space: the action table (what each id means, its label) and the runs of ids that
listing the legal actions copies."""

from __future__ import annotations

from typing import NamedTuple

from .cards import COPIES, EARTH, END_NAMES, HAND_NAMES, HEAVEN, HIGH, LOW, RANKS, STRIDE

# Action kinds (an action's `kind`).
TO_EARTH, TO_HEAVEN, SPLIT_DONE, PLAY, TAKE, PASS = range(6)


class Action(NamedTuple):
    """One entry of the action table: what an action id means."""

    kind: int
    hand: int = -1  # HEAVEN or EARTH for turn actions
    rank: int = 0  # split and play actions
    count: int = 0  # play actions
    end: int = -1  # take actions: LOW or HIGH
    label: str = ""


# Layout of the action space: the split (rank to Earth, rank back to Heaven, done), then one block per hand
# (plays by rank and count, take low end, take high end, pass). A play's end follows from its rank: below
# the lowest tier is the low end, above the highest the high end (on an empty table either is the same).
SPLIT_TO_EARTH = 0
SPLIT_TO_HEAVEN = SPLIT_TO_EARTH + RANKS
DONE = SPLIT_TO_HEAVEN + RANKS
HAND_BASE = DONE + 1
PLAYS_PER_HAND = RANKS * COPIES
TAKE_OFFSET = PLAYS_PER_HAND  # + LOW or HIGH
PASS_OFFSET = TAKE_OFFSET + 2
HAND_BLOCK = PASS_OFFSET + 1
NUM_ACTIONS = HAND_BASE + 2 * HAND_BLOCK


def play_id(hand: int, rank: int, count: int) -> int:
    """The action id of playing `count` cards of `rank` from `hand`."""
    return HAND_BASE + hand * HAND_BLOCK + (rank - 1) * COPIES + (count - 1)


def take_id(hand: int, end: int) -> int:
    return HAND_BASE + hand * HAND_BLOCK + TAKE_OFFSET + end


def pass_id(hand: int) -> int:
    return HAND_BASE + hand * HAND_BLOCK + PASS_OFFSET


def _build_actions() -> tuple[Action, ...]:
    table: list[Action] = [Action(TO_EARTH, rank=r, label=f"{r} to Earth") for r in range(1, RANKS + 1)]
    table += [Action(TO_HEAVEN, rank=r, label=f"{r} to Heaven") for r in range(1, RANKS + 1)]
    table.append(Action(SPLIT_DONE, label="done"))
    for hand, name in enumerate(HAND_NAMES):
        for r in range(1, RANKS + 1):
            for k in range(1, COPIES + 1):
                table.append(Action(PLAY, hand, r, k, label=f"{name} {k}x{r}"))
        for end, end_name in enumerate(END_NAMES):
            table.append(Action(TAKE, hand, end=end, label=f"{name} take {end_name}"))
        table.append(Action(PASS, hand, label=f"{name} pass"))
    return tuple(table)


ACTIONS = _build_actions()
assert len(ACTIONS) == NUM_ACTIONS
assert all(ACTIONS[play_id(h, r, k)][:4] == (PLAY, h, r, k)
           for h in (HEAVEN, EARTH) for r in range(1, RANKS + 1) for k in range(1, COPIES + 1))


def _build_play_runs() -> tuple[tuple[tuple[tuple[int, ...], ...], ...], ...]:
    """PLAY_RUNS[hand][rank][least * (COPIES + 1) + have]: the play ids for k = least..have cards of `rank`."""
    return tuple(
        tuple(
            tuple(tuple(play_id(hand, rank, k) for k in range(max(least, 1), have + 1)) if rank else ()
                  for least in range(COPIES + 1) for have in range(COPIES + 1))
            for rank in range(STRIDE))
        for hand in (HEAVEN, EARTH))


PLAY_RUNS = _build_play_runs()
TAKE_IDS = tuple(tuple(take_id(hand, end) for end in (LOW, HIGH)) for hand in (HEAVEN, EARTH))
PASS_IDS = tuple(pass_id(hand) for hand in (HEAVEN, EARTH))
TO_EARTH_IDS = range(SPLIT_TO_EARTH, SPLIT_TO_EARTH + RANKS)  # by rank, from 1
TO_HEAVEN_IDS = range(SPLIT_TO_HEAVEN, SPLIT_TO_HEAVEN + RANKS)
ACTION_LABELS = tuple(a.label for a in ACTIONS)
