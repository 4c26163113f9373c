"""Slaughter the Dragon, Ha: the rules as a state machine on the kernel contract.

A round: deal, reveal the trump, Summoning Jutsu (the previous round's last-trick winner), then Bodily
Division Jutsu by the holder of the highest trump (or, in the Advanced Variant with a purple trump,
Soul-Sucking Jutsu), then the tricks. See docs/rules/dragon.md for every rule and interpretation.
"""

from __future__ import annotations

import random
from array import array
from bisect import bisect_left, insort
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

from ...core import Decision, Event, Game, Option, Private, State, deal_by_places, seat_name, winners_text
from ...core.deal import DealPlan, deal_planned, plan_deal, shuffle
from . import cards as C
from .cards import COLOUR_OF, LABELS, NUMBERS, PURPLE, SETUPS
from .render import render

# Actions: 0-47 a card (play it, return it to the scale, set it aside, give it), 48-51 pick an Inverted
# Scale card blind (by position), 52 finish the Bodily Division split.
PICK_SCALE = C.DECK_SIZE
DONE = PICK_SCALE + 4
NUM_ACTIONS = DONE + 1
ACTION_LABELS = LABELS + tuple(f"scale{i + 1}" for i in range(DONE - PICK_SCALE)) + ("done",)

# Phases of a round.
SUMMON_PICK, SUMMON_RETURN, SPLIT, SOUL_GIVE, SOUL_RETURN, PLAY, OVER = range(7)
PHASE_NAMES = ("summoning: pick", "summoning: return", "bodily division", "soul-sucking: give",
               "soul-sucking: return", "tricks", "over")

# Places in a seat's "known elsewhere" list (cards it knows the place of): a seat number is that seat's hand.
SCALE = -1  # the Inverted Scale
SOME_HAND = -2  # a card given to the Soul-Sucking practitioner, who may have passed it on: in some hand
NOBODY = -1  # no card given or received yet, no seat has played the card

MAX_SEATS = 5
OBS_SIZE = (
    C.DECK_SIZE * 4  # own hand, own 2nd-half pile, cards played this round, cards known to lie in the scale
    + MAX_SEATS * C.DECK_SIZE  # the current trick, by relative seat
    + MAX_SEATS * NUMBERS  # purple cards taken this round, by relative seat
    + MAX_SEATS * 4  # voids shown, by relative seat
    + MAX_SEATS * 8  # per relative seat: hand size, pile size, tokens, score, leader, to move, jutsu, summoner
    + 4 + 4 + 7 + 3  # trump colour, lead colour, phase, purple broken / round / tricks played
)
# Where each part of the observation starts.
OBS_PLAYED = 2 * C.DECK_SIZE
OBS_RETURNED = 3 * C.DECK_SIZE
OBS_TRICK = 4 * C.DECK_SIZE
OBS_TAKEN = OBS_TRICK + MAX_SEATS * C.DECK_SIZE
OBS_VOID = OBS_TAKEN + MAX_SEATS * NUMBERS
OBS_SEATS = OBS_VOID + MAX_SEATS * 4
OBS_TAIL = OBS_SEATS + MAX_SEATS * 8
# RELATIVE[n][seat][s]: where seat s sits counted from `seat` (the observer is 0, the next seat 1, ...).
RELATIVE = {n: tuple(tuple((s - seat) % n for s in range(n)) for seat in range(n)) for n in SETUPS}
# The event of every (seat, card) play, built once: logging a play is then a look-up (events are immutable).
PLAY_EVENTS = tuple(tuple(Event("play", f"{seat_name(s)} plays {label}") for label in LABELS) for s in range(MAX_SEATS))
# WIN_TEXTS[seat][last trick]: what the log says when the seat wins a trick (before any purples it takes).
WIN_TEXTS = tuple((f"{seat_name(s)} wins the trick with a Dragon Body token",
                   f"{seat_name(s)} wins the trick with the Dragon Head") for s in range(MAX_SEATS))
ELEVENTHS = tuple(k / 11.0 for k in range(C.DECK_SIZE + 1))  # a count of cards or tokens, scaled


# TO_MOVE_AT[n][seat][s]: where `seat`'s observation shows that seat s is to move.
TO_MOVE_AT = {n: tuple(tuple(OBS_SEATS + 8 * r + 5 for r in rel) for rel in RELATIVE[n]) for n in SETUPS}
VOID_FLOATS = tuple(array("f", [float(mask >> i & 1) for i in range(4)]) for mask in range(16))
OWN = OBS_TRICK  # a seat's own part of the observation: hand, 2nd-half pile, (cards played), cards known in the scale


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


class Layout(NamedTuple):
    """Where things lie in `_Table.floats` for a player count. The seat parts (trick, purples taken, voids, seat
    figures) hold each seat's block twice, seats 0 to n-1 then again, `*_apart` further on, so that the n blocks
    from a seat's own on are that seat's view of the part, by relative seat."""

    played: int
    tail: int
    trick: int
    size: int
    trick_at: tuple[int, ...]  # by seat: where its card in the trick is marked (plus the card)
    taken_at: tuple[int, ...]  # by seat: where its purples taken are marked (plus the card)
    void_at: tuple[int, ...]  # by seat: its 4 void flags
    seat_at: tuple[int, ...]  # by seat: its 8 figures (hand size, pile size, tokens, score, leader, [to move], ...)
    trick_apart: int
    taken_apart: int
    void_apart: int
    seat_apart: int


