"""Ninja Clan Wars: the rules as a state machine on the kernel contract.

A turn: Fate (draw 2), Recruit, Spy, Mission (attacks, each a combat of small decisions: attacker,
target, extra Ninja, block, Stealth contest, the target's choice, Fight contest, Endurance), Recovery
(+1 marker, discard down to 7). Cards are data (cards.py); see docs/rules/clanwars.md for every rule and
interpretation.
"""

from __future__ import annotations

import random
from array import array
from bisect import insort
from typing import Any, ClassVar

import numpy as np

from ...core import Decision, Game, Option, Private, State, seat_name, winners_text
from ...core.deal import shuffle
from . import cards as C
from .cards import (
    ATTACKER_ONLY,
    ATTACKING,
    BLOCKING,
    CARDS,
    DECK_SIZE,
    DEFENDER_ONLY,
    DEFENDING,
    NAMES,
    NUM_UNITS,
    UNBLOCKED,
    UNITS,
)
from .render import render

MAX_SEATS = 6
HAND_LIMIT = 7
START_MARKERS = 20
START_HAND = 7
FATE_DRAW = 2
STEALTH_WIN_BONUS = 3  # the attacker's Fight bonus for winning the Stealth contest
TARGET_BONUS = 3  # the target's (or its substitute's) Fight bonus when it fights back
SEAT_NAMES = tuple(seat_name(s) for s in range(MAX_SEATS))  # Speed: the events name seats often

# --- the action space ---------------------------------------------------------------------------------
# 0 pass / done / no block; 1-77 a card's main use (recruit a Ninja card, play an Event with its first
# choice); 78-99 recruit a Ninja with Sleeper Agent; then the second choice of each "S or F" Event; then
# discard a card (77); choose a Ninja in play (36 units); choose a player (6: a village or an opponent);
# negate, fight, use a SPY look, withdraw.
PASS = 0
PLAY = 1
SLEEPER = PLAY + DECK_SIZE
ALT = SLEEPER + len(C.NINJA_CARDS)
DISCARD = ALT + len(C.TWO_CHOICE_EVENTS)
UNIT = DISCARD + DECK_SIZE
SEAT = UNIT + NUM_UNITS
NEGATE = SEAT + MAX_SEATS
FIGHT_BACK = NEGATE + 1
SPY_LOOK = FIGHT_BACK + 1
WITHDRAW = SPY_LOOK + 1
NUM_ACTIONS = WITHDRAW + 1

SLEEPER_CARD = C.card_id("Sleeper Agent")
ENDURANCE_CARD = C.card_id("Endurance")


def _action_tables() -> tuple[list[str], list[int], list[int]]:
    """Label, card and choice index of every action (card -1 for actions that play no card)."""
    labels = ["pass"]
    card = [-1]
    choice = [-1]
    for cid, c in enumerate(CARDS):
        if c.kind == C.NINJA:
            labels.append(f"recruit {c.name}")
        elif len(c.effect.choices) == 2:
            labels.append(f"{c.name} {_choice_text(c.effect.choices[0])}")
        else:
            labels.append(c.name)
        card.append(cid)
        choice.append(0)
    for cid in C.NINJA_CARDS:
        labels.append(f"recruit {NAMES[cid]} with Sleeper Agent")
        card.append(cid)
        choice.append(0)
    for cid in C.TWO_CHOICE_EVENTS:
        labels.append(f"{NAMES[cid]} {_choice_text(CARDS[cid].effect.choices[1])}")
        card.append(cid)
        choice.append(1)
    for cid in range(DECK_SIZE):
        labels.append(f"discard {NAMES[cid]}")
        card.append(-1)
        choice.append(-1)
    for u in UNITS:
        labels.append(u.name if u.card < 0 or not C.IS_TIP[u.card] else f"{u.name} (card)")
        card.append(-1)
        choice.append(-1)
    for s in range(MAX_SEATS):
        labels.append(SEAT_NAMES[s])
        card.append(-1)
        choice.append(-1)
    labels += ["negate", "fight", "spy", "withdraw"]
    card += [-1, -1, -1, -1]
    choice += [-1, -1, -1, -1]
    return labels, card, choice


def _choice_text(choice: tuple[int, int]) -> str:
    s, f = choice
    return f"+{s}S" if s else f"+{f}F"


LABELS, ACTION_CARD, ACTION_CHOICE = _action_tables()
assert len(LABELS) == NUM_ACTIONS


def _contest_actions() -> tuple[tuple[tuple[tuple[int, ...], ...], ...], ...]:
    """For each contest (0 Stealth, 1 Fight), side to play (0 attacker, 1 defender) and card: the actions that
    play it there (its choices adding that contest's stat, unless it is the other side's card only)."""
    table = []
    for stat in (0, 1):
        per_side = []
        for side in (0, 1):
            banned = DEFENDER_ONLY if side == 0 else ATTACKER_ONLY
            per_card = []
            for cid, c in enumerate(CARDS):
                plays = []
                e = c.effect
                if e is not None and e.kind in (C.BOOST, C.GRAPPLE) and e.side != banned:
                    for k, bonus in enumerate(e.choices):
                        if bonus[stat] > 0:
                            plays.append(PLAY + cid if k == 0 else ALT + C.TWO_CHOICE_EVENTS.index(cid))
                per_card.append(tuple(plays))
            per_side.append(tuple(per_card))
        table.append(tuple(per_side))
    return tuple(table)


CONTEST_ACTIONS = _contest_actions()
# Per card: whether it is a Ninja, its Event's kind (-1 for a Ninja), and the action recruiting it with Sleeper Agent.
IS_NINJA = tuple(c.kind == C.NINJA for c in CARDS)
EVENT_KIND = tuple(-1 if c.effect is None else c.effect.kind for c in CARDS)
SLEEPER_ACTION = {cid: SLEEPER + k for k, cid in enumerate(C.NINJA_CARDS)}
# The units whose abilities reach beyond a combat, so the hot paths look only at these few.
SPY_UNITS = tuple(u for u, unit in enumerate(UNITS) if unit.ability.spy)
DISCOUNT_UNITS = tuple(u for u, unit in enumerate(UNITS) if unit.ability.discount)
# By stat (0 Stealth, 1 Fight): the (unit, bonus) of the units giving their clan-mates that stat (AYN), and each
# unit's bonus per Event card its side plays in a contest of that stat (ECP).
AYN_BONUSES = tuple(tuple((u, bonus) for u, unit in enumerate(UNITS)
                          if (bonus := (unit.ability.ayn_s, unit.ability.ayn_f)[stat])) for stat in (0, 1))
PRINTED = (tuple(unit.s for unit in UNITS), tuple(unit.f for unit in UNITS))
# By stat and unit: (role, bonus) of its bonus in that stat in a combat role (+4S if Blocking), else None.
ROLE_BONUSES = tuple(tuple((unit.ability.when, bonus) if (bonus := (unit.ability.s, unit.ability.f)[stat]) else None
                           for unit in UNITS) for stat in (0, 1))
ECP_BONUSES = tuple(tuple((unit.ability.ecp_s, unit.ability.ecp_f)[stat] for unit in UNITS) for stat in (0, 1))

# Phases.
(RECRUIT, SPY, SPY_SEAT, SPY_UNIT, MISSION, TARGET, ATT_EXTRA, BLOCK, DEF_EXTRA, STEALTH, TARGET_CHOICE,
 FIGHT, ENDURANCE, DISCARD_DOWN, OVER, PRESS) = range(16)
PHASE_NAMES = ("recruit", "spy", "spy: choose an opponent", "spy: choose a Ninja", "mission: choose an attacker",
               "mission: choose a target", "mission: add attacking Ninja", "block", "add defending Ninja",
               "stealth contest", "target's choice", "fight contest", "endurance", "recovery: discard", "over",
               "attacker's choice")
LOOK = -2  # pending "card" for a SPY look
DEFENDER_PHASES = frozenset((BLOCK, DEF_EXTRA, TARGET_CHOICE))
CONTEST_PHASES = frozenset((STEALTH, FIGHT))
# The phases where a card held may be played (elsewhere a choice is under way and the hand waits).
REFUSAL_PHASES = frozenset((RECRUIT, SPY, MISSION, BLOCK, STEALTH, FIGHT))
SPY_KINDS = frozenset((C.DRAW, C.GAIN_MARKERS, C.LOOK_DECK, C.LOOK_HAND, C.STEAL_CARD, C.FORCE_DISCARD, C.STEAL_MARKERS,
                       C.CONTROL))
