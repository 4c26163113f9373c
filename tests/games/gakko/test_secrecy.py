"""What each seat may know in Shinobi no Gakko: other Heavens, pending splits and the undealt cards stay
hidden in views, observations and events, and sampled worlds redistribute exactly those."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np

from ninjatable.core import get_game
from ninjatable.games.gakko import actions as A
from ninjatable.games.gakko import cards as C
from ninjatable.games.gakko.cards import STRIDE

GAME = get_game("gakko")


def heaven_of(state, seat: int) -> list[int]:
    return C.ranks_of(state.heaven, seat * STRIDE)


def test_a_pending_split_leaves_no_trace_in_the_others_events():
    a = GAME.new_state(3, seed=6)
    b = GAME.new_state(3, seed=6)
    hand = heaven_of(a, 1)
    a.apply(1, a.parse_action(f"{hand[0]} to Earth"))  # two different pending splits for Player 2
    b.apply(1, b.parse_action(f"{hand[-1]} to Earth"))
    b.apply(1, b.parse_action(f"{hand[-2]} to Earth"))
    for seat in (0, 2):
        assert a.events_for(seat) == b.events_for(seat)
        assert a.view(seat) == b.view(seat)
        assert np.array_equal(a.observation(seat), b.observation(seat))


def test_heaven_contents_leave_no_trace_in_the_others_view_observation_or_events():
    # Two tables alike in all that is public; Player 2's Heaven differs (same size).
    def game(heaven1):
        state = GAME.new_state(3, seed=1)
        state.set_position(hands=[([1, 9], [4]), (heaven1, [12]), ([2], [11])], table=[(5, 1), (7, 1)], current=0)
        for label in ("Heaven pass", "Earth pass", "Heaven pass", "Earth pass"):
            state.apply(state.to_move()[0], state.parse_action(label))
        return state

    a, b = game([3, 3, 8]), game([6, 10, 10])
    for seat in (0, 2):
        assert a.events_for(seat) == b.events_for(seat)
        assert a.view(seat) == b.view(seat)
        assert np.array_equal(a.observation(seat), b.observation(seat))
    assert a.view(1) != b.view(1)


def test_sampled_worlds_redeal_unknown_heaven_cards_and_the_undealt_keeping_known_ones():
    # Player 1 sees: its own hands, every Earth, the table; Player 2 took two 9s into Heaven (known),
    # its other Heaven card and Player 3's Heaven lie among the unseen cards with the undealt ones.
    state = GAME.new_state(3, seed=2)
    hands = [([1, 1], [3]), ([5], [4]), ([6, 7], [8])]
    state.set_position(hands=hands, table=[(2, 2), (9, 2)], current=1, undealt=[10, 10, 11])
    state.apply(1, state.parse_action("Heaven take high"))
    state.apply(1, state.parse_action("Earth pass"))
    assert state.view(0)["seats"][1]["known_heaven"] == [9, 9]
    unseen = Counter([5, 6, 7, 10, 10, 11])
    rng = random.Random(3)
    heavens1, undealts = set(), set()
    for _ in range(60):
        world = state.sample_world(0, rng)
        assert heaven_of(world, 0) == [1, 1]
        h1, h2, undealt = heaven_of(world, 1), heaven_of(world, 2), C.ranks_of(world.undealt)
        assert h1.count(9) >= 2 and len(h1) == 3 and len(h2) == 2 and len(undealt) == 3
        rest = Counter(h1) - Counter({9: 2})
        assert rest + Counter(h2) + Counter(undealt) == unseen
        heavens1.add(tuple(h1))
        undealts.add(tuple(undealt))
    assert len(heavens1) > 1 and len(undealts) > 1, "sampled worlds must not keep the hidden cards"


def test_the_undealt_cards_are_never_shown():
    state = GAME.new_state(4, seed=9)
    for seat in range(4):
        state.apply(seat, A.DONE)
    view = state.view(None)
    assert view["undealt"] == 13 - sum(c for _, c in view["table"])
    for seat in range(4):
        assert state.view(seat)["undealt"] == view["undealt"]  # a count, never the cards
