"""What each seat may know in Oboro: other hands stay hidden everywhere, and sampled worlds re-deal them
using only what the seat saw (hand sizes, voids shown this round, a Red 8 holder made known by leading)."""

from __future__ import annotations

import random
import re

from ninjatable.core import get_game
from ninjatable.games.oboro import cards as C

GAME = get_game("oboro")


def cid(label: str) -> int:
    return C.LABELS.index(label)


def play(state, *labels: str) -> None:
    for label in labels:
        state.apply(state.to_move()[0], state.parse_action(label))


def labels(cards) -> set[str]:
    return {C.LABELS[c] for c in cards}


def other_hands_in_worlds(state, seat: int, count: int = 60, seed: int = 1) -> list[list[set[str]]]:
    rng = random.Random(seed)
    return [[labels(h) for h in state.sample_world(seat, rng).hands] for _ in range(count)]


def test_events_of_a_seat_never_name_an_unplayed_card_of_another_hand():
    state = GAME.new_state(3, seed=21)
    rng = random.Random(21)
    for _ in range(10):  # into the fourth trick of round 1
        seat = state.to_move()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    for seat in range(3):
        named = set(re.findall(r"\b[RBG][1-8]\b", " ".join(e.text for e in state.events_for(seat))))
        for other in range(3):
            if other == seat:
                continue
            for card in state.hands[other]:  # still in a hand: never played, never shown
                assert C.LABELS[card] not in named, (seat, C.LABELS[card])


def test_sampled_worlds_re_deal_the_other_hands_and_keep_everything_public():
    state = GAME.new_state(3, seed=4)
    rng = random.Random(4)
    for _ in range(8):  # two tricks and two cards of the third
        seat = state.to_move()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    seat = 0
    hidden = labels(state.hands[1]) | labels(state.hands[2])
    seen = set()
    rng = random.Random(7)
    for _ in range(40):
        world = state.sample_world(seat, rng)
        assert world.hands[seat] == state.hands[seat]
        assert [len(h) for h in world.hands] == [len(h) for h in state.hands]
        assert labels(world.hands[1]) | labels(world.hands[2]) == hidden  # the same unseen cards
        assert world.stacks == state.stacks and world.trick == state.trick  # every played card was seen
        seen.add(frozenset(labels(world.hands[1])))
    assert len(seen) > 1, "a sampled world must not keep the true hands"


def test_sampled_worlds_keep_a_shown_void():
    # P3 leads the Red 5; P2 has no red and discards: P2 is void in red for the rest of the round.
    hands = [["R3", "B1", "G1", "R1"], ["B2", "G2", "G7", "G8"], ["R5", "R2", "B3", "G3"]]
    state = GAME.new_state(3, seed=1)
    state.set_position(hands=hands, leader=2)
    play(state, "R5", "R3", "B2")
    assert state.view(0)["seats"][1]["void"] == ["red"]
    worlds = other_hands_in_worlds(state, seat=2)
    assert all(not any(c[0] == "R" for c in hands[1]) for hands in worlds)
    # The unseen R1 may lie only with P1 then; the other unseen cards move freely between P1 and P2.
    assert all("R1" in hands[0] for hands in worlds)
    assert any("G2" in hands[0] for hands in worlds) and any("B1" in hands[1] for hands in worlds)


def test_sampled_worlds_keep_the_red_8_with_the_player_it_made_leader():
    hands = [["R8", "B1", "G1"], ["B2", "G2", "G7"], ["R5", "B3", "G3"]]
    state = GAME.new_state(3, seed=1)
    state.set_position(hands=hands)  # the Red 8 holder, P1, leads: everyone knows who holds it
    assert state.to_move() == (0,) and state.red8_holder == 0
    play(state, "B1")  # P1 leads something else; the Red 8 is still in P1's hand
    worlds = other_hands_in_worlds(state, seat=2)
    assert all("R8" in hands[0] for hands in worlds)


def test_sampled_worlds_do_not_place_the_red_8_when_nobody_saw_who_holds_it():
    # With round_leader=last_trick the Red 8 decides nothing after round 1, so its holder stays secret.
    for seed in range(40):
        state = GAME.new_state(3, seed=seed, round_leader="last_trick")
        rng = random.Random(seed)
        while state.round == 1:
            seat = state.to_move()[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        seat = state.to_move()[0]
        if cid("R8") not in state.hands[seat]:
            break
    assert state.round == 2 and state.red8_holder == -1
    others = [s for s in range(3) if s != seat]
    holders = {s for hands in other_hands_in_worlds(state, seat) for s in others if "R8" in hands[s]}
    assert holders == set(others)


def test_worlds_sampled_after_a_scripted_round_deal_the_scripted_hands():
    state = GAME.new_state(3, seed=1)
    other_hands_in_worlds(state, 0, count=3)  # worlds sampled from the dealt round first
    state.set_position(hands=[["R5", "G1", "G2"], ["R7", "G3", "B1"], ["B8", "G4", "G5"]], leader=0)
    for hands in other_hands_in_worlds(state, 0, count=10):
        assert hands[0] == {"R5", "G1", "G2"}
        assert hands[1] | hands[2] == {"R7", "G3", "B1", "B8", "G4", "G5"}
