"""Ninja Clan Wars in the browser: the card table web.js reads (cards.js) is the twin of cards.py and names the
actions the rules offer, so the two cannot drift apart."""

from __future__ import annotations

import json
from pathlib import Path

from ninjatable.games.clanwars import actions as A
from ninjatable.games.clanwars import cards as C
from ninjatable.games.clanwars.render import ABBREVIATIONS

CARDS_JS = Path(C.__file__).with_name("cards.js")
PREFIX = "export const CARDS = "


def web_cards() -> dict[str, dict]:
    """The card table of cards.js, read as the JSON object it is written as."""
    text = CARDS_JS.read_text(encoding="utf-8")
    start = text.index(PREFIX) + len(PREFIX)
    return json.loads(text[start:text.rindex("};") + 1])


# When each kind of Event is played (as the rulebook's phases name it).
PHASE_OF_KIND = {C.BOOST: "contest", C.GRAPPLE: "contest", C.SLEEPER: "recruit", C.ENDURANCE: "endurance",
                 C.EXTRA_ATTACK: "mission", C.MASS: "mission", C.DRAW: "spy", C.STEAL_CARD: "spy",
                 C.FORCE_DISCARD: "spy", C.CONTROL: "spy", C.LOOK_DECK: "spy", C.LOOK_HAND: "spy",
                 C.GAIN_MARKERS: "spy", C.STEAL_MARKERS: "spy"}


def test_the_browser_knows_every_card_by_its_name_in_the_deck_order():
    assert list(web_cards()) == list(C.NAMES)


def test_each_card_has_the_cost_ratings_and_rulebook_line_of_cards_py():
    for name, shown in web_cards().items():
        card = C.CARDS[C.card_id(name)]
        assert shown["notes"] == card.notes
        if card.kind == C.NINJA:
            assert (shown["kind"], shown["phase"]) == ("ninja", "recruit")
            assert (shown["cost"], shown["stealth"], shown["fight"]) == (card.cost, card.stealth, card.fight)
        else:
            assert shown["kind"] == "event"
            assert shown["phase"] == PHASE_OF_KIND[card.effect.kind]


def test_the_help_spells_out_every_abbreviation_of_a_card():
    for name, shown in web_cards().items():
        words = C.CARDS[C.card_id(name)].notes.replace("/", " ").split()
        for abbreviation, meaning in ABBREVIATIONS.items():
            if abbreviation in words:
                assert f"{abbreviation}: {meaning}" in shown["help"], name


def test_a_cards_plays_are_the_actions_that_play_it_from_the_hand():
    for name, shown in web_cards().items():
        cid = C.card_id(name)
        actions = [a for a in range(A.NUM_ACTIONS) if A.ACTION_CARD[a] == cid]
        assert shown["plays"] == [A.ACTION_LABELS[a] for a in actions]
        assert shown["plays"][0] == A.ACTION_LABELS[A.PLAY + cid]
        assert f"discard {name}" in A.ACTION_LABELS  # the Recovery Phase's play, named in web.js
