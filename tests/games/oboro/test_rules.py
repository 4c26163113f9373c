"""Rulebook tests for Oboro Ninja Star Trick, from scripted deals (see docs/rules/oboro.md)."""

from __future__ import annotations

import json
import pickle
import random

import pytest

from ninjatable.core import IllegalAction, get_game
from ninjatable.games.oboro import cards as C
from ninjatable.games.oboro.observe import O_TOPS

GAME = get_game("oboro")


def cid(label: str) -> int:
    return C.LABELS.index(label)


def new(hands=None, leader=None, seed=1, **options):
    """A state, optionally with a scripted round (`hands` as labels, `leader` leading)."""
    state = GAME.new_state(3, seed=seed, **options)
    if hands is not None:
        state.set_position(hands=hands, leader=leader)
    return state


def play(state, *labels: str) -> None:
    """Play the labelled cards in turn order, each by the seat to move."""
    for label in labels:
        seat = state.to_move()[0]
        state.apply(seat, state.parse_action(label))


def top(state, seat: int, colour: str) -> str | None:
    return state.view(None)["seats"][seat]["card_area"][colour]["top"]


def play_random(state, rng: random.Random, until) -> None:
    while not state.is_over() and not until(state):
        seat = state.to_move()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))


# --- the deal and the shape of a round -----------------------------------------------------------------
def test_the_deck_is_24_cards_dealt_8_to_each_of_3_players():
    state = new(seed=5)
    assert GAME.player_counts == (3,)
    hands = state.hands
    assert [len(h) for h in hands] == [8, 8, 8]
    assert sorted(c for h in hands for c in h) == list(range(24))
    assert sorted(C.LABELS) == sorted(f"{k}{v}" for k in "RBG" for v in range(1, 9))


def test_a_round_is_seven_tricks_and_the_last_card_stays_unplayed():
    state = new(seed=6)
    rng = random.Random(6)
    for trick in range(7):
        assert state.round == 1 and state.tricks_played == trick
        play_random(state, rng, until=lambda s, t=trick: s.tricks_played != t)
    # 21 cards played, 1 left in each hand: the round was scored and round 2 dealt afresh.
    assert len(state.history) == 21
    assert [line.label for line in state.sheet if line.label.startswith("Round")] == ["Round 1"]
    assert state.round == 2 and [len(h) for h in state.hands] == [8, 8, 8]


def test_the_red_8_holder_leads_the_first_trick_of_the_game():
    for seed in range(10):
        state = new(seed=seed)
        holder = next(s for s in range(3) if cid("R8") in state.hands[s])
        assert state.to_move() == (holder,)


@pytest.mark.parametrize("seed", range(4))
def test_by_default_the_red_8_holder_leads_each_later_round(seed):
    state = new(seed=seed)
    play_random(state, random.Random(seed), until=lambda s: s.round == 2)
    holder = next(s for s in range(3) if cid("R8") in state.hands[s])
    assert state.to_move() == (holder,)


def test_round_leader_last_trick_gives_round_2_to_the_last_tricks_winner():
    state = new([["R1", "G1"], ["R2", "G2"], ["R7", "G3"]], leader=0, round_leader="last_trick")
    play(state, "R1", "R2", "R7")  # the 7th and last trick: P3 wins it
    assert state.round == 2
    assert state.to_move() == (2,)


def test_round_leader_last_trick_follows_an_arrow_in_the_last_trick():
    state = new([["B4", "G1"], ["B5", "G2"], ["B7", "G3"]], leader=0, round_leader="last_trick")
    play(state, "B4", "B5", "B7")  # the last trick: P1 plays the Blue 4 Arrow and loses, P3 wins
    assert state.round == 2
    assert state.to_move() == (0,)


def test_round_leader_left_passes_the_first_lead_clockwise():
    state = new(seed=3, round_leader="left")
    first = state.to_move()[0]
    play_random(state, random.Random(3), until=lambda s: s.round == 2)
    assert state.to_move() == ((first + 1) % 3,)


