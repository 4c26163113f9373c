"""Slaughter the Dragon, Ha: sampled worlds, every card a seat has not seen dealt anew consistently with what it saw."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import NamedTuple

from ...core import State, deal_by_places
from ...core.deal import DealPlan, deal_planned, plan_deal, shuffle
from . import cards as C
from .cards import COLOUR_OF, NOBODY, NUMBERS, PURPLE, SCALE


class WorldDeal(NamedTuple):
    """What a seat's sampled worlds are dealt from, kept until the next move (`_deal_prepared`)."""

    places: list[tuple[str, int]]  # each other seat's hand, each other seat's 2nd-half pile, the Inverted Scale
    pinned: dict[tuple[str, int], list[int]]  # the cards the seat knows to lie in each place
    passed: dict[int, set[int]]  # Soul-Sucking: the passed cards the seat knows of, and whose hand may hold each
    unseen: list[int]  # the cards to deal, sorted
    allowed: Callable[[int, int], bool]  # whether a card may lie in a place (by index)
    places_of: Callable[[int], list[int]]  # the places a card may lie in
    hidden: list[int]  # the passed cards among the unseen (two are dealt first, apart: `_deal_pair`)
    plan: DealPlan | None  # the kernel's plan of the deal (None when two passed cards are dealt first)


