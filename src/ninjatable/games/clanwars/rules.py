"""Ninja Clan Wars: the rules as a state machine on the kernel contract.

A turn: Fate (draw 2), Recruit, Spy, Mission (attacks, each a combat of small decisions: attacker,
target, extra Ninja, block, Stealth contest, the target's choice, Fight contest, Endurance; see combat.py),
Recovery (+1 marker, discard down to 7). Cards are data (cards.py), the action ids are in actions.py; see
docs/rules/clanwars.md for every rule and interpretation.
"""

from __future__ import annotations

from bisect import insort
from typing import Any, ClassVar

from ...core import BadArgument, Decision, Game, Option, State, winners_text
from ...core.deal import shuffle
from . import cards as C
from .actions import (
    ACTION_CARD,
    ACTION_CHOICE,
    ACTION_LABELS,
    ALT,
    ATT_EXTRA,
    BLOCK,
    CONTEST_PHASES,
    DEF_EXTRA,
    DEFENDER_PHASES,
    DISCARD,
    DISCARD_DOWN,
    ENDURANCE,
    FIGHT,
    LOOK,
    MISSION,
    OVER,
    PASS,
    PHASE_NAMES,
    PLAY,
    PRESS,
    RECRUIT,
    SEAT,
    SEAT_NAMES,
    SLEEPER,
    SLEEPER_ACTION,
    SLEEPER_CARD,
    SPY,
    SPY_LOOK,
    SPY_SEAT,
    SPY_UNIT,
    STEALTH,
    TARGET,
    TARGET_CHOICE,
    UNIT,
    choice_text,
)
from .cards import (
    ATTACKER_ONLY,
    CARD_ID,
    CARDS,
    DECK_SIZE,
    DEFENDER_ONLY,
    EVENT_KIND,
    HAND_LIMIT,
    IS_NINJA,
    NAMES,
    NUM_UNITS,
    START_HAND,
    START_MARKERS,
    UNIT_ID,
    UNITS,
)
from .combat import STEALTH_WIN_BONUS, TARGET_BONUS, Combat
from .observe import OBS_SIZE, Observer
from .render import render
from .worlds import WorldSampler

FATE_DRAW = 2
# The units whose abilities reach beyond a combat, so the hot paths look only at these few.
SPY_UNITS = tuple(u for u, unit in enumerate(UNITS) if unit.ability.spy)
DISCOUNT_UNITS = tuple(u for u, unit in enumerate(UNITS) if unit.ability.discount)

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


