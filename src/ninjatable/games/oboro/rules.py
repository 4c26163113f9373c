"""Oboro Ninja Star Trick: the rules as a state machine on the kernel contract.

A round: deal 8 cards each, play 7 tricks (must follow the led colour; the highest value wins whatever its
colour, the later card on a tie; an Arrow card makes its player the next leader), sort each won trick into
the winner's Card Area, then score the Ninja Power (the sum of the visible top cards). Shuriken cards bring
Shuriken pieces; the moment the stock runs out, Shuriken scoring interrupts play. The game ends with the
round in which the second Shuriken scoring happened. See docs/rules/oboro.md for every rule and
interpretation. What seats see (observe.py) and the worlds sampled for them (worlds.py) are mixins of the state.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import Any

from ...core import BadArgument, Decision, Game, Option, State, seat_name
from ...core.deal import shuffle
from . import cards as C
from .actions import ACTION_LABELS, PLAY_EVENT, PROMPT_ANY, PROMPT_FOLLOW, PROMPT_LEAD, REFUSE_NOT_FOLLOWING
from .cards import COLOUR, COLOUR_RUN, DECK_SIZE, LABELS, PLAYERS, SHURIKEN_CARDS, VALUE
from .observe import OBS_SIZE, Observer
from .render import render
from .worlds import WorldSampler

# Who leads the first trick of rounds after the first (the rulebook only names round 1's leader).
ROUND_LEADERS = ("red8", "last_trick", "left")

# to_move's answer for each `turn` (built once): the seat alone, or nobody (turn -1, the game over).
MOVER = (*((s,) for s in range(PLAYERS)), ())
NAME = tuple(seat_name(s) for s in range(PLAYERS))


class OboroState(Observer, WorldSampler, State):
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

    # --- what the seat to move decides -------------------------------------------------------------
    def _decision(self, seat: int) -> Decision:
        """Lead any card, or follow the led colour when the hand holds it (one card a decision)."""
        if not self.trick:
            return Decision(PROMPT_LEAD)
        led = COLOUR[self.trick[0]]
        text = PROMPT_FOLLOW if self._holds(seat, led) else PROMPT_ANY
        return Decision(text.format(led=C.COLOUR_NAMES[led]))

    def _refusals(self, seat: int) -> dict[int, str]:
        """The cards of other colours, while the hand holds a card of the led colour."""
        if not self.trick:
            return {}
        led = COLOUR[self.trick[0]]
        if not self._holds(seat, led):
            return {}
        reason = REFUSE_NOT_FOLLOWING.format(led=C.COLOUR_NAMES[led])
        return {c: reason for c in self.hands[seat] if COLOUR[c] != led}

    def _holds(self, seat: int, colour: int) -> bool:
        return any(COLOUR[c] == colour for c in self.hands[seat])

    # --- copies and scripted positions -------------------------------------------------------------
    def _copy_mutables(self, other: State) -> None:
        other.hands = list(map(list.copy, self.hands))
        other.stacks = list(map(list.copy, self.stacks))
        other.trick = self.trick.copy()
        other.pieces = self.pieces.copy()
        other.void = self.void.copy()
        other._area_runs = self._area_runs.copy()

    def _set_position(self, hands: list[list[str]] | None = None, leader: int | None = None,
                      areas: dict[int, dict[str, list[str]]] | None = None, stock: int | None = None,
                      pieces: list[int] | None = None, shuriken_scorings: int | None = None,
                      red8_holder: int | None = None, **unknown: Any) -> None:
        """A position set by hand, cards as labels; what is not named stays as it is.

        `hands`: the current round's hands (one per seat, equal lengths of 2 to 8, no card twice). The round
        restarts with empty Card Areas and no trick; with k cards in each hand, 8 - k tricks count as played, so a
        short script plays only the round's last tricks. `leader` leads its first trick, by default the Red 8
        holder (known to all then) or, if nobody holds it, the current leader.
        `areas`: seat -> colour name -> that colour's stack, bottom to top (the colours named are replaced).
        `stock`, `pieces`, `shuriken_scorings`: the Shuriken stock, each seat's pieces, the Shuriken scorings done.
        `red8_holder`: the seat everyone knows holds the Red 8, or -1.
        """
        if unknown:
            raise BadArgument(f"an oboro position has no {', '.join(unknown)}; it sets hands, leader, areas, stock, "
                              "pieces, shuriken_scorings and red8_holder")
        players = self.players
        ids = None
        if hands is not None:
            ids = [[self._scripted_card(label) for label in hand] for hand in hands]
            flat = [c for hand in ids for c in hand]
            if len(ids) != players or len(set(map(len, ids))) != 1 or len(set(flat)) != len(flat):
                raise BadArgument("hands: one hand per seat, of equal sizes, no card twice")
            if not 2 <= len(ids[0]) <= C.HAND_SIZE:
                raise BadArgument(f"hands hold 2 to {C.HAND_SIZE} cards each")
        if leader is not None and (ids is None or leader not in range(players)):
            raise BadArgument(f"leader is a seat from 0 to {players - 1}, set with the hands")
        laid = {}
        for seat, stacks in (areas or {}).items():
            if seat not in range(players):
                raise BadArgument(f"areas: seat {seat!r} does not exist; seats are 0 to {players - 1}")
            for name, labels in stacks.items():
                if name not in C.COLOUR_NAMES:
                    raise BadArgument(f"areas: {name!r} is not a colour ({', '.join(C.COLOUR_NAMES)})")
                colour = C.COLOUR_NAMES.index(name)
                stack = [self._scripted_card(label) for label in labels]
                if any(COLOUR[c] != colour for c in stack):
                    raise BadArgument(f"areas: the {name} stack holds only {name} cards")
                laid[seat * C.COLOURS + colour] = stack
        scorings = self.shuriken_scorings if shuriken_scorings is None else shuriken_scorings
        if scorings not in range(C.SHURIKEN_SCORINGS_TO_END + 1):
            raise BadArgument(f"shuriken_scorings is 0 to {C.SHURIKEN_SCORINGS_TO_END}")
        stock = self.stock if stock is None else stock
        pieces = self.pieces if pieces is None else list(pieces)
        if len(pieces) != players or min(pieces) < 0 or not 0 <= stock <= C.SHURIKEN_PIECES - sum(pieces):
            raise BadArgument(f"stock and pieces: {C.SHURIKEN_PIECES} pieces in all at most, none below 0")
        # An emptied stock sets off a Shuriken scoring at once, until the last one: only then may it stay empty.
        if stock == 0 and scorings < C.SHURIKEN_SCORINGS_TO_END:
            raise BadArgument("stock: the stock stays empty only after the last Shuriken scoring")
        if red8_holder is not None and red8_holder not in range(-1, players):
            raise BadArgument(f"red8_holder is a seat from 0 to {players - 1}, or -1")

        if ids is not None:
            self.hands = [sorted(hand) for hand in ids]
            self.stacks = [[] for _ in range(players * C.COLOURS)]
            self.trick = []
            self.arrow_seat = -1
            self.void = [0] * players
            self.tricks_played = C.HAND_SIZE - len(ids[0])
            holder = next((s for s in range(players) if C.RED_8 in self.hands[s]), -1)
            self.red8_holder = holder if leader is None else -1
            if leader is None:
                leader = holder if holder >= 0 else self.leader
            self.leader = self.first_leader = self.turn = leader
        for at, stack in laid.items():
            self.stacks[at] = stack
        self.stock, self.pieces, self.shuriken_scorings = stock, pieces, scorings
        if red8_holder is not None:
            self.red8_holder = red8_holder
        self._area_runs = [None] * players  # what the observation shows is built anew
        self._trick_runs = None

    @staticmethod
    def _scripted_card(label: str) -> int:
        """The card of a label such as `R5` in a scripted position."""
        key = label.upper() if isinstance(label, str) else label
        if key not in LABELS:
            raise BadArgument(f"{label!r} is not a card; cards are {LABELS[0]} to {LABELS[-1]}")
        return LABELS.index(key)

    def _stats(self) -> dict[str, float]:
        return {"rounds": self.round}


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
    action_labels = ACTION_LABELS
    observation_size = OBS_SIZE
    renderer = staticmethod(render)
