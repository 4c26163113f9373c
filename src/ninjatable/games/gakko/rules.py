"""Shinobi no Gakko: the rules as a state machine on the kernel contract.

A round: deal, the simultaneous split into Heaven (hidden) and Earth (public), the setup reveal from the
undealt cards, then turns in which the player acts once with each hand (play a set, take an end tier, or
pass) until someone has no cards left. Three rounds. See docs/rules/gakko.md for every rule and
interpretation.
"""

from __future__ import annotations

import random
from itertools import chain, compress, repeat
from operator import add, not_, sub
from typing import Any, ClassVar

import numpy as np

from ...core import Decision, Game, Option, Private, State, seat_name
from ...core.deal import shuffle
from . import cards as C
from .cards import (
    ACTIONS,
    BITS_BELOW,
    BITS_FROM,
    COPIES,
    EARTH,
    HAND_NAMES,
    HEAVEN,
    HIGH,
    LOW,
    PASS_IDS,
    PLAY_RUNS,
    RANK_BIT,
    RANKS,
    RANKS_OF_BITS,
    STRIDE,
    TAKE_IDS,
)
from .render import render

SPLIT, PLAY, OVER = range(3)
PHASE_NAMES = ("split", "play", "over")
NO_LOCK = -1
NOBODY = -1

DEFAULT_MAX_TURNS = 1000

# Words of the log, worked out once.
SEAT_NAMES = tuple(seat_name(seat) for seat in range(max(C.DEAL_SIZE)))
LOCK_TEXTS = {NO_LOCK: "", **{end: f"; the {C.END_NAMES[end]} end is locked" for end in (LOW, HIGH)}}
PASS_TEXTS = tuple(tuple(f"{name} passes with {hand}" for hand in HAND_NAMES) for name in SEAT_NAMES)
PLAYED_TALLIES = tuple(f"tiers_of_{count}_played" for count in range(COPIES + 1))  # names for `stats`

# Observation layout: own hands, then one block per seat (relative to the observer), then the table.
SEAT_SCALARS = 7  # Heaven count, cards held, split done, to move, shuriken, starter, score
SEAT_BLOCK = 2 * RANKS + SEAT_SCALARS  # Earth counts, cards known to be in Heaven, scalars
HEAVEN_COUNT, HELD, SPLIT_DONE, TO_MOVE, SHURIKEN, STARTER, SCORE = range(2 * RANKS, SEAT_BLOCK)  # in a seat block
TABLE_BLOCK = 3 * RANKS + 2 + 1  # counts on the table, low end rank, high end rank, lock, tiers
TAIL_BLOCK = RANKS + 1 + 3 + C.ROUNDS + 2 + 1 + 1  # cleared, undealt, phase, round, hands used, lead, turns
OWN_BLOCK = 2 * RANKS  # the observer's Heaven and Earth counts
SIZE_SCALE = 15  # hand sizes and the undealt count are divided by this, counts by COPIES
SCORE_SCALE = 20
MAX_PLAYERS = max(C.DEAL_SIZE)

# Speed: the observed values that change only with the cards, the table, the scores, the phase or the round are
# kept by the state as float32 runs (`obs_floats`), updated with each move, so an observation copies a few runs
# instead of dividing count by count. Their layout: the table block and the start of the tail block (cleared counts,
# undealt, phase, round), which follow each other in an observation too, each seat's own block (its Heaven and
# Earth counts, as it observes them; room for the most players), then every seat's block in seat order.
TAIL_KEPT = RANKS + 1 + 3 + C.ROUNDS
FLOATS_TAIL = TABLE_BLOCK
FLOATS_OWN = FLOATS_TAIL + TAIL_KEPT
FLOATS_SEATS = FLOATS_OWN + MAX_PLAYERS * OWN_BLOCK
LOW_END, HIGH_END, LOCKED, TIERS = RANKS, 2 * RANKS, 3 * RANKS, 3 * RANKS + 2  # in the table block
TABLE_FLOATS = slice(0, TABLE_BLOCK)
ENDS_FLOATS = slice(LOW_END, TABLE_BLOCK)  # the end ranks, the lock and the tiers
NO_TABLE = memoryview(bytes(4 * TABLE_BLOCK)).cast("f")  # zeros, for an empty table
NO_ENDS = NO_TABLE[ENDS_FLOATS]


def observation_size(players: int) -> int:
    return OWN_BLOCK + players * SEAT_BLOCK + TABLE_BLOCK + TAIL_BLOCK


