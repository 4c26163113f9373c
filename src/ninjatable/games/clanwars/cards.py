"""The 77 cards of Ninja Clan Wars as data: 22 Ninja and 55 Events, one copy each.

A card is `Card(name, kind, cost, stealth, fight, effect)`. Ninja carry their printed ratings and an
`Ability` (conditional bonuses, AYN, ECP, SPY, recruit discount, draw when attacking) or, for the TIP
cards, the tokens they put into play. Events carry an `Effect`: a kind plus amounts and restrictions.
The engine reads these tables; no card has a branch of its own.

Every Ninja in play is a *unit* with a fixed id: the 22 Ninja cards are units 0-21 (unit id = card id)
and the 14 tokens the TIP cards can put into play are units 22-35. Each card exists once, so each unit
does too, and a unit id names one Ninja for attacks, blocks and "take control".

The numbers of the supply (Shinobi Markers and cards each clan starts with, the hand limit) are here too.
"""

from __future__ import annotations

from typing import NamedTuple

NINJA, EVENT = 0, 1

START_MARKERS = 20  # Shinobi Markers each clan starts with
START_HAND = 7
HAND_LIMIT = 7  # cards kept at the end of a turn

# When a Ninja's conditional bonus applies (its role in the current combat).
ALWAYS, ATTACKING, BLOCKING, DEFENDING, UNBLOCKED = range(5)

# Which side may play a combat event.
ANY_SIDE, ATTACKER_ONLY, DEFENDER_ONLY = range(3)

# Event kinds.
(BOOST, GRAPPLE, SLEEPER, ENDURANCE, CONTROL, DRAW, STEAL_CARD, FORCE_DISCARD, EXTRA_ATTACK, MASS,
 LOOK_DECK, LOOK_HAND, GAIN_MARKERS, STEAL_MARKERS) = range(14)


class Ability(NamedTuple):
    """What a Ninja (or token) does besides its printed ratings."""

    when: int = ALWAYS  # role that triggers the conditional bonus below
    s: int = 0  # conditional Stealth bonus
    f: int = 0  # conditional Fight bonus
    ayn_s: int = 0  # every other Ninja of its controller gets this Stealth
    ayn_f: int = 0  # every other Ninja of its controller gets this Fight
    ecp_s: int = 0  # each Event card its side plays in a Stealth contest it is in gives this much more
    ecp_f: int = 0  # each Event card its side plays in a Fight contest it is in gives this much more
    spy: bool = False  # may look at one opponent's hand in its controller's Spy Phase
    discount: int = 0  # Ninja cost this much less to recruit for its controller
    attack_draw: int = 0  # its controller draws this many cards when it attacks


class Tokens(NamedTuple):
    """A TIP card: paying its cost puts `count` tokens of these ratings into play."""

    count: int
    s: int
    f: int
    spy: bool = False
    name: str = "token"


class Effect(NamedTuple):
    """What an Event card does.

    `choices` lists the (Stealth, Fight) bonuses a BOOST or GRAPPLE card offers: "+1S or +2F" is two
    choices, "+3S" one. `amount` is the number of cards drawn, looked at, stolen or discarded, markers
    gained or stolen, cost reduced, extra attacks or extra Ninja per side.
    """

    kind: int
    choices: tuple[tuple[int, int], ...] = ()
    side: int = ANY_SIDE
    amount: int = 0
    discard: int = 0  # a BOOST that also makes the opponent discard this many random cards


class Card(NamedTuple):
    name: str
    kind: int
    cost: int | None
    stealth: int | None
    fight: int | None
    ability: Ability | Tokens | None
    effect: Effect | None
    notes: str  # the rulebook's line


def ninja(name: str, cost: int, s: int | None, f: int | None, ability: Ability | Tokens, notes: str) -> Card:
    return Card(name, NINJA, cost, s, f, ability, None, notes)


def event(name: str, effect: Effect, notes: str) -> Card:
    return Card(name, EVENT, None, None, None, None, effect, notes)


def boost(*choices: tuple[int, int], side: int = ANY_SIDE, discard: int = 0) -> Effect:
    return Effect(BOOST, tuple(choices), side, 0, discard)


S3 = boost((3, 0))
S1_OR_F2 = boost((1, 0), (0, 2))
S2_OR_F1 = boost((2, 0), (0, 1))
F3 = boost((0, 3))
PLAIN = Ability()

