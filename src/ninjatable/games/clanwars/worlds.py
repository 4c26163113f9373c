"""Ninja Clan Wars' sampled worlds: the `WorldSampler` mixin of the state, which redeals what a seat cannot see."""

from __future__ import annotations

import random

from ...core import State
from ...core.deal import shuffle


class WorldSampler:
    """`_sample_hidden` of `ClanWarsState`: the other hands and the unseen deck dealt again, keeping what the seat
    knows (the cards it saw in a hand, the top of the deck it looked at, its doubts after a steal)."""

    def _place_doubtful(self, seat: int, fixed: dict[int, list[int]], rng: random.Random) -> None:
        """After a steal `seat` saw only in part: all its doubtful cards but at most one stay with the victim,
        the one that went (if any) is in the thief's hand."""
        doubt = self.doubt[seat]
        if not doubt:
            return
        victim, thief = self.stolen_from, self.stolen_by
        kept = list(doubt)
        # The hand sizes may settle it: the victim has no room for them all, or the thief has no room for one.
        victim_full = len(self.hands[victim]) < len(fixed[victim]) + len(kept)
        thief_room = len(self.hands[thief]) > len(fixed[thief])
        if victim_full or (thief_room and rng.random() * self.doubt_n[seat] < len(kept)):
            fixed[thief].append(kept.pop(rng.randrange(len(kept))))
        fixed[victim] += kept

    def _sample_hidden(self, world: State, seat: int, rng: random.Random) -> None:
        """Redeal the other hands and the unseen part of the deck, keeping what `seat` knows."""
        assert isinstance(world, WorldSampler)
        n = self.players
        fixed_top = self.known_top[seat]
        split = len(self.deck) - fixed_top
        others = [b for b in range(n) if b != seat]
        fixed = {b: list(self.known[seat][b]) for b in others}
        self._place_doubtful(seat, fixed, rng)
        pool = self.deck[:split]
        for b in others:
            pool += self.hands[b]
        for b in others:
            for c in fixed[b]:
                pool.remove(c)
        pool.sort()  # the deal must not depend on where the hidden cards truly lie
        shuffle(rng, pool)
        k = 0
        for b in others:
            need = len(self.hands[b]) - len(fixed[b])
            world.hands[b] = fixed[b] + pool[k:k + need]
            k += need
        world.deck = pool[k:] + self.deck[split:]
        for t in others:  # the other seats' doubts are about cards hidden from `seat`
            world.doubt[t] = []
        # Which cards another seat saw in a third hand is hidden from `seat` (keeping those still in the
        # redealt hand would tell it the true ones), so in this world the other seats know none of them.
        # What they know of `seat`'s own hand `seat` can work out, and it stays.
        for t in others:
            for b in others:
                if b != t:
                    world.known[t][b] = []