# What the opponent chosen in the Spy Phase undergoes, by the kind of the card (or SPY look) being resolved.
SEAT_PROMPTS = {
    C.LOOK_HAND: "whose hand you look at",
    C.STEAL_CARD: "you steal a random card from",
    C.FORCE_DISCARD: "who must discard random cards",
    C.STEAL_MARKERS: "you take Shinobi Markers from",
}

# The observation's layout: where each part starts (a seat sees the other seats in turn order after itself).
OBS_HAND = 0  # own hand
OBS_DISCARD = OBS_HAND + DECK_SIZE  # discard pile
OBS_KNOWN = OBS_DISCARD + DECK_SIZE  # cards known to be in each opponent's hand (relative seats 1 to 5)
OBS_TOP = OBS_KNOWN + (MAX_SEATS - 1) * DECK_SIZE  # deck top cards known
OBS_DECK = OBS_TOP + DECK_SIZE  # deck size
OBS_UNITS = OBS_DECK + 1  # Ninja in play by relative seat
OBS_SEATS = OBS_UNITS + MAX_SEATS * NUM_UNITS  # per relative seat: markers, hand size, defeated, first turn, current
OBS_PHASE = OBS_SEATS + MAX_SEATS * 5
OBS_ATTACKING = OBS_PHASE + len(PHASE_NAMES)  # combat: attacking units
OBS_DEFENDING = OBS_ATTACKING + NUM_UNITS  # combat: defending units
OBS_VILLAGE = OBS_DEFENDING + NUM_UNITS  # combat: the village attacked, by relative seat
OBS_COMBAT = OBS_VILLAGE + MAX_SEATS  # combat: attacker is me, defender is me, totals, bonuses
OBS_PLAYS = OBS_COMBAT + 6  # events played in this contest by each side
OBS_TAIL = OBS_PLAYS + DECK_SIZE * 2  # attacks left, mass combat size, pending target choice
OBS_SIZE = OBS_TAIL + 3


def _seat_orders() -> dict[int, tuple[tuple[int, ...], ...]]:
    """For each player count and seat: every seat in turn order from that seat (relative seat r at index r)."""
    return {n: tuple(tuple((seat + r) % n for r in range(n)) for seat in range(n)) for n in range(1, MAX_SEATS + 1)}


SEAT_ORDERS = _seat_orders()
# For each player count and seat: by absolute seat, where that seat's Ninja-in-play block starts.
UNIT_BLOCKS = {n: tuple(tuple(OBS_UNITS + ((s - seat) % n) * NUM_UNITS for s in range(n)) for seat in range(n))
               for n in SEAT_ORDERS}