CARDS: tuple[Card, ...] = (
    ninja("Ninja Foot Soldiers", 3, None, None, Tokens(4, 1, 1, name="Foot Soldier"), "Put Four 1S/1F TIP"),
    ninja("Ninja Warriors", 3, None, None, Tokens(3, 1, 2, name="Warrior"), "Put three 1S/2F TIP"),
    ninja("Legendary Ninja", 5, 5, 5, PLAIN, "-"),
    ninja("Ninja Bodyguard", 3, 1, 3, Ability(BLOCKING, s=4), "+4S if Blocking"),
    ninja("Ninja Twins", 4, None, None, Tokens(2, 2, 2, name="Twin"), "Put two 2S/2F TIP"),
    ninja("Ninja Assassin", 4, 3, 3, Ability(ATTACKING, s=2, f=2), "+2S+2F if Attacking"),
    ninja("Clan Leader", 4, 3, 3, Ability(ayn_f=1), "AYN get F+1"),
    ninja("Elder Ninja", 3, 2, 1, Ability(ayn_s=1), "AYN get S+1"),
    ninja("Ninjitsu Master", 4, 4, 4, Ability(ecp_s=1), "ECP get S+1"),
    ninja("Geisha Ninja", 3, 4, 2, PLAIN, "-"),
    ninja("Shadow Warrior", 4, 5, 3, PLAIN, "-"),
    ninja("Kunoichi Seductress", 3, 3, 2, Ability(UNBLOCKED, f=2), "If Unblocked F+2"),
    ninja("Rogue Ninja", 3, 3, 3, PLAIN, "-"),
    ninja("Beast Ninja", 4, 3, 5, PLAIN, "-"),
    ninja("Ninja Spy", 3, 4, 1, Ability(spy=True), "SPY"),
    ninja("Nokizaru Commandos", 3, 2, 2, Ability(ATTACKING, s=1, f=1), "+1S+1F if Attacking"),
    ninja("Battlefield Ninja", 3, 2, 4, Ability(ecp_f=1), "ECP get F+1"),
    ninja("Samurai Ninja", 3, 2, 2, Ability(DEFENDING, f=2), "+2F if Defending"),
    ninja("Ninja Lord", 5, 4, 5, Ability(discount=1), "Ninja cost 1 less to recruit"),
    ninja("Ninja Scouts", 3, None, None, Tokens(2, 1, 1, spy=True, name="Scout"), "Put two 1S/1F/SPY TIP"),
    ninja("Genin", 3, None, None, Tokens(3, 2, 1, name="Genin"), "Put three 2S/1F TIP"),
    ninja("Chunin", 3, 3, 2, Ability(ATTACKING, attack_draw=1), "If Attacking Draw 1 card"),
    event("Distraction", S3, "+3S"),
    event("Fukiya Blowpipe", S1_OR_F2, "+1S or +2F"),
    event("Spit Needles", S2_OR_F1, "+2S or +1F"),
    event("Taijutsu Strikes", F3, "+3F"),
    event("Gunpowder Bamboo", S1_OR_F2, "+1S or +2F"),
    event("Taijutsu Grapple", Effect(GRAPPLE, ((0, 2),)), "+2F & Negate Force Bonus Event card"),
    event("Kaiki Opening Tools", boost((3, 0), side=ATTACKER_ONLY), "+3S Attacker only"),
    event("Kunai Knives", S1_OR_F2, "+1S or +2F"),
    event("Ghost Technique", boost((3, 0), side=ATTACKER_ONLY), "+3S Attacker only"),
    event("Sleeper Agent", Effect(SLEEPER, amount=4), "Reduce cost of Ninja by up to 4"),
    event("Wall Climbing", S2_OR_F1, "+2S or +1F"),
    event("Surprise", S3, "+3S"),
    event("Ambush", boost((5, 0), side=DEFENDER_ONLY), "+5S Defender only"),
    event("Concealment", S3, "+3S"),
    event("Garrote", S1_OR_F2, "+1S or +2F"),
    event("Cat Claws", S2_OR_F1, "+2S or +1F"),
    event("Egg Grenade", S2_OR_F1, "+2S or +1F"),
    event("Shuriken", S1_OR_F2, "+1S or +2F"),
    event("Chain & Sickle", F3, "+3F"),
    event("Ninja Sword", F3, "+3F"),
    event("Endurance", Effect(ENDURANCE), "Put Attacking Ninja just killed back in your hand"),
    event("Disguise", S3, "+3S"),
    event("Betrayal", Effect(CONTROL), "Take control of target Ninja"),
    event("Treachery", Effect(CONTROL), "Take control of target Ninja"),
    event("Double Agent", Effect(CONTROL), "Take control of target Ninja"),
    event("Poison", S1_OR_F2, "+1S or +2F"),
    event("Plan", Effect(DRAW, amount=2), "Draw 2 cards"),
    event("Plot", Effect(DRAW, amount=2), "Draw 2 cards"),
    event("Bow & Arrows", S1_OR_F2, "+1S or +2F"),
    event("Intrigue", Effect(STEAL_CARD, amount=1), "Steal 1 random card from opponents hand"),
    event("Disinformation", Effect(FORCE_DISCARD, amount=2), "Opponent must discard 2 random cards"),
    event("Infiltration", S3, "+3S"),
    event("Darkness", S3, "+3S"),
    event("Smoke Bombs", S3, "+3S"),
    event("Covert Action", Effect(EXTRA_ATTACK, amount=1), "Get 1 extra Attack this turn with second Ninja"),
    event("Assassination", Effect(EXTRA_ATTACK, amount=1), "Get 1 extra Attack this turn with second Ninja"),
    event("Duel", Effect(EXTRA_ATTACK, amount=1), "Get 1 extra Attack this turn with second Ninja"),
    event("Skirmish", Effect(MASS, amount=1), "Each side can add 1 extra Ninja to attack"),
    event("Raid", Effect(MASS, amount=1), "Each side can add 1 extra Ninja to attack"),
    event("Battle", Effect(MASS, amount=2), "Each side can add up to 2 extra Ninja to attack"),
    event("Castle Assault", Effect(MASS, amount=2), "Each side can add up to 2 extra Ninja to attack"),
    event("Caltrops", S2_OR_F1, "+2S or +1F"),
    event("Escape", boost((3, 0), side=DEFENDER_ONLY), "+3S Defender only"),
    event("Diversion", S3, "+3S"),
    event("Espionage", Effect(LOOK_DECK, amount=5), "Look at next 5 cards in deck"),
    event("Reconnaissance", Effect(LOOK_HAND), "LOH"),
    event("Art of Invisibility", S3, "+3S"),
    event("Sow Confusion", boost((2, 0), discard=1), "+2S and Opponent must discard 1 random card"),
    event("Trick", boost((1, 0), (0, 1), discard=1), "+1S or +1F and Opponent must discard 1 random card"),
    event("Secret Technique", boost((1, 0), (0, 1), discard=1),
          "+1S or +1F and Opponent must discard 1 random card"),
    event("Hiding Forms", S3, "+3S"),
    event("Intelligence Network", Effect(LOOK_HAND), "LOH"),
    event("Psychological Warfare", Effect(FORCE_DISCARD, amount=2), "Opponent must discard 2 random cards"),
    event("Allies", Effect(GAIN_MARKERS, amount=3), "Gain 3 Shinobi Counters"),
    event("Defection", Effect(STEAL_MARKERS, amount=2), "Steal 2 Shinobi Counters from target Opponent"),
)

