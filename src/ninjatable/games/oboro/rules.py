"""Oboro Ninja Star Trick: the rules as a state machine on the kernel contract.

A round: deal 8 cards each, play 7 tricks (must follow the led colour; the highest value wins whatever its
colour, the later card on a tie; an Arrow card makes its player the next leader), sort each won trick into
the winner's Card Area, then score the Ninja Power (the sum of the visible top cards). Shuriken cards bring
Shuriken pieces; the moment the stock runs out, Shuriken scoring interrupts play. The game ends with the
round in which the second Shuriken scoring happened. See docs/rules/oboro.md for every rule and
interpretation.
"""

from __future__ import annotations

import random
import struct
from bisect import bisect_left
from typing import Any

import numpy as np

from ...core import Decision, Event, Game, Option, Private, State, seat_name
from ...core.deal import DealPlan, deal_planned, plan_deal, shuffle
from . import cards as C
from .cards import COLOUR, COLOUR_RUN, DECK_SIZE, LABELS, SHURIKEN_CARDS, VALUE
from .render import render

PLAYERS = 3
NUM_ACTIONS = DECK_SIZE  # action = the card played

# Who leads the first trick of rounds after the first (the rulebook only names round 1's leader).
ROUND_LEADERS = ("red8", "last_trick", "left")

# The event of every (seat, card) play, built once: logging a play is then a table look-up (events are immutable).
PLAY_EVENT = tuple(tuple(Event("play", f"{seat_name(s)} plays {LABELS[c]}") for c in range(DECK_SIZE))
                   for s in range(PLAYERS))
# to_move's answer for each `turn` (built once): the seat alone, or nobody (turn -1, the game over).
MOVER = (*((s,) for s in range(PLAYERS)), ())
NAME = tuple(seat_name(s) for s in range(PLAYERS))

# Observation layout (all seats relative to the observer: 0 = self, 1 = next clockwise, 2 = the one after).
O_HAND = 0
O_TRICK = O_HAND + DECK_SIZE  # per relative seat: the card it played to the current trick
O_TOPS = O_TRICK + PLAYERS * DECK_SIZE  # per relative seat: the visible top cards of its Card Area
O_HEIGHTS = O_TOPS + PLAYERS * DECK_SIZE  # per relative seat and colour: stack height / 8
O_VOIDS = O_HEIGHTS + PLAYERS * C.COLOURS  # per relative seat and colour: shown void this round
O_HAND_SIZES = O_VOIDS + PLAYERS * C.COLOURS
O_PIECES = O_HAND_SIZES + PLAYERS
O_STOCK = O_PIECES + PLAYERS
O_SCORES = O_STOCK + 1
O_POWER = O_SCORES + PLAYERS
O_SCORINGS = O_POWER + PLAYERS
O_MISSION = O_SCORINGS + 1
O_LEADER = O_MISSION + 1
O_LED = O_LEADER + PLAYERS
O_TRICKS = O_LED + C.COLOURS
O_ARROW = O_TRICKS + 1
O_RED8_ARROW = O_ARROW + PLAYERS
OBS_SIZE = O_RED8_ARROW + 1

# Tables for the observation builder. SEAT_ORDER[observer]: the seats in relative order (self, next, the one after).
SEAT_ORDER = tuple(tuple((observer + rel) % PLAYERS for rel in range(PLAYERS)) for observer in range(PLAYERS))
# TRICK_AT[first + i]: where the trick's i-th card is marked, when its leader sits at relative seat `first`.
TRICK_AT = tuple(O_TRICK + (r % PLAYERS) * DECK_SIZE for r in range(2 * PLAYERS))


def float32s(values: list[float]) -> bytes:
    """`values` as native float32 bytes, a run the observation builder copies whole."""
    return struct.pack(f"={len(values)}f", *values)


def one_hot(width: int, at: int) -> bytes:
    """A run of `width` floats, 1.0 at `at` (none for at = -1)."""
    return float32s([1.0 if i == at else 0.0 for i in range(width)])


