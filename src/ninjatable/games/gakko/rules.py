"""Shinobi no Gakko: the rules as a state machine on the kernel contract.

A round: deal, the simultaneous split into Heaven (hidden) and Earth (public), the setup reveal from the
undealt cards, then turns in which the player acts once with each hand (play a set, take an end tier, or
pass) until someone has no cards left. Three rounds. See docs/rules/gakko.md for every rule and
interpretation.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import chain, compress
from operator import not_
from typing import Any, ClassVar

from ...core import BadArgument, Decision, Game, Option, State, seat_name
from ...core.deal import shuffle
from . import actions as A
from . import cards as C
from .actions import ACTION_LABELS, ACTIONS, PASS_IDS, PLAY_RUNS, TAKE_IDS, TO_EARTH_IDS, TO_HEAVEN_IDS
from .cards import (
    BITS_BELOW,
    BITS_FROM,
    COPIES,
    EARTH,
    HAND_NAMES,
    HEAVEN,
    HIGH,
    LOW,
    NO_LOCK,
    NOBODY,
    OVER,
    PLAY,
    RANK_BIT,
    RANKS,
    RANKS_OF_BITS,
    SPLIT,
    STRIDE,
)
from .observe import (
    FLOATS_SEATS,
    FLOATS_TAIL,
    NO_TABLE,
    OBSERVATION_SHAPES,
    SEAT_BLOCK,
    SHURIKEN,
    SPLIT_DONE,
    TABLE_FLOATS,
    TO_MOVE,
    Observer,
    move_flag,
)
from .render import render
from .worlds import WorldSampler

DEFAULT_MAX_TURNS = 1000

# Words of the log, worked out once.
SEAT_NAMES = tuple(seat_name(seat) for seat in range(max(C.DEAL_SIZE)))
LOCK_TEXTS = {NO_LOCK: "", **{end: f"; the {C.END_NAMES[end]} end is locked" for end in (LOW, HIGH)}}
PASS_TEXTS = tuple(tuple(f"{name} passes with {hand}" for hand in HAND_NAMES) for name in SEAT_NAMES)
PLAYED_TALLIES = tuple(f"tiers_of_{count}_played" for count in range(COPIES + 1))  # names for `stats`


class GakkoState(Observer, WorldSampler, State):
    """One game of Shinobi no Gakko in progress.

    Hands are flat count lists: `heaven[seat * STRIDE + rank]` is how many cards of `rank` the seat holds in
    Heaven (during the split: cards not yet put to Earth). The table is two parallel lists of tiers in
    ascending rank order; the lock is not stored but derived from the two end tiers, so it is re-evaluated
    after every action by construction.

    Derived caches, all for speed: the ranks each hand holds as bits (`held[2 * seat + hand]`, see cards.RANK_BIT),
    and the observation floats (`obs_floats`, see observe.py), both kept in step with the cards (and the floats with
    the table and the seat flags) by the moves or dropped (None) to be worked out again; the runs of the floats each
    observer copies (`obs_cuts`), kept for one floats object. A position set by hand (`set_position`) starts without
    them.
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
        moves.append(A.DONE)
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

    def _apply(self, seat: int, action: int) -> None:
        kind, hand, rank, count, end, _ = ACTIONS[action]
        if kind == A.PASS:
            self.log("pass", PASS_TEXTS[seat][hand])
            self._hand_acted(hand)
        elif kind == A.PLAY:
            self._play(seat, hand, rank, count)
        elif kind == A.TAKE:
            self._take(seat, hand, end)
        elif kind == A.TO_EARTH:
            self._move_split(seat, rank, self.heaven, self.heaven_n, self.earth, self.earth_n)
        elif kind == A.TO_HEAVEN:
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
            move_flag(floats, SHURIKEN, self.shuriken, seat)
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
            move_flag(self.obs_floats, TO_MOVE, before, self.current)
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

    # --- decisions in words ---------------------------------------------------------------------------
    def _decision(self, seat: int) -> Decision:
        if self.phase == SPLIT:
            # Moving cards between the two hands draws no chance and shows nothing until `done`.
            return Decision("Split your hand: keep cards in Heaven (hidden) or move them to Earth (laid face up "
                            "when everyone has split), then done", multi=True, confirm=A.DONE)
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
                    action = A.play_id(hand, rank, count)
                    if action not in legal:
                        refused[action] = self._play_refusal(hand, rank, count)
            for end in (LOW, HIGH):
                action = A.take_id(hand, end)
                if action not in legal:
                    refused[action] = self._take_refusal(hand, end)
            if A.pass_id(hand) not in legal:
                refused[A.pass_id(hand)] = self._hand_refusal(hand) or (
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

    # --- copies ------------------------------------------------------------------------------------
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

    # --- positions set by hand (tests, examples, puzzles) ---------------------------------------------
    def _set_position(self, *, hands: Sequence[Sequence[int] | tuple[Sequence[int], Sequence[int]]],
                      undealt: Sequence[int] = (), table: Sequence[tuple[int, int]] | None = None,
                      current: int | None = None, known: Sequence[Sequence[int]] | None = None) -> None:
        """The cards of the current round set by hand (`set_position`); cards are given by rank.

        Without `table`: the split as dealt, each seat's whole hand (a list of ranks) in Heaven and nobody split
        yet. With `table` (its tiers as (rank, count), lowest first) and `current` (the seat starting its turn, and
        the round's starter): the play phase, each seat's hand a (Heaven, Earth) pair of rank lists, and `known`
        the ranks each seat was seen taking into its Heaven (none if not given). `undealt`: the cards left undealt.
        The round's cleaned-away cards are none, and nobody holds the shuriken.
        """
        n = self.players
        if len(hands) != n:
            raise BadArgument(f"give one hand per player: {n}, not {len(hands)}")
        playing = table is not None
        if playing:
            if not (current.__class__ is int and 0 <= current < n):
                raise BadArgument(f"current {current!r} is not a seat; seats are 0 to {n - 1}")
            if not all(isinstance(hand, (list, tuple)) and len(hand) == 2 for hand in hands):
                raise BadArgument("in the play phase each hand is a (Heaven, Earth) pair of card lists")
            heavens = [_scripted_counts(heaven, f"{seat_name(s)}'s Heaven") for s, (heaven, _) in enumerate(hands)]
            earths = [_scripted_counts(earth, f"{seat_name(s)}'s Earth") for s, (_, earth) in enumerate(hands)]
            tiers = _scripted_tiers(table)
        else:
            if current is not None or known is not None:
                raise BadArgument("current and known belong to the play phase: give the table too")
            heavens = [_scripted_counts(hand, f"{seat_name(s)}'s hand") for s, hand in enumerate(hands)]
            earths = [[0] * STRIDE for _ in range(n)]
            tiers = []
        knowns = [[0] * STRIDE for _ in range(n)]
        if known is not None:
            if len(known) != n:
                raise BadArgument(f"give the known cards of each player: {n} lists, not {len(known)}")
            knowns = [_scripted_counts(cards, f"{seat_name(s)}'s known cards") for s, cards in enumerate(known)]
            for s in range(n):
                if any(k > h for k, h in zip(knowns[s], heavens[s])):
                    raise BadArgument(f"{seat_name(s)}'s known cards must lie in their Heaven")
        self.heaven = list(chain.from_iterable(heavens))
        self.earth = list(chain.from_iterable(earths))
        self.heaven_n = [sum(counts) for counts in heavens]
        self.earth_n = [sum(counts) for counts in earths]
        self.known = list(chain.from_iterable(knowns))
        self.undealt = _scripted_counts(undealt, "the undealt cards")
        self.undealt_n = sum(self.undealt)
        self.tier_rank = [r for r, _ in tiers]
        self.tier_count = [c for _, c in tiers]
        self.cleared = [0] * STRIDE
        self.used = self.turns = 0
        self.shuriken = NOBODY
        self.must_lead = False
        if playing:
            self.phase = PLAY
            self.split_done = [True] * n
            self.starter = self.current = current
        else:
            self.phase = SPLIT
            self.split_done = [False] * n
            self.current = NOBODY

    def _stats(self) -> dict[str, float]:
        return {"rounds": self.round}


def _scripted_counts(ranks: Sequence[int], what: str) -> list[int]:
    """The count list (index = rank) of scripted cards, refusing what is not a card or more copies than the deck's."""
    counts = [0] * STRIDE
    for r in ranks:
        if not (r.__class__ is int and 1 <= r <= RANKS):
            raise BadArgument(f"{what}: {r!r} is not a card (cards are 1 to {RANKS})")
        counts[r] += 1
    if max(counts) > COPIES:
        raise BadArgument(f"{what}: more than {COPIES} cards of one number")
    return counts


def _scripted_tiers(table: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """The scripted tiers of the table, (rank, count) in ascending order of rank."""
    tiers = []
    for tier in table:
        if not (isinstance(tier, (list, tuple)) and len(tier) == 2):
            raise BadArgument(f"table: {tier!r} is not a tier (rank, count)")
        rank, count = tier
        if not (rank.__class__ is int and 1 <= rank <= RANKS and count.__class__ is int and 1 <= count <= COPIES):
            raise BadArgument(f"table: {tier!r} is not a tier (a rank 1 to {RANKS}, a count 1 to {COPIES})")
        if tiers and rank <= tiers[-1][0]:
            raise BadArgument("table: the tiers go in ascending order of rank, one per rank")
        tiers.append((rank, count))
    return tiers


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
    search_defaults: ClassVar[dict[str, Any]] = {
        "iterations": 100, "rollout": "heuristic", "depth": 16, "reward": "win", "prior": 0.2}
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
    action_labels = ACTION_LABELS
    renderer = staticmethod(render)