# --- following and winning -----------------------------------------------------------------------------
def test_you_must_follow_the_led_colour_if_you_can():
    state = new([["R3", "B1", "G1"], ["R5", "B2", "G2"], ["B3", "G3", "G4"]], leader=0)
    play(state, "R3")
    assert [C.LABELS[a] for a in state.legal_actions(1)] == ["R5"]
    before = pickle.dumps(state)
    with pytest.raises(IllegalAction, match="R5"):
        state.apply(1, cid("B2"))
    assert pickle.dumps(state) == before
    play(state, "R5")
    # P3 holds no red: any card.
    assert sorted(C.LABELS[a] for a in state.legal_actions(2)) == ["B3", "G3", "G4"]


def test_the_highest_value_wins_whatever_its_colour():
    state = new([["R3", "B1", "G1"], ["R5", "B2", "G2"], ["B7", "G3", "G4"]], leader=0)
    play(state, "R3", "R5", "B7")
    assert state.leader == 2
    assert top(state, 2, "red") == "R3" and top(state, 2, "blue") == "B7"


def test_a_tie_on_value_is_won_by_the_card_played_later():
    state = new([["R5", "B1", "G1"], ["B5", "B2", "G2"], ["G5", "G3", "G4"]], leader=0)
    # P2 and P3 hold no red, so they may play their 5s: three 5s, the last one (P3's) wins.
    play(state, "R5", "B5")
    assert state.trick_winner_index() == 1
    play(state, "G5")
    assert state.leader == 2
    assert state.view(None)["seats"][2]["ninja_power"] == 15


# --- the Card Area -------------------------------------------------------------------------------------
def test_the_rulebook_example_red_5_and_blue_8_on_top_give_ninja_power_13():
    """Fig 3 and 4: with Red 4 and Blue 7 laid, Player C takes Red 5, Red 7 and Blue 8."""
    state = new([["R5", "G1", "G2"], ["R7", "G3", "B1"], ["B8", "G4", "G5"]], leader=0)
    state.set_position(areas={2: {"red": ["R4"], "blue": ["B7"]}})
    play(state, "R5", "R7", "B8")
    assert state.stacks[2 * 3 + C.RED] == [cid("R4"), cid("R7"), cid("R5")]  # lowest of the new ones on top
    assert state.stacks[2 * 3 + C.BLUE] == [cid("B7"), cid("B8")]
    assert top(state, 2, "red") == "R5" and top(state, 2, "blue") == "B8"
    assert state.ninja_power(2) == 13
    assert state.view(1)["seats"][2]["ninja_power"] == 13


def test_only_the_top_card_of_each_stack_is_shown():
    state = new([["R5", "G1", "G2"], ["R7", "G3", "B1"], ["B8", "G4", "G5"]], leader=0)
    state.set_position(areas={2: {"red": ["R4"], "blue": ["B7"]}})
    play(state, "R5", "R7", "B8")
    for seat in (None, 0, 1, 2):
        view = state.view(seat)
        area = view["seats"][2]["card_area"]
        assert area["red"] == {"top": "R5", "height": 3}
        assert area["blue"] == {"top": "B8", "height": 2}
        shown = json.dumps({k: v for k, v in view.items() if k != "seats"}) + json.dumps(view["seats"])
        for buried in ("R4", "R7", "B7"):
            assert f'"{buried}"' not in shown
    for seat in range(3):
        obs = state.observation(seat)
        rel = (2 - seat) % 3
        tops = {C.LABELS[c] for c in range(24) if obs[O_TOPS + rel * 24 + c]}
        assert tops == {"R5", "B8"}


# --- Arrow cards ---------------------------------------------------------------------------------------
def test_an_arrow_played_by_the_tricks_loser_makes_them_lead_next():
    state = new([["B4", "G1", "G2"], ["B7", "G3", "R1"], ["B2", "G4", "G5"]], leader=0)
    play(state, "B4", "B7", "B2")
    assert top(state, 1, "blue") == "B2"  # P2 won the cards...
    assert state.to_move() == (0,)  # ...but P1, who played the Blue 4 Arrow, leads


def test_with_two_arrows_in_a_trick_the_later_one_leads_next():
    state = new([["B4", "G1", "G2"], ["G4", "G3", "R1"], ["B8", "G5", "G6"]], leader=0)
    play(state, "B4", "G4", "B8")  # P2 has no blue and plays the Green 4 Arrow; P3 wins
    assert top(state, 2, "blue") == "B4"
    assert state.to_move() == (1,)


