"""Sampled worlds of Ninjaaa'Tack: `WorldSampler` deals what a seat cannot see, and adjusts such worlds to the
hands and choices the heuristic reads from the round."""

from __future__ import annotations

import random

from ...core import SEATS_FROM, State, deal_by_places, seat_name
from ...core.deal import shuffle, weighted_choice
from . import cards as C
from .actions import NO_CHOICE, NUM_SIGNALS, PASS_STEP, PLAYER_COUNTS, PUBLIC_CODE, codebook_pairs

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


# _UNKNOWN_CODES[n][seat]: the pairs whose code `seat` does not know, each with None (see `pair_code`); _KNOWN_PAIRS
# the others.
_UNKNOWN_CODES = {
    n: tuple({pair: None for pair in codebook_pairs(n) if seat not in pair} for seat in range(n)) for n in PLAYER_COUNTS
}
_KNOWN_PAIRS = {
    n: tuple(tuple(pair for pair in codebook_pairs(n) if seat in pair) for seat in range(n)) for n in PLAYER_COUNTS
}
# For a sampled world: the first k other seats (nearest on the left first).
_FIRST_PLACES = tuple(tuple(range(k)) for k in range(len(C.FAMILIES)))


class WorldSampler:
    """The sampled worlds of a `NinjaaaTackState` (a mixin of it)."""

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
        for s, families in zip(SEATS_FROM[n][seat][1:], deal_unseen(tracked, free, n - 1, rng)):
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

    # --- worlds adjusted to a reading of the table (the heuristic's and the search's beliefs) ------------------
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