def _layout(n: int) -> Layout:
    """The table's layout for n players: each seat's own part, then the cards played, the tail, the seat parts."""
    played = n * OWN
    tail = played + C.DECK_SIZE
    trick = tail + OBS_SIZE - OBS_TAIL
    taken = trick + 2 * n * C.DECK_SIZE
    void = taken + 2 * n * NUMBERS
    seats = void + 2 * n * 4
    return Layout(played, tail, trick, seats + 2 * n * 8,
                  tuple(trick + s * C.DECK_SIZE for s in range(n)), tuple(taken + s * NUMBERS for s in range(n)),
                  tuple(void + s * 4 for s in range(n)), tuple(seats + s * 8 for s in range(n)),
                  n * C.DECK_SIZE, n * NUMBERS, n * 4, n * 8)


LAYOUTS = {n: _layout(n) for n in SETUPS}
# Where each seat part ends in the observation, for n players.
OBS_ENDS = {n: (OBS_TRICK + n * C.DECK_SIZE, OBS_TAKEN + n * NUMBERS, OBS_VOID + n * 4, OBS_SEATS + n * 8)
            for n in SETUPS}
NO_FLOATS = {n: array("f", bytes(4 * layout.size)) for n, layout in LAYOUTS.items()}  # a zeroed table
NO_TRICK = {n: array("f", bytes(4 * 2 * n * C.DECK_SIZE)) for n in SETUPS}  # a zeroed trick part
NO_HAND = array("f", bytes(4 * 2 * C.DECK_SIZE))  # a zeroed hand and 2nd-half pile
NO_LEAD = array("f", bytes(4 * 4))  # no lead colour


class _Table:
    """The observation's parts kept once for all seats and brought up to date from the moves made since (see
    `_observe`): each seat's own part, the parts alike for all, and the seat parts twice over (see `Layout`);
    with what they were written from."""

    __slots__ = ("floats", "history", "layout", "lead", "leader", "logged", "moves", "phase", "piled", "piles",
                 "played", "round", "sources", "taken", "tricks", "view", "void")

    def __init__(self, n: int) -> None:
        layout = self.layout = LAYOUTS[n]
        self.floats = array("f", NO_FLOATS[n])
        view = self.view = memoryview(self.floats)  # item stores through a memoryview are the cheapest
        played = view[layout.played:layout.played + C.DECK_SIZE]
        tail = view[layout.tail:layout.tail + OBS_SIZE - OBS_TAIL]
        # Per seat, the runs its observation is copied from, in the order `_observe` copies them.
        self.sources = [
            (view[k * OWN:(k + 1) * OWN], played,
             view[layout.trick_at[k]:layout.trick_at[k] + layout.trick_apart],
             view[layout.taken_at[k]:layout.taken_at[k] + layout.taken_apart],
             view[layout.void_at[k]:layout.void_at[k] + layout.void_apart],
             view[layout.seat_at[k]:layout.seat_at[k] + layout.seat_apart], tail)
            for k in range(n)
        ]


def _write_played(view: memoryview, start: int, cards_: int) -> None:
    """Mark the cards of the bitmask `cards_` as played, in the run of 48 floats at `start`."""
    while cards_:
        low = cards_ & -cards_
        view[start + low.bit_length() - 1] = 1.0
        cards_ ^= low


def _write_twice(view: memoryview, at: int, apart: int, value: float) -> None:
    """Write `value` at `at` and `apart` further on (both copies of a seat part's value)."""
    view[at] = view[at + apart] = value


