"""Dealing unseen cards into hidden places under constraints, for `sample_world`.

A seat that cannot see some cards still knows a lot about them: how many each place holds, colours a
player has shown to be void in, cards known to be (or not to be) in a place. `constrained_deal` finds a
random assignment that respects all of it; one always exists, since the true deal is one.
"""

from __future__ import annotations

import random
from bisect import bisect
from collections.abc import Callable, Sequence
from itertools import accumulate
from typing import NamedTuple


def constrained_deal(
    cards: Sequence[int],
    sizes: Sequence[int],
    allowed: Callable[[int, int], bool],
    rng: random.Random,
    tries: int = 30,
) -> list[list[int]]:
    """Put each card into one of `len(sizes)` places, place `p` getting exactly `sizes[p]` cards.

    `allowed(card, place)` says whether the card may lie there. Random greedy passes (most constrained
    card first) usually succeed; if they all fail, a bipartite matching in random order is exact.
    The deal depends on the cards as a set, never on their order: a game may gather them from the true
    hidden places, and the same generator then deals the same world from any world the seat cannot
    tell apart (so a seeded bot decides alike in both).
    """
    places = range(len(sizes))
    return deal_by_places(cards, sizes, lambda c: [p for p in places if allowed(c, p)], rng, tries)


def deal_by_places(
    cards: Sequence[int],
    sizes: Sequence[int],
    places_of: Callable[[int], Sequence[int]],
    rng: random.Random,
    tries: int = 30,
) -> list[list[int]]:
    """`constrained_deal` told, card by card, every place the card may lie in (in increasing order).

    The same deal as `constrained_deal` with the same generator; a game whose cards share their places (all
    cards of a colour) answers from a table instead of being asked for every card and place.
    """
    return deal_planned(plan_deal(cards, sizes, places_of), rng, tries)


class DealPlan(NamedTuple):
    """What a deal needs that depends on the constraints, not on the generator: a game may keep it and deal
    from it again (`deal_planned`), as a search samples many worlds from one position. Only read, never
    changed."""

    cards: list[int]  # sorted
    sizes: tuple[int, ...]
    options: dict[int, Sequence[int]]  # card -> the places with room it may lie in
    constrained: list[int]  # cards barred from some place with room, in card order
    free: list[int]  # cards that may lie in any place with room, in card order
    choices: dict[int, int]  # card -> how many places it may lie in (the order constrained cards are dealt in)


def plan_deal(cards: Sequence[int], sizes: Sequence[int], places_of: Callable[[int], Sequence[int]]) -> DealPlan:
    """The plan of `deal_by_places(cards, sizes, places_of, rng)`, for `deal_planned`."""
    if sum(sizes) != len(cards):
        raise ValueError(f"{len(cards)} cards cannot fill places of sizes {list(sizes)}")
    cards = sorted(cards)
    if all(sizes):  # no empty place to leave out (the lists are only read)
        options = {c: places_of(c) for c in cards}
    else:
        options = {c: [p for p in places_of(c) if sizes[p]] for c in cards}
    choices = {c: len(places) for c, places in options.items()}
    everywhere = sum(1 for size in sizes if size)
    constrained = [c for c in cards if choices[c] < everywhere]
    free = [c for c in cards if choices[c] == everywhere]
    return DealPlan(cards, tuple(sizes), options, constrained, free, choices)


def deal_planned(plan: DealPlan, rng: random.Random, tries: int = 30) -> list[list[int]]:
    """A deal from a plan: the same as `deal_by_places` with the same generator."""
    for _ in range(tries):
        dealt = _greedy(plan, rng)
        if dealt is not None:
            return dealt
    return _matching(plan.cards, plan.sizes, plan.options, rng)


def _greedy(plan: DealPlan, rng: random.Random) -> list[list[int]] | None:
    options = plan.options
    constrained = plan.constrained.copy()
    shuffle(rng, constrained)
    constrained.sort(key=plan.choices.__getitem__)
    room = list(plan.sizes)
    dealt: list[list[int]] = [[] for _ in room]
    draw = rng.random
    for c in constrained:
        # A place weighted by its free room, as a uniform deal would: the draw of `random.Random.choices`, through
        # the generator's `random`, inlined (a world deals a few such cards, and this loop is most of its time).
        open_places: list[int] = []
        reach: list[int] = []  # the running total of the room of the open places
        total = 0
        for q in options[c]:
            if room[q]:
                total += room[q]
                open_places.append(q)
                reach.append(total)
        if not total:
            return None
        p = open_places[bisect(reach, draw() * (total + 0.0), 0, len(reach) - 1)]
        room[p] -= 1
        dealt[p].append(c)
    # Cards that may lie anywhere fill the remaining room uniformly.
    free = plan.free.copy()
    shuffle(rng, free)
    start = 0
    for p, r in enumerate(room):
        dealt[p].extend(free[start:start + r])
        start += r
    return dealt


def _matching(cards, sizes, options, rng):
    slots = [p for p in range(len(sizes)) for _ in range(sizes[p])]
    owner: list[int | None] = [None] * len(slots)
    slots_of = {p: [i for i, q in enumerate(slots) if q == p] for p in range(len(sizes))}
    order = list(cards)
    rng.shuffle(order)

    def augment(c: int, seen: set[int]) -> bool:
        candidates = [i for p in options[c] for i in slots_of[p]]
        rng.shuffle(candidates)
        for i in candidates:
            if i in seen:
                continue
            seen.add(i)
            if owner[i] is None or augment(owner[i], seen):
                owner[i] = c
                return True
        return False

    for c in order:
        if not augment(c, set()):
            raise ValueError("no deal satisfies the constraints")
    dealt: list[list[int]] = [[] for _ in sizes]
    for i, c in enumerate(owner):
        dealt[slots[i]].append(c)
    return dealt


# --- the generator's draws, inlined -------------------------------------------------------------------
# A sampled world makes dozens of draws; `random.Random` makes each through a chain of Python calls. These give
# the same results from the same generator (tests/core/test_deal.py compares them with the library's), so the
# worlds a seeded search deals stay the same.


# _DRAW_BITS[i]: the bits drawn for a number below i + 1 (the length of i + 1).
_DRAW_BITS = tuple((i + 1).bit_length() for i in range(128))


def shuffle(rng: random.Random, items: list) -> None:
    """`rng.shuffle(items)`: the same permutation from the same generator."""
    if type(rng) is not random.Random:  # a subclass may draw its own way
        rng.shuffle(items)
        return
    getrandbits = rng.getrandbits
    bits = _DRAW_BITS if len(items) <= len(_DRAW_BITS) else [(i + 1).bit_length() for i in range(len(items))]
    for i in range(len(items) - 1, 0, -1):
        # `random.Random._randbelow(i + 1)`: k random bits, drawn again while they reach i + 1.
        k = bits[i]
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


def weighted_choice(rng: random.Random, population: Sequence, weights: Sequence[float]):
    """`rng.choices(population, weights)[0]`: the same element from the same generator."""
    if type(rng) is not random.Random:
        return rng.choices(population, weights=weights)[0]
    cumulative = list(accumulate(weights))
    return population[bisect(cumulative, rng.random() * (cumulative[-1] + 0.0), 0, len(population) - 1)]
