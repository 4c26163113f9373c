"""Slaughter the Dragon, Ha: what a seat sees, as a view and as an observation vector kept up to date move by move."""

from __future__ import annotations

from array import array
from typing import Any, NamedTuple

import numpy as np

from ...core import RELATIVE_SEAT, Private
from . import cards as C
from .actions import OVER, PHASE_NAMES, PLAY, SPLIT
from .cards import COLOUR_OF, LABELS, MAX_SEATS, NUMBERS, SCALE, SETUPS, SOME_HAND

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
ELEVENTHS = tuple(k / 11.0 for k in range(C.DECK_SIZE + 1))  # a count of cards or tokens, scaled

# TO_MOVE_AT[n][seat][s]: where `seat`'s observation shows that seat s is to move.
TO_MOVE_AT = {n: tuple(tuple(OBS_SEATS + 8 * r + 5 for r in rel) for rel in RELATIVE_SEAT[n]) for n in SETUPS}
VOID_FLOATS = tuple(array("f", [float(mask >> i & 1) for i in range(4)]) for mask in range(16))
OWN = OBS_TRICK  # a seat's own part of the observation: hand, 2nd-half pile, (cards played), cards known in the scale


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


class Observer:
    """The State's views and observations (a mixin of `DragonState`: its methods read the state's fields)."""

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
        if table is None or not self._bring_up_to_date(table):
            table = self._table_anew(table)
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
            # `advance`) still logs an event: then the table is written anew. A quiet state's moves may log nothing,
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


def _place_name(where: int) -> str | int:
    return "scale" if where == SCALE else "a hand" if where == SOME_HAND else where


def _labels(cards_: list[int]) -> list[str]:
    return [LABELS[c] for c in cards_]