class WorldSampler:
    """The State's sampled worlds (a mixin of `DragonState`: its methods read the state's fields)."""

    def _sample_hidden(self, world: State, seat: int, rng: random.Random) -> None:
        """Redeal every card `seat` has not seen, keeping counts, voids, the countdown and what it knows."""
        places, pinned, passed, unseen, allowed, places_of, hidden, plan = self._worlds_prepared(
            seat, self._deal_prepared)  # every move logs an event
        if len(hidden) == 2:
            dealt = self._deal_pair(hidden, places, pinned, unseen, allowed, places_of, rng)
        else:
            dealt = deal_planned(plan, rng)  # new lists, which become the world's: completed and sorted in place
            for p, new in zip(places, dealt):
                if pinned[p]:
                    new += pinned[p]
        hands, piles = world.hands, world.piles
        for (kind, s), new in zip(places, dealt):
            new.sort()
            if kind == "hand":
                hands[s] = new
            elif kind == "pile":
                piles[s] = new
            else:
                shuffle(rng, new)
                world.scale = new
        self._sample_secrets(world, seat, passed, rng)

    def _deal_prepared(self, seat: int) -> WorldDeal:
        """Everything the seat's sampled worlds are dealt from that does not depend on the generator: the places,
        the cards pinned to them, the passed cards, the unseen cards and where each may lie."""
        n = self.players
        # Places: hand of each other seat, 2nd-half pile of each other seat, the Inverted Scale.
        places: list[tuple[str, int]] = [("hand", s) for s in range(n) if s != seat]
        places += [("pile", s) for s in range(n) if s != seat and self.piles[s]]
        places.append(("scale", SCALE))
        pinned: dict[tuple[str, int], list[int]] = {p: [] for p in places}
        for card, where in self._known(seat):
            if where >= 0:
                pinned[("hand", where)].append(card)
            elif where == SCALE:
                pinned[("scale", SCALE)].append(card)
        passed = self._passed_cards(seat)
        pinned_set = {c for cs in pinned.values() for c in cs}
        # Sorted, so that the world depends on nothing but what the seat saw and the random stream.
        unseen = sorted(c for p in places for c in self._place(p) if c not in pinned_set)
        allowed = self._placement_rule(places, passed)
        places_of = self._places_of(places, passed, allowed, unseen)
        hidden = [c for c in passed if c in unseen]
        plan = None
        if len(hidden) != 2:
            plan = plan_deal(unseen, [len(self._place(p)) - len(pinned[p]) for p in places], places_of)
        return WorldDeal(places, pinned, passed, unseen, allowed, places_of, hidden, plan)

    def _passed_cards(self, seat: int) -> dict[int, set[int]]:
        """Soul-Sucking: cards `seat` knows went to the practitioner's hand, and whose hand may hold each now.

        Those are the practitioner's top purple (it answered the countdown) and the card `seat` gave. Each
        receiver got exactly one card back, so a receiver shown to hold one of them holds no other.
        """
        jutsu = self.jutsu
        if not self.soul or seat == jutsu:
            return {}
        cards_ = [C.card(PURPLE, self.countdown)]
        if self.given[seat] != NOBODY:
            cards_.append(self.given[seat])
        served = [r for r, c in enumerate(self.received) if c != NOBODY and r != seat]
        holders = {}
        for c in cards_:
            others = [self.played_by[o] for o in cards_ if o != c]
            holders[c] = {jutsu} | {r for r in served if r not in others}
        return holders

    def _deal_pair(self, pair, places, pinned, unseen, allowed, places_of, rng):
        """Place two passed cards first (never both with the same receiver), then deal the rest around them."""
        jutsu_hand = places.index(("hand", self.jutsu))
        first, second = pair
        options = [(i, j) for i in range(len(places)) if allowed(first, i)
                   for j in range(len(places)) if allowed(second, j) and (i != j or i == jutsu_hand)]
        rest = [c for c in unseen if c not in pair]
        while options:
            room = [len(self._place(p)) - len(pinned[p]) for p in places]
            weights = [room[i] * (room[j] - (i == j)) for i, j in options]
            k = rng.choices(range(len(options)), weights=weights)[0]
            i, j = options.pop(k)
            room[i] -= 1
            room[j] -= 1
            if min(room) < 0:
                continue
            try:
                dealt = deal_by_places(rest, room, places_of, rng)
            except ValueError:
                continue  # the other constraints leave no deal with this placement
            dealt[i].append(first)
            dealt[j].append(second)
            return [cards_ + pinned[p] for p, cards_ in zip(places, dealt)]
        raise AssertionError("no deal fits what the seat saw")  # impossible: the true deal fits

    def _sample_secrets(self, world: State, seat: int, passed: dict[int, set[int]], rng: random.Random) -> None:
        """Give the other seats secrets that fit the sampled deal: `seat` must not learn theirs from the world."""
        if self.summoner is not None and seat != self.summoner and self.returned:
            world.returned = rng.sample(world.scale, len(self.returned))
        # Other seats' pending Soul-Sucking choices are secret: choose them afresh from their new hands.
        world.gifts = {s: (c if s == seat else rng.choice(world.hands[s])) for s, c in self.gifts.items()}
        if not passed or all(c == NOBODY for c in self.given):
            return
        jutsu = self.jutsu
        through = set(passed)
        for r, c in enumerate(self.received):
            if c == NOBODY or r == seat:
                continue
            # A receiver holding (or having played) a passed card got that one; otherwise any card it has had.
            had = world.hands[r] + [p for p, who in enumerate(self.played_by) if who == r]
            forced = [x for x in had if x in through]
            world.received[r] = forced[0] if forced else rng.choice([x for x in had if x not in through])
        pool = world.hands[jutsu] + [p for p, who in enumerate(self.played_by) if who == jutsu]
        pool += [c for c in world.received if c != NOBODY]
        pool = [c for c in pool if c not in through]
        givers = [s for s in range(self.players) if s not in (seat, jutsu)]
        for giver, gift in zip(givers, rng.sample(pool, len(givers))):
            world.given[giver] = gift

    def _place(self, place: tuple[str, int]) -> list[int]:
        kind, s = place
        return self.hands[s] if kind == "hand" else self.piles[s] if kind == "pile" else self.scale

    def _placement_rule(self, places: list[tuple[str, int]], passed: dict[int, set[int]]):
        """Which unseen card may lie in which place, from everything public and what the seat knows."""
        trump, top, jutsu = self.trump, self.countdown, self.jutsu
        voids = [self.void[s] if kind == "hand" else 0 for kind, s in places]
        is_scale = [kind == "scale" for kind, _ in places]
        owner = [s if kind == "hand" else NOBODY for kind, s in places]
        pile_owner = [s for _, s in places]

        def allowed(card: int, i: int) -> bool:
            col = COLOUR_OF[card]
            if voids[i] >> col & 1:
                return False
            if card in passed:
                return owner[i] in passed[card]
            if jutsu is not None and col == trump:
                num = card % NUMBERS + 1
                if num > top:  # nobody answered to it in the countdown: it lay in the scale
                    return is_scale[i]
                if num == top:  # the Bodily Division practitioner holds it, in hand or pile
                    return pile_owner[i] == jutsu and not is_scale[i]
            return True

        return allowed

    def _places_of(self, places: list[tuple[str, int]], passed: dict[int, set[int]], allowed, unseen: list[int]):
        """The places (indices into `places`) each unseen card may lie in, by `allowed`, as a lookup into a table by
        card: the cards only a shown void restricts (all but passed cards and trumps once the countdown has run)
        share their colour's list."""
        indices = range(len(places))
        voids = [self.void[s] if kind == "hand" else 0 for kind, s in places]
        by_colour = [[i for i in indices if not voids[i] >> col & 1] for col in range(4)]
        table = [by_colour[col] for col in COLOUR_OF]
        trump = self.trump if self.jutsu is not None else None
        # A trump's places depend only on whether its number is above, at or below the countdown's.
        by_rank: dict[int, list[int]] = {}
        for card in unseen:
            if card in passed:
                table[card] = [i for i in indices if allowed(card, i)]
            elif COLOUR_OF[card] == trump:
                num = card % NUMBERS + 1
                rank = (num > self.countdown) - (num < self.countdown)
                if rank not in by_rank:
                    by_rank[rank] = [i for i in indices if allowed(card, i)]
                table[card] = by_rank[rank]
        return table.__getitem__