def _float_copies(players: int, seat: int, split: bool) -> tuple[tuple[slice, slice], ...]:
    """The runs an observation by `seat` copies from `obs_floats`: (slice of the observation, slice of the floats).

    Seat blocks follow the observer, so the seats from `seat` on come first, then those before it. During the split
    the others' Earth, known cards and Heaven count are hidden: only their scalars from cards held on are copied.
    """
    seats_at = FLOATS_SEATS
    own = FLOATS_SEATS + seat * SEAT_BLOCK
    runs = [(slice(0, OWN_BLOCK), slice(FLOATS_OWN + seat * OWN_BLOCK, FLOATS_OWN + (seat + 1) * OWN_BLOCK))]
    if split:
        for rel in range(players):
            other = (seat + rel) % players
            first = 0 if other == seat else HELD
            at = OWN_BLOCK + rel * SEAT_BLOCK
            start = seats_at + other * SEAT_BLOCK
            runs.append((slice(at + first, at + SEAT_BLOCK), slice(start + first, start + SEAT_BLOCK)))
    else:
        after = (players - seat) * SEAT_BLOCK  # the blocks of seat .. players - 1
        runs.append((slice(OWN_BLOCK, OWN_BLOCK + after), slice(own, seats_at + players * SEAT_BLOCK)))
        if seat:
            runs.append((slice(OWN_BLOCK + after, OWN_BLOCK + players * SEAT_BLOCK), slice(seats_at, own)))
    table = observation_size(players) - TAIL_BLOCK - TABLE_BLOCK
    runs.append((slice(table, table + FLOATS_OWN), slice(0, FLOATS_OWN)))
    return tuple(runs)


OBSERVATION_SHAPES = {n: (observation_size(n),) for n in range(1, MAX_PLAYERS + 1)}
# TURN_AT[players]: where the tail's values not kept as floats start (hands used, lead, turns).
TURN_AT = {n: observation_size(n) - TAIL_BLOCK + TAIL_KEPT for n in range(1, MAX_PLAYERS + 1)}
NO_CARDS = (0,) * STRIDE  # an empty count list
TO_EARTH_IDS = range(C.SPLIT_TO_EARTH, C.SPLIT_TO_EARTH + RANKS)  # by rank, from 1
TO_HEAVEN_IDS = range(C.SPLIT_TO_HEAVEN, C.SPLIT_TO_HEAVEN + RANKS)

# FLOAT_COPIES[split][players][seat]: the runs of `_float_copies`, worked out once.
FLOAT_COPIES = tuple(
    {n: tuple(_float_copies(n, seat, split) for seat in range(n)) for n in range(1, MAX_PLAYERS + 1)}
    for split in (False, True))


