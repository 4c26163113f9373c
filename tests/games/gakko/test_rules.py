"""Shinobi no Gakko rulebook tests, from scripted deals (docs/rules/gakko.md)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from ninjatable.core import IllegalAction, get_game
from ninjatable.games.gakko import actions as A
from ninjatable.games.gakko import cards as C
from ninjatable.games.gakko.cards import EARTH, HEAVEN, STRIDE
from ninjatable.games.gakko.heuristic import earth_target

GAME = get_game("gakko")


def position(hands, table, current=0, **options):
    """A state in the play phase with these (Heaven, Earth) hands and tiers, `current` to act."""
    state = GAME.new_state(len(hands), seed=1, **options)
    state.set_position(hands=hands, table=table, current=current)
    return state


def act(state, label):
    state.apply(state.to_move()[0], state.parse_action(label))


def legal(state, seat=None):
    seat = state.to_move()[0] if seat is None else seat
    return {state.action_label(a) for a in state.legal_actions(seat)}


def table(state):
    return [tuple(t) for t in state.view(None)["table"]]


# --- deal and split --------------------------------------------------------------------------------------

@pytest.mark.parametrize(("players", "dealt", "top", "left"), [(3, 15, 11, 10), (4, 13, 13, 13), (5, 11, 13, 10)])
def test_deal_sizes_and_deck(players, dealt, top, left):
    state = GAME.new_state(players, seed=4)
    cards = []
    for seat in range(players):
        hand = state.view(seat)["seats"][seat]["heaven"]
        assert len(hand) == dealt
        cards += hand
    cards += C.ranks_of(state.undealt)
    assert state.view(None)["undealt"] == left
    # Five copies of each number, no suits; 12s and 13s removed with three players.
    assert sorted(cards) == [r for r in range(1, top + 1) for _ in range(5)]


def test_split_is_simultaneous_and_hidden_until_everyone_is_done():
    state = GAME.new_state(4, seed=8)
    assert state.to_move() == (0, 1, 2, 3)
    hand0 = state.view(0)["seats"][0]["heaven"]
    watcher_view, watcher_obs = state.view(1), state.observation(1)
    rank = hand0[0]
    state.apply(0, state.parse_action(f"{rank} to Earth"))
    # Player 1's pending Earth card is invisible to the others, in the view and in the observation.
    assert state.view(1) == watcher_view
    assert np.array_equal(state.observation(1), watcher_obs)
    assert state.view(0)["seats"][0]["earth"] == [rank]
    state.apply(0, state.parse_action("done"))
    assert state.to_move() == (1, 2, 3)
    seen = state.view(1)["seats"][0]
    assert seen["earth"] is None and seen["heaven"] is None and seen["heaven_count"] is None
    assert seen["cards"] == 13 and seen["split_done"]
    for seat in (1, 2, 3):
        state.apply(seat, state.parse_action("done"))
    # Everyone has split: Earth cards are shown at once and the table is revealed.
    view = state.view(2)
    assert view["phase"] == "play"
    assert view["seats"][0]["earth"] == [rank] and view["seats"][0]["heaven_count"] == 12
    assert view["seats"][1]["earth"] == [] and view["seats"][1]["heaven_count"] == 13
    assert len(view["table"]) == 2 and state.to_move() == (view["starter"],)


def test_split_can_be_taken_back_and_any_sizes_are_allowed():
    state = GAME.new_state(3, seed=2)
    hand = state.view(0)["seats"][0]["heaven"]
    for r in hand:
        state.apply(0, state.parse_action(f"{r} to Earth"))
    assert state.view(0)["seats"][0]["heaven"] == []  # everything in Earth is allowed
    state.apply(0, state.parse_action(f"{hand[0]} to Heaven"))
    me = state.view(0)["seats"][0]
    assert me["heaven"] == [hand[0]] and len(me["earth"]) == len(hand) - 1


def test_sampled_worlds_rechoose_the_other_seats_pending_splits():
    state = GAME.new_state(4, seed=3)
    hand = state.view(0)["seats"][0]["heaven"]
    for r in hand[:6]:
        state.apply(0, state.parse_action(f"{r} to Earth"))
    state.apply(0, state.parse_action("done"))
    rng = random.Random(0)
    earths = set()
    for _ in range(20):
        world = state.sample_world(1, rng)
        assert world.view(1) == state.view(1)
        earths.add(tuple(C.ranks_of(world.earth, 0)))
    assert len(earths) > 1, "a sampled world must not keep Player 1's true split"


# --- the setup reveal ------------------------------------------------------------------------------------

@pytest.mark.parametrize(("undealt", "stacked", "other"), [
    ([5, 5, 5, 5, 5, 9], 5, 9),  # the repeated rank is the lower one
    ([2, 8, 8, 8, 8, 8], 8, 2),  # ... or the higher one
])
def test_setup_reveal_stacks_equal_ranks_and_locks_the_bigger_tier(undealt, stacked, other):
    stacks = set()
    for seed in range(40):
        state = GAME.new_state(4, seed=seed)
        state.set_position(hands=[[1, 3], [4, 6], [7, 10], [11, 12]], undealt=undealt)
        for seat in range(4):
            state.apply(seat, A.DONE)
        tiers = table(state)
        # Revealed in ascending order, until two ranks differ; the repeated rank lies side by side in one tier.
        assert [r for r, _ in tiers] == sorted([stacked, other])
        count = dict(tiers)[stacked]
        assert dict(tiers)[other] == 1
        assert state.view(None)["undealt"] == len(undealt) - count - 1
        lock = state.view(None)["lock"]
        if count == 1:
            assert lock is None
        else:
            assert lock == ("low" if stacked < other else "high")
        stacks.add(count)
    assert 1 in stacks and max(stacks) >= 3


def test_first_starter_is_random_and_acts_first():
    starters = set()
    for seed in range(30):
        state = GAME.new_state(3, seed=seed)
        for seat in range(3):
            state.apply(seat, A.DONE)
        starters.add(state.view(None)["starter"])
        assert state.to_move() == (state.view(None)["starter"],)
    assert starters == {0, 1, 2}


# --- playing ---------------------------------------------------------------------------------------------

OTHERS = [([1], []), ([2], []), ([3], [])]


def test_play_strictly_below_the_lowest_or_above_the_highest_with_any_gap_or_adjacent():
    state = position([([1, 1, 3, 3, 4, 4, 5, 5, 9, 9, 12, 12], [8, 8]), *OTHERS], [(4, 2), (8, 2)])
    moves = legal(state)
    assert "Heaven 2x3" in moves  # adjacent to the low end is fine
    assert "Heaven 2x9" in moves  # adjacent to the high end is fine
    assert "Heaven 2x1" in moves and "Heaven 2x12" in moves  # any gap is fine
    assert "Heaven 2x4" not in moves and "Earth 2x8" not in moves  # not the end ranks themselves
    assert "Heaven 2x5" not in moves  # nor anything between the ends


def test_play_needs_at_least_as_many_cards_as_the_end_tier_it_goes_beyond():
    state = position([([1, 1, 1, 12, 12, 12], [11]), *OTHERS], [(4, 2), (6, 1), (8, 2)])
    moves = legal(state)
    assert "Heaven 1x1" not in moves and "Earth 1x11" not in moves
    assert {"Heaven 2x1", "Heaven 3x1", "Heaven 2x12", "Heaven 3x12"} <= moves
    with pytest.raises(IllegalAction, match="not allowed"):
        act(state, "Earth 1x11")


def test_count_is_judged_at_each_end_separately():
    state = position([([2, 2, 12], []), *OTHERS], [(4, 2), (8, 1)])
    assert state.view(None)["lock"] == "low"
    moves = legal(state)
    assert "Heaven 1x12" in moves  # the high end holds one card
    assert "Heaven 2x2" not in moves  # the low end is locked
    state = position([([2, 2, 12], []), *OTHERS], [(4, 2), (6, 3), (8, 2)])
    moves = legal(state)
    assert "Heaven 1x12" not in moves and "Heaven 2x2" in moves


def test_each_hand_acts_once_in_the_order_chosen():
    state = position([([1, 9], [12]), *OTHERS], [(4, 1), (8, 1)])
    act(state, "Earth 1x12")
    moves = legal(state)
    assert moves and all(m.startswith("Heaven ") for m in moves)
    act(state, "Heaven 1x1")
    assert state.to_move() == (1,)
    assert table(state) == [(1, 1), (4, 1), (8, 1), (12, 1)]


def test_both_hands_may_use_the_same_end():
    # tk-game-diary's example: on 2 and 4, Heaven plays 8, then Earth plays 11: now below 2 or above 11.
    state = position([([8, 13], [1, 11]), *OTHERS], [(2, 1), (4, 1)])
    act(state, "Heaven 1x8")
    act(state, "Earth 1x11")
    assert table(state) == [(2, 1), (4, 1), (8, 1), (11, 1)]


# --- locking ---------------------------------------------------------------------------------------------

def test_lock_moves_between_a_players_two_hand_actions():
    state = position([([2, 2, 2, 6], [1, 10, 10]), *OTHERS], [(4, 1), (8, 2)])
    assert state.view(None)["lock"] == "high"
    moves = legal(state)
    assert "Earth 2x10" not in moves and "Earth take high" not in moves
    assert "Earth 1x1" in moves
    act(state, "Heaven 3x2")
    assert state.view(None)["lock"] == "low"
    moves = legal(state)
    assert "Earth 2x10" in moves and "Earth take high" in moves
    assert "Earth 1x1" not in moves and "Earth take low" not in moves


def test_a_take_re_evaluates_the_lock_between_a_players_two_hand_actions():
    # 2 (1 card) ... 9 (1 card): no lock. Taking the 2 leaves the 5 pair as the low end: the low end locks.
    state = position([([1, 1], [12]), *OTHERS], [(2, 1), (5, 2), (9, 1)])
    assert state.view(None)["lock"] is None
    act(state, "Heaven take low")
    assert state.view(None)["lock"] == "low"
    moves = legal(state)
    assert "Earth take low" not in moves and "Earth 2x1" not in moves
    assert {"Earth take high", "Earth 1x12"} <= moves


def test_lock_is_lifted_when_the_ends_are_equal():
    state = position([([2, 2], [12, 12]), *OTHERS], [(4, 1), (8, 2)])
    act(state, "Heaven 2x2")
    assert state.view(None)["lock"] is None
    assert "Earth 2x12" in legal(state)


# --- taking ----------------------------------------------------------------------------------------------

def test_take_refused_for_a_tier_of_three_or_more_cards():
    state = position([([1], [12]), *OTHERS], [(3, 3), (9, 3)])
    moves = legal(state)
    assert not any("take" in m for m in moves)
    with pytest.raises(IllegalAction):
        act(state, "Heaven take low")
    state = position([([1], [12]), *OTHERS], [(3, 2), (9, 2)])
    assert {"Heaven take low", "Heaven take high", "Earth take low"} <= legal(state)


def test_literal_taking_applies_the_repeated_playing_bullets_to_a_take():
    tiers = [(3, 1), (4, 1), (9, 1)]  # 3 is next to 4; 9 is not next to 4
    assert {"Heaven take low", "Heaven take high"} <= legal(position([([1], [12]), *OTHERS], tiers))
    moves = legal(position([([1], [12]), *OTHERS], tiers, literal_taking=True))
    assert "Heaven take low" not in moves and "Heaven take high" in moves
    smaller = [(3, 1), (6, 2), (9, 2), (11, 1)]  # each end tier holds fewer cards than its neighbour
    assert "Heaven take low" in legal(position([([1], [12]), *OTHERS], smaller))
    assert not any("take" in m for m in legal(position([([1], [12]), *OTHERS], smaller, literal_taking=True)))


def test_take_refused_when_the_table_has_one_tier():
    state = position([([1], [12]), *OTHERS], [(6, 2)])
    assert not any("take" in m for m in legal(state))
    state = position([([1], [12]), *OTHERS], [(2, 1), (9, 1)])
    act(state, "Heaven take low")
    assert table(state) == [(9, 1)]
    assert not any("take" in m for m in legal(state))
    with pytest.raises(IllegalAction):
        act(state, "Earth take high")


def test_take_refused_from_a_locked_end():
    state = position([([1], [12]), *OTHERS], [(2, 1), (9, 2)])
    moves = legal(state)
    assert "Heaven take high" not in moves and "Heaven take low" in moves


def test_taken_cards_join_the_hand_that_took_them():
    state = position([([5], [6]), *OTHERS], [(2, 2), (4, 2), (9, 2)])
    act(state, "Earth take low")
    act(state, "Heaven take high")
    seen = state.view(1)["seats"][0]
    assert seen["earth"] == [2, 2, 6]  # Earth stays public
    assert seen["heaven"] is None and seen["heaven_count"] == 3 and seen["known_heaven"] == [9, 9]
    assert state.view(0)["seats"][0]["heaven"] == [5, 9, 9]
    # Everyone saw the 9s go into Heaven: every sampled world keeps them there.
    rng = random.Random(1)
    for _ in range(10):
        world = state.sample_world(1, rng)
        assert world.heaven[0 * STRIDE + 9] == 2 and world.heaven_n[0] == 3
    # Playing one of them lowers what is known.
    state.set_position(hands=[([5, 9, 9], [2, 2, 6]), *OTHERS], table=[(3, 1), (7, 1)], current=0,
                       known=[[9, 9], [], [], []])
    act(state, "Heaven 1x9")
    assert state.view(1)["seats"][0]["known_heaven"] == [9]


def test_an_empty_hand_may_still_take():
    state = position([([], [12]), *OTHERS], [(2, 1), (9, 1)])
    act(state, "Heaven take low")
    assert state.view(0)["seats"][0]["heaven"] == [2]


# --- passing and cleaning --------------------------------------------------------------------------------

def cleaning_position(**options):
    hands = [([6, 7], [1, 8]), ([2, 10], [9, 9]), ([4], [11])]
    state = position(hands, [(3, 1), (5, 1)], **options)
    act(state, "Heaven 1x7")
    act(state, "Earth pass")
    act(state, "Heaven pass")
    act(state, "Earth pass")
    act(state, "Heaven take low")  # taking is not playing
    act(state, "Earth pass")
    return state


def test_table_is_cleaned_when_play_comes_back_to_the_last_player_who_played():
    state = cleaning_position()
    view = state.view(None)
    assert state.to_move() == (0,) and view["shuriken"] == 0
    assert view["table"] == [] and view["cleared"] == [5, 7]
    assert view["must_lead"]
    # Any set may go onto the empty table, even a middle rank.
    assert {"Heaven 1x6", "Earth 1x1", "Earth 1x8"} <= legal(state)
    act(state, "Heaven pass")
    assert "Earth pass" not in legal(state)  # the cleaner must lead with some hand
    act(state, "Earth 1x8")
    # A single tier: both ends are the same tier, no lock, plays go below or above it.
    assert state.view(None)["lock"] is None
    assert {"Heaven 1x2", "Heaven 1x10", "Earth 2x9", "Earth 1x9"} <= legal(state)


def test_leading_after_cleaning_can_be_made_optional():
    state = cleaning_position(lead_after_cleaning=False)
    assert state.view(None)["table"] == []
    act(state, "Heaven pass")
    assert "Earth pass" in legal(state)


def test_no_cleaning_when_someone_else_played():
    hands = [([6, 7], [1, 8]), ([2, 10], [9, 9]), ([4], [11])]
    state = position(hands, [(3, 1), (5, 1)])
    act(state, "Heaven 1x7")
    act(state, "Earth pass")
    act(state, "Heaven 1x10")
    act(state, "Earth pass")
    act(state, "Heaven pass")
    act(state, "Earth pass")
    assert table(state) == [(3, 1), (5, 1), (7, 1), (10, 1)]
    assert state.view(None)["shuriken"] == 1


def test_no_cleaning_before_anyone_has_played_this_round():
    # Only the setup cards lie on the table: a whole cycle of passes and takes cleans nothing.
    state = position([([1], [12]), ([2], [13]), ([3], [11])], [(4, 1), (6, 1), (8, 1)])
    for label in ("Heaven take low", "Earth pass", "Heaven pass", "Earth pass", "Heaven pass", "Earth pass"):
        act(state, label)
    assert state.to_move() == (0,)
    assert table(state) == [(6, 1), (8, 1)] and state.view(None)["cleared"] == []
    assert state.view(None)["shuriken"] is None and not state.view(None)["must_lead"]


def test_pass_is_soft():
    state = position([([1], [12]), ([2], [13]), ([3], [11]), ([4], [10])], [(5, 1), (8, 1)])
    for _ in range(4):
        act(state, "Heaven pass")
        act(state, "Earth pass")
    assert "Heaven 1x1" in legal(state)


# --- the end of a round and scoring ------------------------------------------------------------------------

def test_hand_penalty_is_n_n_plus_1_over_2_per_group():
    assert [C.hand_penalty([0] * r + [n] + [0] * (STRIDE - r - 1)) for n, r in
            zip(range(1, 6), (1, 4, 7, 9, 13))] == [1, 3, 6, 10, 15]
    heaven, earth = [0] * STRIDE, [0] * STRIDE
    for r in (4, 4, 4, 11):
        heaven[r] += 1
    for r in (2, 7, 9, 9):
        earth[r] += 1
    assert C.hand_penalty(heaven) == 7 and C.hand_penalty(earth) == 5


def test_rulebook_scoring_example_and_round_end_the_moment_a_player_is_out():
    hands = [([], [6]), ([4, 4, 4, 11], [2, 7, 9, 9]), ([1], []), ([13, 13], [3])]
    state = position(hands, [(3, 1), (5, 1)])
    act(state, "Earth 1x6")  # the Heaven hand is empty: out at once, mid-turn
    assert [(line.label, line.points) for line in state.score_sheet()] == [("Round 1", (5, -7, -1, -3))]
    # The round's winner starts the next round.
    assert state.round == 2 and state.to_move() == (0, 1, 2, 3)
    for seat in range(4):
        state.apply(seat, A.DONE)
    assert state.to_move() == (0,)


def test_round_ends_after_the_first_hand_action_when_both_hands_are_empty():
    hands = [([2], []), ([4, 4], [10]), ([1], [5])]
    state = position(hands, [(3, 1), (6, 1)], current=0)
    act(state, "Heaven 1x2")
    assert state.score_sheet()[0].points == (5, -3, -1)


def test_turn_limit_ends_the_round_with_hands_scored_and_no_bonus():
    hands = [([1, 1], [2]), ([4], [10]), ([5, 5, 5], [])]
    state = position(hands, [(3, 1), (8, 1)], max_turns=10)
    for _ in range(10):
        act(state, "Heaven pass")
        act(state, "Earth pass")
    assert [(line.label, line.points) for line in state.score_sheet()] == [("Round 1 (turn limit)", (-3, -1, -6))]
    assert state.round == 2
    for seat in range(3):
        state.apply(seat, A.DONE)
    assert state.to_move() == (1,)  # nobody won: the seat after the previous starter starts


def test_three_rounds_then_the_best_total_wins():
    state = GAME.new_state(4, seed=5)
    rng = random.Random(5)
    while not state.is_over():
        seat = state.to_move()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    labels = [line.label.split(" (")[0] for line in state.score_sheet()]
    assert labels == ["Round 1", "Round 2", "Round 3"]
    totals = state.scores()
    assert state.winners() == [s for s in range(4) if totals[s] == max(totals)]
    for line in state.score_sheet():
        if "limit" not in line.label:
            assert line.points.count(5) == 1 and all(p <= 0 for p in line.points if p != 5)


# --- actions and the heuristic's split -------------------------------------------------------------------

def test_action_labels_parse_back():
    state = GAME.new_state(4, seed=1)
    assert state.parse_action("heaven 3x7") == A.play_id(HEAVEN, 7, 3)
    assert state.parse_action("Earth take low") == A.take_id(EARTH, C.LOW)
    assert state.parse_action("done") == A.DONE


def test_heuristic_split_keeps_ranks_together_and_balances_the_hands():
    hand = [1, 1, 1, 4, 4, 6, 7, 9, 9, 12, 12, 13, 13]
    target = earth_target(hand)
    earth = sum(target)
    assert abs(earth - (len(hand) - earth)) <= 3
    counts = {r: hand.count(r) for r in hand}
    assert all(target[r] in (0, counts[r]) for r in counts)


# --- invariants over random games -----------------------------------------------------------------------

def rulebook_moves(view, seat):
    """The turn actions the rules allow, worked out afresh from the seat's view (a reference for the engine)."""
    me = view["seats"][seat]
    hands = {"Heaven": me["heaven"], "Earth": me["earth"]}
    tiers = view["table"]
    lock = None
    if len(tiers) >= 2 and tiers[0][1] != tiers[-1][1]:
        lock = "low" if tiers[0][1] > tiers[-1][1] else "high"
    assert view["lock"] == lock
    moves = set()
    for name, cards in hands.items():
        if name in view["hands_used"]:
            continue
        for r in set(cards):
            for k in range(1, cards.count(r) + 1):
                below = tiers and r < tiers[0][0] and lock != "low" and k >= tiers[0][1]
                above = tiers and r > tiers[-1][0] and lock != "high" and k >= tiers[-1][1]
                if not tiers or below or above:
                    moves.add(f"{name} {k}x{r}")
        if len(tiers) >= 2:
            for end, (_, count) in (("low", tiers[0]), ("high", tiers[-1])):
                if lock != end and count < 3:
                    moves.add(f"{name} take {end}")
        other = "Earth" if name == "Heaven" else "Heaven"
        if not (view["must_lead"] and not tiers) or (other not in view["hands_used"] and hands[other]):
            moves.add(f"{name} pass")
    return moves


