"""Ninja Clan Wars' action space: action ids, their labels and cards, the phases (which decision is open)."""

from __future__ import annotations

from ...core import seat_name
from . import cards as C
from .cards import ATTACKER_ONLY, CARDS, DECK_SIZE, DEFENDER_ONLY, NAMES, NUM_UNITS, UNITS

MAX_SEATS = 6
SEAT_NAMES = tuple(seat_name(s) for s in range(MAX_SEATS))  # Speed: the events name seats often

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


def choice_text(choice: tuple[int, int]) -> str:
    """One choice of a combat Event, as the label shows it: "+1S", "+2F"."""
    s, f = choice
    return f"+{s}S" if s else f"+{f}F"


def _action_tables() -> tuple[list[str], list[int], list[int]]:
    """Label, card and choice index of every action (card -1 for actions that play no card)."""
    labels = ["pass"]
    card = [-1]
    choice = [-1]
    for cid, c in enumerate(CARDS):
        if c.kind == C.NINJA:
            labels.append(f"recruit {c.name}")
        elif len(c.effect.choices) == 2:
            labels.append(f"{c.name} {choice_text(c.effect.choices[0])}")
        else:
            labels.append(c.name)
        card.append(cid)
        choice.append(0)
    for cid in C.NINJA_CARDS:
        labels.append(f"recruit {NAMES[cid]} with Sleeper Agent")
        card.append(cid)
        choice.append(0)
    for cid in C.TWO_CHOICE_EVENTS:
        labels.append(f"{NAMES[cid]} {choice_text(CARDS[cid].effect.choices[1])}")
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


ACTION_LABELS, ACTION_CARD, ACTION_CHOICE = _action_tables()
assert len(ACTION_LABELS) == NUM_ACTIONS


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
# The action recruiting each Ninja card with Sleeper Agent.
SLEEPER_ACTION = {cid: SLEEPER + k for k, cid in enumerate(C.NINJA_CARDS)}

# The phases: which decision is open (each offers its own actions, see `ClanWarsState._LEGAL_BY_PHASE`).
(RECRUIT, SPY, SPY_SEAT, SPY_UNIT, MISSION, TARGET, ATT_EXTRA, BLOCK, DEF_EXTRA, STEALTH, TARGET_CHOICE,
 FIGHT, ENDURANCE, DISCARD_DOWN, OVER, PRESS) = range(16)
PHASE_NAMES = ("recruit", "spy", "spy: choose an opponent", "spy: choose a Ninja", "mission: choose an attacker",
               "mission: choose a target", "mission: add attacking Ninja", "block", "add defending Ninja",
               "stealth contest", "target's choice", "fight contest", "endurance", "recovery: discard", "over",
               "attacker's choice")
LOOK = -2  # pending "card" for a SPY look
DEFENDER_PHASES = frozenset((BLOCK, DEF_EXTRA, TARGET_CHOICE))
CONTEST_PHASES = frozenset((STEALTH, FIGHT))