def test_the_red_8_is_an_arrow_by_default():
    # P1 leads Red 8, P3 ties it with Blue 8 and wins (later card), but the Red 8's Arrow gives P1 the lead.
    hands = [["R8", "G1", "G2"], ["R2", "G3", "B1"], ["B8", "G4", "G5"]]
    state = new(hands, leader=0)
    play(state, "R8", "R2", "B8")
    assert state.ninja_power(2) == 10  # P3 took the trick: R2 on the red stack, B8 on the blue
    assert state.to_move() == (0,)
    plain = new(hands, leader=0, red8_arrow=False)
    play(plain, "R8", "R2", "B8")
    assert plain.to_move() == (2,)


def test_red_4_is_not_an_arrow():
    state = new([["R4", "G1", "G2"], ["R7", "G3", "B1"], ["R2", "G4", "G5"]], leader=0)
    play(state, "R4", "R7", "R2")
    assert state.to_move() == (1,)


# --- Shuriken ------------------------------------------------------------------------------------------
def test_the_winner_takes_a_piece_per_shuriken_card():
    state = new([["R6", "G1", "G2"], ["R7", "G3", "B1"], ["B6", "G4", "G5"]], leader=0)
    play(state, "R6", "R7", "B6")
    assert state.pieces == [0, 2, 0] and state.stock == 3
    assert state.sheet == []


def test_shuriken_scoring_interrupts_the_round_when_the_stock_runs_out():
    hands = [["R6", "G1", "G2", "B1", "B2"], ["R7", "G3", "G4", "B3", "B4"], ["R1", "G5", "G6", "B5", "B6"]]
    state = new(hands, leader=0)
    state.set_position(stock=1, pieces=[2, 1, 1])
    play(state, "R6", "R7", "R1")  # P2 wins the Red 6 and takes the last piece: 2, 2, 1
    # Play stops for Shuriken scoring: ranks 1, 1, 3 pay 2, 2, 1; the pieces go back to the stock.
    assert [(line.label, line.points) for line in state.sheet] == [("Shuriken scoring 1", (2, 2, 1))]
    assert state.stock == 5 and state.pieces == [0, 0, 0]
    # ...and the round resumes where it stopped.
    assert state.round == 1 and state.tricks_played == 4 and [len(h) for h in state.hands] == [4, 4, 4]
    assert state.to_move() == (1,) and not state.is_over()


def test_a_trick_with_more_shuriken_cards_than_the_stock_holds():
    hands = [["R6", "G1", "G2"], ["B6", "G3", "B1"], ["G6", "G4", "G5"]]
    state = new(hands, leader=0)
    state.set_position(stock=1, pieces=[3, 1, 0])
    play(state, "R6", "B6", "G6")  # three 6s: the last, P3's Green 6, wins, but only 1 piece is left
    # P3 gets 1 piece (3, 1, 1), the other two are lost; ranks 1, 2, 2 pay 3, 1, 1.
    assert [(line.label, line.points) for line in state.sheet] == [("Shuriken scoring 1", (3, 1, 1))]
    assert state.stock == 5 and state.pieces == [0, 0, 0]


def test_shuriken_scoring_ranks_only_holders():
    hands = [["R6", "G1", "G2"], ["R7", "G3", "B1"], ["R1", "G4", "G5"]]
    state = new(hands, leader=0)
    state.set_position(stock=1, pieces=[4, 0, 0])
    play(state, "R6", "R7", "R1")  # P2 takes the last piece: 4, 1, 0; P3 holds none and scores nothing
    assert state.sheet[0].points == (3, 2, 0)


def test_the_game_ends_after_the_round_of_the_second_shuriken_scoring():
    hands = [["R6", "G6", "B1", "G8"], ["R7", "G1", "B2", "B8"], ["R1", "G2", "B6", "B7"]]
    state = new(hands, leader=0)  # tricks 5 to 7 of round 1
    state.set_position(shuriken_scorings=1, stock=1, pieces=[0, 3, 1])
    play(state, "R6", "R7", "R1")  # P2 takes the last piece: 0, 4, 1 -> 0, 3, 2
    assert [line.label for line in state.sheet] == ["Shuriken scoring 2"]
    assert state.sheet[0].points == (0, 3, 2)
    assert not state.is_over()  # the current round is played out first
    play(state, "G1", "G2", "G6")  # P1 takes the Green 6: a piece that no longer counts
    assert state.pieces == [1, 0, 0]
    assert not state.is_over()
    play(state, "B1", "B2", "B6")  # the round's 7th trick; P3 takes the Blue 6
    assert state.is_over() and state.to_move() == ()
    assert [line.label for line in state.sheet] == ["Shuriken scoring 2", "Round 1"]
    assert state.scores() == [sum(line.points[s] for line in state.sheet) for s in range(3)]