# A stack height or hand size k as its observed fraction k / 8.
HEIGHT_FLOAT = tuple(k / C.HAND_SIZE for k in range(DECK_SIZE + 1))
# Runs of floats by table look-up: a top card within its colour's 8 (TOP_RUN[card]; NO_TOP: an empty stack), a
# void bitmask as (red, blue, green), a relative seat or colour among three (ONE_OF_THREE[-1]: none).
TOP_RUN = tuple(one_hot(C.VALUES, c % C.VALUES) for c in range(DECK_SIZE))
NO_TOP = one_hot(C.VALUES, -1)
VOID_RUN = tuple(float32s([float(mask >> k & 1) for k in range(C.COLOURS)]) for mask in range(1 << C.COLOURS))
ONE_OF_THREE = tuple(one_hot(3, at) for at in (0, 1, 2, -1))
THREE_FLOATS = struct.Struct("=3f")
# Oboro is for exactly three players, and so the observer's three relative seats are three arguments below.
assert PLAYERS == C.COLOURS == 3
# Everything from O_TOPS on, in one struct: each group of `s` runs or floats is one section of the layout.
TAIL_RUNS = struct.Struct(
    "=" + f"{4 * DECK_SIZE}s" * 3 + f"{4 * C.COLOURS}s" * 3  # tops, heights
    + f"{4 * C.COLOURS}s" * 3 + "3f"  # voids, hand sizes
    + "3f" + "f" + "3f" + "3f" + "f" + "f"  # pieces, stock, scores, power, scorings, mission
    + "12s" + "12s" + "f" + "12s" + "f"  # leader, led colour, tricks played, Arrow, Red 8 Arrow
)
assert TAIL_RUNS.size == 4 * (OBS_SIZE - O_TOPS)

# Sampled worlds: OTHERS[seat], the other two seats in seat order (the places cards are dealt to);
# PLACES[void_a, void_b][card]: the places (0, 1) the card may lie in, given those seats' void bitmasks.
OTHERS = tuple(tuple(s for s in range(PLAYERS) if s != seat) for seat in range(PLAYERS))
PLACES = {
    (void_a, void_b): tuple([i for i, void in enumerate((void_a, void_b)) if not void >> COLOUR[c] & 1]
                            for c in range(DECK_SIZE))
    for void_a in range(1 << C.COLOURS) for void_b in range(1 << C.COLOURS)
}


