"""Shinobi no Gakko's sampled worlds: the `WorldSampler` mixin of the state and the dealing of what a seat cannot
see."""

from __future__ import annotations

import random
from itertools import chain, repeat
from operator import add, sub
from typing import TYPE_CHECKING

from ...core import State
from ...core.deal import shuffle
from .cards import PLAY, SPLIT, STRIDE

if TYPE_CHECKING:
    from .rules import GakkoState

NO_CARDS = (0,) * STRIDE  # an empty count list


class WorldSampler:
    """The state's sampled worlds (a mixin of `GakkoState`)."""

    def _sample_hidden(self, world: State, seat: int, rng: random.Random) -> None:
        world.held = world.obs_floats = None  # the hidden cards move
        if self.phase == SPLIT:
            _resample_split(world, seat, rng)
        elif self.phase == PLAY:
            _resample_heavens(world, seat, rng)


def _resample_split(world: GakkoState, seat: int, rng: random.Random) -> None:
    """During the split the seat knows only its own hand: re-deal the others and re-choose their splits."""
    n = world.players
    heaven, earth = world.heaven, world.earth
    hidden = world.undealt  # counts by rank of every card the seat cannot see
    for other in range(n):
        if other != seat:
            hand = slice(other * STRIDE, (other + 1) * STRIDE)
            hidden = list(map(add, hidden, map(add, heaven[hand], earth[hand])))
    pool = _in_rank_order(hidden)  # the deal must not depend on where the hidden cards truly lie
    shuffle(rng, pool)
    coin = rng.random
    at = 0
    for other in range(n):
        if other == seat:
            continue
        base = other * STRIDE
        size = world.heaven_n[other] + world.earth_n[other]
        heaven[base:base + STRIDE] = earth[base:base + STRIDE] = NO_CARDS
        to_earth = 0
        for r in pool[at:at + size]:
            # A pending split is hidden, so each card goes to either hand at random.
            if coin() < 0.5:
                earth[base + r] += 1
                to_earth += 1
            else:
                heaven[base + r] += 1
        world.earth_n[other] = to_earth
        world.heaven_n[other] = size - to_earth
        at += size
    world.undealt = _counted(pool[at:])


def _resample_heavens(world: GakkoState, seat: int, rng: random.Random) -> None:
    """In play, the other Heavens and the undealt cards are hidden, except cards seen taken into a Heaven."""
    n = world.players
    heaven, known = world.heaven, world.known
    hidden = world.undealt  # counts by rank of every card the seat cannot see
    for other in range(n):
        if other != seat:
            hand = slice(other * STRIDE, (other + 1) * STRIDE)
            hidden = list(map(add, hidden, map(sub, heaven[hand], known[hand])))
    pool = _in_rank_order(hidden)  # the deal must not depend on where the hidden cards truly lie
    shuffle(rng, pool)
    at = 0
    for other in range(n):
        if other == seat:
            continue
        hand = slice(other * STRIDE, (other + 1) * STRIDE)
        heaven[hand] = known[hand]
        size = world.heaven_n[other] - sum(known[hand])
        base = other * STRIDE
        for r in pool[at:at + size]:
            heaven[base + r] += 1
        at += size
    world.undealt = _counted(pool[at:])


def _in_rank_order(counts: list[int]) -> list[int]:
    """The cards of a count list (index = rank) as ranks in ascending order."""
    return list(chain.from_iterable(map(repeat, range(STRIDE), counts)))


def _counted(ranks: list[int]) -> list[int]:
    """A count list (index = rank) of cards given by rank."""
    counts = [0] * STRIDE
    for r in ranks:
        counts[r] += 1
    return counts