def test_the_game_goes_on_after_the_first_shuriken_scoring():
    hands = [["R6", "G6", "B1"], ["R7", "G1", "B2"], ["R1", "G2", "B3"]]
    state = new(hands, leader=0)  # tricks 6 and 7
    state.set_position(stock=1)
    play(state, "R6", "R7", "R1", "G1", "G2", "G6")
    assert [line.label for line in state.sheet] == ["Shuriken scoring 1", "Round 1"]
    assert not state.is_over() and state.round == 2


# --- round scoring -------------------------------------------------------------------------------------
def scored(mission_value=9, **areas):
    """Round points for Card Areas given as p1=..., p2=..., p3=... dicts of colour -> labels (bottom to top)."""
    state = new(mission_value=mission_value)
    state.set_position(areas={int(name[1]) - 1: area for name, area in areas.items()})
    return state.round_points()


def test_ranks_pay_3_2_1():
    assert scored(p1={"red": ["R5"]}, p2={"blue": ["B3"]}, p3={"green": ["G1"]}) == [3, 2, 1]


def test_two_first_places_pay_2_each_and_the_third_1():
    # 1, 1, 3 pays 2, 2, 1
    assert scored(p1={"red": ["R5"], "blue": ["B3"]}, p2={"green": ["G6"], "red": ["R2"]},
                  p3={"blue": ["B4"]}) == [2, 2, 1]


def test_two_second_places_pay_1_each():
    # 1, 2, 2 pays 3, 1, 1
    assert scored(p1={"red": ["R8"], "blue": ["B1"]}, p2={"green": ["G5"]}, p3={"blue": ["B5"]}) == [3, 1, 1]


def test_three_way_tie_and_players_with_no_cards():
    # Nobody took a card: Ninja Power 0, no colours, all first: 2, 2, 2.
    assert scored() == [2, 2, 2]


def test_a_player_with_no_cards_still_ranks():
    assert scored(p1={"red": ["R5"]}, p2={"blue": ["B3"]}) == [3, 2, 1]


def test_equal_ninja_power_is_broken_by_the_number_of_colours_received():
    assert scored(p1={"green": ["G7"]}, p2={"red": ["R3"], "blue": ["B4"]}, p3={"blue": ["B2"]}) == [2, 3, 1]
    # A taller stack is still one colour received.
    assert scored(p1={"green": ["G8", "G7"]}, p2={"red": ["R3"], "blue": ["B4"]}) == [2, 3, 1]


def test_equal_power_and_colours_share_the_rank():
    assert scored(p1={"green": ["G7"]}, p2={"red": ["R7"]}, p3={"blue": ["B2"]}) == [2, 2, 1]


def test_ninja_power_over_the_mission_value_scores_nothing():
    # P1 has 10 > 9: no points; P2 and P3 move up.
    assert scored(p1={"red": ["R8"], "blue": ["B2"]}, p2={"green": ["G3"]}) == [0, 3, 2]
    # Exactly the Mission Value is within it.
    assert scored(p1={"red": ["R8"], "blue": ["B1"]}, p2={"green": ["G3"]}) == [3, 2, 1]


def test_mission_value_11():
    areas = {"p1": {"red": ["R8"], "blue": ["B3"]}, "p2": {"green": ["G3"]}}
    assert scored(mission_value=11, **areas) == [3, 2, 1]
    assert scored(mission_value=9, **areas) == [0, 3, 2]
    assert scored(mission_value=11, p1={"red": ["R8"], "blue": ["B4"]}, p2={"green": ["G3"]}) == [0, 3, 2]
    assert new(seed=1).mission_value == 9 and new(seed=1, mission_value=11).mission_value == 11