@pytest.mark.parametrize("players", [3, 4, 5])
def test_legal_turn_actions_match_the_rules_in_random_games(players):
    for seed in range(3):
        state = GAME.new_state(players, seed=seed)
        rng = random.Random(seed)
        while not state.is_over():
            seat = state.to_move()[0]
            if state.view(None)["phase"] == "play":
                assert legal(state, seat) == rulebook_moves(state.view(seat), seat)
            state.apply(seat, rng.choice(state.legal_actions(seat)))


@pytest.mark.parametrize("players", [3, 4, 5])
def test_cards_are_conserved_and_the_table_stays_ordered(players):
    top = C.TOP_RANK[players]
    deck = [5 if 1 <= r <= top else 0 for r in range(STRIDE)]
    for seed in range(3):
        state = GAME.new_state(players, seed=seed)
        rng = random.Random(seed)
        while not state.is_over():
            seat = state.to_move()[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
            if state.is_over():
                break
            counts = [state.undealt[r] + state.cleared[r] for r in range(STRIDE)]
            for r, c in zip(state.tier_rank, state.tier_count):
                counts[r] += c
            for s in range(players):
                for r in range(STRIDE):
                    counts[r] += state.heaven[s * STRIDE + r] + state.earth[s * STRIDE + r]
                if state.view(None)["phase"] == "play":
                    assert state.heaven_n[s] + state.earth_n[s] > 0, "a player with no cards ends the round"
            assert counts == deck
            assert state.tier_rank == sorted(set(state.tier_rank))
            assert all(1 <= c <= 5 for c in state.tier_count)
