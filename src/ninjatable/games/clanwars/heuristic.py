"""A heuristic bot for Ninja Clan Wars, deciding from the seat's view and legal actions only.

Strategy (see "Heuristic bot" in docs/rules/clanwars.md): recruit the most expensive Ninja it can while
keeping a small reserve of markers; play every Spy Phase card against the leading opponent; attack only
where its Ninja should win the Stealth contest against every possible blocker; in a contest play the
smallest card that turns the result, and pass when ahead or when its cards cannot catch up; block only
with a Ninja that wins both contests; press an attack that out-fights the defence; fight back or substitute when
the +3 wins the fight, else negate.
"""

from __future__ import annotations

from typing import Any

from ...core import Bot, SeatInfo, win_chances
from . import cards as C
from .actions import (
    ACTION_CARD,
    ACTION_CHOICE,
    DISCARD,
    FIGHT_BACK,
    NEGATE,
    PASS,
    SEAT,
    SLEEPER,
    SPY_LOOK,
    UNIT,
    WITHDRAW,
)

RESERVE = 4  # markers kept back when recruiting: a village with none is one raid from defeat
# The static estimate: how much a Ninja in play, a marker and a recruitable Ninja in hand add to a clan's
# standing, measured in ranks of its best Ninja (what decides the game first).
UNIT_WORTH = 0.3
MARKER_WORTH = 0.03
IN_HAND_SHARE = 0.6
# How uncertain the standing is: with more cards left to draw, more can change before the end.
SPREAD_BASE = 1.0
SPREAD_PER_DECK_CARD = 0.08
DEFEATED = -100.0
SPY_KINDS = (C.DRAW, C.GAIN_MARKERS, C.STEAL_MARKERS, C.STEAL_CARD, C.FORCE_DISCARD, C.CONTROL, C.LOOK_HAND,
             C.LOOK_DECK)