def test_only_the_top_cards_count_for_ninja_power():
    # Buried high cards do not count: red 8 under red 1 gives 1.
    assert scored(p1={"red": ["R8", "R1"]}, p2={"blue": ["B3"]}) == [2, 3, 1]


def test_each_round_is_its_own_score_sheet_row():
    state = new(seed=8)
    play_random(state, random.Random(8), until=lambda s: s.round == 3)
    rounds = [line.label for line in state.sheet if not line.label.startswith("Shuriken")]
    assert rounds == ["Round 1", "Round 2"]
    shuriken = [line.label for line in state.sheet if line.label.startswith("Shuriken")]
    assert shuriken == [f"Shuriken scoring {k}" for k in range(1, len(shuriken) + 1)]


# --- end of the game -----------------------------------------------------------------------------------
def test_random_games_end_after_two_shuriken_scorings():
    for seed in range(20):
        state = new(seed=seed)
        play_random(state, random.Random(seed), until=lambda s: False)
        labels = [line.label for line in state.sheet]
        assert labels.count("Shuriken scoring 1") == 1 and labels.count("Shuriken scoring 2") == 1
        # The second Shuriken scoring happened in the last round: only that round's row follows it.
        assert labels[labels.index("Shuriken scoring 2") + 1:] == [f"Round {state.round}"]


def test_max_rounds_safeguard_stops_the_game():
    state = new(seed=4, max_rounds=1)
    play_random(state, random.Random(4), until=lambda s: False)
    assert state.round == 1 and state.is_over()
    assert [line.label for line in state.sheet][-1] == "Round 1"


def test_winners_share_the_highest_total():
    hands = [["R1", "G1", "B1"], ["R2", "G2", "B2"], ["R3", "G3", "B3"]]
    state = new(hands, leader=0)
    state.set_position(shuriken_scorings=2)  # the second Shuriken scoring is done: this round is the last
    state.score("Shuriken scoring 2", [2, 2, 1])
    play(state, "R1", "R2", "R3", "G3", "G1", "G2")  # P3 takes both tricks: R1/G1 on top, 2 colours, NP 2
    assert state.is_over()
    # Round: P3 2 power (3 pt), P1 and P2 no cards (0 power, tie: 1 pt each).
    assert state.sheet[-1].points == (1, 1, 3)
    assert state.scores() == [3, 3, 4] and state.winners() == [2]
    tied = new(hands, leader=0)
    tied.set_position(shuriken_scorings=2)
    tied.score("Shuriken scoring 2", [3, 1, 1])
    play(tied, "R1", "R2", "R3", "G3", "G1", "G2")
    assert tied.scores() == [4, 2, 4] and tied.winners() == [0, 2]


# --- what seats know -----------------------------------------------------------------------------------
def test_other_hands_are_hidden_and_counted():
    state = new(seed=2)
    view = state.view(0)
    assert view["seats"][0]["hand"] == [C.LABELS[c] for c in state.hands[0]]
    assert view["seats"][1]["hand"] is None and view["seats"][1]["hand_size"] == 8
    assert all(seat["hand"] is None for seat in state.view(None)["seats"])


def test_sampled_worlds_respect_voids_and_the_known_red_8():
    state = new([["R3", "B1", "G1", "R8"], ["B2", "G2", "G7", "G8"], ["R5", "B3", "G3", "G4"]], leader=2)
    play(state, "R5", "R3", "B2")  # P2 shows it holds no red
    state.set_position(red8_holder=0)  # as when the Red 8 decided the round's first leader
    rng = random.Random(1)
    for _ in range(30):
        world = state.sample_world(2, rng)
        assert world.hands[2] == state.hands[2]
        assert [len(h) for h in world.hands] == [len(h) for h in state.hands]
        assert not any(C.COLOUR[c] == C.RED for c in world.hands[1])
        assert cid("R8") in world.hands[0]
        assert world.stacks == state.stacks


def test_the_heuristic_plays_a_whole_game_legally():
    from ninjatable.bots import play_game
    from ninjatable.core import RandomBot

    state = new(seed=9)
    bots = [GAME.heuristic_bot(seed=1, worlds=2), RandomBot(seed=2), RandomBot(seed=3)]
    play_game(state, bots)
    assert state.is_over()
