"""The dragon heuristic bot: each point of its strategy (docs/rules/dragon.md, "Heuristic bot") on scripted deals."""

from __future__ import annotations

import random

from ninjatable.bots import make_bot, play_game
from ninjatable.core import SeatInfo, get_game
from ninjatable.games.dragon import cards as C
from ninjatable.games.dragon.actions import PLAY, SPLIT
from ninjatable.games.dragon.heuristic import DragonHeuristic, Table

GAME = get_game("dragon")


def cards(text: str) -> list[int]:
    return sorted(C.LABELS.index(word) for word in text.split())


def trick_position(hands: list[str], trump: str, leader: int, played: list[str], broken: bool = False):
    """Round 1 in the trick phase with the given hands (the scale holds the rest) and trick so far."""
    state = GAME.new_state(len(hands), seed=0)
    dealt = {c for h in hands for c in cards(h)}
    scale = [c for c in range(48) if c not in dealt][: 4]
    state.set_position(hands=hands, scale=scale, trump=trump, leader=leader, jutsu=False, purple_broken=broken)
    for label in played:
        (seat,) = state.to_move()
        state.apply(seat, state.parse_action(label))
    return state


def decide(state) -> str:
    (seat,) = state.to_move()
    return state.action_label(DragonHeuristic(seed=1).act(SeatInfo(state, seat)))


HANDS = [
    "R1 R2 R3 B1 B2 B3 G1 G2 G3 G4 G5",
    "R4 R5 R6 B4 B5 B6 G6 G7 G8 G9 G10",
    "P2 P9 P12 B7 B8 B9 G11 G12 R7 R8 R9",
    "P1 P3 P4 P5 R10 R11 R12 B10 B11 B12 P6",
]


def test_sheds_its_highest_purple_on_a_trick_it_cannot_win():
    # P3 has no green: any purple it throws loses the trick (purple is not trump), so the highest goes.
    state = trick_position(HANDS, "R", leader=0, played=["G1", "G6", "G11"])
    assert decide(state) == "P6"


def test_ducks_under_a_trick_holding_a_purple():
    # Blue is led, P3 (void in blue) throws P12 on it; P4 follows blue with the highest card that still loses.
    hands = list(HANDS)
    hands[1] = "R4 R5 R6 B4 B5 B9 G6 G7 G8 G9 G10"
    hands[2] = "P2 P9 P12 P7 P8 G11 G12 R7 R8 R9 P10"
    hands[3] = "P1 P3 P4 P5 R10 R11 R12 B2 B6 B10 P6"
    state = trick_position(hands, "R", leader=0, played=["B3", "B9", "P12"])
    assert decide(state) == "B6"


def test_wins_with_its_highest_card_a_purple_trick_it_cannot_duck():
    hands = list(HANDS)
    hands[1] = "R4 R5 R6 B4 B5 B9 G6 G7 G8 G9 G10"
    hands[2] = "P2 P9 P12 P7 P8 G11 G12 R7 R8 R9 P10"
    hands[3] = "P1 P3 P4 P5 R10 R11 R12 B10 B11 B12 P6"
    state = trick_position(hands, "R", leader=0, played=["B3", "B9", "P12"])
    assert decide(state) == "B12", "the trick is lost anyway: spend the card that would win a later one"


def test_takes_a_clean_trick_last_with_its_cheapest_winner():
    state = trick_position(HANDS, "R", leader=0, played=["B1", "B4", "B7"])
    assert decide(state) == "B10"


def test_loses_a_clean_trick_cheaply_when_it_cannot_win():
    hands = list(HANDS)
    hands[0] = "R1 R2 R3 B1 B2 B12 G1 G2 G3 G4 G5"
    hands[3] = "P1 P3 P4 P5 R10 R11 R12 B3 B10 B11 P6"
    state = trick_position(hands, "R", leader=0, played=["B12", "B4", "B7"])
    assert decide(state) == "B3"


def test_counts_played_cards_and_voids_from_its_own_information():
    state = GAME.new_state(4, seed=8)
    rng = random.Random(2)
    while state.phase != PLAY or state.tricks_played < 4:
        seat = state.to_move()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    seat = state.to_move()[0]
    table = Table(SeatInfo(state, seat))
    in_use = set(range(48))
    mine = set(state.hands[seat]) | set(state.piles[seat])
    played = {c for c in in_use if state.played >> c & 1}
    assert set(table.unseen) == in_use - mine - played - {c for c, where in state.knowledge[seat] if where == -1}
    assert [sum(1 << col for col in v) for v in table.voids] == state.void


def test_split_keeps_trumps_and_purples_in_the_first_half():
    for seed in range(5):
        state = GAME.new_state(4, seed=seed)
        seat = state.jutsu
        special = {state.trump, C.PURPLE}
        assert state.phase == SPLIT
        bot = DragonHeuristic(seed=0)
        while state.phase == SPLIT:
            state.apply(seat, bot.act(SeatInfo(state, seat)))
        assert {C.COLOUR_OF[c] for c in state.hands[seat]} <= special
        assert not {C.COLOUR_OF[c] for c in state.piles[seat]} & special


def test_beats_random_players():
    wins = 0.0
    games = 40
    for g in range(games):
        seat = g % 4
        bots = [make_bot("heuristic" if s == seat else "random", seed=g * 4 + s) for s in range(4)]
        state = play_game(GAME.new_state(4, seed=500 + g), bots)
        winners = state.winners()
        wins += (seat in winners) / len(winners)
    assert wins / games > 0.25 + 0.1, "well above the even share of one seat in four"


def end_of_round(scale: str):
    """Two tricks left: P1 leads B5; P2 holds B3 and B9; every card not in a hand or the scale is played."""
    hands = ["B5 G2", "B3 B9", "B12 R4", "R5 R6"]
    state = GAME.new_state(len(hands), seed=0)
    kept = {c for h in hands for c in cards(h)} | set(cards(scale))
    state.set_position(hands=hands, scale=scale, trump="R", leader=0, jutsu=False, tricks_played=9,
                       played=[c for c in range(48) if c not in kept])
    state.apply(0, state.parse_action("B5"))
    return state


def test_keeps_a_low_card_for_the_last_trick_when_the_scale_may_hold_purples():
    # Unseen: the scale's 4 cards and 5 in other hands; P10-P12 unseen make the last trick cost about 13.
    assert decide(end_of_round("P10 P11 P12 G1")) == "B9"


def test_plays_low_when_the_last_trick_is_harmless():
    # No purple is unseen: the Dragon Head is a plain +5, so nothing to keep; B12 is out, B3 loses cheaply.
    assert decide(end_of_round("G1 G3 G4 G6")) == "B3"