class ClanWarsState(Combat, Observer, WorldSampler, State):
    """A game of Ninja Clan Wars; the Mission Phase is in `Combat`, views and observations in `Observer`, sampled
    worlds in `WorldSampler`."""

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

    # --- small helpers --------------------------------------------------------------------------------
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
        return (self._mover(),)

    def _mover(self) -> int:
        """The one seat that decides now (every decision of this game is one seat's)."""
        ph = self.phase
        if ph in DEFENDER_PHASES:
            return self.c_defender
        if ph in CONTEST_PHASES:
            return self.current if self.c_turn == 0 else self.c_defender
        return self.current

    def _legal_actions(self, seat: int) -> list[int]:
        if self.phase == OVER or seat != self._mover():
            return []  # the game is over, or not this seat's decision
        acts = self._LEGAL_BY_PHASE[self.phase](self, seat)
        acts.sort()
        return acts

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

    def _spy_seat_actions(self, seat: int) -> list[int]:
        return [SEAT + s for s in self._seat_candidates(self.pending, seat)]

    def _spy_unit_actions(self, seat: int) -> list[int]:
        return [UNIT + u for u in self._enemy_units(seat)]

    def _discard_down_actions(self, seat: int) -> list[int]:
        return [DISCARD + c for c in self.hands[seat]]

    # The legal actions of the seat to move, by phase (each card is held once, so no list has repeats).
    _LEGAL_BY_PHASE: ClassVar[dict[int, Any]] = {
        RECRUIT: _recruit_actions, SPY: _spy_actions, SPY_SEAT: _spy_seat_actions, SPY_UNIT: _spy_unit_actions,
        MISSION: Combat._mission_actions, TARGET: Combat._target_actions, ATT_EXTRA: Combat._att_extra_actions,
        BLOCK: Combat._block_actions, DEF_EXTRA: Combat._def_extra_actions, STEALTH: Combat._contest_actions,
        FIGHT: Combat._contest_actions, TARGET_CHOICE: Combat._target_choice_actions,
        ENDURANCE: Combat._endurance_actions, PRESS: Combat._press_actions, DISCARD_DOWN: _discard_down_actions,
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
            return f"{choice_text(card.effect.choices[ACTION_CHOICE[action]])} adds no " \
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

    # Recovery Phase
    def _do_discard_down(self, seat: int, action: int) -> None:
        card = action - DISCARD
        self._hand_to_discard(seat, card)
        self.log("discard", f"{SEAT_NAMES[seat]} discards {NAMES[card]}")
        if len(self.hands[seat]) <= HAND_LIMIT:
            self._end_turn()

    # What an action does, by phase.
    _APPLY_BY_PHASE: ClassVar[dict[int, Any]] = {
        RECRUIT: _do_recruit, SPY: _do_spy, SPY_SEAT: _do_spy_seat, SPY_UNIT: _do_spy_unit,
        MISSION: Combat._do_mission, TARGET: Combat._do_target, ATT_EXTRA: Combat._do_att_extra,
        BLOCK: Combat._do_block, DEF_EXTRA: Combat._do_def_extra, STEALTH: Combat._do_contest,
        FIGHT: Combat._do_contest, TARGET_CHOICE: Combat._do_target_choice, ENDURANCE: Combat._do_endurance,
        PRESS: Combat._do_press, DISCARD_DOWN: _do_discard_down,
    }

    # --- copies, pickles, statistics ----------------------------------------------------------------
    def __getstate__(self) -> dict[str, Any]:
        # The discard floats are worked out when observed (`Observer._discard_floats`): copies and pickles leave them
        # out.
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

    # --- a position set by hand --------------------------------------------------------------------
    def _set_position(
        self,
        hands: list[list[str]],
        deck: list[str] | tuple[str, ...] = (),
        ninja: list[list[str]] | None = None,
        markers: list[int] | None = None,
        current: int = 0,
        first_turn: bool = False,
        phase: int = RECRUIT,
        known: dict[tuple[int, int], list[str]] | None = None,
    ) -> None:
        """A position for tests and examples: card and unit names instead of a shuffle.

        `hands[s]` names seat s's cards; `deck` lists the cards from the bottom to the top (the last one is drawn
        first); `ninja[s]` names the units seat s has in play (a Ninja card's name, or a token's such as "Genin 2");
        `known[a, b]` names the cards seat a knows to be in seat b's hand. The Fate draw of the current turn is taken
        as done; the state starts in `phase` of `current`'s turn, with no event logged.
        """
        n = self.players
        if len(hands) != n:
            raise BadArgument(f"clanwars: {len(hands)} hands for {n} players")
        if ninja is not None and len(ninja) > n:
            raise BadArgument(f"clanwars: Ninja in play for {len(ninja)} seats at a table of {n}")
        if markers is not None and len(markers) != n:
            raise BadArgument(f"clanwars: {len(markers)} marker counts for {n} players")
        if not 0 <= current < n:
            raise BadArgument(f"clanwars: seat {current} cannot be the current player; seats are 0 to {n - 1}")
        if not 0 <= phase < len(PHASE_NAMES):
            raise BadArgument(f"clanwars: no phase {phase}; phases are 0 to {len(PHASE_NAMES) - 1}")
        self.hands = [_ids(hand, CARD_ID, "card") for hand in hands]
        self.deck = _ids(deck, CARD_ID, "card")
        self.discard = []
        self.owner = [-1] * NUM_UNITS
        self.in_play = []
        for seat, names in enumerate(ninja or []):
            for u in _ids(names, UNIT_ID, "Ninja"):
                self._enter_play(u, seat)
        self.markers = list(markers) if markers is not None else [START_MARKERS] * n
        self.defeated = [False] * n
        self.turns_taken = [0 if first_turn else 1] * n
        self.known = [[[] for _ in range(n)] for _ in range(n)]
        for (a, b), names in (known or {}).items():
            self.known[a][b] = _ids(names, CARD_ID, "card")
        self.known_top = [0] * n
        self._no_steal()
        self.final = None
        self._clear_combat()
        self.current = current
        self.attacks_left = 0 if first_turn else 1
        self.phase = phase
        self.events = []


def _ids(names: list[str] | tuple[str, ...], table: dict[str, int], what: str) -> list[int]:
    """The ids of named cards or units, for a position set by hand."""
    unknown = [name for name in names if name not in table]
    if unknown:
        raise BadArgument(f"clanwars has no {what} named {unknown[0]!r}")
    return [table[name] for name in names]


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
    action_labels = ACTION_LABELS
    observation_size = OBS_SIZE
    renderer = staticmethod(render)