class GakkoState(State):
    """One game of Shinobi no Gakko in progress.

    Hands are flat count lists: `heaven[seat * STRIDE + rank]` is how many cards of `rank` the seat holds in
    Heaven (during the split: cards not yet put to Earth). The table is two parallel lists of tiers in
    ascending rank order; the lock is not stored but derived from the two end tiers, so it is re-evaluated
    after every action by construction.

    Derived caches, all for speed: the ranks each hand holds as bits (`held[2 * seat + hand]`, see cards.RANK_BIT), and the observation
    floats (`obs_floats`), both kept in step with the cards (and the floats with the table and the seat flags) by the
    moves or dropped (None) to be worked out again; the runs of the floats each observer copies (`obs_cuts`), kept
    for one floats object. Code that changes the state by hand (tests, puzzles) uses `script_play`.
    """

    def __init__(self, game: Game, players: int, seed: int, options: dict[str, Any]) -> None:
        super().__init__(game, players, seed, options)
        self.max_turns: int = options["max_turns"]
        self.forced_lead: bool = options["lead_after_cleaning"]
        self.literal_taking: bool = options["literal_taking"]
        self.deal_size = C.DEAL_SIZE[players]
        self.top_rank = C.TOP_RANK[players]
        self.obs_cuts: tuple[memoryview, bool, list[tuple | None]] | None = None  # see `_observe`
        self.round = 0
        self.starter = NOBODY  # the first round's starter is drawn once the table is set up
        self._start_round()

    # --- round set-up -------------------------------------------------------------------------------
    def _start_round(self) -> None:
        """Shuffle, deal and open the simultaneous split."""
        n = self.players
        self.round += 1
        self.phase = SPLIT
        deck = [r for r in range(1, self.top_rank + 1) for _ in range(COPIES)]
        shuffle(self.chance(), deck)
        self.heaven = [0] * (n * STRIDE)
        self.earth = [0] * (n * STRIDE)
        for seat in range(n):
            base = seat * STRIDE
            for r in deck[seat * self.deal_size:(seat + 1) * self.deal_size]:
                self.heaven[base + r] += 1
        self.heaven_n = [self.deal_size] * n
        self.earth_n = [0] * n
        self.undealt = [0] * STRIDE
        for r in deck[n * self.deal_size:]:
            self.undealt[r] += 1
        self.undealt_n = len(deck) - n * self.deal_size
        # Cards seen going into a seat's Heaven (taken there from the table) and not played since.
        self.known = [0] * (n * STRIDE)
        self.split_done = [False] * n
        self.tier_rank: list[int] = []
        self.tier_count: list[int] = []
        self.cleared = [0] * STRIDE
        self.current = NOBODY
        self.used = 0  # bit h set: hand h has acted this turn
        self.turns = 0
        self.shuriken = NOBODY
        self.must_lead = False
        self.held: list[int] | None = None  # worked out when first listing plays
        self.obs_floats: memoryview | None = None  # worked out when first observed
        self.log("round", f"Round {self.round}: {self.deal_size} cards dealt to each player")
        for seat in range(n):
            self.log("hand", f"{seat_name(seat)} is dealt {_cards_text(self.heaven, seat * STRIDE)}", to=seat)

    def _start_play(self) -> None:
        """Everyone has split: reveal the Earth cards, reveal the table from the undealt cards, pick the starter."""
        self.phase = PLAY
        self.held = None  # plays are listed only from here on, so the bits are worked out after the split's moves
        self.obs_floats = None  # the phase and the undealt count change
        for seat in range(self.players):
            self.log("earth", f"{seat_name(seat)} reveals Earth: {_cards_text(self.earth, seat * STRIDE) or '-'} "
                              f"and keeps {self.heaven_n[seat]} cards in Heaven")
        self._reveal_setup()
        if self.starter == NOBODY:
            self.starter = self.chance().randrange(self.players)
        self.current = self.starter
        self.log("turn", f"{seat_name(self.current)} starts round {self.round}")

    def _reveal_setup(self) -> None:
        """Reveal undealt cards until two ranks differ; equal ranks stack into one tier."""
        rng = self.chance()
        first = self._draw_undealt(rng)
        stacked = 1
        second = self._draw_undealt(rng)
        while second == first:
            stacked += 1
            second = self._draw_undealt(rng)
        tiers = sorted([(first, stacked), (second, 1)])
        self.tier_rank = [t[0] for t in tiers]
        self.tier_count = [t[1] for t in tiers]
        shown = " + ".join(" ".join([str(r)] * c) for r, c in tiers)
        self.log("setup", f"The table opens with {shown}" + self._lock_text())

    def _draw_undealt(self, rng: random.Random) -> int:
        pick = rng.randrange(self.undealt_n)
        for r in range(1, RANKS + 1):
            pick -= self.undealt[r]
            if pick < 0:
                self.undealt[r] -= 1
                self.undealt_n -= 1
                return r
        raise AssertionError("the undealt cards ran out")  # impossible: at most 5 of a rank, 10+ undealt

    # --- scripted positions (tests, puzzles) --------------------------------------------------------
    def script_deal(self, hands: list[list[int]], undealt: list[int]) -> None:
        """Replace the current split's deal: each seat's whole hand (all in Heaven) and the undealt cards."""
        self._forget_kept()  # the kernel keeps the legal actions it handed out and what worlds are dealt from
        n = self.players
        self.heaven, self.earth = [0] * (n * STRIDE), [0] * (n * STRIDE)
        for seat, hand in enumerate(hands):
            for r in hand:
                self.heaven[seat * STRIDE + r] += 1
        self.heaven_n = [len(h) for h in hands]
        self.earth_n = [0] * n
        self.known = [0] * (n * STRIDE)
        self.undealt = [0] * STRIDE
        for r in undealt:
            self.undealt[r] += 1
        self.undealt_n = len(undealt)
        self.held = None
        self.obs_floats = None

    def script_play(self, hands: list[tuple[list[int], list[int]]], table: list[tuple[int, int]],
                    current: int, undealt: list[int] | None = None) -> None:
        """Jump to the play phase: each seat's (Heaven, Earth), the tiers (rank, count) and the seat to act."""
        self.script_deal([heaven for heaven, _ in hands], undealt or [])
        for seat, (_, earth) in enumerate(hands):
            for r in earth:
                self.earth[seat * STRIDE + r] += 1
            self.earth_n[seat] = len(earth)
        self.split_done = [True] * self.players
        self.phase = PLAY
        self.tier_rank = [r for r, _ in table]
        self.tier_count = [c for _, c in table]
        self.starter = self.current = current
        self.used = self.turns = 0
        self.shuriken = NOBODY
        self.must_lead = False
        self.held = None
        self.obs_floats = None

    # --- the table ----------------------------------------------------------------------------------
    def lock(self) -> int:
        """The locked end (LOW, HIGH) or NO_LOCK: the end tier with more cards, when the two ends differ."""
        counts = self.tier_count
        if len(counts) < 2 or counts[0] == counts[-1]:
            return NO_LOCK
        return LOW if counts[0] > counts[-1] else HIGH

    def _lock_text(self) -> str:
        return LOCK_TEXTS[self.lock()]

    # --- the contract ------------------------------------------------------------------------------
    def to_move(self) -> tuple[int, ...]:
        if self.phase == PLAY:
            return (self.current,)
        if self.phase == SPLIT:
            return tuple(compress(range(self.players), map(not_, self.split_done)))
        return ()

    def is_over(self) -> bool:
        return self.phase == OVER

    def _legal_actions(self, seat: int) -> list[int]:
        if self.phase == PLAY:
            return self._turn_actions() if seat == self.current else []
        if self.phase == SPLIT and not self.split_done[seat]:
            return self._split_actions(seat)
        return []

    def _split_actions(self, seat: int) -> list[int]:
        base = seat * STRIDE
        moves = list(compress(TO_EARTH_IDS, self.heaven[base + 1:base + STRIDE]))
        moves += compress(TO_HEAVEN_IDS, self.earth[base + 1:base + STRIDE])
        moves.append(C.DONE)
        return moves

    def _turn_actions(self) -> list[int]:
        seat = self.current
        base = seat * STRIDE
        ranks, counts = self.tier_rank, self.tier_count
        # Only ranks beyond an unlocked end can be played, so only the ranks held there are looked at (from the bits
        # `held`): below `low_stop` with sets of at least the low tier's size, from `high_start` with at least the
        # high tier's (as PLAY_RUNS steps).
        # These windows and the takes are the same for both hands.
        take_low = take_high = lead_due = False
        if not ranks:
            low_stop = high_start = STRIDE
            low_least = high_least = COPIES + 1  # any set
            lead_due = self.must_lead
        else:
            low_stop, high_start = ranks[0], ranks[-1] + 1
            low_least, high_least = counts[0] * (COPIES + 1), counts[-1] * (COPIES + 1)
            if len(ranks) >= 2:
                lock = self.lock()
                if lock == LOW:
                    low_stop = 1
                elif lock == HIGH:
                    high_start = STRIDE
                literal = self.literal_taking
                take_low = lock != LOW and counts[0] < 3 and (not literal or self._may_take(0, 1))
                take_high = lock != HIGH and counts[-1] < 3 and (not literal or self._may_take(-1, -2))
        held = self.held
        if held is None:
            held = self.held = self._held_now()
        below, beyond = BITS_BELOW[low_stop], BITS_FROM[high_start]
        used = self.used
        moves: list[int] = []
        for hand in (HEAVEN, EARTH):
            if used >> hand & 1:
                continue
            cards = self.heaven if hand == HEAVEN else self.earth
            runs = PLAY_RUNS[hand]
            bits = held[2 * seat + hand]
            for r in RANKS_OF_BITS[bits & below]:
                moves += runs[r][low_least + cards[base + r]]
            for r in RANKS_OF_BITS[bits & beyond]:
                moves += runs[r][high_least + cards[base + r]]
            if take_low:
                moves.append(TAKE_IDS[hand][LOW])
            if take_high:
                moves.append(TAKE_IDS[hand][HIGH])
            if not lead_due or self._may_pass(hand, base):
                moves.append(PASS_IDS[hand])
        return moves

    def _held_now(self) -> list[int]:
        """The ranks each hand holds as bits (see `held`), worked out from the counts."""
        bits = RANK_BIT[1:]
        return [sum(compress(bits, cards[base + 1:base + STRIDE]))
                for base in range(0, self.players * STRIDE, STRIDE) for cards in (self.heaven, self.earth)]

    def _may_take(self, end: int, neighbour: int) -> bool:
        """With `literal_taking`: the end tier is at least as big as its neighbour, and not one number from it."""
        if not self.literal_taking:
            return True
        ranks, counts = self.tier_rank, self.tier_count
        return counts[end] >= counts[neighbour] and abs(ranks[end] - ranks[neighbour]) != 1

    def _may_pass(self, hand: int, base: int) -> bool:
        """Passing is soft, except that a player who cleaned the table must lead onto it with some hand."""
        if not self.must_lead or self.tier_rank:
            return True
        other = 1 - hand
        other_cards = self.earth_n if other == EARTH else self.heaven_n
        return not (self.used >> other & 1) and other_cards[base // STRIDE] > 0

    # --- decisions in words ---------------------------------------------------------------------------
    def _decision(self, seat: int) -> Decision:
        if self.phase == SPLIT:
            # Moving cards between the two hands draws no chance and shows nothing until `done`.
            return Decision("Split your hand: keep cards in Heaven (hidden) or move them to Earth (laid face up "
                            "when everyone has split), then done", multi=True, confirm=C.DONE)
        if self.must_lead and not self.tier_rank:
            return Decision("You cleaned the table: play any set onto it (with at least one hand this turn)")
        if self.used:
            acted = HAND_NAMES[0 if self.used & 1 else 1]
            left = HAND_NAMES[1 if self.used & 1 else 0]
            return Decision(f"{acted} has acted; now act with {left}: play a set beyond an end, "
                            f"take an end tier, or pass")
        return Decision("Act once with each hand, in either order: play a set beyond an end of the table, "
                        "take an end tier, or pass")

    def _refusals(self, seat: int) -> dict[int, str]:
        if self.phase != PLAY:
            return {}
        legal = set(self.legal_actions(seat))
        base = seat * STRIDE
        refused: dict[int, str] = {}
        for hand in (HEAVEN, EARTH):
            cards = self.heaven if hand == HEAVEN else self.earth
            for rank in range(1, RANKS + 1):
                for count in range(1, cards[base + rank] + 1):
                    action = C.play_id(hand, rank, count)
                    if action not in legal:
                        refused[action] = self._play_refusal(hand, rank, count)
            for end in (LOW, HIGH):
                action = C.take_id(hand, end)
                if action not in legal:
                    refused[action] = self._take_refusal(hand, end)
            if C.pass_id(hand) not in legal:
                refused[C.pass_id(hand)] = self._hand_refusal(hand) or (
                    "you cleaned the table: play a set onto it with at least one hand this turn")
        return refused

    def _hand_refusal(self, hand: int) -> str:
        """Why a hand may not act at all now ("" if it may)."""
        return f"your {HAND_NAMES[hand]} has already acted this turn" if self.used >> hand & 1 else ""

    def _play_refusal(self, hand: int, rank: int, count: int) -> str:
        """Why `count` cards of `rank` may not be played from `hand` now."""
        if self._hand_refusal(hand):
            return self._hand_refusal(hand)
        ranks, counts = self.tier_rank, self.tier_count
        if ranks and ranks[0] <= rank <= ranks[-1]:
            if ranks[0] == ranks[-1]:
                return f"a set must go below or above the {ranks[0]}s, not on them"
            return f"a set must go below {ranks[0]} or above {ranks[-1]}, not between or on the ends"
        if ranks:
            end = LOW if rank < ranks[0] else HIGH
            tier = 0 if end == LOW else -1
            if self.lock() == end:
                return self._locked_text(end)
            if count < counts[tier]:
                side = "below" if end == LOW else "above"
                return f"a set {side} the {ranks[tier]}s needs at least {counts[tier]} cards, as many as that tier"
        return "not allowed now"

    def _take_refusal(self, hand: int, end: int) -> str:
        """Why `hand` may not take the tier at `end` now."""
        if self._hand_refusal(hand):
            return self._hand_refusal(hand)
        if len(self.tier_rank) < 2:
            return "taking needs at least two tiers on the table"
        if self.lock() == end:
            return self._locked_text(end)
        count = self.tier_count[0 if end == LOW else -1]
        if count >= 3:
            return f"a tier of {count} cards is too big to take (3 or more)"
        return "not allowed now"

    def _locked_text(self, end: int) -> str:
        return (f"the {C.END_NAMES[end]} end is locked: it holds more cards than the {C.END_NAMES[1 - end]} end")

    def _apply(self, seat: int, action: int) -> None:
        kind, hand, rank, count, end, _ = ACTIONS[action]
        if kind == C.PASS:
            self.log("pass", PASS_TEXTS[seat][hand])
            self._hand_acted(hand)
        elif kind == C.PLAY:
            self._play(seat, hand, rank, count)
        elif kind == C.TAKE:
            self._take(seat, hand, end)
        elif kind == C.TO_EARTH:
            self._move_split(seat, rank, self.heaven, self.heaven_n, self.earth, self.earth_n)
        elif kind == C.TO_HEAVEN:
            self._move_split(seat, rank, self.earth, self.earth_n, self.heaven, self.heaven_n)
        else:
            self.split_done[seat] = True
            floats = self.obs_floats
            if floats is not None:
                at = FLOATS_SEATS + seat * SEAT_BLOCK
                floats[at + SPLIT_DONE] = 1
                floats[at + TO_MOVE] = 0
            self.log("split", f"{seat_name(seat)} has split their hand")
            if all(self.split_done):
                self._start_play()

    def _move_split(self, seat: int, rank: int, src: list[int], src_n: list[int], dst: list[int],
                    dst_n: list[int]) -> None:
        i = seat * STRIDE + rank
        src[i] -= 1
        dst[i] += 1
        src_n[seat] -= 1
        dst_n[seat] += 1
        self._show_rank(seat, rank)

    def _play(self, seat: int, hand: int, rank: int, count: int) -> None:
        i = seat * STRIDE + rank
        if hand == HEAVEN:
            left = self.heaven[i] = self.heaven[i] - count
            self.heaven_n[seat] -= count
            known = self.known[i]
            self.known[i] = known - count if known > count else 0
        else:
            left = self.earth[i] = self.earth[i] - count
            self.earth_n[seat] -= count
        if not left and self.held is not None:
            self.held[2 * seat + hand] ^= RANK_BIT[rank]
        self._show_rank(seat, rank)
        ranks = self.tier_rank
        if ranks and rank < ranks[0]:
            ranks.insert(0, rank)
            self.tier_count.insert(0, count)
        else:
            ranks.append(rank)
            self.tier_count.append(count)
        floats = self.obs_floats
        if floats is not None:
            floats[rank - 1] = count / COPIES
            self._show_ends(floats)
            _move_flag(floats, SHURIKEN, self.shuriken, seat)
        self.shuriken = seat
        self.must_lead = False
        self.count(PLAYED_TALLIES[count])
        self.log("play", f"{SEAT_NAMES[seat]} plays {count}x{rank} from {HAND_NAMES[hand]}{self._lock_text()}")
        if self.heaven_n[seat] == 0 and self.earth_n[seat] == 0:
            self._end_round(seat)
        else:
            self._hand_acted(hand)

    def _take(self, seat: int, hand: int, end: int) -> None:
        if end == LOW:
            rank, count = self.tier_rank.pop(0), self.tier_count.pop(0)
        else:
            rank, count = self.tier_rank.pop(), self.tier_count.pop()
        i = seat * STRIDE + rank
        if hand == HEAVEN:
            self.heaven[i] += count
            self.heaven_n[seat] += count
            self.known[i] += count
        else:
            self.earth[i] += count
            self.earth_n[seat] += count
        if self.held is not None:
            self.held[2 * seat + hand] |= RANK_BIT[rank]
        self._show_rank(seat, rank)
        floats = self.obs_floats
        if floats is not None:
            floats[rank - 1] = 0
            self._show_ends(floats)
        self.log("take", f"{SEAT_NAMES[seat]} takes {count}x{rank} into {HAND_NAMES[hand]}{self._lock_text()}")
        self.count("tiers_taken")
        self._hand_acted(hand)

    def _hand_acted(self, hand: int) -> None:
        self.used |= 1 << hand
        if self.used == 3:
            self._next_turn()

    def _next_turn(self) -> None:
        self.used = 0
        self.must_lead = False
        before = self.current
        self.current = (before + 1) % self.players
        if self.obs_floats is not None:
            _move_flag(self.obs_floats, TO_MOVE, before, self.current)
        self.turns += 1
        if self.turns >= self.max_turns:
            self.log("limit", f"Round {self.round} reaches the limit of {self.max_turns} turns")
            self._end_round(NOBODY)
            return
        if self.shuriken == self.current:
            self._clean()

    def _clean(self) -> None:
        """Nobody played since the shuriken holder did: the table is cleared and the holder leads."""
        if self.tier_rank:
            floats = self.obs_floats
            for r, c in zip(self.tier_rank, self.tier_count):
                self.cleared[r] += c
                if floats is not None:
                    floats[FLOATS_TAIL + r - 1] = self.cleared[r] / COPIES
            self.tier_rank = []
            self.tier_count = []
            if floats is not None:
                floats[TABLE_FLOATS] = NO_TABLE
            self.log("clean", f"Nobody played since {seat_name(self.current)}: the table is cleaned")
        self.must_lead = self.forced_lead

    def _end_round(self, winner: int) -> None:
        points = []
        for seat in range(self.players):
            base = seat * STRIDE
            heaven = C.hand_penalty(self.heaven, base)
            earth = C.hand_penalty(self.earth, base)
            points.append(C.WIN_BONUS if seat == winner else -max(heaven, earth))
            if seat != winner:
                self._tally_penalty(self.heaven if heaven >= earth else self.earth, base)
            if seat != winner:
                self.log("reveal", f"{seat_name(seat)} ends with Heaven {_cards_text(self.heaven, base) or '-'} "
                                   f"({-heaven}) and Earth {_cards_text(self.earth, base) or '-'} ({-earth})")
        self.count(f"round_{self.round}_points", sum(points))  # the winner's bonus less what the others paid
        self.count(f"round_{self.round}_turns", self.turns)
        self.obs_floats = None  # the scores change, then the round or the phase
        if winner == NOBODY:
            self.count("rounds_to_turn_limit")
            self.score(f"Round {self.round} (turn limit)", points)
            self.starter = (self.starter + 1) % self.players
        else:
            self.log("out", f"{seat_name(winner)} has played all their cards and wins round {self.round}")
            self.score(f"Round {self.round}", points)
            self.starter = winner
        if self.round >= C.ROUNDS:
            self.phase = OVER
            self.current = NOBODY
        else:
            self._start_round()

    def _tally_penalty(self, hand: list[int], base: int) -> None:
        """For `stats`: the points a scored hand cost, by the size of the group of one number that cost them."""
        for r in range(1, RANKS + 1):
            n = hand[base + r]
            if n:
                self.count(f"points_lost_to_groups_of_{n}", C.GROUP_PENALTY[n])

    def _stats(self) -> dict[str, float]:
        return {"rounds": self.round}

    # --- what each seat may know --------------------------------------------------------------------
    def _view(self) -> dict[str, Any]:
        split = self.phase == SPLIT
        revealed = self.phase == OVER
        seats = []
        for seat in range(self.players):
            base = seat * STRIDE
            heaven = _ranks(self.heaven, base)
            earth = _ranks(self.earth, base)
            seats.append({
                "heaven": heaven if revealed else Private(heaven, seat),
                "heaven_count": Private(self.heaven_n[seat], seat) if split else self.heaven_n[seat],
                "earth": Private(earth, seat) if split else earth,
                "cards": self.heaven_n[seat] + self.earth_n[seat],
                "known_heaven": _ranks(self.known, base),
                "split_done": self.split_done[seat],
            })
        lock = self.lock()
        return {
            "round": self.round,
            "rounds": C.ROUNDS,
            "phase": PHASE_NAMES[self.phase],
            "starter": None if self.starter == NOBODY else self.starter,
            "current": None if self.current == NOBODY else self.current,
            "hands_used": [HAND_NAMES[h] for h in (HEAVEN, EARTH) if self.used >> h & 1],
            "must_lead": self.must_lead,
            "table": [[r, c] for r, c in zip(self.tier_rank, self.tier_count)],
            "lock": None if lock == NO_LOCK else C.END_NAMES[lock],
            "shuriken": None if self.shuriken == NOBODY else self.shuriken,
            "cleared": _ranks(self.cleared, 0),
            "undealt": self.undealt_n,
            "turn": self.turns + 1,
            "max_turns": self.max_turns,
            "seats": seats,
        }

    def _observe(self, seat: int, out: np.ndarray) -> None:
        out = memoryview(out)  # Speed: a memoryview item store skips numpy's indexing (core/observe.py)
        floats = self.obs_floats
        if floats is None:
            floats = self.obs_floats = self._floats_now()
        # Speed: the runs to copy are cut from the floats once per observer (cutting a memoryview costs more than
        # copying it), and kept for these floats in this phase (views see the floats' later changes).
        split = self.phase == SPLIT
        cuts = self.obs_cuts
        if cuts is None or cuts[0] is not floats or cuts[1] != split:
            cuts = self.obs_cuts = (floats, split, [None] * self.players)
        runs = cuts[2][seat]
        if runs is None:
            runs = cuts[2][seat] = tuple((dst, floats[src]) for dst, src in FLOAT_COPIES[split][self.players][seat])
        for dst, run in runs:
            out[dst] = run
        at = TURN_AT[self.players]  # past the table, cleared counts, undealt, phase and round, copied above
        used = self.used
        if used:
            out[at] = used & 1
            out[at + 1] = used >> 1 & 1
        if self.must_lead:
            out[at + 2] = 1
        out[at + 3] = self.turns / self.max_turns

    def _floats_now(self) -> memoryview:
        """The observation floats (see FLOATS_SEATS) worked out from the table, the counts and the scores, as a
        float32 view."""
        floats = memoryview(bytearray(4 * (FLOATS_SEATS + self.players * SEAT_BLOCK))).cast("f")
        for r, c in zip(self.tier_rank, self.tier_count):
            floats[r - 1] = c / COPIES
        self._show_ends(floats)
        cleared = self.cleared
        for r in range(1, RANKS + 1):
            floats[FLOATS_TAIL + r - 1] = cleared[r] / COPIES
        at = FLOATS_TAIL + RANKS
        floats[at] = self.undealt_n / SIZE_SCALE
        floats[at + 1 + self.phase] = 1
        floats[at + 4 + min(self.round, C.ROUNDS) - 1] = 1
        heaven, earth, known = self.heaven, self.earth, self.known
        to_move = self.to_move()
        for seat, score in enumerate(self.scores()):
            base = seat * STRIDE
            mine = FLOATS_OWN + seat * OWN_BLOCK - 1
            at = FLOATS_SEATS + seat * SEAT_BLOCK - 1
            for r in range(1, RANKS + 1):
                floats[mine + r] = heaven[base + r] / COPIES
                floats[mine + RANKS + r] = floats[at + r] = earth[base + r] / COPIES
                floats[at + RANKS + r] = known[base + r] / COPIES
            at += 1
            floats[at + HEAVEN_COUNT] = self.heaven_n[seat] / SIZE_SCALE
            floats[at + HELD] = (self.heaven_n[seat] + self.earth_n[seat]) / SIZE_SCALE
            floats[at + SPLIT_DONE] = self.split_done[seat]
            floats[at + TO_MOVE] = seat in to_move
            floats[at + SHURIKEN] = seat == self.shuriken
            floats[at + STARTER] = seat == self.starter
            floats[at + SCORE] = score / SCORE_SCALE
        return floats

    def _show_ends(self, floats: memoryview) -> None:
        """Write the table's end ranks, lock and number of tiers into observation floats (the counts on the table by
        rank are written where a tier comes or goes)."""
        floats[ENDS_FLOATS] = NO_ENDS
        ranks = self.tier_rank
        if ranks:
            floats[LOW_END - 1 + ranks[0]] = 1  # ranks count from 1
            floats[HIGH_END - 1 + ranks[-1]] = 1
            lock = self.lock()
            if lock != NO_LOCK:
                floats[LOCKED + lock] = 1
            floats[TIERS] = len(ranks) / RANKS

    def _show_rank(self, seat: int, rank: int) -> None:
        """Bring the observation floats of a seat's cards of one rank, and of its hand sizes, up to date."""
        floats = self.obs_floats
        if floats is None:  # worked out when next observed
            return
        i = seat * STRIDE + rank
        mine = FLOATS_OWN + seat * OWN_BLOCK + rank - 1
        floats[mine] = self.heaven[i] / COPIES
        at = FLOATS_SEATS + seat * SEAT_BLOCK
        floats[mine + RANKS] = floats[at + rank - 1] = self.earth[i] / COPIES
        floats[at + RANKS + rank - 1] = self.known[i] / COPIES
        heaven_n = self.heaven_n[seat]
        floats[at + HEAVEN_COUNT] = heaven_n / SIZE_SCALE
        floats[at + HELD] = (heaven_n + self.earth_n[seat]) / SIZE_SCALE

    # --- copies and sampled worlds ------------------------------------------------------------------
    def __getstate__(self) -> dict[str, Any]:
        # The kept legal actions, held bits and observation floats (and the runs cut from them) are derived data:
        # copies, pickles and snapshots start without them (`_copy_mutables` hands a clone its own copy of the bits
        # and floats).
        state = super().__getstate__()
        state.update(held=None, obs_floats=None, obs_cuts=None)
        return state

    def _copy_mutables(self, other: State) -> None:
        other.heaven = self.heaven.copy()
        other.earth = self.earth.copy()
        other.heaven_n = self.heaven_n.copy()
        other.earth_n = self.earth_n.copy()
        other.known = self.known.copy()
        other.split_done = self.split_done.copy()
        other.undealt = self.undealt.copy()
        other.tier_rank = self.tier_rank.copy()
        other.tier_count = self.tier_count.copy()
        other.cleared = self.cleared.copy()
        if self.held is not None:
            other.held = self.held.copy()
        if self.obs_floats is not None:
            other.obs_floats = memoryview(bytearray(self.obs_floats)).cast("f")

    def _sample_hidden(self, world: State, seat: int, rng: random.Random) -> None:
        world.held = world.obs_floats = None  # the hidden cards move
        if self.phase == SPLIT:
            _resample_split(world, seat, rng)
        elif self.phase == PLAY:
            _resample_heavens(world, seat, rng)


def _move_flag(floats: memoryview, flag: int, before: int, after: int) -> None:
    """Move a flag of the seat blocks in observation floats (to move, shuriken) from seat `before` (or NOBODY) to
    seat `after`."""
    if before != NOBODY:
        floats[FLOATS_SEATS + before * SEAT_BLOCK + flag] = 0
    floats[FLOATS_SEATS + after * SEAT_BLOCK + flag] = 1


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


def _ranks(counts: list[int], base: int) -> list[int]:
    return C.ranks_of(counts, base)


def _cards_text(counts: list[int], base: int) -> str:
    return " ".join(map(str, C.ranks_of(counts, base)))


class GakkoGame(Game):
    id = "gakko"
    title = "Shinobi no Gakko"
    summary = ("Two-handed climbing for 3-5: split your cards into hidden Heaven and public Earth, play sets "
               "beyond either end of the table, and empty both hands first.")
    player_counts = (3, 4, 5)
    default_players = 4
    # Random play is far from real play here: the search plays its rollouts with the heuristic for four
    # turns' worth of moves, then reads the heuristic's estimate; 100 of those fit in a second.
    search_defaults: ClassVar[dict[str, Any]] = {"iterations": 100, "rollout": "heuristic", "depth": 16, "reward": "win", "prior": 0.2}
    options = (
        Option("max_turns", DEFAULT_MAX_TURNS,
               "safeguard: a round still running after this many turns ends, everyone scoring their hands "
               "and nobody getting the +5", minimum=10, maximum=100_000),
        Option("lead_after_cleaning", True,
               "after the table is cleaned, its cleaner must play a set (with at least one hand) that turn"),
        Option("literal_taking", False,
               "the two playing rules the translation repeats under Taking apply to a take too: the end tier "
               "taken holds at least as many cards as the tier next to it, and their numbers are not consecutive"),
    )

    def observation_shape(self, players: int) -> tuple[int, ...]:
        return OBSERVATION_SHAPES[players]

    state_class = GakkoState
    action_labels = tuple(a.label for a in ACTIONS)
    renderer = staticmethod(render)