class DragonState(State):
    def __init__(self, game: Game, players: int, seed: int, options: dict[str, Any]) -> None:
        super().__init__(game, players, seed, options)
        self.setup = SETUPS[players]
        self.in_use = list(range(self.setup.colours * NUMBERS))
        self.indicators = [c for c in range(self.setup.colours) for _ in range(C.INDICATORS_PER_COLOUR)]
        self.round = 0
        self.phase = PLAY
        self.leader = self.chance().randrange(players)  # "whoever most recently used ninjutsu": by lot
        self.last_winner: int | None = None
        self.revealed_scale: list[int] = []  # the last Inverted Scale revealed (public until the next reveal)
        self._start_round()

    # --- round set-up -------------------------------------------------------------------------------
    def _start_round(self) -> None:
        n = self.players
        self.round += 1
        deck = self.in_use.copy()
        rng = self.chance()
        shuffle(rng, deck)
        size = self.setup.hand
        self.hands = [sorted(deck[s * size:(s + 1) * size]) for s in range(n)]
        self.scale = deck[n * size:]
        self.piles: list[list[int]] = [[] for _ in range(n)]
        self.trump = self.indicators.pop(self.chance().randrange(len(self.indicators)))
        self.log("trump", f"Round {self.round}: the Trump Indicator shows {C.COLOUR_NAMES[self.trump]}")
        self.count(f"trump_{C.COLOUR_NAMES[self.trump]}")
        self.trick: list[int] = []
        self.tricks_played = 0
        self.tokens = [0] * n
        self.head: int | None = None
        self.taken: list[list[int]] = [[] for _ in range(n)]
        self.played = 0  # bitmask of cards played to tricks this round
        self.purple_broken = False
        self.void = [0] * n  # bitmask of colours each seat's current hand has shown it lacks
        self.played_by = [NOBODY] * C.DECK_SIZE  # who played each card this round (public)
        self.returned: list[int] = []  # Summoning: the cards put back in the scale (the summoner's secret)
        # Soul-Sucking: the card each seat gave the practitioner, and the card each received back (secrets
        # of the giver, the receiver and the practitioner).
        self.given = [NOBODY] * n
        self.received = [NOBODY] * n
        self.summoner = self.last_winner
        self.jutsu: int | None = None  # the Bodily Division or Soul-Sucking practitioner
        self.countdown = 0  # the trump number the practitioner answered to
        self.soul = False
        self.gifts: dict[int, int] = {}  # soul-sucking: seat -> card chosen (pending until all have chosen)
        self.returns_left: list[int] = []  # soul-sucking: seats still to receive a card, in order
        self.turn = self.leader
        if self.summoner is not None:
            self.phase = SUMMON_PICK
            self.picks_left = 2
            self.log("jutsu", f"{seat_name(self.summoner)} performs the Summoning Jutsu")
        else:
            self._find_practitioner()

    def _find_practitioner(self) -> None:
        """Step 5: the countdown from 12 finds the holder of the highest trump (never empty: >= 8 in hands)."""
        for num in range(NUMBERS, 0, -1):
            wanted = C.card(self.trump, num)
            for seat in range(self.players):
                if wanted in self.hands[seat]:
                    self.jutsu, self.countdown = seat, num
                    self._begin_jutsu()
                    return
        raise AssertionError("no trump card in any hand")  # impossible: the scale holds at most 4 cards

    def _begin_jutsu(self) -> None:
        who = seat_name(self.jutsu)
        trump = C.COLOUR_NAMES[self.trump]
        if self.options["advanced"] and self.trump == PURPLE:
            self.soul = True
            self.phase = SOUL_GIVE
            self.log("jutsu", f"{who} answers at purple {self.countdown} and performs the Soul-Sucking Jutsu")
        else:
            self.phase = SPLIT
            self.log("jutsu", f"{who} answers at {trump} {self.countdown} and performs the Bodily Division Jutsu")

    # --- the contract ------------------------------------------------------------------------------
    def to_move(self) -> tuple[int, ...]:
        phase = self.phase
        if phase == PLAY:
            return (self.turn,)
        if phase == OVER:
            return ()
        if phase == SOUL_GIVE:
            return tuple(s for s in range(self.players) if s != self.jutsu and s not in self.gifts)
        if phase == SUMMON_PICK or phase == SUMMON_RETURN:
            return (self.summoner,)
        return (self.jutsu,)

    def is_over(self) -> bool:
        return self.phase == OVER

    def _next_choice(self) -> tuple[int, list[int]] | None:
        if self.phase == PLAY:  # in the tricks (nearly every move), answered without asking `to_move`
            return self.turn, self._playable()
        return super()._next_choice()

    def _legal_actions(self, seat: int) -> list[int]:
        phase = self.phase
        if phase == PLAY:
            return self._playable() if seat == self.turn else []
        if seat not in self.to_move():
            return []
        hand = self.hands[seat]
        if phase == SUMMON_PICK:
            return list(range(PICK_SCALE, PICK_SCALE + len(self.scale)))
        if phase == SPLIT:
            # Cards go to the 2nd-half pile one by one; each half keeps at least one card.
            moves = hand.copy() if len(hand) > 1 else []
            if self.piles[seat]:
                moves.append(DONE)
            return moves
        return hand.copy()  # return to the scale, give to or from the Soul-Sucking practitioner

    def _playable(self) -> list[int]:
        hand = self.hands[self.turn]  # sorted, so the cards of one colour lie together
        trick = self.trick
        if trick:
            lead = COLOUR_OF[trick[0]] * NUMBERS
            first = bisect_left(hand, lead)
            end = bisect_left(hand, lead + NUMBERS, first)
            return hand[first:end] if first < end else hand.copy()  # follow the lead colour if you can
        if self.purple_broken:
            return hand.copy()
        # Purple may not be led until a purple card has been taken, unless the hand holds nothing else.
        others = hand[bisect_left(hand, NUMBERS):]
        return others if others else hand.copy()

    def _decision(self, seat: int) -> Decision:
        phase = self.phase
        if phase == PLAY:
            return Decision("Lead a card" if not self.trick else "Play a card to the trick")
        if phase == SUMMON_PICK:
            return Decision(f"Summoning Jutsu: take an Inverted Scale card, unseen ({3 - self.picks_left} of 2)")
        if phase == SUMMON_RETURN:
            return Decision(f"Summoning Jutsu: return a card to the Inverted Scale ({3 - self.picks_left} of 2)")
        if phase == SPLIT:
            return Decision("Bodily Division: set aside cards for your 2nd half (keep at least one), then done",
                            multi=True, confirm=DONE)
        if phase == SOUL_GIVE:
            return Decision(f"Soul-Sucking Jutsu: give {seat_name(self.jutsu)} a card, face down")
        return Decision(f"Soul-Sucking Jutsu: give {seat_name(self.returns_left[0])} a card, face down")

    def _refusals(self, seat: int) -> dict[int, str]:
        if self.phase != PLAY:
            return {}
        hand = self.hands[seat]
        if self.trick:
            lead = COLOUR_OF[self.trick[0]]
            reason = f"you must follow {C.COLOUR_NAMES[lead]}"
            return {c: reason for c in hand if COLOUR_OF[c] != lead} if any(COLOUR_OF[c] == lead for c in hand) else {}
        if self.purple_broken or all(c < NUMBERS for c in hand):
            return {}
        return {c: "purple may not be led until a purple card has been taken" for c in hand if c < NUMBERS}

    def _apply(self, seat: int, action: int) -> None:
        phase = self.phase
        if phase == PLAY:
            self._play(seat, action)
        elif phase == SUMMON_PICK:
            self._summon_pick(seat, action - PICK_SCALE)
        elif phase == SUMMON_RETURN:
            self._summon_return(seat, action)
        elif phase == SPLIT:
            self._split(seat, action)
        elif phase == SOUL_GIVE:
            self._soul_give(seat, action)
        else:
            self._soul_return(seat, action)

    # --- Summoning Jutsu -----------------------------------------------------------------------------
    def _summon_pick(self, seat: int, position: int) -> None:
        card = self.scale.pop(position)
        insort(self.hands[seat], card)
        self.log("summon", f"{seat_name(seat)} takes an Inverted Scale card")
        self.log("summon", f"{seat_name(seat)} takes {LABELS[card]} from the Inverted Scale", to=seat)
        self.picks_left -= 1
        if self.picks_left == 0:
            self.phase = SUMMON_RETURN
            self.picks_left = 2

    def _summon_return(self, seat: int, card: int) -> None:
        self.hands[seat].remove(card)
        self.scale.append(card)
        self.returned.append(card)
        self.log("summon", f"{seat_name(seat)} returns a card to the Inverted Scale")
        self.log("summon", f"{seat_name(seat)} returns {LABELS[card]} to the Inverted Scale", to=seat)
        self.picks_left -= 1
        if self.picks_left == 0:
            self._find_practitioner()

    # --- Bodily Division Jutsu ----------------------------------------------------------------------
    def _split(self, seat: int, action: int) -> None:
        if action == DONE:
            self.phase = PLAY
            self.log("jutsu", f"{seat_name(seat)} sets aside a 2nd-half pile of {len(self.piles[seat])} cards")
            self.count("bodily_division_pile_cards", len(self.piles[seat]))
            return
        self.hands[seat].remove(action)
        insort(self.piles[seat], action)
        self.log("jutsu", f"{seat_name(seat)} sets {LABELS[action]} aside for the 2nd half", to=seat)

    # --- Soul-Sucking Jutsu (Advanced Variant) -------------------------------------------------------
    def _soul_give(self, seat: int, card: int) -> None:
        self.gifts[seat] = card
        self.log("soul", f"{seat_name(seat)} has chosen a card for {seat_name(self.jutsu)}")
        if len(self.gifts) == self.players - 1:
            taker = self.jutsu
            for giver, given in sorted(self.gifts.items()):
                self.hands[giver].remove(given)
                insort(self.hands[taker], given)
                self.given[giver] = given
                self.log("soul", f"{seat_name(giver)} gives {LABELS[given]} to {seat_name(taker)}", to=giver)
                self.log("soul", f"{seat_name(giver)} gives {LABELS[given]} to {seat_name(taker)}", to=taker)
            self.log("soul", f"Every player gives {seat_name(taker)} a card face down")
            self.gifts = {}
            self.returns_left = [(taker + k) % self.players for k in range(1, self.players)]
            self.phase = SOUL_RETURN

    def _soul_return(self, seat: int, card: int) -> None:
        receiver = self.returns_left.pop(0)
        self.hands[seat].remove(card)
        insort(self.hands[receiver], card)
        self.received[receiver] = card
        self.log("soul", f"{seat_name(seat)} gives {seat_name(receiver)} a card face down")
        self.log("soul", f"{seat_name(seat)} gives {LABELS[card]} to {seat_name(receiver)}", to=seat)
        self.log("soul", f"{seat_name(seat)} gives {LABELS[card]} to {seat_name(receiver)}", to=receiver)
        if not self.returns_left:
            self.phase = PLAY

    # --- tricks --------------------------------------------------------------------------------------
    def _play(self, seat: int, card: int) -> None:
        hand = self.hands[seat]
        trick = self.trick
        colour = COLOUR_OF[card]
        if trick:
            lead = COLOUR_OF[trick[0]]
            if colour != lead:
                self.void[seat] |= 1 << lead  # could not follow: the current hand lacks the lead colour
        elif colour == PURPLE and not self.purple_broken:
            self.void[seat] |= 0b1110  # led purple early: the hand held nothing but purple
        hand.remove(card)
        trick.append(card)
        self.played |= 1 << card
        self.played_by[card] = seat
        self.events.append(PLAY_EVENTS[seat][card])  # self.log("play", ...) with the event built once
        if len(trick) < self.players:
            self.turn = (seat + 1) % self.players
        else:
            self._finish_trick()

    def _trick_winner(self) -> int:
        """Highest trump if any trump was played, else the highest card of the led colour."""
        trick = self.trick
        trump = self.trump
        best = 0
        suit = COLOUR_OF[trick[0]]
        for i in range(1, len(trick)):
            c = trick[i]
            col = COLOUR_OF[c]
            if col == suit:
                if c > trick[best]:
                    best = i
            elif col == trump:
                best, suit = i, trump
        return (self.leader + best) % self.players

    def _finish_trick(self) -> None:
        winner = self._trick_winner()
        purples = [c for c in self.trick if c < NUMBERS]
        if purples:
            self.taken[winner].extend(purples)
            self.purple_broken = True
        self.tricks_played += 1
        self.tokens[winner] += 1
        last = self.tricks_played == self.setup.hand
        if not self.quiet:
            text = WIN_TEXTS[winner][last]
            self.log("trick", f"{text} and {', '.join(LABELS[c] for c in purples)}" if purples else text)
        self.trick = []
        self.leader = self.turn = winner
        if last:
            self.head = winner
            self._finish_round(winner)
            return
        if not any(self.piles):  # most tricks: no 2nd-half pile is waiting
            return
        for s in range(self.players):
            if not self.hands[s] and self.piles[s]:
                # The 1st-half hand is used up: the 2nd-half pile becomes the hand before the next trick.
                self.hands[s], self.piles[s] = self.piles[s], []
                self.void[s] = 0
                self.log("jutsu", f"{seat_name(s)} takes up the 2nd-half pile")

    # --- end of round --------------------------------------------------------------------------------
    def _finish_round(self, last_winner: int) -> None:
        scale_purples = [c for c in self.scale if c < NUMBERS]
        self.taken[last_winner].extend(scale_purples)
        self.revealed_scale = sorted(self.scale)
        if not self.quiet:
            shown = ", ".join(LABELS[c] for c in self.revealed_scale)
            self.log("scale", f"The Inverted Scale is revealed: {shown}; {seat_name(last_winner)} takes its purples")
        self.score(*self._round_points())
        self._tally_round()
        self.last_winner = last_winner
        totals = self.scores()
        if min(totals) <= C.END_SCORE or self.round == self.players:
            self.phase = OVER
            if not self.quiet:
                self.log("end", f"The game is over: {winners_text(self.winners())}")
        else:
            self.leader = last_winner
            if self.deals_next_round():
                self._start_round()

    def _round_points(self) -> tuple[str, list[int]]:
        label = f"Round {self.round}"
        for s in range(self.players):
            if len(self.taken[s]) == NUMBERS:
                points = [C.MOON_OTHERS] * self.players
                points[s] = C.MOON_POINTS
                return f"{label} (Shoot the Moon: {seat_name(s)})", points
        return label, [
            C.TOKEN_POINTS * self.tokens[s] - sum(map(C.number, self.taken[s])) for s in range(self.players)
        ]

    def _tally_round(self) -> None:
        """The round's figures for `stats`: Shoot the Moon, and what the Bodily Division earned its practitioner."""
        most = max(len(taken) for taken in self.taken)
        self.count("shoot_the_moon", 1 if most == NUMBERS else 0)
        self.count("moon_missed_by_one", 1 if most == NUMBERS - 1 else 0)  # one purple short of the Moon
        if self.jutsu is not None and not self.soul:
            points = self.sheet[-1].points
            others = [p for s, p in enumerate(points) if s != self.jutsu]
            self.count("bodily_division_rounds")
            # The practitioner's round points against the other seats' mean: what the jutsu was worth.
            self.count("bodily_division_edge", points[self.jutsu] - sum(others) / len(others))

    def _stats(self) -> dict[str, float]:
        figures = {"rounds": self.round}
        if self.tallies.get("bodily_division_rounds"):
            figures["bodily_division_edge_per_round"] = (
                self.tallies["bodily_division_edge"] / self.tallies["bodily_division_rounds"])
        return figures

    # --- views ---------------------------------------------------------------------------------------
    def _view(self) -> dict[str, Any]:
        n = self.players
        seats = []
        for s in range(n):
            known = [[LABELS[c], _place_name(where)] for c, where in self._known(s)]
            seats.append({
                "hand_size": len(self.hands[s]),
                "pile_size": len(self.piles[s]),
                "hand": Private(_labels(self.hands[s]), s),
                "pile": Private(_labels(self.piles[s]), s),
                "known_elsewhere": Private(known, s, []),
                "dragon_tokens": self.tokens[s],
                "dragon_head": self.head == s,
                "purples": _labels(sorted(self.taken[s])),
                "chosen": s in self.gifts,
                "gift": Private(LABELS[self.gifts[s]] if s in self.gifts else None, s),
            })
        trick_seats = [(self.leader + i) % n for i in range(len(self.trick))]
        return {
            "round": self.round,
            "rounds": n,
            "phase": PHASE_NAMES[self.phase],
            "trump": C.COLOUR_NAMES[self.trump],
            "indicators_left": len(self.indicators),
            "leader": self.leader,
            "trick": [[s, LABELS[c]] for s, c in zip(trick_seats, self.trick)],
            "tricks_played": self.tricks_played,
            "tricks_in_round": self.setup.hand,
            "purple_broken": self.purple_broken,
            "summoner": self.summoner,
            "practitioner": self.jutsu,
            "jutsu": None if self.jutsu is None else ("soul-sucking" if self.soul else "bodily division"),
            "countdown": self.countdown,
            "scale_size": len(self.scale),
            "revealed_scale": _labels(self.revealed_scale),
            "receivers_left": list(self.returns_left),
            "seats": seats,
        }

    def _observe(self, seat: int, out: np.ndarray) -> None:
        # Speed: the observation's parts are kept for all seats at once (`_Table`), brought up to date from the moves
        # made since the last observation of any seat, and copied out in a few runs.
        table = self.__dict__.get("_table")
        if table is None:
            # A state observed once (a copy, a sampled world) is written directly: the table pays from the second.
            self._table = False
            self._observe_directly(seat, out)
            return
        if table is False or not self._bring_up_to_date(table):
            table = self._table_anew(table or None)
        table.logged = len(self.events)
        own, played, trick, taken, void, seats, tail = table.sources[seat]
        trick_end, taken_end, void_end, seats_end = OBS_ENDS[self.players]
        view = memoryview(out)
        view[:OWN] = own
        view[OBS_PLAYED:OBS_RETURNED] = played
        view[OBS_TRICK:trick_end] = trick
        view[OBS_TAKEN:taken_end] = taken
        view[OBS_VOID:void_end] = void
        view[OBS_SEATS:seats_end] = seats
        view[OBS_TAIL:] = tail
        # Who is to move changes at every move: written here rather than kept (twice over) in the table.
        at = TO_MOVE_AT[self.players][seat]
        if self.phase == PLAY:
            view[at[self.turn]] = 1.0
        else:
            for s in self.to_move():
                view[at[s]] = 1.0

    def _observe_directly(self, seat: int, out: np.ndarray) -> None:
        """The observation written from the state into the zeroed `out`, keeping nothing (the table's parts in order,
        for the seat)."""
        n = self.players
        view = memoryview(out)
        for c in self.hands[seat]:
            view[c] = 1.0
        for c in self.piles[seat]:
            view[C.DECK_SIZE + c] = 1.0
        _write_played(view, OBS_PLAYED, self.played)
        if seat == self.summoner:
            for c in self.returned:
                view[OBS_RETURNED + c] = 1.0
        rel = RELATIVE[n][seat]
        leader = self.leader
        trick = self.trick
        if trick:
            for i, c in enumerate(trick):
                view[OBS_TRICK + rel[(leader + i) % n] * C.DECK_SIZE + c] = 1.0
            view[OBS_TAIL + 4 + COLOUR_OF[trick[0]]] = 1.0
        void = self.void
        for s, taken in enumerate(self.taken):
            for c in taken:
                view[OBS_TAKEN + rel[s] * NUMBERS + c] = 1.0
            if void[s]:
                at = OBS_VOID + rel[s] * 4
                view[at:at + 4] = VOID_FLOATS[void[s]]
        totals = self.scores()
        hands, piles, tokens = self.hands, self.piles, self.tokens
        for s in range(n):
            at = OBS_SEATS + rel[s] * 8
            view[at] = ELEVENTHS[len(hands[s])]
            view[at + 1] = ELEVENTHS[len(piles[s])]
            view[at + 2] = ELEVENTHS[tokens[s]]
            view[at + 3] = totals[s] / 100.0
        view[OBS_SEATS + rel[leader] * 8 + 4] = 1.0
        for s in self.to_move():
            view[OBS_SEATS + rel[s] * 8 + 5] = 1.0
        if self.jutsu is not None:
            view[OBS_SEATS + rel[self.jutsu] * 8 + 6] = 1.0
        if self.summoner is not None:
            view[OBS_SEATS + rel[self.summoner] * 8 + 7] = 1.0
        view[OBS_TAIL + self.trump] = 1.0
        view[OBS_TAIL + 8 + self.phase] = 1.0
        if self.purple_broken:
            view[OBS_TAIL + 15] = 1.0
        view[OBS_TAIL + 16] = self.round / n
        view[OBS_TAIL + 17] = self.tricks_played / self.setup.hand

    def _table_anew(self, table: _Table | None) -> _Table:
        """The table written in full (at the first observation, in a new round, after the round has ended)."""
        n = self.players
        if table is None:
            table = self._table = _Table(n)
        else:
            table.view[:] = NO_FLOATS[n]
        layout = table.layout
        view = table.view
        for s in range(n):
            self._write_own(table, s)
        if self.summoner is not None:
            for c in self.returned:
                view[self.summoner * OWN + OBS_RETURNED + c] = 1.0
        _write_played(view, layout.played, self.played)
        tail = layout.tail
        view[tail + self.trump] = 1.0
        view[tail + 8 + self.phase] = 1.0
        view[tail + 15] = 1.0 if self.purple_broken else 0.0
        view[tail + 16] = self.round / n
        view[tail + 17] = self.tricks_played / self.setup.hand
        table.lead = -1
        self._write_trick(table)
        totals = self.scores()
        hands, piles, tokens, void = self.hands, self.piles, self.tokens, self.void
        apart = layout.seat_apart
        for s, taken in enumerate(self.taken):
            for c in taken:
                _write_twice(view, layout.taken_at[s] + c, layout.taken_apart, 1.0)
            at = layout.void_at[s]
            view[at:at + 4] = view[at + layout.void_apart:at + layout.void_apart + 4] = VOID_FLOATS[void[s]]
            at = layout.seat_at[s]
            view[at] = view[at + apart] = ELEVENTHS[len(hands[s])]
            view[at + 1] = view[at + apart + 1] = ELEVENTHS[len(piles[s])]
            view[at + 2] = view[at + apart + 2] = ELEVENTHS[tokens[s]]
            view[at + 3] = view[at + apart + 3] = totals[s] / 100.0
        table.leader = self.leader
        _write_twice(view, layout.seat_at[self.leader] + 4, apart, 1.0)
        if self.jutsu is not None:
            _write_twice(view, layout.seat_at[self.jutsu] + 6, apart, 1.0)
        if self.summoner is not None:
            _write_twice(view, layout.seat_at[self.summoner] + 7, apart, 1.0)
        history = table.history = self.history
        table.moves = len(history)
        # Kept for the rest of the round: at its end the scores change and a new deal comes.
        ended = self.phase == OVER or self.tricks_played == self.setup.hand
        table.round = None if ended else self.round
        table.phase = self.phase
        table.played = self.played
        table.tricks = self.tricks_played
        table.piles = [*map(len, piles)]
        table.piled = any(table.piles)
        table.taken = [*map(len, self.taken)]
        table.void = void.copy()
        return table

    def _write_own(self, table: _Table, seat: int) -> None:
        """A seat's hand and 2nd-half pile, written anew."""
        view = table.view
        at = seat * OWN
        view[at:at + 2 * C.DECK_SIZE] = NO_HAND
        for c in self.hands[seat]:
            view[at + c] = 1.0
        at += C.DECK_SIZE
        for c in self.piles[seat]:
            view[at + c] = 1.0

    def _write_trick(self, table: _Table) -> None:
        """The current trick, by the seat that played each card, and its lead colour, written anew."""
        layout = table.layout
        view = table.view
        view[layout.trick:layout.trick + 2 * layout.trick_apart] = NO_TRICK[self.players]
        if table.lead >= 0:
            view[layout.tail + 4 + table.lead] = 0.0
            table.lead = -1
        trick = self.trick
        if trick:
            n = self.players
            leader = self.leader
            for i, c in enumerate(trick):
                _write_twice(view, layout.trick_at[(leader + i) % n] + c, layout.trick_apart, 1.0)
            table.lead = COLOUR_OF[trick[0]]
            view[layout.tail + 4 + table.lead] = 1.0

    def _bring_up_to_date(self, table: _Table) -> bool:
        """Update the table with the moves made since it was written; False when it cannot be (another round, or
        the round has ended) and it is to be written anew."""
        history = self.history
        moves = len(history)
        if moves == table.moves and history is table.history:
            # Nothing recorded since. A move made without the history (a search playing on in its world with
            # `_apply`) still logs an event: then the table is written anew. A quiet state's moves may log nothing,
            # so it cannot tell: its table is always written anew.
            return len(self.events) == table.logged and not self.quiet
        if history is not table.history or moves < table.moves or table.round != self.round:
            return False  # not kept for these moves, or for this round
        layout = table.layout
        view = table.view
        hands = self.hands
        if self.phase != PLAY or table.phase != PLAY:
            if self.phase != SPLIT or table.phase != SPLIT:
                return self._bring_jutsu_up_to_date(table)
            for s, c in history[table.moves:]:  # the practitioner has set cards aside, nothing else
                view[s * OWN + c] = 0.0
                view[s * OWN + C.DECK_SIZE + c] = 1.0
            table.moves = moves
            s = self.jutsu
            at = layout.seat_at[s]
            table.piles[s] = len(self.piles[s])
            table.piled = True
            view[at] = view[at + layout.seat_apart] = ELEVENTHS[len(hands[s])]
            view[at + 1] = view[at + layout.seat_apart + 1] = ELEVENTHS[table.piles[s]]
            return True
        played, trick_at, seat_at = layout.played, layout.trick_at, layout.seat_at
        trick_apart, seat_apart = layout.trick_apart, layout.seat_apart
        for s, c in history[table.moves:]:  # in the tricks every move is a card played
            view[played + c] = 1.0
            view[s * OWN + c] = 0.0
            at = seat_at[s]
            view[at] = view[at + seat_apart] = ELEVENTHS[len(hands[s])]
            at = trick_at[s] + c
            view[at] = view[at + trick_apart] = 1.0
        table.moves = moves
        if self.tricks_played != table.tricks:
            if not self._bring_tricks_up_to_date(table):
                return False
        elif table.lead < 0:  # the trick's first card
            table.lead = COLOUR_OF[self.trick[0]]
            view[layout.tail + 4 + table.lead] = 1.0
        if self.void != table.void:
            self._bring_voids_up_to_date(table)
        return True

    def _bring_voids_up_to_date(self, table: _Table) -> None:
        """The voids shown that changed."""
        layout = table.layout
        view = table.view
        void, kept = self.void, table.void
        for s, at in enumerate(layout.void_at):
            if void[s] != kept[s]:
                view[at:at + 4] = view[at + layout.void_apart:at + layout.void_apart + 4] = VOID_FLOATS[void[s]]
        table.void = void.copy()

    def _bring_jutsu_up_to_date(self, table: _Table) -> bool:
        """`_bring_up_to_date` outside the tricks (and for cards played since the tricks began): the hands and piles
        of the seats that moved (of all seats once Soul-Sucking has begun), the cards returned to the scale, the
        practitioner, the phase, the seats to move, the cards played."""
        phase = self.phase
        if phase == OVER:
            return False
        layout = table.layout
        view = table.view
        hands, piles = self.hands, self.piles
        apart = layout.seat_apart
        for s in range(self.players) if self.soul else {s for s, _ in self.history[table.moves:]}:
            self._write_own(table, s)
            at = layout.seat_at[s]
            view[at] = view[at + apart] = ELEVENTHS[len(hands[s])]
            view[at + 1] = view[at + apart + 1] = ELEVENTHS[len(piles[s])]
        table.moves = len(self.history)
        table.piles = [*map(len, piles)]
        table.piled = any(table.piles)
        if self.returned:
            for c in self.returned:
                view[self.summoner * OWN + OBS_RETURNED + c] = 1.0
        if self.jutsu is not None:
            _write_twice(view, layout.seat_at[self.jutsu] + 6, apart, 1.0)
        view[layout.tail + 8 + table.phase] = 0.0
        view[layout.tail + 8 + phase] = 1.0
        table.phase = phase
        if self.played != table.played:  # the tricks have begun
            _write_played(view, layout.played, self.played & ~table.played)
            table.played = self.played
            if self.tricks_played != table.tricks and not self._bring_tricks_up_to_date(table):
                return False
            self._write_trick(table)
            if self.void != table.void:
                self._bring_voids_up_to_date(table)
        return True

    def _bring_tricks_up_to_date(self, table: _Table) -> bool:
        """What the tricks finished since the table was written changed: the trick, the leader, tokens, purples
        taken, 2nd-half piles taken up, purple broken, tricks played; False when the round has ended."""
        tricks = self.tricks_played
        if tricks == self.setup.hand:
            return False  # scored, and the scale's purples taken: written anew
        layout = table.layout
        view = table.view
        if self.trick:
            self._write_trick(table)
        else:  # the common case: the trick just finished, the next not begun
            view[layout.trick:layout.trick + 2 * layout.trick_apart] = NO_TRICK[self.players]
            view[layout.tail + 4:layout.tail + 8] = NO_LEAD
            table.lead = -1
        seat_at, apart = layout.seat_at, layout.seat_apart
        leader = self.leader
        at = seat_at[table.leader] + 4
        view[at] = view[at + apart] = 0.0
        at = seat_at[leader] + 4
        view[at] = view[at + apart] = 1.0
        table.leader = leader
        tokens, taken, kept = self.tokens, self.taken, table.taken
        # After one trick only its winner, who leads now, has more; in a round purples taken are only added to.
        for s in (leader,) if tricks == table.tricks + 1 else range(self.players):
            at = seat_at[s] + 2
            view[at] = view[at + apart] = ELEVENTHS[tokens[s]]
            if len(taken[s]) != kept[s]:
                for c in taken[s][kept[s]:]:
                    _write_twice(view, layout.taken_at[s] + c, layout.taken_apart, 1.0)
                kept[s] = len(taken[s])
        table.tricks = tricks
        if table.piled:
            counts = [*map(len, self.piles)]
            if counts != table.piles:  # a 2nd-half pile became a hand
                for s, at in enumerate(seat_at):
                    if counts[s] != table.piles[s]:
                        self._write_own(table, s)
                        view[at] = view[at + apart] = ELEVENTHS[len(self.hands[s])]
                        view[at + 1] = view[at + apart + 1] = ELEVENTHS[counts[s]]
                table.piles = counts
                table.piled = any(counts)
        if self.purple_broken:
            view[layout.tail + 15] = 1.0
        view[layout.tail + 17] = tricks / self.setup.hand
        return True

    def __getstate__(self) -> dict[str, Any]:
        # The kept table is derived, and changed in place: copies and pickles leave it out.
        state = super().__getstate__()
        state.pop("_table", None)
        return state

    # --- copies and sampled worlds ------------------------------------------------------------------
    def _copy_mutables(self, other: State) -> None:
        other.indicators = self.indicators.copy()
        other.hands = [h.copy() for h in self.hands]
        other.piles = [p.copy() for p in self.piles]
        other.scale = self.scale.copy()
        other.trick = self.trick.copy()
        other.tokens = self.tokens.copy()
        other.taken = [t.copy() for t in self.taken]
        other.void = self.void.copy()
        other.played_by = self.played_by.copy()
        other.returned = self.returned.copy()
        other.given = self.given.copy()
        other.received = self.received.copy()
        other.revealed_scale = self.revealed_scale.copy()
        other.gifts = self.gifts.copy()
        other.returns_left = self.returns_left.copy()

    @property
    def knowledge(self) -> list[list[tuple[int, int]]]:
        """Per seat, the (card, place) pairs it knows: place a seat's hand, SCALE or SOME_HAND."""
        return [self._known(s) for s in range(self.players)]

    def _known(self, seat: int) -> list[tuple[int, int]]:
        """(card, place) for each card `seat` knows the place of that is neither played nor in its hand."""
        facts: list[tuple[int, int]] = []
        if seat == self.summoner:
            facts += [(c, SCALE) for c in self.returned]
        if self.soul:
            if seat == self.jutsu:
                facts += [(c, r) for r, c in enumerate(self.received) if c != NOBODY]
            elif self.given[seat] != NOBODY:
                passed_on = any(c != NOBODY for c in self.received)
                facts.append((self.given[seat], SOME_HAND if passed_on else self.jutsu))
        hand = self.hands[seat]
        return [(c, where) for c, where in facts if not self.played >> c & 1 and c not in hand]

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


def _place_name(where: int) -> str | int:
    return "scale" if where == SCALE else "a hand" if where == SOME_HAND else where


def _labels(cards_: list[int]) -> list[str]:
    return [LABELS[c] for c in cards_]


class DragonGame(Game):
    id = "dragon"
    title = "Slaughter the Dragon, Ha"
    summary = "Trick-taking for 3-5: take Dragon tokens (+5), avoid purple cards, or take them all."
    player_counts = (3, 4, 5)
    default_players = 4
    options = (
        Option("advanced", False, "Advanced Variant: a purple trump brings Soul-Sucking Jutsu instead of "
               "Bodily Division"),
    )

    state_class = DragonState
    action_labels = ACTION_LABELS
    observation_size = OBS_SIZE
    renderer = staticmethod(render)