class ClanWarsState(State):
    # Derived data kept for speed (None: not worked out yet). The legal actions are worked out after every action
    # and hold for a copy too; the discard floats are worked out when observed, so copies and pickles leave them out.
    _legal_kept: tuple[int, list[int]] | None = None  # the seat to move and its legal actions (`_legal_actions`)
    _discard_kept: list[Any] | None = None  # the discard pile as observation floats (`_discard_floats`)

    def __init__(self, game: Game, players: int, seed: int, options: dict[str, Any]) -> None:
        super().__init__(game, players, seed, options)
        n = players
        deck = list(range(DECK_SIZE))
        shuffle(self.chance(), deck)
        self.deck = deck  # the top of the deck is the end of the list
        self.hands = [[self.deck.pop() for _ in range(START_HAND)] for _ in range(n)]
        self.discard: list[int] = []
        self.owner = [-1] * NUM_UNITS  # the seat controlling each unit, -1 when it is not in play
        self.in_play: list[int] = []  # the units in play, in id order
        self.markers = [START_MARKERS] * n
        self.defeated = [False] * n
        self.turns_taken = [0] * n
        self.known: list[list[list[int]]] = [[[] for _ in range(n)] for _ in range(n)]  # known[a][b]
        self.known_top = [0] * n  # how many cards from the top of the deck each seat has looked at
        self._no_steal()
        self.final: dict[str, Any] | None = None
        self._clear_combat()
        # "Whoever cuts to the highest value Stealth card goes first": by lot.
        self.current = self.chance().randrange(n)
        self.log("start", f"{SEAT_NAMES[self.current]} goes first")
        self.phase = RECRUIT
        self._start_turn()
        self._keep_legal()

    # --- small helpers --------------------------------------------------------------------------------
    def _clear_combat(self) -> None:
        self.attacks_left = 0
        self.attacked = 0  # bitmask of units that attacked this turn
        self.spy_used = 0  # bitmask of SPY units that looked this turn
        self.mass = 0  # extra Ninja per side allowed in the next / current attack
        self.pending = -1  # an Event (or LOOK) waiting for its target
        self.c_att: list[int] = []  # attacking units, the first is the declared attacker
        self.c_def: list[int] = []  # defending units besides the head (extra Ninja)
        self.c_head = -1  # the defending Ninja that fights (-1: the village)
        self.c_target = -1  # the targeted Ninja (-1: the village)
        self.c_blocker = -1
        self.c_defender = -1  # the defending player
        self.c_extra_left = 0
        self.c_bonus = [0, 0]  # Fight bonuses of the attacking and defending sides
        self.c_plays: list[list[int]] = []  # this contest: [side, card, s, f, negated]
        self.c_cards: list[int] = []  # every card played in this combat (discarded at its end)
        self.c_stage = 0  # the contest under way or last held: 0 Stealth, 1 Fight
        self.c_turn = 0  # side to act in a contest: 0 attacker, 1 defender
        self.c_passes = 0
        self.c_killed: list[int] = []  # attacking card Ninja killed in this combat (for Endurance)
        self.c_log: list[str] = []  # what happened in this combat, for the view
        self.c_result: tuple[int, int] | None = None  # the totals of the contest last decided

    def _no_steal(self) -> None:
        # After a random card is stolen, a third party that knew some of the victim's cards knows that
        # all of them but at most one are still there (the one that may have gone is in the thief's hand).
        n = self.players
        self.stolen_by = self.stolen_from = -1
        self.doubt: list[list[int]] = [[] for _ in range(n)]  # per seat: the victim's cards in doubt
        self.doubt_n = [0] * n  # per seat: how many cards the stolen one may have been among

    def units_of(self, seat: int) -> list[int]:
        owner = self.owner
        return [u for u in self.in_play if owner[u] == seat]

    def _enter_play(self, unit: int, seat: int) -> None:
        self.owner[unit] = seat
        insort(self.in_play, unit)

    def _enemy_units(self, seat: int) -> list[int]:
        owner = self.owner
        return [u for u in self.in_play if owner[u] != seat]

    def alive(self) -> list[int]:
        return [s for s in range(self.players) if not self.defeated[s]]

    def opponents(self, seat: int) -> list[int]:
        return [s for s in range(self.players) if s != seat and not self.defeated[s]]

    def recruit_cost(self, seat: int, cid: int, sleeper: bool = False) -> int:
        """Cost after the Ninja Lord discount (and Sleeper Agent's 4), never below 0."""
        discount = 0
        for u in DISCOUNT_UNITS:
            if self.owner[u] == seat:
                discount += UNITS[u].ability.discount
        if sleeper:
            discount += CARDS[SLEEPER_CARD].effect.amount
        return max(0, CARDS[cid].cost - discount)

    # --- turn flow ------------------------------------------------------------------------------------
    def _start_turn(self) -> None:
        p = self.current
        self.attacks_left = 0 if self.turns_taken[p] == 0 else 1  # no attack on a player's first turn
        self.attacked = 0
        self.spy_used = 0
        self.mass = 0
        self.log("turn", f"{SEAT_NAMES[p]}'s turn")
        if not self._draw(p, FATE_DRAW):
            return
        self.phase = RECRUIT

    def _draw(self, seat: int, count: int) -> bool:
        """Draw `count` cards; if a draw is needed and the deck is empty the game ends (False)."""
        deck, hand, known_top = self.deck, self.hands[seat], self.known_top
        for _ in range(count):
            if not deck:
                self.log("end", "a card must be drawn and the deck is empty: the game ends")
                self._end_game()
                return False
            card = deck.pop()
            hand.append(card)
            if any(known_top):  # seats that looked at the deck see the card go to this hand
                for x in range(self.players):
                    if known_top[x]:
                        known_top[x] -= 1
                        if x != seat:
                            self.known[x][seat].append(card)
            self.log("draw", f"{SEAT_NAMES[seat]} draws {NAMES[card]}", to=seat)
        self.log("draw", f"{SEAT_NAMES[seat]} draws {count} card{'s' if count > 1 else ''}")
        return True

    def _after_spy(self) -> None:
        self.phase = MISSION
        self._maybe_skip_mission()

    def _maybe_skip_mission(self) -> None:
        """Skip the Mission Phase when no attack is possible (a public fact)."""
        if self.phase == MISSION and (self.turns_taken[self.current] == 0 or not self._free_attackers()):
            self._recovery()

    def _free_attackers(self) -> list[int]:
        p = self.current
        attacked = self.attacked
        owner = self.owner
        return [u for u in self.in_play if owner[u] == p and not attacked >> u & 1]

    def _recovery(self) -> None:
        p = self.current
        self.markers[p] += 1
        self.log("recovery", f"{SEAT_NAMES[p]} gains 1 Shinobi Marker")
        if len(self.hands[p]) > HAND_LIMIT:
            self.phase = DISCARD_DOWN
        else:
            self._end_turn()

    def _end_turn(self) -> None:
        self.turns_taken[self.current] += 1
        n = self.players
        nxt = (self.current + 1) % n
        while self.defeated[nxt]:
            nxt = (nxt + 1) % n
        self.current = nxt
        self._start_turn()

    def _end_game(self) -> None:
        self.phase = OVER
        alive = self.alive() or list(range(self.players))
        by = self.options["ranking"]
        keys = {}
        for s in alive:
            units = self.units_of(s)
            best = max((C.rank(u, by) for u in units), default=-1)
            keys[s] = (best, len(units), self.markers[s])
        top = max(keys.values())
        winners = [s for s in alive if keys[s] == top]
        self.final = {
            "ranking": by,
            "rows": [{"seat": s, "best_rank": keys[s][0], "ninja": keys[s][1], "markers": keys[s][2]}
                     for s in sorted(alive, key=lambda s: keys[s], reverse=True)],
        }
        self.score("Final ranking", [1 if s in winners else 0 for s in range(self.players)])
        self.log("end", f"The game is over: {winners_text(winners)}")

    def _check_defeats(self) -> None:
        """A player with no Ninja in play and no markers is defeated; one player left ends the game."""
        for s in range(self.players):
            if self.defeated[s] or self.markers[s] > 0 or s in self.owner:
                continue
            self.defeated[s] = True
            for card in list(self.hands[s]):
                self._hand_to_discard(s, card)
            self.log("defeat", f"{SEAT_NAMES[s]} has no Ninja and no Shinobi Markers: defeated")
        if len(self.alive()) <= 1 and self.phase != OVER:
            self._end_game()

    # --- knowledge of hands ------------------------------------------------------------------------
    def _hand_to_discard(self, seat: int, card: int) -> None:
        """A card leaves a hand face up (played or discarded): everybody sees which."""
        self._leave_hand(seat, card)
        self.discard.append(card)

    def _leave_hand(self, seat: int, card: int) -> None:
        self.hands[seat].remove(card)
        for x in range(self.players):
            known = self.known[x][seat]
            if known and card in known:
                known.remove(card)
            doubt = self.doubt[x]
            if doubt and card in doubt:
                doubt.remove(card)
                if seat == self.stolen_from:
                    self.doubt_n[x] -= 1  # still in the victim's hand: not the stolen card
                else:  # it was the stolen card: the others are surely still in the victim's hand
                    self.known[x][self.stolen_from] += doubt
                    self.doubt[x] = []

    def _random_discards(self, victim: int, count: int) -> None:
        rng = self.chance()
        for _ in range(min(count, len(self.hands[victim]))):
            card = self.hands[victim][rng.randrange(len(self.hands[victim]))]
            self._hand_to_discard(victim, card)
            self.log("discard", f"{SEAT_NAMES[victim]} discards {NAMES[card]} at random")

    # --- the kernel contract ------------------------------------------------------------------------
    def is_over(self) -> bool:
        return self.phase == OVER

    def to_move(self) -> tuple[int, ...]:
        if self.phase == OVER:
            return ()
        kept = self._legal_kept  # the seat to move is kept with its legal actions (`_keep_legal`)
        return (kept[0] if kept is not None else self._mover(),)

    def _mover(self) -> int:
        """The one seat that decides now (every decision of this game is one seat's)."""
        ph = self.phase
        if ph in DEFENDER_PHASES:
            return self.c_defender
        if ph in CONTEST_PHASES:
            return self.current if self.c_turn == 0 else self.c_defender
        return self.current

    def _legal_actions(self, seat: int) -> list[int]:
        # Speed: the seat to move is asked for its actions and then, in the kernel's `apply`, asked again, so
        # they are kept from one action to the next (`_keep_legal`); callers get a copy they may change.
        kept = self._legal_kept
        if kept is None:
            kept = self._keep_legal()
        if kept is not None and kept[0] == seat:
            return kept[1].copy()
        return []  # not this seat's decision, or the game is over

    def _keep_legal(self) -> tuple[int, list[int]] | None:
        """Work out and keep the seat to move now and its legal actions (so asking for them changes nothing in the
        state); None once the game is over."""
        if self.phase == OVER:
            self._legal_kept = None
            return None
        seat = self._mover()
        acts = self._LEGAL_BY_PHASE[self.phase](self, seat)
        acts.sort()
        kept = self._legal_kept = (seat, acts)
        return kept

    def _recruit_actions(self, seat: int) -> list[int]:
        acts = [PASS]
        hand = self.hands[seat]
        has_sleeper = SLEEPER_CARD in hand
        money = self.markers[seat]
        for cid in hand:
            if not IS_NINJA[cid]:
                continue
            cost = self.recruit_cost(seat, cid)
            if cost <= money:
                acts.append(PLAY + cid)
            if has_sleeper and cost > 0 and self.recruit_cost(seat, cid, True) <= money:
                acts.append(SLEEPER_ACTION[cid])
        return acts

    def _spy_actions(self, seat: int) -> list[int]:
        acts = [PASS]
        for cid in self.hands[seat]:
            kind = EVENT_KIND[cid]
            if kind < 0:
                continue
            if kind == C.DRAW or kind == C.GAIN_MARKERS:
                acts.append(PLAY + cid)
            elif kind == C.LOOK_DECK:
                if self.deck:
                    acts.append(PLAY + cid)
            elif kind in (C.LOOK_HAND, C.STEAL_CARD, C.FORCE_DISCARD, C.STEAL_MARKERS):
                if self._seat_candidates(cid, seat):
                    acts.append(PLAY + cid)
            elif kind == C.CONTROL and self._enemy_units(seat):
                acts.append(PLAY + cid)
        if self._unused_spies(seat) and self._seat_candidates(LOOK, seat):
            acts.append(SPY_LOOK)
        return acts

    def _unused_spies(self, seat: int) -> list[int]:
        return [u for u in SPY_UNITS if self.owner[u] == seat and not self.spy_used >> u & 1]

    def _seat_candidates(self, pending: int, seat: int) -> list[int]:
        """Opponents a Spy-phase card (or a SPY look) may target."""
        kind = C.LOOK_HAND if pending == LOOK else CARDS[pending].effect.kind
        if kind == C.STEAL_MARKERS:
            return [s for s in self.opponents(seat) if self.markers[s] > 0]
        return [s for s in self.opponents(seat) if self.hands[s]]

    def _mission_actions(self, seat: int) -> list[int]:
        free = self._free_attackers()
        acts = [PASS]
        if self.attacks_left > 0:
            acts += [UNIT + u for u in free]
        for cid in self.hands[seat]:
            kind = EVENT_KIND[cid]
            if kind == C.EXTRA_ATTACK and len(free) > self.attacks_left:
                acts.append(PLAY + cid)  # a second Ninja must be free to make the extra attack
            elif kind == C.MASS and self.mass == 0 and self.attacks_left > 0 and len(free) > 1:
                acts.append(PLAY + cid)
        return acts

    def _free_defenders(self) -> list[int]:
        d = self.c_defender
        head, target, extra = self.c_head, self.c_target, self.c_def
        owner = self.owner
        return [u for u in self.in_play if owner[u] == d and u != head and u != target and u not in extra]

    def _contest_actions(self, seat: int) -> list[int]:
        acts = [PASS]
        plays = CONTEST_ACTIONS[0 if self.phase == STEALTH else 1][self.c_turn]
        for cid in self.hands[seat]:
            acts += plays[cid]
        return acts

    def _spy_seat_actions(self, seat: int) -> list[int]:
        return [SEAT + s for s in self._seat_candidates(self.pending, seat)]

    def _spy_unit_actions(self, seat: int) -> list[int]:
        return [UNIT + u for u in self._enemy_units(seat)]

    def _target_actions(self, seat: int) -> list[int]:
        return [SEAT + s for s in self.opponents(seat)] + [UNIT + u for u in self._enemy_units(seat)]

    def _att_extra_actions(self, seat: int) -> list[int]:
        return [PASS] + [UNIT + u for u in self._free_attackers() if u not in self.c_att]

    def _block_actions(self, seat: int) -> list[int]:
        acts = [PASS] + [UNIT + u for u in self._free_defenders()]
        if not self.mass:  # the defender may make it a mass combat
            acts += [PLAY + c for c in self.hands[seat] if EVENT_KIND[c] == C.MASS]
        return acts

    def _def_extra_actions(self, seat: int) -> list[int]:
        return [PASS] + [UNIT + u for u in self._free_defenders()]

    def _target_choice_actions(self, seat: int) -> list[int]:
        return [NEGATE, FIGHT_BACK] + [UNIT + u for u in self._free_defenders()]

    def _endurance_actions(self, seat: int) -> list[int]:
        acts = [PASS]
        if ENDURANCE_CARD in self.hands[seat]:
            acts += [UNIT + u for u in self.c_killed]
        return acts

    def _press_actions(self, seat: int) -> list[int]:
        return [FIGHT_BACK, WITHDRAW]

    def _discard_down_actions(self, seat: int) -> list[int]:
        return [DISCARD + c for c in self.hands[seat]]

    # The legal actions of the seat to move, by phase (each card is held once, so no list has repeats).
    _LEGAL_BY_PHASE: ClassVar[dict[int, Any]] = {
        RECRUIT: _recruit_actions, SPY: _spy_actions, SPY_SEAT: _spy_seat_actions, SPY_UNIT: _spy_unit_actions,
        MISSION: _mission_actions, TARGET: _target_actions, ATT_EXTRA: _att_extra_actions, BLOCK: _block_actions,
        DEF_EXTRA: _def_extra_actions, STEALTH: _contest_actions, FIGHT: _contest_actions,
        TARGET_CHOICE: _target_choice_actions, ENDURANCE: _endurance_actions, PRESS: _press_actions,
        DISCARD_DOWN: _discard_down_actions,
    }

    # --- decisions in words -------------------------------------------------------------------------
    def _decision(self, seat: int) -> Decision:
        ph = self.phase
        if ph == RECRUIT:
            # Recruiting draws nothing and shows nothing new, so the page may hold it as a draft until "pass".
            return Decision(f"Recruit Phase: recruit Ninja from your hand, each for its Cost in Shinobi Markers "
                            f"(you have {self.markers[seat]}), then confirm", multi=True, confirm=PASS)
        if ph == SPY:
            return Decision("Spy Phase: play a card or use a SPY Ninja, or pass on to the Mission Phase")
        if ph == SPY_SEAT:
            return Decision(f"{self._pending_name()}: choose the opponent {SEAT_PROMPTS[self._pending_kind()]}")
        if ph == SPY_UNIT:
            return Decision(f"{NAMES[self.pending]}: choose an opponent's Ninja to take control of")
        if ph == MISSION:
            if self.attacks_left <= 0:
                return Decision("Mission Phase: play a card for an extra attack, or pass on to the Recovery Phase")
            left = f"{self.attacks_left} attack{'s' if self.attacks_left > 1 else ''} left"
            return Decision(f"Mission Phase: choose a Ninja to attack with ({left}), or pass on to the Recovery Phase")
        if ph == TARGET:
            return Decision(f"{UNITS[self.c_att[0]].name} attacks: choose an opponent's village or one of their Ninja")
        if ph in (ATT_EXTRA, DEF_EXTRA):
            side = "attack" if ph == ATT_EXTRA else "defence"
            return Decision(f"Add another of your Ninja to the {side} (up to {self.c_extra_left} more), or pass")
        if ph == BLOCK:
            what = "your village" if self.c_target < 0 else f"your {UNITS[self.c_target].name}"
            return Decision(f"{SEAT_NAMES[self.current]} attacks {what} with {self._names(self.c_att)}: block with "
                            "one of your Ninja, or pass (no block)")
        if ph in CONTEST_PHASES:
            stat = "Stealth" if ph == STEALTH else "Fight"
            att, dfn = self.contest_totals()
            loser = "" if ph == STEALTH else "; the loser is killed"
            return Decision(f"{stat} contest, attacker {att} against defender {dfn}: play a card that adds {stat}, "
                            f"or pass (the defender wins ties{loser})")
        if ph == TARGET_CHOICE:
            return Decision(f"{UNITS[self.c_target].name} won the Stealth contest: negate the attack, fight with "
                            f"Fight +{TARGET_BONUS}, or send another of your Ninja to fight in its place")
        if ph == PRESS:
            what = f"{SEAT_NAMES[self.c_defender]}'s village" if self.c_target < 0 else UNITS[self.c_target].name
            return Decision(f"You won the Stealth contest: fight {what} with Fight +{STEALTH_WIN_BONUS}, or withdraw")
        if ph == ENDURANCE:
            return Decision(f"{self._names(self.c_killed)} died attacking: play Endurance to put it back in your "
                            "hand, or pass")
        extra = len(self.hands[seat]) - HAND_LIMIT
        return Decision(f"Recovery Phase: discard down to {HAND_LIMIT} cards ({extra} more)")

    def _pending_name(self) -> str:
        return "Your SPY Ninja" if self.pending == LOOK else NAMES[self.pending]

    def _pending_kind(self) -> int:
        return C.LOOK_HAND if self.pending == LOOK else CARDS[self.pending].effect.kind

    @staticmethod
    def _names(units: list[int]) -> str:
        return " and ".join(UNITS[u].name for u in units)

    def _refusals(self, seat: int) -> dict[int, str]:
        if self.phase not in REFUSAL_PHASES:
            return {}  # a choice under way (a target, a block ...): the cards in hand wait for their phase
        legal = set(self.legal_actions(seat))
        out = {}
        for cid in set(self.hands[seat]):
            for action in self._card_actions(seat, cid):
                if action not in legal:
                    out[action] = self._card_refusal(seat, cid, action)
        return out

    def _card_actions(self, seat: int, cid: int) -> list[int]:
        """The actions that play this card from the hand: its main use, its second choice, with Sleeper Agent."""
        acts = [PLAY + cid]
        if cid in C.TWO_CHOICE_EVENTS:
            acts.append(ALT + C.TWO_CHOICE_EVENTS.index(cid))
        if CARDS[cid].kind == C.NINJA and SLEEPER_CARD in self.hands[seat]:
            acts.append(SLEEPER + C.NINJA_CARDS.index(cid))
        return acts

    def _card_refusal(self, seat: int, cid: int, action: int) -> str:
        """Why playing this card (this way) is not allowed now, from the seat's own knowledge."""
        ph = self.phase
        card = CARDS[cid]
        if card.kind == C.NINJA:
            if ph != RECRUIT:
                return "Ninja are recruited in your Recruit Phase"
            sleeper = action >= SLEEPER
            if sleeper and self.recruit_cost(seat, cid) == 0:
                return "it costs nothing already"
            cost = self.recruit_cost(seat, cid, sleeper)
            how = " with Sleeper Agent" if sleeper else ""
            return f"it costs {cost} Shinobi Marker{'s' if cost != 1 else ''}{how}; you have {self.markers[seat]}"
        kind = card.effect.kind
        if kind in (C.BOOST, C.GRAPPLE):
            if ph not in CONTEST_PHASES:
                return "played in a Stealth or Fight contest"
            side = self.c_turn
            if card.effect.side == (DEFENDER_ONLY if side == 0 else ATTACKER_ONLY):
                return f"{'defender' if side == 0 else 'attacker'} only"
            return f"{_choice_text(card.effect.choices[ACTION_CHOICE[action]])} adds no " \
                   f"{'Stealth' if ph == STEALTH else 'Fight'}"
        if kind in SPY_KINDS:
            return self._spy_refusal(seat, cid) if ph == SPY else "played in your Spy Phase"
        if kind == C.SLEEPER:
            return "played with a Ninja you recruit, lowering its Cost"
        if kind == C.ENDURANCE:
            return "played when one of your attacking Ninja is killed"
        if kind == C.EXTRA_ATTACK:
            return "you need a second Ninja free to attack" if ph == MISSION else "played in your Mission Phase"
        # C.MASS
        if self.mass:
            return "a mass-combat card is already played for this attack"
        if ph != MISSION:
            return "played in your Mission Phase, or when you are attacked (before you block)"
        if self.attacks_left <= 0:
            return "you have no attack left this turn"
        return "you need two Ninja free to attack"

    def _spy_refusal(self, seat: int, cid: int) -> str:
        kind = CARDS[cid].effect.kind
        if kind == C.LOOK_DECK:
            return "the deck is empty"
        if kind == C.CONTROL:
            return "no opponent has a Ninja in play"
        if kind == C.STEAL_MARKERS:
            return "no opponent has Shinobi Markers"
        return "no opponent has a card in hand"

    # --- applying actions ---------------------------------------------------------------------------
    def _apply(self, seat: int, action: int) -> None:
        self._APPLY_BY_PHASE[self.phase](self, seat, action)
        self._keep_legal()

    # Recruit Phase
    def _do_recruit(self, seat: int, action: int) -> None:
        if action == PASS:
            self.phase = SPY
            self._maybe_skip_spy()
            return
        sleeper = action >= SLEEPER
        cid = ACTION_CARD[action]
        cost = self.recruit_cost(seat, cid, sleeper)
        self.markers[seat] -= cost
        self._leave_hand(seat, cid)
        self.count("recruits")
        how = ""
        if sleeper:
            self._hand_to_discard(seat, SLEEPER_CARD)
            how = " with Sleeper Agent"
        tokens = C.TOKENS_OF.get(cid)
        if tokens:
            self.discard.append(cid)
            for u in tokens:
                self._enter_play(u, seat)
            self.log("recruit", f"{SEAT_NAMES[seat]} recruits {NAMES[cid]}{how} for {cost}: "
                     f"{len(tokens)} tokens into play")
        else:
            self._enter_play(cid, seat)
            self.log("recruit", f"{SEAT_NAMES[seat]} recruits {NAMES[cid]}{how} for {cost}")

    def _maybe_skip_spy(self) -> None:
        """An empty hand and no SPY to use leave nothing to do in the Spy Phase (a public fact)."""
        p = self.current
        if not self.hands[p] and not (self._unused_spies(p) and self._seat_candidates(LOOK, p)):
            self._after_spy()

    # Spy Phase
    def _do_spy(self, seat: int, action: int) -> None:
        if action == PASS:
            self._after_spy()
            return
        if action == SPY_LOOK:
            self.spy_used |= 1 << self._unused_spies(seat)[0]
            self._ask_seat(seat, LOOK)
            return
        cid = ACTION_CARD[action]
        self._hand_to_discard(seat, cid)
        e = CARDS[cid].effect
        self.log("play", f"{SEAT_NAMES[seat]} plays {NAMES[cid]}")
        if e.kind == C.DRAW:
            if not self._draw(seat, e.amount):
                return
        elif e.kind == C.GAIN_MARKERS:
            self.markers[seat] += e.amount
        elif e.kind == C.LOOK_DECK:
            self.known_top[seat] = min(e.amount, len(self.deck))
            top = ", ".join(NAMES[c] for c in reversed(self.deck[-self.known_top[seat]:]))
            self.log("look", f"the next cards of the deck are: {top}", to=seat)
        elif e.kind == C.CONTROL:
            targets = self._enemy_units(seat)
            self.pending = cid
            if len(targets) == 1:
                self._resolve_control(seat, targets[0])
            else:
                self.phase = SPY_UNIT
            return
        else:
            self._ask_seat(seat, cid)
            return
        self._maybe_skip_spy()

    def _ask_seat(self, seat: int, pending: int) -> None:
        self.pending = pending
        candidates = self._seat_candidates(pending, seat)
        if len(candidates) == 1:
            self._resolve_on_seat(seat, candidates[0])
        else:
            self.phase = SPY_SEAT

    def _do_spy_seat(self, seat: int, action: int) -> None:
        self._resolve_on_seat(seat, action - SEAT)

    def _resolve_on_seat(self, seat: int, victim: int) -> None:
        pending = self.pending
        self.pending = -1
        self.phase = SPY
        kind = C.LOOK_HAND if pending == LOOK else CARDS[pending].effect.kind
        if kind == C.LOOK_HAND:
            self.known[seat][victim] = list(self.hands[victim])
            self._settle_doubt(seat, victim)
            self.log("look", f"{SEAT_NAMES[seat]} looks at {SEAT_NAMES[victim]}'s hand")
            shown = ", ".join(sorted(NAMES[c] for c in self.hands[victim]))
            self.log("look", f"{SEAT_NAMES[victim]}'s hand: {shown}", to=seat)
        elif kind == C.STEAL_CARD:
            self._steal_card(seat, victim)
        elif kind == C.FORCE_DISCARD:
            self._random_discards(victim, CARDS[pending].effect.amount)
        else:  # STEAL_MARKERS
            taken = min(CARDS[pending].effect.amount, self.markers[victim])
            self.markers[victim] -= taken
            self.markers[seat] += taken
            self.log("markers", f"{SEAT_NAMES[seat]} takes {taken} markers from {SEAT_NAMES[victim]}")
            self._check_defeats()
            if self.phase == OVER:
                return
        self._maybe_skip_spy()

    def _settle_doubt(self, seat: int, looked_at: int) -> None:
        """A look at the victim's or the thief's hand settles which of the doubtful cards went."""
        doubt = self.doubt[seat]
        if not doubt:
            return
        if looked_at == self.stolen_by:
            self.known[seat][self.stolen_from] += [c for c in doubt if c not in self.hands[looked_at]]
        if looked_at in (self.stolen_by, self.stolen_from):
            self.doubt[seat] = []

    def _steal_card(self, thief: int, victim: int) -> None:
        hand = self.hands[victim]
        size = len(hand)
        card = hand[self.chance().randrange(size)]
        hand.remove(card)
        self.hands[thief].append(card)
        if card in self.known[thief][victim]:
            self.known[thief][victim].remove(card)
        self.known[victim][thief].append(card)
        # Intrigue is the only card that steals and there is one of it; should a second steal ever
        # happen, the doubts of the first are simply forgotten.
        first = self.stolen_from < 0
        self._no_steal()
        self.stolen_by, self.stolen_from = thief, victim
        for x in range(self.players):
            if x != thief and x != victim:
                if first and self.known[x][victim]:
                    self.doubt[x] = self.known[x][victim]  # which card went is unknown to them
                    self.doubt_n[x] = size
                self.known[x][victim] = []
        self.log("steal", f"{SEAT_NAMES[thief]} steals a random card from {SEAT_NAMES[victim]}")
        self.log("steal", f"{SEAT_NAMES[thief]} steals {NAMES[card]}", to=thief)
        self.log("steal", f"{NAMES[card]} is stolen from {SEAT_NAMES[victim]}", to=victim)

    def _do_spy_unit(self, seat: int, action: int) -> None:
        self._resolve_control(seat, action - UNIT)

    def _resolve_control(self, seat: int, unit: int) -> None:
        self.pending = -1
        self.phase = SPY
        victim = self.owner[unit]
        self.owner[unit] = seat
        self.log("control", f"{SEAT_NAMES[seat]} takes control of {UNITS[unit].name} from {SEAT_NAMES[victim]}")
        self._check_defeats()
        if self.phase != OVER:
            self._maybe_skip_spy()

    # Mission Phase
    def _do_mission(self, seat: int, action: int) -> None:
        if action == PASS:
            self.mass = 0
            self._recovery()
            return
        if action >= UNIT:
            self.c_att = [action - UNIT]
            self.attacked |= 1 << (action - UNIT)
            self.phase = TARGET
            self._attack_draw(action - UNIT)
            return
        cid = ACTION_CARD[action]
        self._hand_to_discard(seat, cid)
        e = CARDS[cid].effect
        if e.kind == C.EXTRA_ATTACK:
            self.attacks_left += e.amount
            self.log("play", f"{SEAT_NAMES[seat]} plays {NAMES[cid]}: one extra attack this turn")
        else:
            self.mass = e.amount
            self.log("play", f"{SEAT_NAMES[seat]} plays {NAMES[cid]}: each side may add {e.amount} Ninja "
                     "to the next attack")

    def _attack_draw(self, unit: int) -> None:
        draw = UNITS[unit].ability.attack_draw
        if draw:
            self.log("ability", f"{UNITS[unit].name} attacks: {SEAT_NAMES[self.current]} draws {draw}")
            self._draw(self.current, draw)

    def _do_target(self, seat: int, action: int) -> None:
        if action >= SEAT:
            self.c_defender = action - SEAT
            self.c_target = -1
            what = f"{SEAT_NAMES[self.c_defender]}'s village"
        else:
            self.c_target = action - UNIT
            self.c_defender = self.owner[self.c_target]
            what = f"{UNITS[self.c_target].name} of {SEAT_NAMES[self.c_defender]}"
        self.c_head = self.c_target
        self.count("raids" if self.c_target < 0 else "attacks_on_ninja")
        self.log("attack", f"{SEAT_NAMES[seat]} attacks {what} with {UNITS[self.c_att[0]].name}")
        self.c_log.append(f"{UNITS[self.c_att[0]].name} attacks {what}")
        if self.mass:
            self.c_extra_left = self.mass
            self.phase = ATT_EXTRA
            self._maybe_skip_att_extra()
        else:
            self._ask_block()

    def _maybe_skip_att_extra(self) -> None:
        if self.c_extra_left == 0 or not [u for u in self._free_attackers() if u not in self.c_att]:
            self._ask_block()

    def _do_att_extra(self, seat: int, action: int) -> None:
        if action == PASS:
            self._ask_block()
            return
        u = action - UNIT
        self.c_att.append(u)
        self.attacked |= 1 << u
        self.c_extra_left -= 1
        self.c_log.append(f"{UNITS[u].name} joins the attack")
        self.log("attack", f"{UNITS[u].name} joins the attack")
        self._attack_draw(u)
        if self.phase != OVER:
            self._maybe_skip_att_extra()

    def _ask_block(self) -> None:
        self.phase = BLOCK
        if not self._free_defenders():
            self._ask_def_extra()

    def _do_block(self, seat: int, action: int) -> None:
        if PLAY <= action < SLEEPER:
            self._defender_mass(seat, ACTION_CARD[action])
            return
        if action != PASS:
            self.c_blocker = self.c_head = action - UNIT
            self.c_log.append(f"{UNITS[self.c_blocker].name} blocks")
            self.log("block", f"{SEAT_NAMES[seat]} blocks with {UNITS[self.c_blocker].name}")
        else:
            self.c_log.append("no block")
        self._ask_def_extra()

    def _defender_mass(self, seat: int, cid: int) -> None:
        """The defender plays a mass-combat card: the attacker may add Ninja first, then the defender blocks."""
        self._hand_to_discard(seat, cid)
        self.mass = CARDS[cid].effect.amount
        self.c_log.append(f"defender plays {NAMES[cid]}")
        self.log("play", f"{SEAT_NAMES[seat]} plays {NAMES[cid]}: each side may add {self.mass} Ninja")
        self.c_extra_left = self.mass
        self.phase = ATT_EXTRA
        self._maybe_skip_att_extra()

    def _ask_def_extra(self) -> None:
        self.c_extra_left = self.mass
        self.phase = DEF_EXTRA
        if not self.c_extra_left or not self._free_defenders():
            self._start_contest(STEALTH)

    def _do_def_extra(self, seat: int, action: int) -> None:
        if action == PASS:
            self._start_contest(STEALTH)
            return
        u = action - UNIT
        self.c_def.append(u)
        self.c_extra_left -= 1
        self.c_log.append(f"{UNITS[u].name} joins the defence")
        self.log("block", f"{UNITS[u].name} joins the defence")
        if not self.c_extra_left or not self._free_defenders():
            self._start_contest(STEALTH)

    # Contests
    def _start_contest(self, phase: int) -> None:
        self.phase = phase
        self.c_stage = 0 if phase == STEALTH else 1
        self.c_plays = []
        self.c_turn = 0
        self.c_passes = 0
        self._auto_pass()

    def _auto_pass(self) -> None:
        """A side with an empty hand (a public fact) can only pass."""
        while self.phase in (STEALTH, FIGHT):
            seat = self.current if self.c_turn == 0 else self.c_defender
            if self.hands[seat]:
                return
            self._pass_contest()

    def _pass_contest(self) -> None:
        self.c_passes += 1
        if self.c_passes >= 2:
            if self.phase == STEALTH:
                self._resolve_stealth()
            else:
                self._resolve_fight()
        else:
            self.c_turn ^= 1

    def _do_contest(self, seat: int, action: int) -> None:
        if action == PASS:
            self._pass_contest()
            self._auto_pass()
            return
        cid = ACTION_CARD[action]
        e = CARDS[cid].effect
        s, f = e.choices[ACTION_CHOICE[action]]
        side = self.c_turn
        self._leave_hand(seat, cid)
        self.c_cards.append(cid)
        self.c_plays.append([side, cid, s, f, 0])
        bonus = f"+{s}S" if self.phase == STEALTH else f"+{f}F"
        self.c_log.append(f"{('attacker', 'defender')[side]} plays {NAMES[cid]} ({bonus})")
        self.log("play", f"{SEAT_NAMES[seat]} plays {NAMES[cid]} ({bonus})")
        if e.kind == C.GRAPPLE:
            self._grapple(side)
        if e.discard:
            other = self.c_defender if side == 0 else self.current
            self._random_discards(other, e.discard)
        self.c_passes = 0
        self.c_turn ^= 1
        self._auto_pass()

    def _grapple(self, side: int) -> None:
        """Negate the opposing Event card giving the largest Fight bonus in this contest (latest on ties)."""
        best = None
        for play in self.c_plays:
            if play[0] != side and not play[4] and play[3] > 0 and (best is None or play[3] >= best[3]):
                best = play
        if best is not None:
            best[4] = 1
            self.c_log.append(f"Taijutsu Grapple negates {NAMES[best[1]]}")
            self.log("play", f"Taijutsu Grapple negates {NAMES[best[1]]}")

    # Ratings
    def rating(self, unit: int, stat: int, role: int = -1) -> int:
        """A unit's current Stealth (0) or Fight (1): printed, AYN of its clan-mates, and the bonus of
        its role in the current combat (`role`: 0 attacking, 1 defending, -1 none)."""
        return self.ratings_sum((unit,), stat, role)

    def ratings_sum(self, units: list[int] | tuple[int, ...], stat: int, role: int = -1) -> int:
        """The sum of the units' `rating`s (one call for a whole side of a combat)."""
        owner = self.owner
        ayn = AYN_BONUSES[stat]
        role_bonuses = ROLE_BONUSES[stat]
        printed = PRINTED[stat]
        total = 0
        for unit in units:
            total += printed[unit]
            seat = owner[unit]
            for v, bonus in ayn:  # "all your Ninja": every other one of its controller
                if v == unit:
                    if seat < 0:
                        total -= bonus  # out of play, an AYN unit is shown its rating less its own AYN
                elif owner[v] == seat >= 0:
                    total += bonus
            if role >= 0 and role_bonuses[unit]:
                when, bonus = role_bonuses[unit]
                applies = (
                    (when == ATTACKING and role == 0)
                    or (when == UNBLOCKED and role == 0 and self.c_blocker < 0)
                    or (when == DEFENDING and role == 1)
                    or (when == BLOCKING and role == 1 and unit != self.c_target)
                )
                if applies:
                    total += bonus
        return total

    def side_units(self, side: int) -> list[int]:
        if side == 0:
            return self.c_att
        return ([self.c_head] if self.c_head >= 0 else []) + self.c_def

    def side_totals(self, stat: int) -> tuple[int, int]:
        """Both sides' totals in a contest of `stat`: their Ninja (or village, 0), their Event cards and ECP."""
        att_units, dfn_units = self.c_att, self.side_units(1)
        att = self.ratings_sum(att_units, stat, 0)
        dfn = self.ratings_sum(dfn_units, stat, 1)
        if self.c_plays:
            ecp_of = ECP_BONUSES[stat]
            att_ecp = dfn_ecp = 0  # each Event card a side plays gives this much more
            for u in att_units:
                att_ecp += ecp_of[u]
            for u in dfn_units:
                dfn_ecp += ecp_of[u]
            for side, _card, s, f, negated in self.c_plays:
                if not negated:
                    if side:
                        dfn += (f if stat else s) + dfn_ecp
                    else:
                        att += (f if stat else s) + att_ecp
        if stat == 1:
            return att + self.c_bonus[0], dfn + self.c_bonus[1]
        return att, dfn

    def contest_totals(self) -> tuple[int, int]:
        """The running totals of the contest under way, or those of the last one decided."""
        if self.phase in CONTEST_PHASES or self.c_result is None:
            stat = self.c_stage
            return self.side_totals(stat)
        return self.c_result

    def _resolve_stealth(self) -> None:
        att, dfn = self.side_totals(0)
        self.c_result = (att, dfn)
        self._tally_deciders(0, att, dfn)
        self.c_log.append(f"Stealth {att} against {dfn}")
        if att > dfn:
            self.log("combat", f"the attacker wins the Stealth contest {att} to {dfn}")
            self.c_head = self.c_target  # past any blocker, on to the original target
            self.c_bonus[0] = STEALTH_WIN_BONUS
            self.phase = PRESS  # "he may attack his original target"
        else:
            self.log("combat", f"the defender wins the Stealth contest {dfn} to {att}")
            if self.c_blocker >= 0:
                self._start_contest(FIGHT)  # the blocker must fight
            elif self.c_target < 0:
                self.c_log.append("the attack is used up")
                self.log("combat", "the unblocked village holds: the attack is used up")
                self._end_combat()
            else:
                self.phase = TARGET_CHOICE

    def _tally_deciders(self, stat: int, att: int, dfn: int) -> None:
        """For `stats`: each Event card without which its side would have lost the contest decided it."""
        winner = 0 if att > dfn else 1
        ecp = sum(UNITS[u].ability.ecp_f if stat else UNITS[u].ability.ecp_s for u in self.side_units(winner))
        for side, cid, *bonus, negated in self.c_plays:
            if side != winner or negated:
                continue
            worth = bonus[stat] + ecp
            if (att - worth <= dfn) if winner == 0 else (att > dfn - worth):
                self.count(f"decided_by:{NAMES[cid]}")

    def _do_press(self, seat: int, action: int) -> None:
        if action == WITHDRAW:
            self.c_log.append("the attacker withdraws")
            self.log("combat", f"{UNITS[self.c_att[0]].name} withdraws")
            self._end_combat()
        else:
            self._start_contest(FIGHT)

    def _do_target_choice(self, seat: int, action: int) -> None:
        if action == NEGATE:
            self.c_log.append(f"{UNITS[self.c_target].name} negates the attack")
            self.log("combat", f"{UNITS[self.c_target].name} negates the attack")
            self._end_combat()
            return
        if action != FIGHT_BACK:
            self.c_head = action - UNIT
            self.c_log.append(f"{UNITS[self.c_head].name} substitutes for {UNITS[self.c_target].name}")
            self.log("combat", f"{UNITS[self.c_head].name} substitutes for {UNITS[self.c_target].name}")
        else:
            self.log("combat", f"{UNITS[self.c_target].name} fights back")
        self.c_bonus[1] = TARGET_BONUS
        self._start_contest(FIGHT)

    def _resolve_fight(self) -> None:
        att, dfn = self.side_totals(1)
        self.c_result = (att, dfn)
        self._tally_deciders(1, att, dfn)
        self.count("fights_won_by_attacker" if att > dfn else "fights_won_by_defender")
        self.c_log.append(f"Fight {att} against {dfn}")
        attacker_lost = att <= dfn
        if not attacker_lost:
            losers = self.side_units(1)
            self.log("combat", f"the attacker wins the Fight contest {att} to {dfn}")
            if self.c_head < 0:
                paid = min(att - dfn, self.markers[self.c_defender])
                self.markers[self.c_defender] -= paid
                self.count("raid_markers_taken", paid)
                self.c_log.append(f"the village loses {paid} markers")
                self.log("combat", f"{SEAT_NAMES[self.c_defender]}'s village loses {paid} Shinobi Markers")
        else:
            losers = list(self.c_att)
            self.log("combat", f"the defender wins the Fight contest {dfn} to {att}")
        for u in losers:
            self._kill(u)
        if attacker_lost:
            self.c_killed = [u for u in losers if UNITS[u].card >= 0]
        self._end_combat()

    def _kill(self, unit: int) -> None:
        self.owner[unit] = -1
        self.in_play.remove(unit)
        if UNITS[unit].card >= 0:
            self.discard.append(unit)  # a card Ninja's unit id is its card id
        self.c_log.append(f"{UNITS[unit].name} is killed")
        self.log("kill", f"{UNITS[unit].name} is killed")

    def _end_combat(self) -> None:
        self.discard.extend(self.c_cards)
        self.c_cards = []
        self.c_plays = []
        self._check_defeats()
        if self.phase == OVER:
            return
        p = self.current
        # Offered whenever an attacking card Ninja died and the hand is not empty (public facts), so
        # the decision shows nothing of whether Endurance is in the hand.
        if self.c_killed and not self.defeated[p] and self.hands[p]:
            self.phase = ENDURANCE
            return
        self._after_attack()

    def _do_endurance(self, seat: int, action: int) -> None:
        if action != PASS:
            unit = action - UNIT
            self._hand_to_discard(seat, ENDURANCE_CARD)
            self.discard.remove(unit)
            self._discard_kept = None  # the pile shrank: the observation's copy of it starts again
            self.hands[seat].append(unit)
            for x in range(self.players):
                if x != seat:
                    self.known[x][seat].append(unit)  # everybody saw it go back to the hand
            self.log("play", f"{SEAT_NAMES[seat]} plays Endurance: {UNITS[unit].name} goes back to the hand")
        self._after_attack()

    def _after_attack(self) -> None:
        p = self.current
        self.attacks_left -= 1
        self.mass = 0
        keep = (self.attacked, self.spy_used, self.attacks_left)
        self._clear_combat()
        self.attacked, self.spy_used, self.attacks_left = keep
        if self.defeated[p]:
            self._end_turn()
            return
        self.phase = MISSION
        self._maybe_skip_mission()

    # Recovery Phase
    def _do_discard_down(self, seat: int, action: int) -> None:
        card = action - DISCARD
        self._hand_to_discard(seat, card)
        self.log("discard", f"{SEAT_NAMES[seat]} discards {NAMES[card]}")
        if len(self.hands[seat]) <= HAND_LIMIT:
            self._end_turn()

    # What an action does, by phase.
    _APPLY_BY_PHASE: ClassVar[dict[int, Any]] = {
        RECRUIT: _do_recruit, SPY: _do_spy, SPY_SEAT: _do_spy_seat, SPY_UNIT: _do_spy_unit, MISSION: _do_mission,
        TARGET: _do_target, ATT_EXTRA: _do_att_extra, BLOCK: _do_block, DEF_EXTRA: _do_def_extra,
        STEALTH: _do_contest, FIGHT: _do_contest, TARGET_CHOICE: _do_target_choice, ENDURANCE: _do_endurance,
        PRESS: _do_press, DISCARD_DOWN: _do_discard_down,
    }

    # --- views, observations, copies, sampled worlds -----------------------------------------------
    def _unit_view(self, u: int, role: int = -1) -> dict[str, Any]:
        unit = UNITS[u]
        return {
            "unit": u,
            "name": unit.name,
            "stealth": self.rating(u, 0, role),
            "fight": self.rating(u, 1, role),
            "cost": unit.cost,
            "notes": CARDS[unit.source].notes if unit.card >= 0 else ("SPY" if unit.ability.spy else ""),
            "spy_used": bool(self.spy_used >> u & 1),  # its SPY look this turn (everybody saw it)
        }

    def _view(self) -> dict[str, Any]:
        n = self.players
        clans = []
        for s in range(n):
            clans.append({
                "seat": s,
                "markers": self.markers[s],
                "hand_count": len(self.hands[s]),
                "hand": Private(sorted(NAMES[c] for c in self.hands[s]), s),
                "ninja": [self._unit_view(u) for u in self.units_of(s)],
                "defeated": self.defeated[s],
                "first_turn": self.turns_taken[s] == 0,
                "knows_deck_top": self.known_top[s],
            })
        knowledge = []
        for a in range(n):
            seen = {SEAT_NAMES[b]: sorted(NAMES[c] for c in self.known[a][b]) for b in range(n) if self.known[a][b]}
            top = [NAMES[c] for c in reversed(self.deck[len(self.deck) - self.known_top[a]:])]
            doubt = {SEAT_NAMES[self.stolen_from]: sorted(NAMES[c] for c in self.doubt[a])} if self.doubt[a] else {}
            knowledge.append(Private({"hands": seen, "one_may_be_stolen": doubt, "deck_top": top}, a))
        view = {
            "title": self.game.title,
            "phase": PHASE_NAMES[self.phase],
            "current": self.current,
            "deck": len(self.deck),
            "discard": [NAMES[c] for c in self.discard],
            "clans": clans,
            "knowledge": knowledge,
            "attacks_left": self.attacks_left,
            "mass": self.mass,
            "pending": None if self.pending == -1 else ("SPY" if self.pending == LOOK else NAMES[self.pending]),
            "combat": self._combat_view(),
            "ranking_by": self.options["ranking"],
            "final": self.final,
        }
        return view

    def _combat_view(self) -> dict[str, Any] | None:
        if not self.c_att:
            return None
        stat = self.c_stage
        return {
            "attacker": self.current,
            "defender": self.c_defender,
            "target": "village" if self.c_target < 0 else UNITS[self.c_target].name,
            "blocker": None if self.c_blocker < 0 else UNITS[self.c_blocker].name,
            "attacking": [self._unit_view(u, 0) for u in self.c_att],
            "defending": [self._unit_view(u, 1) for u in self.side_units(1)],
            "village": self.c_head < 0,
            "contest": ("stealth", "fight")[stat],
            "totals": list(self.contest_totals()),
            "bonus": list(self.c_bonus),
            "plays": [{"side": ("attacker", "defender")[p[0]], "card": NAMES[p[1]],
                       "bonus": p[2 + stat], "negated": bool(p[4])} for p in self.c_plays],
            "log": list(self.c_log),
        }

    def _observe(self, seat: int, out: np.ndarray) -> None:
        out = memoryview(out)  # Speed: a memoryview item store skips numpy's indexing (core/observe.py)
        n = self.players
        order = SEAT_ORDERS[n][seat]
        hands = self.hands
        for c in hands[seat]:
            out[c] = 1.0  # OBS_HAND is 0
        out[OBS_DISCARD:OBS_DISCARD + DECK_SIZE] = self._discard_floats()
        known = self.known[seat]
        o = OBS_KNOWN
        for b in order[1:]:
            for c in known[b]:
                out[o + c] = 1.0
            if b == self.stolen_from:
                for c in self.doubt[seat]:
                    out[o + c] = 0.5  # all of these but at most one
            o += DECK_SIZE
        deck = self.deck
        top = self.known_top[seat]
        if top:
            for c in deck[len(deck) - top:]:
                out[OBS_TOP + c] = 1.0
        out[OBS_DECK] = len(deck) / DECK_SIZE
        blocks = UNIT_BLOCKS[n][seat]
        owner = self.owner
        for u in self.in_play:
            out[blocks[owner[u]] + u] = 1.0
        markers, hands, defeated, turns_taken, current = (self.markers, self.hands, self.defeated, self.turns_taken,
                                                          self.current)
        o = OBS_SEATS
        for s in order:  # markers, hand size, defeated, first turn, seat is current
            out[o] = markers[s] / START_MARKERS
            out[o + 1] = len(hands[s]) / HAND_LIMIT
            if defeated[s]:
                out[o + 2] = 1.0
            if not turns_taken[s]:
                out[o + 3] = 1.0
            if s == current:
                out[o + 4] = 1.0
            o += 5
        out[OBS_PHASE + self.phase] = 1.0
        c_att = self.c_att
        if c_att:  # a combat under way (outside one, no unit defends either)
            for u in c_att:
                out[OBS_ATTACKING + u] = 1.0
            if self.c_head >= 0:
                out[OBS_DEFENDING + self.c_head] = 1.0
            for u in self.c_def:
                out[OBS_DEFENDING + u] = 1.0
            if self.c_head < 0:
                out[OBS_VILLAGE + (self.c_defender - seat) % n] = 1.0
            out[OBS_COMBAT] = self.current == seat
            out[OBS_COMBAT + 1] = self.c_defender == seat
            att, dfn = self.contest_totals()
            out[OBS_COMBAT + 2] = att / 10
            out[OBS_COMBAT + 3] = dfn / 10
            out[OBS_COMBAT + 4] = self.c_bonus[0] / 3
            out[OBS_COMBAT + 5] = self.c_bonus[1] / 3
            for p in self.c_plays:
                if not p[4]:
                    out[OBS_PLAYS + p[0] * DECK_SIZE + p[1]] = 1.0
        out[OBS_TAIL] = self.attacks_left
        if self.mass:
            out[OBS_TAIL + 1] = self.mass
        if self.pending != -1:
            out[OBS_TAIL + 2] = 1.0  # an Event or SPY look waiting for its target

    def _discard_floats(self) -> array:
        """The discard pile as DECK_SIZE floats 1.0 (in it) or 0.0, for the observation.

        Speed: kept from one observation to the next and brought up to date with the cards added since, since the
        pile only grows (Endurance, which takes a card back, drops it); a copy starts its own."""
        pile = self.discard
        kept = self._discard_kept
        if kept is None or kept[0] is not pile:
            kept = self._discard_kept = [pile, 0, array("f", bytes(4 * DECK_SIZE))]
        floats = kept[2]
        if kept[1] < len(pile):
            for c in pile[kept[1]:]:
                floats[c] = 1.0
            kept[1] = len(pile)
        return floats

    def __getstate__(self) -> dict[str, Any]:
        state = super().__getstate__()
        state.pop("_discard_kept", None)
        return state

    def _stats(self) -> dict[str, float]:
        return {"rounds": max(self.turns_taken), "turns": sum(self.turns_taken), "players_defeated": sum(self.defeated)}

    def _copy_mutables(self, other: State) -> None:
        other.deck = self.deck.copy()
        other.hands = [h.copy() for h in self.hands]
        other.discard = self.discard.copy()
        other.owner = self.owner.copy()
        other.in_play = self.in_play.copy()
        other.markers = self.markers.copy()
        other.defeated = self.defeated.copy()
        other.turns_taken = self.turns_taken.copy()
        other.known = [[k.copy() for k in row] for row in self.known]
        other.known_top = self.known_top.copy()
        other.doubt = [d.copy() for d in self.doubt]
        other.doubt_n = self.doubt_n.copy()
        other.c_att = self.c_att.copy()
        other.c_def = self.c_def.copy()
        other.c_bonus = self.c_bonus.copy()
        other.c_plays = [p.copy() for p in self.c_plays]
        other.c_cards = self.c_cards.copy()
        other.c_killed = self.c_killed.copy()
        other.c_log = self.c_log.copy()

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
        assert isinstance(world, ClanWarsState)
        world._legal_kept = None  # the other hands are dealt again: worked out when first asked
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