class ClanWarsHeuristic(Bot):
    name = "heuristic"

    def act(self, info: SeatInfo) -> int:
        legal = info.legal_actions()
        if len(legal) == 1:
            return legal[0]
        view = info.view()
        me = info.seat
        phase = view["phase"]
        if phase == "recruit":
            return self._recruit(view, me, legal)
        if phase == "spy":
            return self._spy(legal)
        if phase.startswith("spy: choose an opponent"):
            return self._pick_opponent(view, legal)
        if phase.startswith("spy: choose a Ninja") or phase == "mission: choose a target":
            return self._pick_target(view, me, legal)
        if phase == "mission: choose an attacker":
            return self._mission(view, me, legal)
        if phase in ("mission: add attacking Ninja", "add defending Ninja"):
            return self._strongest_unit(view, me, legal)
        if phase == "block":
            return self._block(view, me, legal)
        if phase in ("stealth contest", "fight contest"):
            return self._contest(view, me, legal)
        if phase == "attacker's choice":
            return self._press(view)
        if phase == "target's choice":
            return self._target_choice(view, me, legal)
        if phase == "endurance":
            return max(legal)  # save the Ninja rather than pass
        if phase == "recovery: discard":
            return min(legal, key=lambda a: _card_value(a - DISCARD))
        return self.rng.choice(legal)

    @staticmethod
    def estimate(state) -> list[float]:
        """Each clan's chance to win if play went on: the end-game ranking, softened by what may still change."""
        values = [clan_standing(state, seat) for seat in range(state.players)]
        return win_chances(values, SPREAD_BASE + SPREAD_PER_DECK_CARD * len(state.deck))

    # --- phases -------------------------------------------------------------------------------------
    def _recruit(self, view: dict[str, Any], me: int, legal: list[int]) -> int:
        markers = view["clans"][me]["markers"]
        best, best_key = PASS, None
        for a in legal:
            if a == PASS:
                continue
            cid = ACTION_CARD[a]
            sleeper = a >= SLEEPER
            # Prefer the highest printed Cost (it ranks at the end), then saving the Sleeper Agent.
            key = (C.CARDS[cid].cost, not sleeper)
            if best_key is None or key > best_key:
                best, best_key = a, key
        if best == PASS:
            return PASS
        price = C.CARDS[ACTION_CARD[best]].cost - (4 if best >= SLEEPER else 0)
        if markers - max(price, 0) < RESERVE and best < SLEEPER:
            return PASS
        return best

    def _spy(self, legal: list[int]) -> int:
        for a in legal:
            if a == SPY_LOOK:
                return a
            cid = ACTION_CARD[a]
            if cid >= 0 and C.CARDS[cid].effect is not None and C.CARDS[cid].effect.kind in SPY_KINDS:
                return a
        return PASS

    def _pick_opponent(self, view: dict[str, Any], legal: list[int]) -> int:
        clans = view["clans"]
        return max(legal, key=lambda a: (_strength(clans[a - SEAT]), clans[a - SEAT]["hand_count"]))

    def _pick_target(self, view: dict[str, Any], me: int, legal: list[int]) -> int:
        """Take control of (or attack) the opponent Ninja worth most; attack the village that can't block."""
        units = {n["unit"]: n for clan in view["clans"] for n in clan["ninja"]}
        combat = view["combat"]
        if combat is None:  # take control
            return max(legal, key=lambda a: _unit_worth(units[a - UNIT]))
        attacker = combat["attacking"][0]
        best, best_value = None, -1.0
        for a in legal:
            if a >= UNIT and a < SEAT:
                target = units[a - UNIT]
                owner = _owner(view, target["unit"])
                guard = max([n["stealth"] for n in view["clans"][owner]["ninja"]], default=0)
                if attacker["stealth"] > guard and attacker["fight"] + 3 > target["fight"]:
                    value = 2.0 * target["cost"] + 1
                else:
                    value = 0.0
            else:
                clan = view["clans"][a - SEAT]
                guard = max([n["stealth"] for n in clan["ninja"]], default=0)
                value = min(attacker["fight"] + 3, clan["markers"]) if attacker["stealth"] > guard else 0.1
            if value > best_value:
                best, best_value = a, value
        return best

    def _mission(self, view: dict[str, Any], me: int, legal: list[int]) -> int:
        attackers = [a for a in legal if UNIT <= a < SEAT]
        if not attackers:
            return PASS
        mine = {n["unit"]: n for n in view["clans"][me]["ninja"]}
        guards = [max([n["stealth"] for n in clan["ninja"]], default=0)
                  for clan in view["clans"] if clan["seat"] != me and not clan["defeated"]]
        weakest_guard = min(guards, default=99)
        best = max(attackers, key=lambda a: (mine[a - UNIT]["stealth"], mine[a - UNIT]["fight"]))
        if mine[best - UNIT]["stealth"] > weakest_guard:
            extra = [a for a in legal if ACTION_CARD[a] >= 0 and C.CARDS[ACTION_CARD[a]].effect.kind == C.EXTRA_ATTACK]
            return extra[0] if extra and len(attackers) > 1 else best
        return PASS

    def _strongest_unit(self, view: dict[str, Any], me: int, legal: list[int]) -> int:
        mine = {n["unit"]: n for n in view["clans"][me]["ninja"]}
        units = [a for a in legal if UNIT <= a < SEAT]
        if not units:
            return PASS
        return max(units, key=lambda a: mine[a - UNIT]["stealth"] + mine[a - UNIT]["fight"])

    def _block(self, view: dict[str, Any], me: int, legal: list[int]) -> int:
        combat = view["combat"]
        att_s, _ = combat["totals"]
        att_f = sum(n["fight"] for n in combat["attacking"])
        mine = {n["unit"]: n for n in view["clans"][me]["ninja"]}
        if combat["target"] != "village":
            target = [n for n in mine.values() if n["name"] == combat["target"]]
            if target and target[0]["stealth"] >= att_s:
                return PASS  # the target wins the Stealth contest itself
        best = PASS
        for a in legal:
            if not UNIT <= a < SEAT:
                continue
            n = mine[a - UNIT]
            ability = C.UNITS[a - UNIT].ability
            block_s = n["stealth"] + (ability.s if ability.when == C.BLOCKING else 0)
            cheaper = best == PASS or n["cost"] < mine[best - UNIT]["cost"]
            if block_s >= att_s and n["fight"] >= att_f and cheaper:
                best = a
        return best

    def _contest(self, view: dict[str, Any], me: int, legal: list[int]) -> int:
        combat = view["combat"]
        side = 0 if combat["attacker"] == me else 1
        stat = 1 if combat["contest"] == "fight" else 0
        mine, theirs = combat["totals"][side], combat["totals"][1 - side]
        need = theirs - mine + (1 if side == 0 else 0)  # the defender wins ties
        if need <= 0:
            return PASS
        opposing = max([p["bonus"] for p in combat["plays"] if p["side"] != combat_side(side) and not p["negated"]],
                       default=0)
        plays = []
        for a in legal:
            if a == PASS:
                continue
            gain = C.CARDS[ACTION_CARD[a]].effect.choices[ACTION_CHOICE[a]][stat]
            if C.CARDS[ACTION_CARD[a]].effect.kind == C.GRAPPLE:
                gain += opposing
            plays.append((gain, a))
        if not plays or sum(g for g, _ in plays) < need:
            return PASS  # cannot turn it: keep the cards
        enough = [p for p in plays if p[0] >= need]
        return min(enough)[1] if enough else max(plays)[1]

    def _press(self, view: dict[str, Any]) -> int:
        """Go on to the Fight unless the defence already out-fights the attacker with its +3."""
        combat = view["combat"]
        att_f = sum(n["fight"] for n in combat["attacking"]) + 3
        def_f = sum(n["fight"] for n in combat["defending"])
        return FIGHT_BACK if att_f > def_f else WITHDRAW

    def _target_choice(self, view: dict[str, Any], me: int, legal: list[int]) -> int:
        combat = view["combat"]
        att_f = sum(n["fight"] for n in combat["attacking"])
        mine = {n["unit"]: n for n in view["clans"][me]["ninja"]}
        target = [n for n in mine.values() if n["name"] == combat["target"]]
        if target and target[0]["fight"] + 3 >= att_f + 2:
            return FIGHT_BACK
        subs = [a for a in legal if UNIT <= a < SEAT and mine[a - UNIT]["fight"] + 3 >= att_f + 2]
        if subs:
            return min(subs, key=lambda a: mine[a - UNIT]["cost"])
        return NEGATE