class OboroState(State):
    def __init__(self, game: Game, players: int, seed: int, options: dict[str, Any]) -> None:
        super().__init__(game, players, seed, options)
        self.mission_value: int = options["mission_value"]
        self.arrows = C.ARROWS_WITH_RED_8 if options["red8_arrow"] else C.ARROWS
        self.round = 0
        self.stock = C.SHURIKEN_PIECES
        self.pieces = [0] * players
        self.shuriken_scorings = 0
        self.leader = 0  # leads the current trick
        # Plays next: the leader, then clockwise; -1 once the game is over. (No separate `over` field: CPython shares
        # the keys of at most 30 instance fields, and attribute access slows beyond.)
        self.turn = 0
        self.first_leader = 0  # led the first trick of this round
        self.next_leader = 0  # who the last trick made leader
        self.red8_holder = -1  # public when the Red 8 decided the round's first leader, else -1
        self.totals = [0] * players  # the score sheet's running totals (see `score`)
        self._trick_runs: tuple | None = None  # see `_build_trick_runs`
        self._start_round()

    # --- round set-up -------------------------------------------------------------------------------
    def _start_round(self) -> None:
        self.round += 1
        deck = list(range(DECK_SIZE))
        shuffle(self.chance(), deck)
        size = C.HAND_SIZE
        self.hands = [sorted(deck[s * size:(s + 1) * size]) for s in range(self.players)]
        self.stacks: list[list[int]] = [[] for _ in range(self.players * C.COLOURS)]  # seat*3+colour, top last
        self._area_runs: list[tuple | None] = [None] * self.players  # see `_area_run`
        self.trick: list[int] = []
        self.arrow_seat = -1
        self.tricks_played = 0
        self.void = [0] * self.players  # bitmask of colours each seat has shown it lacks this round
        for s in range(self.players):
            self.log("deal", f"{NAME[s]} is dealt " + " ".join([LABELS[c] for c in self.hands[s]]), to=s)
        self._choose_first_leader()

    def _choose_first_leader(self) -> None:
        """Round 1: the Red 8 holder; later rounds as the `round_leader` option says."""
        rule = "red8" if self.round == 1 else self.options["round_leader"]
        self.red8_holder = -1
        if rule == "red8":
            self.red8_holder = next(s for s in range(self.players) if C.RED_8 in self.hands[s])
            leader, why = self.red8_holder, "holds the Red 8"
        elif rule == "last_trick":
            leader, why = self.next_leader, "was made leader by the last trick"
        else:
            leader, why = (self.first_leader + 1) % self.players, "sits left of the last first leader"
        self.leader = self.first_leader = self.turn = leader
        self.log("round", f"Round {self.round}: {NAME[leader]} {why} and leads")

    def script_round(self, hands: list[list[str]], leader: int | None = None) -> None:
        """Test helper: replace the current round's hands by `hands` (labels, equal lengths of 2 to 8).

        The round restarts with empty Card Areas and no trick; with k cards in each hand, 8 - k tricks count
        as played, so a short script plays only the round's last tricks. `leader` defaults to the Red 8
        holder (or the current leader if nobody holds it).
        """
        ids = [[LABELS.index(label.upper()) for label in hand] for hand in hands]
        flat = [c for hand in ids for c in hand]
        if len(ids) != self.players or len(set(map(len, ids))) != 1 or len(set(flat)) != len(flat):
            raise ValueError("script_round needs one hand per seat, equal sizes, no card twice")
        if not 2 <= len(ids[0]) <= C.HAND_SIZE:
            raise ValueError("script_round hands hold 2 to 8 cards")
        self._forget_kept()  # the kernel's sampled-world plans were made from the old hands
        self.hands = [sorted(hand) for hand in ids]
        self.stacks = [[] for _ in range(self.players * C.COLOURS)]
        self._area_runs = [None] * self.players
        self.trick = []
        self.arrow_seat = -1
        self.void = [0] * self.players
        self._trick_runs = None
        self.tricks_played = C.HAND_SIZE - len(ids[0])
        holder = next((s for s in range(self.players) if C.RED_8 in self.hands[s]), -1)
        self.red8_holder = holder if leader is None else -1
        if leader is None:
            leader = holder if holder >= 0 else self.leader
        self.leader = self.first_leader = self.turn = leader

    # --- the contract -------------------------------------------------------------------------------
    def to_move(self) -> tuple[int, ...]:
        return MOVER[self.turn]

    def _legal_actions(self, seat: int) -> list[int]:
        if seat != self.turn:
            return []
        hand = self.hands[seat]
        trick = self.trick
        if trick:
            start, stop = COLOUR_RUN[trick[0]]  # the led colour's cards lie in the sorted hand as one run
            follow = hand[bisect_left(hand, start):bisect_left(hand, stop)]
            if follow:
                return follow
        return hand.copy()

    def is_over(self) -> bool:
        return self.turn < 0

    def _next_choice(self) -> tuple[int, list[int]] | None:
        turn = self.turn
        return None if turn < 0 else (turn, self._legal_actions(turn))

    def _apply(self, seat: int, action: int) -> None:
        self.hands[seat].remove(action)
        trick = self.trick
        if trick and COLOUR[action] != COLOUR[trick[0]]:
            self.void[seat] |= 1 << COLOUR[trick[0]]  # could not follow: no card of the led colour
        trick.append(action)
        if action in self.arrows:
            self.arrow_seat = seat  # a later Arrow overrides an earlier one
        self.events.append(PLAY_EVENT[seat][action])  # self.log("play", ...) with the event built once
        if len(trick) == self.players:
            self._finish_trick()
        else:
            self.turn = (seat + 1) % self.players

    def _decision(self, seat: int) -> Decision:
        """Lead any card, or follow the led colour when the hand holds it (one card a decision)."""
        if not self.trick:
            return Decision(C.PROMPT_LEAD)
        led = COLOUR[self.trick[0]]
        text = C.PROMPT_FOLLOW if self._holds(seat, led) else C.PROMPT_ANY
        return Decision(text.format(led=C.COLOUR_NAMES[led]))

    def _refusals(self, seat: int) -> dict[int, str]:
        """The cards of other colours, while the hand holds a card of the led colour."""
        if not self.trick:
            return {}
        led = COLOUR[self.trick[0]]
        if not self._holds(seat, led):
            return {}
        reason = C.REFUSE_NOT_FOLLOWING.format(led=C.COLOUR_NAMES[led])
        return {c: reason for c in self.hands[seat] if COLOUR[c] != led}

    def _holds(self, seat: int, colour: int) -> bool:
        return any(COLOUR[c] == colour for c in self.hands[seat])

    # --- trick resolution ---------------------------------------------------------------------------
    def trick_winner_index(self) -> int:
        """Position in the trick of the winning card: the highest value, the later card on a tie."""
        best, high = 0, -1
        for i, c in enumerate(self.trick):
            if VALUE[c] >= high:  # a tie goes to the later card
                best, high = i, VALUE[c]
        return best

    def _finish_trick(self) -> None:
        trick = self.trick
        winner = (self.leader + self.trick_winner_index()) % self.players
        self._take_into_card_area(winner, trick)
        arrow = self.arrow_seat
        self.leader = self.turn = self.next_leader = winner if arrow < 0 else arrow
        if not self.quiet:
            shown = " ".join([LABELS[c] for c in trick])
            lead_note = "" if arrow < 0 or arrow == winner else f"; {NAME[arrow]} leads next (Arrow)"
            self.log("trick", f"{NAME[winner]} wins the trick ({shown}){lead_note}")
        self.trick = []
        self.arrow_seat = -1
        self._trick_runs = None  # what the trick changed (Card Area, pieces, scores) is observed anew
        self.tricks_played += 1
        shuriken = len(SHURIKEN_CARDS.intersection(trick))
        if shuriken:
            self._take_shuriken(winner, shuriken)
        if self.tricks_played == C.TRICKS_PER_ROUND:
            self._end_round()

    def _take_into_card_area(self, seat: int, taken: list[int]) -> None:
        """Sort the taken cards by colour, lowest on top, and lay them on that colour's stack."""
        stacks = self.stacks
        base = seat * C.COLOURS
        for c in sorted(taken, reverse=True):  # highest first, so each colour's lowest ends on top
            stacks[base + COLOUR[c]].append(c)
        self._area_runs[seat] = None  # observed anew

    def _take_shuriken(self, seat: int, count: int) -> None:
        """One piece per Shuriken card taken while the stock lasts; an emptied stock interrupts play."""
        if not count or not self.stock:
            return
        got = min(count, self.stock)
        self.stock -= got
        self.pieces[seat] += got
        if not self.quiet:
            lost = f" ({count - got} more than the stock held)" if got < count else ""
            self.log("shuriken", f"{seat_name(seat)} takes {got} Shuriken piece(s){lost}; stock {self.stock}")
        if self.stock == 0 and self.shuriken_scorings < C.SHURIKEN_SCORINGS_TO_END:
            self._shuriken_scoring()

    def _shuriken_scoring(self) -> None:
        """Holders ranked by pieces (3/2/1, shared ranks as in round scoring); all pieces go back."""
        self.shuriken_scorings += 1
        self.count(f"shuriken_scoring_{self.shuriken_scorings}_round", self.round)
        holders = {s: (p,) for s, p in enumerate(self.pieces) if p > 0}
        self.score(f"Shuriken scoring {self.shuriken_scorings}", rank_payouts(holders, self.players))
        self.stock = C.SHURIKEN_PIECES
        self.pieces = [0] * self.players
        if self.shuriken_scorings == C.SHURIKEN_SCORINGS_TO_END:
            self.log("end", "Second Shuriken scoring: the game ends when this round has been scored")

    # --- the score sheet's totals -------------------------------------------------------------------
    def score(self, label: str, points: list[int] | tuple[int, ...]) -> None:
        """Add a row to the score sheet and to the running totals, which `scores` reads without summing the sheet."""
        super().score(label, points)
        self.totals = [total + p for total, p in zip(self.totals, points)]  # a new list: clones may share the old

    def scores(self) -> list[int]:
        return self.totals.copy()

    # --- round scoring ------------------------------------------------------------------------------
    def top_cards(self, seat: int) -> list[int]:
        """The visible top card of each of the seat's colour stacks (colours it has received)."""
        base = seat * C.COLOURS
        return [self.stacks[base + k][-1] for k in range(C.COLOURS) if self.stacks[base + k]]

    def ninja_power(self, seat: int) -> int:
        return sum([VALUE[stack[-1]] for stack in self.stacks[seat * C.COLOURS:(seat + 1) * C.COLOURS] if stack])

    def colours_received(self, seat: int) -> int:
        return C.COLOURS - self.stacks[seat * C.COLOURS:(seat + 1) * C.COLOURS].count([])

    def round_points(self, powers: list[int] | None = None) -> list[int]:
        """Round scoring now: players within the Mission Value ranked by Ninja Power, then colours (`powers`: the
        seats' Ninja Power when the caller has it)."""
        if powers is None:
            powers = [self.ninja_power(s) for s in range(self.players)]
        ranked = {}
        for s, power in enumerate(powers):
            if power <= self.mission_value:
                ranked[s] = (power, self.colours_received(s))
        return rank_payouts(ranked, self.players)

    def _end_round(self) -> None:
        powers = [self.ninja_power(s) for s in range(self.players)]
        if not self.quiet:
            shown = ", ".join(f"{seat_name(s)} {power}" for s, power in enumerate(powers))
            self.log("round", f"Round {self.round} ends; Ninja Power: {shown} (Mission Value {self.mission_value})")
        self.score(f"Round {self.round}", self.round_points(powers))
        busts = sum(1 for power in powers if power > self.mission_value)
        self.count("mission_busts", busts)  # seats whose Ninja Power went over the Mission Value this round
        self.count("rounds_with_a_bust", 1 if busts else 0)
        limit = self.options["max_rounds"]
        over = self.shuriken_scorings >= C.SHURIKEN_SCORINGS_TO_END
        if not over and limit and self.round >= limit:
            over = True
            self.log("end", f"The game stops after {limit} rounds (max_rounds safeguard)")
        if over:
            self.turn = -1
            self.log("end", "Game over")
        elif self.deals_next_round():
            self._start_round()

    # --- what seats see -----------------------------------------------------------------------------
    def _view(self) -> dict[str, Any]:
        seats = []
        for s in range(self.players):
            base = s * C.COLOURS
            area = {}
            for k in range(C.COLOURS):
                stack = self.stacks[base + k]
                # Only the top card of a stack is visible; its height shows physically, not what lies beneath.
                area[C.COLOUR_NAMES[k]] = {"top": LABELS[stack[-1]] if stack else None, "height": len(stack)}
            seats.append({
                "hand": Private([LABELS[c] for c in self.hands[s]], s, None),
                "hand_size": len(self.hands[s]),
                "card_area": area,
                "colours": self.colours_received(s),
                "ninja_power": self.ninja_power(s),
                "shuriken": self.pieces[s],
                "void": [C.COLOUR_NAMES[k] for k in range(C.COLOURS) if self.void[s] >> k & 1],
            })
        return {
            "mission_value": self.mission_value,
            "arrows": sorted(LABELS[c] for c in self.arrows),
            "round": self.round,
            "trick_number": min(self.tricks_played + 1, C.TRICKS_PER_ROUND),
            "tricks_per_round": C.TRICKS_PER_ROUND,
            "leader": self.leader,
            "led": C.COLOUR_NAMES[COLOUR[self.trick[0]]] if self.trick else None,
            "trick": [[(self.leader + i) % self.players, LABELS[c]] for i, c in enumerate(self.trick)],
            "arrow": None if self.arrow_seat < 0 else self.arrow_seat,
            "shuriken_stock": self.stock,
            "shuriken_scorings": self.shuriken_scorings,
            "final_round": self.shuriken_scorings >= C.SHURIKEN_SCORINGS_TO_END,
            "seats": seats,
        }

    def _observe(self, seat: int, out: np.ndarray) -> None:
        hands = self.hands
        trick = self.trick
        first = (self.leader - seat) % PLAYERS  # the leader's relative seat
        view = memoryview(out)  # Speed: a memoryview item store skips numpy's indexing (core/observe.py)
        for c in hands[seat]:
            view[O_HAND + c] = 1.0
        for i, c in enumerate(trick):
            view[TRICK_AT[first + i] + c] = 1.0
        # The rest in one store, from runs kept for the trick (`_build_trick_runs`) and tables.
        areas, pieces, scores, stock, scorings, tricks = self._trick_runs or self._build_trick_runs()
        a, b, c = SEAT_ORDER[seat]
        tops_a, heights_a, power_a = areas[a]
        tops_b, heights_b, power_b = areas[b]
        tops_c, heights_c, power_c = areas[c]
        void = self.void
        arrow = self.arrow_seat
        TAIL_RUNS.pack_into(
            out, 4 * O_TOPS,
            tops_a, tops_b, tops_c, heights_a, heights_b, heights_c,
            VOID_RUN[void[a]], VOID_RUN[void[b]], VOID_RUN[void[c]],
            HEIGHT_FLOAT[len(hands[a])], HEIGHT_FLOAT[len(hands[b])], HEIGHT_FLOAT[len(hands[c])],
            pieces[a], pieces[b], pieces[c], stock, scores[a], scores[b], scores[c], power_a, power_b, power_c,
            scorings, 1.0 if self.mission_value == C.MISSION_VALUES[1] else 0.0,
            ONE_OF_THREE[first], ONE_OF_THREE[COLOUR[trick[0]] if trick else -1], tricks,
            ONE_OF_THREE[(arrow - seat) % PLAYERS if arrow >= 0 else -1], 1.0 if C.RED_8 in self.arrows else 0.0,
        )

    def _build_trick_runs(self) -> tuple:
        """What the observation shows that changes only when a trick ends, per seat (Card Areas, Shuriken pieces,
        scores) and for all (stock, Shuriken scorings, tricks played): built at the first observation after a trick
        and kept until the next one ends."""
        areas = self._area_runs
        for s in range(PLAYERS):
            if areas[s] is None:
                areas[s] = self._area_run(s)
        self._trick_runs = (
            tuple(areas), [p / C.SHURIKEN_PIECES for p in self.pieces], [t / 20.0 for t in self.totals],
            self.stock / C.SHURIKEN_PIECES, self.shuriken_scorings / C.SHURIKEN_SCORINGS_TO_END,
            self.tricks_played / C.TRICKS_PER_ROUND,
        )
        return self._trick_runs

    def _area_run(self, seat: int) -> tuple[bytes, bytes, float]:
        """A seat's Card Area as observed: its top cards and stack heights as float runs, and its Ninja Power
        (kept in `_area_runs` until the seat takes a trick)."""
        tops, heights, power = [], [], 0
        for stack in self.stacks[seat * C.COLOURS:(seat + 1) * C.COLOURS]:
            if stack:
                top = stack[-1]
                tops.append(TOP_RUN[top])
                heights.append(HEIGHT_FLOAT[len(stack)])
                power += VALUE[top]
            else:
                tops.append(NO_TOP)
                heights.append(0.0)
        return b"".join(tops), THREE_FLOATS.pack(*heights), power / DECK_SIZE

    # --- copies and sampled worlds ------------------------------------------------------------------
    def _stats(self) -> dict[str, float]:
        return {"rounds": self.round}

    def _copy_mutables(self, other: State) -> None:
        other.hands = list(map(list.copy, self.hands))
        other.stacks = list(map(list.copy, self.stacks))
        other.trick = self.trick.copy()
        other.pieces = self.pieces.copy()
        other.void = self.void.copy()
        other._area_runs = self._area_runs.copy()

    def _sample_hidden(self, world: State, seat: int, rng: random.Random) -> None:
        """Deal the other seats' unplayed cards anew, respecting hand sizes, shown voids and a known Red 8.

        Every card played to a trick was seen by all, so Card Areas (buried cards included) and the current
        trick are kept; only the hands the seat cannot see are hidden.
        """
        dealt = deal_planned(self._worlds_prepared(seat, self._deal_plan), rng)  # every move logs an event
        for place, s in enumerate(OTHERS[seat]):
            world.hands[s] = sorted(dealt[place])

    def _deal_plan(self, seat: int) -> DealPlan:
        """The plan of the seat's sampled deals: the other two hands' cards, and where each may lie."""
        others = OTHERS[seat]
        hands = self.hands
        unseen = hands[others[0]] + hands[others[1]]
        sizes = [len(hands[s]) for s in others]
        # A card may lie in any hand not shown void in its colour (a table by the two voids); a known Red 8 only
        # with its holder.
        places = PLACES[self.void[others[0]], self.void[others[1]]]
        if self.red8_holder in others and C.RED_8 in unseen:
            places = list(places)
            places[C.RED_8] = [others.index(self.red8_holder)]
        return plan_deal(unseen, sizes, places.__getitem__)