UNIT_ID = {u.name: i for i, u in enumerate(UNITS)}


def scripted_state(
    hands: list[list[str]],
    deck: list[str] = (),
    ninja: list[list[str]] | None = None,
    markers: list[int] | None = None,
    current: int = 0,
    first_turn: bool = False,
    phase: int = RECRUIT,
    **options: Any,
) -> ClanWarsState:
    """A position set up by hand, for tests and examples: card and unit names instead of a shuffle.

    `deck` lists the cards from the bottom to the top (the last one is drawn first); `ninja[s]` names
    the units seat s has in play (a Ninja card's name, or a token's such as "Genin 2"). The Fate draw of
    the current turn is taken as done; the state starts in `phase` of `current`'s turn.
    """
    from ...core import get_game

    players = len(hands)
    state = get_game("clanwars").new_state(players, seed=0, **options)
    assert isinstance(state, ClanWarsState)
    state.hands = [[C.card_id(name) for name in hand] for hand in hands]
    state.deck = [C.card_id(name) for name in deck]
    state.discard = []
    state.owner = [-1] * NUM_UNITS
    state.in_play = []
    for seat, names in enumerate(ninja or []):
        for name in names:
            state._enter_play(UNIT_ID[name], seat)
    state.markers = list(markers) if markers is not None else [START_MARKERS] * players
    state.defeated = [False] * players
    state.turns_taken = [0 if first_turn else 1] * players
    state.known = [[[] for _ in range(players)] for _ in range(players)]
    state.known_top = [0] * players
    state._no_steal()
    state._clear_combat()
    state._legal_kept = None  # the position is set up below: worked out when first asked
    state.current = current
    state.attacks_left = 0 if first_turn else 1
    state.phase = phase
    state.events = []
    return state


class ClanWarsGame(Game):
    id = "clanwars"
    title = "Ninja Clan Wars"
    summary = "Recruit a clan of Ninja, spy, attack villages and Ninja; the highest-ranking Ninja wins."
    player_counts = (2, 3, 4, 5, 6)
    default_players = 2
    # The ranking counts only at the end of a long war that random play fights badly: the search plays its
    # rollouts with the heuristic for 30 moves (about a turn each), then reads the heuristic's estimate.
    search_defaults: ClassVar[dict[str, Any]] = {"iterations": 150, "rollout": "heuristic", "depth": 30, "prior": 0.2}
    options = (
        Option("ranking", "cost", "what 'highest ranking Ninja' means at the end: printed Cost (tokens 0) or "
               "base Stealth + Fight", choices=("cost", "stats")),
    )

    state_class = ClanWarsState
    action_labels = LABELS
    observation_size = OBS_SIZE
    renderer = staticmethod(render)