def combat_side(side: int) -> str:
    return ("attacker", "defender")[side]


def _owner(view: dict[str, Any], unit: int) -> int:
    for clan in view["clans"]:
        if any(n["unit"] == unit for n in clan["ninja"]):
            return clan["seat"]
    return -1


def _strength(clan: dict[str, Any]) -> tuple[int, int, int]:
    return (max([n["cost"] for n in clan["ninja"]], default=-1), len(clan["ninja"]), clan["markers"])


def _unit_worth(n: dict[str, Any]) -> float:
    return n["cost"] * 10 + n["stealth"] + n["fight"]


def _card_value(cid: int) -> float:
    """How much a card in hand is worth keeping (the lowest is discarded first)."""
    card = C.CARDS[cid]
    if card.kind == C.NINJA:
        return card.cost + 2
    e = card.effect
    if e.kind in (C.BOOST, C.GRAPPLE):
        return max(max(x) for x in e.choices) + (1 if e.discard else 0)
    return {C.CONTROL: 8, C.STEAL_MARKERS: 4, C.GAIN_MARKERS: 4, C.DRAW: 3, C.STEAL_CARD: 3, C.FORCE_DISCARD: 3,
            C.EXTRA_ATTACK: 3, C.ENDURANCE: 3, C.SLEEPER: 4}.get(e.kind, 1)


def clan_standing(state, seat: int) -> float:
    """The end-game ranking key as one number: best Ninja, then Ninja in play, markers, Ninja in hand."""
    if state.defeated[seat]:
        return DEFEATED
    by = state.options["ranking"]
    units = state.units_of(seat)
    best = max((C.rank(u, by) for u in units), default=0)
    # A Ninja card's unit id is its card id; a card that puts tokens into play adds only rank-0 tokens.
    in_hand = max((C.rank(c, by) for c in state.hands[seat] if C.CARDS[c].kind == C.NINJA and not C.IS_TIP[c]),
                  default=0)
    return max(best, IN_HAND_SHARE * in_hand) + UNIT_WORTH * len(units) + MARKER_WORTH * state.markers[seat]