def rank_payouts(keys: dict[int, tuple[int, ...]], players: int = PLAYERS) -> list[int]:
    """Points per seat for the ranked seats in `keys` (seat -> sort key, higher is better).

    Competition ranking: a seat's rank is 1 + the number of ranked seats with a strictly better key; a rank
    held alone pays RANK_POINTS, a shared rank pays SHARED_RANK_POINTS to each sharer. Unranked seats get 0.
    """
    points = [0] * players
    ranked = list(keys.values())
    for seat, key in keys.items():
        better = sharers = 0
        for other in ranked:
            if other > key:
                better += 1
            elif other == key:
                sharers += 1
        points[seat] = (C.RANK_POINTS if sharers == 1 else C.SHARED_RANK_POINTS)[better]
    return points


class OboroGame(Game):
    id = "oboro"
    title = "Oboro Ninja Star Trick"
    summary = ("Trick-taking for 3: keep the Ninja Power of your visible top cards high but within the "
               "Mission Value, and collect Shuriken pieces.")
    player_counts = (PLAYERS,)
    default_players = PLAYERS
    options = (
        Option("mission_value", 9, "the Mission Value on the Secrecy card: 9, or 11 for a first game",
               choices=C.MISSION_VALUES),
        Option("red8_arrow", True, "the Red 8 (Burning Arrow) has the Arrow effect, like Blue 4 and Green 4"),
        Option("round_leader", "red8", "who leads the first trick of later rounds (interpretation): the Red 8 "
               "holder, whoever the last trick made leader, or the seat left of the previous first leader",
               choices=ROUND_LEADERS),
        Option("max_rounds", 30, "safeguard: end the game after this many rounds even if the Shuriken pieces "
               "have not run out twice (0: no limit)", minimum=0),
    )

    state_class = OboroState
    action_labels = LABELS
    observation_size = OBS_SIZE
    renderer = staticmethod(render)