DECK_SIZE = len(CARDS)  # 77
NAMES: tuple[str, ...] = tuple(c.name for c in CARDS)
NINJA_CARDS: tuple[int, ...] = tuple(i for i, c in enumerate(CARDS) if c.kind == NINJA)
EVENT_CARDS: tuple[int, ...] = tuple(i for i, c in enumerate(CARDS) if c.kind == EVENT)
CARD_ID = {c.name: i for i, c in enumerate(CARDS)}
# Per card: whether it is a Ninja, and its Event's kind (-1 for a Ninja).
IS_NINJA = tuple(c.kind == NINJA for c in CARDS)
EVENT_KIND = tuple(-1 if c.effect is None else c.effect.kind for c in CARDS)


def card_id(name: str) -> int:
    """The id of the card with this name (exact spelling)."""
    return CARD_ID[name]


class Unit(NamedTuple):
    """A Ninja that can be in play: a Ninja card or one token of a TIP card."""

    name: str
    card: int  # the Ninja card itself, or -1 for a token
    source: int  # the card that puts it into play (itself, or its TIP card)
    s: int
    f: int
    cost: int  # printed Cost; 0 for a token
    ability: Ability


def _build_units() -> tuple[tuple[Unit, ...], dict[int, tuple[int, ...]]]:
    units: list[Unit] = []
    for cid in NINJA_CARDS:  # card Ninja first: unit id == card id
        card = CARDS[cid]
        if isinstance(card.ability, Tokens):
            units.append(Unit(card.name, cid, cid, 0, 0, card.cost, PLAIN))  # a TIP card never enters play
        else:
            units.append(Unit(card.name, cid, cid, card.stealth, card.fight, card.cost, card.ability))
    tokens_of: dict[int, tuple[int, ...]] = {}
    for cid in NINJA_CARDS:
        tip = CARDS[cid].ability
        if isinstance(tip, Tokens):
            ids = []
            for k in range(tip.count):
                ids.append(len(units))
                units.append(Unit(f"{tip.name} {k + 1}", -1, cid, tip.s, tip.f, 0, Ability(spy=tip.spy)))
            tokens_of[cid] = tuple(ids)
    return tuple(units), tokens_of


UNITS, TOKENS_OF = _build_units()
NUM_UNITS = len(UNITS)  # 22 card Ninja slots + 14 tokens = 36
UNIT_ID = {u.name: i for i, u in enumerate(UNITS)}
IS_TIP = tuple(isinstance(CARDS[c].ability, Tokens) if CARDS[c].kind == NINJA else False for c in range(DECK_SIZE))

# The events whose second choice gets an action of its own ("+1S or +2F": the F play).
TWO_CHOICE_EVENTS: tuple[int, ...] = tuple(
    i for i, c in enumerate(CARDS) if c.effect is not None and len(c.effect.choices) == 2
)


def rank(unit: int, by: str) -> int:
    """A unit's rank for the end-game comparison: printed Cost (tokens 0), or base Stealth + Fight."""
    u = UNITS[unit]
    return u.cost if by == "cost" else u.s + u.f

