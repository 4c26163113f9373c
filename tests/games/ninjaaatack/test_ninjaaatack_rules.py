"""Ninjaaa'Tack rulebook tests, from scripted deals.

Seats are numbered to the left: Player 1 passes to Player 2. With 4 players the teams are Player 1 + Player 3
and Player 2 + Player 4 (teammates face each other).
"""

from __future__ import annotations

import random

import pytest

from ninjatable.core import IllegalAction, get_game
from ninjatable.games.ninjaaatack.cards import FAMILIES, SIGNALS
from ninjatable.games.ninjaaatack.heuristic import call_break_even

GAME = get_game("ninjaaatack")


def new(players: int = 4, seed: int = 1, **options):
    return GAME.new_state(players, seed=seed, **options)


def act(state, seat: int, label: str) -> None:
    state.apply(seat, state.parse_action(label))


def step(state, choices: dict[int, str] | None = None, order: list[int] | None = None) -> None:
    """Every seat still to move decides: the given label, else a quiet default (its first card, or silence)."""
    choices = choices or {}
    seats = order if order is not None else list(state.to_move())
    for seat in seats:
        if seat not in state.to_move():
            continue
        if seat in choices:
            act(state, seat, choices[seat])
        elif state.view(seat)["step"] == "pass":
            act(state, seat, f"pass {next(iter(state.view(seat)['hand']))}")
        else:
            act(state, seat, "silence")


def hand(state, seat: int) -> dict[str, int]:
    return state.view(seat)["hand"]


# A 4-player deal: Player 1 and Player 3 share the four Foxes; Player 2 and Player 4 share nothing whole.
FOX_FOR_P1_P3 = [
    ["Fox", "Fox", "Crane", "Tiger"],
    ["Crane", "Tiger", "Dragon", "Dragon"],
    ["Fox", "Fox", "Crane", "Dragon"],
    ["Crane", "Tiger", "Tiger", "Dragon"],
]
# Nobody holds a clan: every team is missing something.
NO_CLAN = [
    ["Fox", "Fox", "Crane", "Tiger"],
    ["Crane", "Tiger", "Dragon", "Fox"],
    ["Fox", "Crane", "Dragon", "Dragon"],
    ["Crane", "Tiger", "Tiger", "Dragon"],
]


def labels(state) -> list[str]:
    return [line.label for line in state.score_sheet()]


# --- setup ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [4, 5, 6, 7, 8])
def test_as_many_families_as_players_four_cards_each(players):
    state = new(players)
    assert state.view(None)["families"] == list(FAMILIES[:players])
    counts = [0] * players
    for seat in range(players):
        cards = hand(state, seat)
        assert sum(cards.values()) == 4
        for name, c in cards.items():
            counts[FAMILIES.index(name)] += c
    assert counts == [4] * players


@pytest.mark.parametrize("players", [4, 6, 8])
def test_even_counts_pair_teammates_sitting_opposite(players):
    state = new(players)
    half = players // 2
    teams = [t["seats"] for t in state.view(None)["teams"]]
    assert teams == [[s, s + half] for s in range(half)]
    assert state.view(None)["lone_wolf"] is None


def test_setting_a_deal_checks_it():
    state = new(4)
    with pytest.raises(ValueError):
        state.set_position(hands=[["Fox"] * 4] * 4)


# --- passing ----------------------------------------------------------------------------------------------------
def test_a_pass_is_simultaneous_and_moves_every_card_one_seat_left():
    state = new(4)
    state.set_position(hands=NO_CLAN)
    chosen = {0: "Tiger", 1: "Fox", 2: "Dragon", 3: "Crane"}
    assert set(state.to_move()) == {0, 1, 2, 3}
    act(state, 0, "pass Tiger")
    # Player 1 has chosen; the others still must, and nobody else can see what Player 1 chose.
    assert state.to_move() == (1, 2, 3)
    assert state.view(0)["my_choice"] == "pass Tiger"
    for other in (1, 2, 3, None):
        view = state.view(other)
        assert view["pending"][0] is None
        assert view["hands"][0] == 4
        assert "Tiger" not in str(view["pending"])
    # Nothing moves until everybody has chosen.
    assert hand(state, 0) == {"Fox": 2, "Crane": 1, "Tiger": 1}
    for seat in (1, 2, 3):
        act(state, seat, f"pass {chosen[seat]}")
    for seat in range(4):
        received = chosen[(seat - 1) % 4]
        assert state.view(seat)["my_passes"] == [{"passed": chosen[seat], "received": received}]
    assert hand(state, 0) == {"Fox": 2, "Crane": 2}  # gave Tiger, got Crane from Player 4
    assert hand(state, 1) == {"Crane": 1, "Tiger": 2, "Dragon": 1}  # gave Fox, got Tiger from Player 1
    assert hand(state, 2) == {"Fox": 2, "Crane": 1, "Dragon": 1}  # gave Dragon, got Fox from Player 2
    assert hand(state, 3) == {"Tiger": 2, "Dragon": 2}  # gave Crane, got Dragon from Player 3
    assert all(sum(hand(state, s).values()) == 4 for s in range(4))


def test_a_seat_can_only_pass_a_card_it_holds():
    state = new(4)
    state.set_position(hands=NO_CLAN)
    with pytest.raises(IllegalAction, match="pass Dragon is not allowed"):
        act(state, 0, "pass Dragon")


# --- table talk -------------------------------------------------------------------------------------------------
def test_signals_follow_each_pass_and_are_public_and_attributed_once_all_have_signalled():
    state = new(4)
    state.set_position(hands=NO_CLAN)
    step(state)
    assert state.view(0)["step"] == "signal"
    legal = [state.action_label(a) for a in state.legal_actions(0)]
    assert [f"signal {g}" for g in SIGNALS] + ["silence"] == legal[: len(SIGNALS) + 1]
    act(state, 0, "signal wink")
    # A gesture chosen but not yet published is hidden like any pending choice.
    assert state.view(1)["signals"] == [] and state.view(1)["pending"][0] is None
    act(state, 1, "silence")
    act(state, 2, "signal tap-nose")
    act(state, 3, "signal wink")
    made = [(s["player"], s["signal"], s["pass"]) for s in state.view(None)["signals"]]
    assert made == [("Player 1", "wink", 1), ("Player 3", "tap-nose", 1), ("Player 4", "wink", 1)]
    assert state.view(2)["signals"] == state.view(None)["signals"]
    assert state.view(0)["step"] == "pass"
    # Signals of the round accumulate with the pass they follow.
    step(state)
    step(state, {1: "signal shrug"})
    assert [(s["player"], s["pass"]) for s in state.view(3)["signals"]][-1] == ("Player 2", 2)


def test_the_vocabulary_has_about_a_dozen_gestures():
    assert 10 <= len(SIGNALS) <= 14 and len(set(SIGNALS)) == len(SIGNALS)


# --- Ninjaaa! ------------------------------------------------------------------------------------------------------
def test_a_correct_ninjaaa_scores_a_point_for_both_teammates_and_ends_the_round():
    state = new(4)
    state.set_position(hands=FOX_FOR_P1_P3)
    step(state, {2: "ninjaaa"})
    assert labels(state) == ["Ninjaaa! by Player 3"]
    assert state.scores() == [1, 0, 1, 0]
    # The hands concerned were revealed to everybody.
    reveal = [e.text for e in state.events if e.kind == "reveal"]
    assert reveal == ["Player 1 reveals 2x Fox, 1x Crane, 1x Tiger", "Player 3 reveals 2x Fox, 1x Crane, 1x Dragon"]
    assert state.view(3)["last_call"]["correct"] is True
    # New round: reshuffled and redealt, a fresh pass step.
    assert state.view(None)["round"] == 2 and state.view(None)["step"] == "pass"


def test_a_call_is_possible_at_the_signal_step_too():
    state = new(4)
    state.set_position(hands=FOX_FOR_P1_P3)
    step(state, {0: "pass Crane", 2: "pass Crane"})
    assert state.view(0)["step"] == "signal"
    step(state, {0: "ninjaaa"})
    assert labels(state) == ["Ninjaaa! by Player 1"]


def test_two_clans_at_once_score_two():
    state = new(4)
    state.set_position(
        hands=[
            ["Fox", "Fox", "Crane", "Crane"],
            ["Tiger", "Tiger", "Dragon", "Dragon"],
            ["Fox", "Fox", "Crane", "Crane"],
            ["Tiger", "Tiger", "Dragon", "Dragon"],
        ]
    )
    step(state, {0: "ninjaaa"})
    assert labels(state) == ["Ninjaaa! by Player 1"] and state.scores() == [2, 0, 2, 0]


def test_a_wrong_ninjaaa_at_zero_points_brings_the_penalty_and_ends_the_round():
    state = new(4)
    state.set_position(hands=NO_CLAN)
    step(state, {1: "ninjaaa"})
    assert labels(state) == ["Wrong call by Player 2 (Ninjaaa!): Penalty next round"]
    assert state.scores() == [0, 0, 0, 0]  # scores never go below 0
    assert state.view(None)["round"] == 2
    assert state.view(None)["penalised"] == [1, 3]
    assert [t["penalised"] for t in state.view(0)["teams"]] == [False, True]


def test_a_wrong_ninjaaa_costs_the_team_a_point():
    state = new(4)
    state.set_position(hands=FOX_FOR_P1_P3)
    step(state, {0: "ninjaaa"})
    state.set_position(hands=NO_CLAN)
    step(state, {2: "ninjaaa"})
    assert labels(state) == ["Ninjaaa! by Player 1", "Wrong call by Player 3 (Ninjaaa!)"]
    assert state.scores() == [0, 0, 0, 0]
    assert state.view(None)["penalised"] == []


# --- Attack! ----------------------------------------------------------------------------------------------------------
def test_a_correct_attack_scores_for_the_attackers_and_costs_the_victims_nothing():
    state = new(4)
    state.set_position(hands=FOX_FOR_P1_P3)
    legal = [state.action_label(a) for a in state.legal_actions(1)]
    # The rulebook's Attack! names no team: one action, judged against every other team.
    assert "attack" in legal and not any(label.startswith("attack Player") for label in legal)
    step(state, {1: "attack"})
    assert labels(state) == ["Attack! by Player 2"]
    assert state.scores() == [0, 1, 0, 1]
    revealed = state.view(None)["last_call"]["revealed"]
    assert set(revealed) == {"Player 1", "Player 3"}


def test_attacking_several_enemy_clans_scores_several_points():
    state = new(4)
    state.set_position(
        hands=[
            ["Fox", "Fox", "Crane", "Crane"],
            ["Tiger", "Dragon", "Dragon", "Tiger"],
            ["Fox", "Fox", "Crane", "Crane"],
            ["Tiger", "Tiger", "Dragon", "Dragon"],
        ]
    )
    step(state, {3: "attack"})
    assert state.scores() == [0, 2, 0, 2]


# Six players: teams Player 1+Player 4, Player 2+Player 5, Player 3+Player 6. Only the third team (Player 3 +
# Player 6) holds a clan (the four Tigers).
SIX_THIRD_TEAM_CLAN = [
    ["Fox", "Fox", "Crane", "Dragon"],
    ["Crane", "Dragon", "Snake", "Monkey"],
    ["Tiger", "Tiger", "Fox", "Snake"],
    ["Fox", "Crane", "Dragon", "Monkey"],
    ["Crane", "Dragon", "Snake", "Monkey"],
    ["Tiger", "Tiger", "Monkey", "Snake"],
]


def test_six_players_an_attack_is_judged_against_every_other_team():
    # "If another team has, in fact, assembled a clan, then your team earns a point": the third team counts.
    state = new(6)
    state.set_position(hands=SIX_THIRD_TEAM_CLAN)
    step(state, {1: "attack"})
    assert labels(state) == ["Attack! by Player 2"] and state.scores() == [0, 1, 0, 0, 1, 0]
    # Both other teams show their hands.
    assert set(state.view(None)["last_call"]["revealed"]) == {"Player 1", "Player 3", "Player 4", "Player 6"}


def test_six_players_an_attack_is_wrong_only_if_no_other_team_has_a_clan():
    # "If you were wrong, and no other team has assembled a clan, your team loses a point."
    state = new(6)
    state.set_position(hands=SIX_THIRD_TEAM_CLAN)
    step(state, {2: "attack"})  # the Tigers are Player 3's own team's: no other team holds a clan
    assert labels(state) == ["Wrong call by Player 3 (Attack!): Penalty next round"]
    assert state.view(None)["penalised"] == [2, 5]


def test_eight_players_two_enemy_clans_at_once_score_two_points():
    # "If several enemy clans were assembled, your team earns several points": one clan in each of two teams.
    state = new(8)
    state.set_position(
        hands=[
            ["Fox", "Fox", "Crane", "Tiger"],  # Player 1, with Player 5: the Foxes
            ["Tiger", "Dragon", "Snake", "Monkey"],
            ["Owl", "Owl", "Crane", "Bear"],  # Player 3, with Player 7: the Owls
            ["Crane", "Tiger", "Dragon", "Snake"],
            ["Fox", "Fox", "Monkey", "Bear"],
            ["Crane", "Dragon", "Snake", "Monkey"],
            ["Owl", "Owl", "Tiger", "Bear"],
            ["Dragon", "Snake", "Monkey", "Bear"],
        ]
    )
    step(state, {3: "attack"})
    assert labels(state) == ["Attack! by Player 4"]
    assert state.scores() == [0, 0, 0, 2, 0, 0, 0, 2]


def test_five_players_an_attack_counts_the_lone_wolfs_three_and_the_other_pairs_four():
    # Round 1: lone wolf Player 1; pairs Player 2 + Player 4 and Player 3 + Player 5.
    deal = [
        ["Fox", "Fox", "Fox", "Crane"],  # the lone wolf's clan of 3
        ["Crane", "Crane", "Tiger", "Tiger"],
        ["Dragon", "Dragon", "Snake", "Snake"],
        ["Tiger", "Tiger", "Crane", "Dragon"],  # with Player 2: the four Tigers
        ["Fox", "Dragon", "Snake", "Snake"],
    ]
    state = new(5)
    state.set_position(hands=deal)
    step(state, {4: "attack"})  # Player 5's enemies: the lone wolf (Foxes) and Player 2 + Player 4 (Tigers)
    assert labels(state) == ["Attack! by Player 5"] and state.scores() == [0, 0, 2, 0, 2]
    # The lone wolf attacks both pairs (the Tigers, and Player 3 + Player 5's Snakes) and scores alone.
    state = new(5)
    state.set_position(hands=deal)
    step(state, {0: "attack"})
    assert labels(state) == ["Attack! by Player 1"] and state.scores() == [2, 0, 0, 0, 0]


def test_the_house_rule_attack_names_one_team_and_only_its_clans_count():
    state = new(6, attack="team")
    state.set_position(hands=SIX_THIRD_TEAM_CLAN)
    legal = [state.action_label(a) for a in state.legal_actions(1)]
    assert "attack" not in legal and {"attack Player 1", "attack Player 3"} <= set(legal)
    assert "attack Player 2" not in legal  # not one's own team
    probe = state.clone()
    step(probe, {1: "attack Player 1"})  # the named team holds nothing whole, though the third team does
    assert labels(probe) == ["Wrong call by Player 2 (Attack! on team Player 1+Player 4): Penalty next round"]
    step(state, {1: "attack Player 3"})
    assert labels(state) == ["Attack! by Player 2 on team Player 3+Player 6"]
    assert state.scores() == [0, 1, 0, 0, 1, 0]


def test_an_attack_of_the_other_form_is_refused_with_the_allowed_calls():
    state = new(4)
    with pytest.raises(IllegalAction, match="attack Player 2 is not allowed now.*ninjaaa, attack"):
        act(state, 0, "attack Player 2")
    assert state.to_move() == (0, 1, 2, 3)


def test_a_wrong_attack_costs_a_point_or_brings_the_penalty():
    state = new(4)
    state.set_position(hands=NO_CLAN)
    step(state, {3: "attack"})
    assert labels(state) == ["Wrong call by Player 4 (Attack!): Penalty next round"]
    assert state.view(None)["penalised"] == [1, 3]
    state.set_position(hands=FOX_FOR_P1_P3)
    step(state, {1: "attack"})  # Attack! is not restricted by the Penalty
    assert state.scores() == [0, 1, 0, 1]
    state.set_position(hands=NO_CLAN)
    step(state, {1: "attack"})
    assert labels(state)[-1] == "Wrong call by Player 2 (Attack!)"
    assert state.scores() == [0, 0, 0, 0]


# --- the Penalty ------------------------------------------------------------------------------------------------------
def penalised_team_2():
    """A game whose round 2 puts team Player 2 + Player 4 under the Penalty."""
    state = new(4)
    state.set_position(hands=NO_CLAN)
    step(state, {1: "ninjaaa"})
    assert state.view(None)["penalised"] == [1, 3]
    return state


def test_in_the_penalty_round_a_clan_split_between_teammates_is_a_wrong_call():
    state = penalised_team_2()
    state.set_position(
        hands=[
            ["Fox", "Fox", "Crane", "Tiger"],
            ["Dragon", "Dragon", "Fox", "Crane"],
            ["Fox", "Crane", "Crane", "Tiger"],
            ["Dragon", "Dragon", "Tiger", "Tiger"],
        ]
    )
    step(state, {3: "ninjaaa"})
    assert labels(state)[-1] == "Wrong call by Player 4 (Ninjaaa!): Penalty next round"
    # Erring again at 0 points: penalised again for the following round (not stacked: still one penalty).
    assert state.view(None)["penalised"] == [1, 3] and state.view(None)["round"] == 3


def test_in_the_penalty_round_one_player_holding_all_four_may_call():
    state = penalised_team_2()
    state.set_position(
        hands=[
            ["Fox", "Fox", "Crane", "Tiger"],
            ["Dragon", "Dragon", "Dragon", "Dragon"],
            ["Fox", "Fox", "Crane", "Tiger"],
            ["Crane", "Crane", "Tiger", "Tiger"],
        ]
    )
    step(state, {3: "ninjaaa"})  # the teammate of the holder calls: one player of the team holds all 4
    assert labels(state)[-1] == "Ninjaaa! by Player 4" and state.scores() == [0, 1, 0, 1]


def test_the_penalty_lasts_one_round_only():
    state = penalised_team_2()
    state.set_position(hands=FOX_FOR_P1_P3)
    step(state, {0: "ninjaaa"})  # round 2 ends with no new error
    assert state.view(None)["penalised"] == []
    state.set_position(
        hands=[
            ["Fox", "Fox", "Crane", "Tiger"],
            ["Dragon", "Dragon", "Fox", "Crane"],
            ["Fox", "Crane", "Crane", "Tiger"],
            ["Dragon", "Dragon", "Tiger", "Tiger"],
        ]
    )
    step(state, {1: "ninjaaa"})  # in round 3 the split clan counts again
    assert labels(state)[-1] == "Ninjaaa! by Player 2"


def test_the_penalty_does_not_touch_the_other_team():
    state = penalised_team_2()
    state.set_position(hands=FOX_FOR_P1_P3)
    step(state, {0: "ninjaaa"})
    assert labels(state)[-1] == "Ninjaaa! by Player 1"


# --- simultaneous calls --------------------------------------------------------------------------------------------
BOTH_RIGHT = [
    ["Fox", "Fox", "Crane", "Crane"],
    ["Tiger", "Tiger", "Dragon", "Crane"],
    ["Fox", "Fox", "Crane", "Dragon"],
    ["Tiger", "Tiger", "Dragon", "Dragon"],
]


def test_simultaneous_calls_in_random_mode_resolve_only_the_first_of_a_seeded_draw():
    first = set()
    for seed in range(30):
        state = new(4, seed=seed)
        state.set_position(hands=BOTH_RIGHT)
        act(state, 0, "ninjaaa")
        act(state, 1, "attack")
        # The first call does not end the step: the others still decide, without seeing the calls.
        assert state.to_move() == (2, 3)
        assert state.view(2)["pending"][0] is None
        step(state)
        assert len(state.score_sheet()) == 1
        label = labels(state)[0]
        assert label in ("Ninjaaa! by Player 1", "Attack! by Player 2")
        first.add(label)
        # The same seed gives the same winner of the race.
        again = new(4, seed=seed)
        again.set_position(hands=BOTH_RIGHT)
        act(again, 1, "attack")
        act(again, 0, "ninjaaa")
        step(again)
        assert labels(again) == [label]
    assert len(first) == 2, "the draw is not biased to one seat"


def test_simultaneous_calls_in_arrival_mode_resolve_the_first_submitted_at_once():
    state = new(4, gong_order="arrival")
    state.set_position(hands=BOTH_RIGHT)
    act(state, 2, "pass Dragon")
    act(state, 1, "attack")
    # The gong rang: the round is over, the other seats' choices are void, a new round is dealt.
    assert labels(state) == ["Attack! by Player 2"]
    assert state.view(None)["round"] == 2 and state.to_move() == (0, 1, 2, 3)
    state.set_position(hands=BOTH_RIGHT)
    act(state, 0, "ninjaaa")
    assert labels(state)[-1] == "Ninjaaa! by Player 1"


# --- end of the game ----------------------------------------------------------------------------------------------
def test_the_first_team_to_three_points_wins():
    state = new(4)
    for _ in range(3):
        assert not state.is_over()
        state.set_position(hands=FOX_FOR_P1_P3)
        step(state, {0: "ninjaaa"})
    assert state.is_over() and state.winners() == [0, 2] and state.to_move() == ()


def test_a_round_reaching_the_pass_limit_is_redealt_without_scoring():
    state = new(4, max_passes=3)
    state.set_position(hands=NO_CLAN)
    for _ in range(3):
        assert state.view(None)["round"] == 1
        step(state)  # pass
        step(state)  # signal
    assert state.view(None)["round"] == 2 and state.view(None)["passes"] == 0
    assert state.score_sheet() == [] and state.scores() == [0, 0, 0, 0]
    assert any(e.kind == "redeal" for e in state.events)


def test_the_round_safeguard_ends_a_game_that_nobody_wins():
    state = new(4, max_passes=1, max_rounds=2)
    for _ in range(4):
        step(state)
    assert state.is_over() and state.winners() == [0, 1, 2, 3]


# --- the lone wolf (odd counts) -----------------------------------------------------------------------------------
def test_five_players_lone_wolf_and_the_pairs_it_leaves():
    state = new(5)
    view = state.view(None)
    assert view["lone_wolf"] == 0 and view["individual_scores"] is True
    # The four others, from the lone wolf's left, pair with the seat opposite among them.
    assert [t["seats"] for t in view["teams"]] == [[0], [1, 3], [2, 4]]
    state.set_position(
        hands=[
            ["Fox", "Fox", "Fox", "Crane"],
            ["Crane", "Crane", "Tiger", "Tiger"],
            ["Dragon", "Dragon", "Snake", "Snake"],
            ["Tiger", "Tiger", "Crane", "Dragon"],
            ["Fox", "Dragon", "Snake", "Snake"],
        ]
    )
    # The lone wolf needs only 3 of a family; it alone scores.
    step(state, {0: "ninjaaa"})
    assert labels(state) == ["Ninjaaa! by Player 1"] and state.scores() == [1, 0, 0, 0, 0]
    # The role moves one seat to the left and the pairs follow.
    view = state.view(None)
    assert view["lone_wolf"] == 1
    assert [t["seats"] for t in view["teams"]] == [[0, 3], [1], [2, 4]]


def test_odd_counts_a_pair_scores_for_each_partner_and_a_wrong_call_costs_only_the_caller():
    state = new(5)
    deal = [
        ["Fox", "Crane", "Snake", "Dragon"],
        ["Crane", "Crane", "Snake", "Snake"],
        ["Fox", "Fox", "Tiger", "Tiger"],
        ["Crane", "Snake", "Fox", "Dragon"],
        ["Tiger", "Tiger", "Dragon", "Dragon"],
    ]
    state.set_position(hands=deal)
    step(state, {1: "attack"})  # team Player 3 + Player 5 holds the 4 Tigers
    assert labels(state) == ["Attack! by Player 2"]
    assert state.scores() == [0, 1, 0, 1, 0]
    # Round 2: Player 2 is the lone wolf; teams Player 1 + Player 4 and Player 3 + Player 5.
    state.set_position(hands=deal)
    step(state, {3: "ninjaaa"})  # Player 1 + Player 4 hold no clan
    assert labels(state)[-1] == "Wrong call by Player 4 (Ninjaaa!)"
    assert state.scores() == [0, 1, 0, 0, 0]
    state.set_position(hands=deal)
    step(state, {0: "ninjaaa"})  # round 3, at 0 points: only the caller is penalised
    assert state.view(None)["penalised"] == [0]


def test_odd_counts_the_house_rule_attack_on_the_lone_wolf():
    state = new(5, attack="team")
    state.set_position(
        hands=[
            ["Fox", "Fox", "Fox", "Crane"],
            ["Crane", "Crane", "Tiger", "Tiger"],
            ["Dragon", "Dragon", "Snake", "Snake"],
            ["Tiger", "Tiger", "Crane", "Dragon"],
            ["Fox", "Dragon", "Snake", "Snake"],
        ]
    )
    step(state, {4: "attack Player 1"})
    assert labels(state) == ["Attack! by Player 5 on lone wolf Player 1"] and state.scores() == [0, 0, 1, 0, 1]


def test_odd_counts_the_penalty_binds_the_penalised_caller_alone():
    state = new(5)
    deal = [
        ["Fox", "Crane", "Snake", "Dragon"],
        ["Crane", "Crane", "Snake", "Snake"],
        ["Fox", "Fox", "Tiger", "Tiger"],
        ["Crane", "Snake", "Fox", "Dragon"],
        ["Tiger", "Tiger", "Dragon", "Dragon"],
    ]
    state.set_position(hands=deal)
    step(state, {2: "ninjaaa"})  # Player 3 + Player 5 hold the Tigers: +1 each
    state.set_position(hands=deal)
    step(state, {3: "ninjaaa"})  # round 2, Player 4 (0 points) errs: penalised for round 3
    assert state.view(None)["penalised"] == [3] and state.view(None)["lone_wolf"] == 2
    # Round 3: lone wolf Player 3; pairs Player 4 + Player 1, Player 5 + Player 2.
    assert [t["seats"] for t in state.view(None)["teams"]] == [[0, 3], [1, 4], [2]]
    split = [
        ["Fox", "Fox", "Crane", "Tiger"],
        ["Crane", "Snake", "Snake", "Tiger"],
        ["Crane", "Crane", "Tiger", "Dragon"],
        ["Fox", "Fox", "Dragon", "Snake"],
        ["Tiger", "Dragon", "Dragon", "Snake"],
    ]
    probe = state.clone()
    probe.set_position(hands=split)
    step(probe, {3: "ninjaaa"})  # the penalised player's split clan does not count
    assert probe.score_sheet()[-1].label == "Wrong call by Player 4 (Ninjaaa!): Penalty next round"
    state.set_position(hands=split)
    step(state, {0: "ninjaaa"})  # the unpenalised partner's call counts the pair's cards together
    assert labels(state)[-1] == "Ninjaaa! by Player 1"
    assert state.scores() == [1, 0, 1, 1, 1]


def test_seven_players_lone_wolf_rotates_and_pairs_sit_opposite_among_the_six():
    state = new(7)
    expected = {
        0: [[0], [1, 4], [2, 5], [3, 6]],
        1: [[0, 4], [1], [2, 5], [3, 6]],
        2: [[0, 4], [1, 5], [2], [3, 6]],
    }
    for lone in range(3):
        view = state.view(None)
        assert view["lone_wolf"] == lone
        assert [t["seats"] for t in view["teams"]] == expected[lone]
        assert [t["lone_wolf"] for t in view["teams"]] == [t == [lone] for t in expected[lone]]
        step(state, {lone: "attack"})
    assert state.view(None)["lone_wolf"] == 3


def test_seven_players_a_pair_reaching_three_together_shares_the_victory():
    state = new(7, seed=5, attack="team")
    deal = [
        ["Fox", "Fox", "Crane", "Crane"],
        ["Fox", "Fox", "Crane", "Crane"],
        ["Tiger", "Tiger", "Tiger", "Tiger"],
        ["Snake", "Snake", "Snake", "Snake"],
        ["Monkey", "Monkey", "Monkey", "Monkey"],
        ["Dragon", "Dragon", "Dragon", "Dragon"],
        ["Owl", "Owl", "Owl", "Owl"],
    ]
    # Round 1 (lone wolf Player 1): Player 3 + Player 6 hold the Tigers and the Dragons, 2 points each.
    state.set_position(hands=deal)
    step(state, {5: "ninjaaa"})
    assert state.scores() == [0, 0, 2, 0, 0, 2, 0]
    # Round 2 (lone wolf Player 2) pairs them again; one more clan takes both to 3 at once.
    assert [t["seats"] for t in state.view(None)["teams"]] == [[0, 4], [1], [2, 5], [3, 6]]
    state.set_position(hands=deal)
    step(state, {0: "attack Player 2"})  # the lone wolf has no 3 of a family: a wrong call, nobody scores
    assert not state.is_over()
    state.set_position(hands=deal)
    assert [t["seats"] for t in state.view(None)["teams"]] == [[0, 4], [1, 5], [2], [3, 6]]
    step(state, {3: "ninjaaa"})  # round 3: Player 4 + Player 7 hold Snakes and Owls
    assert state.scores() == [0, 0, 2, 2, 0, 2, 2]
    state.set_position(hands=deal)
    # Round 4 (lone wolf Player 4): Player 3 + Player 7 hold Tigers and Owls.
    assert [t["seats"] for t in state.view(None)["teams"]] == [[0, 4], [1, 5], [2, 6], [3]]
    step(state, {6: "ninjaaa"})
    assert state.is_over() and state.winners() == [2, 6]


# --- what a seat may know ------------------------------------------------------------------------------------------
def test_the_view_never_shows_another_hand_or_pending_choice():
    state = new(6)
    act(state, 3, f"pass {next(iter(hand(state, 3)))}")
    for seat in range(6):
        view = state.view(seat)
        assert [h for s, h in enumerate(view["hands"]) if s != seat] == [4] * 5
        assert [p for s, p in enumerate(view["pending"]) if s != seat] == [None] * 5
        assert [p for s, p in enumerate(view["pass_log"]) if s != seat] == [None] * 5
    for e in state.events:
        if e.kind in ("deal", "choice"):
            assert e.to is not None


def test_a_sampled_world_keeps_the_card_just_passed_with_the_left_neighbour():
    state = new(5, seed=3)
    step(state)
    passed = state.view(0)["my_passes"][0]["passed"]
    rng = random.Random(0)
    for _ in range(50):
        world = state.sample_world(0, rng)
        assert world.view(1)["hand"].get(passed, 0) >= 1
        assert world.view(0)["hand"] == state.view(0)["hand"]
        totals = [0] * 5
        for s in range(5):
            for name, c in world.view(s)["hand"].items():
                totals[FAMILIES.index(name)] += c
        assert totals == [4] * 5


def test_a_sampled_world_rechooses_the_other_seats_pending_choices():
    state = new(4, seed=2)
    step(state)
    act(state, 1, "signal wink")
    rng = random.Random(1)
    seen = {state.sample_world(0, rng).pending[1] for _ in range(60)}
    assert len(seen) > 1


def test_reopened_choices_let_the_other_seats_decide_again_the_gong_included():
    state = new(4, seed=2)
    act(state, 1, "pass " + next(iter(state.view(1)["hand"])))
    act(state, 3, "attack")
    world = state.sample_world(0, random.Random(2))
    world.reopen_choices(0)
    assert world.to_move() == (0, 1, 2, 3)
    # The seats that had decided may now choose anything the rules allow them, a call too.
    assert all(world.legal_actions(s) for s in range(4))
    assert world.parse_action("ninjaaa") in world.legal_actions(1)
    assert world.parse_action("attack") in world.legal_actions(3)
    for seat in (0, 1, 2):
        act(world, seat, "pass " + next(iter(world.view(seat)["hand"])))
    act(world, 3, "ninjaaa")
    assert world.last_call is not None and world.last_call[0] == 3
    # The true state is untouched.
    assert state.to_move() == (0, 2)


def test_labels_read_back_and_describe_the_calls():
    state = new(4)
    assert state.parse_action("NINJAAA") == state.parse_action("ninjaaa")
    assert state.action_label(state.parse_action("ATTACK")) == "attack"
    assert state.action_label(state.parse_action("attack player 2")) == "attack Player 2"
    assert state.action_label(state.parse_action("pass fox")) == "pass Fox"


def test_a_sampled_world_never_keeps_another_seats_hidden_call():
    state = new(4, seed=2)
    act(state, 1, "attack")
    rng = random.Random(4)
    for _ in range(30):
        world = state.sample_world(0, rng)
        assert world.to_move() == state.to_move()
        assert world.action_label(world.pending[1]).startswith("pass ")


# --- the heuristic bot -------------------------------------------------------------------------------------------
def heuristic_choice(state, seat: int, seed: int = 0, **params) -> str:
    bot = GAME.heuristic_bot(seed=seed, **params)
    return state.action_label(bot.choose(state, seat))


def test_the_heuristic_calls_a_clan_it_holds_alone_even_under_the_penalty():
    state = penalised_team_2()
    state.set_position(
        hands=[
            ["Fox", "Fox", "Crane", "Tiger"],
            ["Dragon", "Dragon", "Dragon", "Dragon"],
            ["Fox", "Fox", "Crane", "Tiger"],
            ["Crane", "Crane", "Tiger", "Tiger"],
        ]
    )
    assert heuristic_choice(state, 1) == "ninjaaa"


def test_the_heuristic_keeps_its_family_and_signals_it_by_the_convention():
    state = new(4)
    state.set_position(
        hands=[
            ["Tiger", "Tiger", "Tiger", "Crane"],
            ["Fox", "Crane", "Dragon", "Dragon"],
            ["Fox", "Fox", "Crane", "Dragon"],
            ["Fox", "Crane", "Tiger", "Dragon"],
        ]
    )
    # A bot that never gambles on the gong: with three Tigers it passes the Crane, whatever its seed.
    never_gamble = {"margin": 1.1}
    assert {heuristic_choice(state, 0, seed, **never_gamble) for seed in range(5)} == {"pass Crane"}
    act(state, 0, "pass Crane")
    step(state)
    # Still at least two Tigers: it makes the gesture that names Tiger in its partnership's codebook.
    tiger = next(g for g, f in state.view(0)["codebook"].items() if f == "Tiger")
    assert heuristic_choice(state, 0, **never_gamble) == f"signal {tiger}"
    assert state.view(2)["codebook"][tiger] == "Tiger"  # which its teammate reads


def test_the_heuristic_never_attacks_a_team_that_cannot_hold_a_clan():
    state = new(4)
    # Player 2 holds one card of each family: no other team can hold all four of any family.
    state.set_position(
        hands=[
            ["Fox", "Fox", "Crane", "Crane"],
            ["Fox", "Crane", "Tiger", "Dragon"],
            ["Fox", "Tiger", "Dragon", "Dragon"],
            ["Crane", "Tiger", "Tiger", "Dragon"],
        ]
    )
    for seed in range(10):
        assert not heuristic_choice(state, 1, seed, margin=-1.0).startswith("attack")


def test_the_observation_starts_with_the_hand_and_hides_the_others():
    state = new(4)
    state.set_position(hands=NO_CLAN)
    obs = state.observation(0)
    assert list(obs[:4]) == [2 / 4, 1 / 4, 1 / 4, 0.0]  # Fox, Crane, Tiger, Dragon of Player 1's hand
    act(state, 1, "pass Fox")
    before = state.observation(0)
    other = state.clone()
    other.pending[1] = other.parse_action("pass Dragon")  # a different hidden choice looks the same
    assert (other.observation(0) == before).all()


# Matches of many games are soak runs (`make soak`, run by CI after `make test`).
@pytest.mark.soak
def test_a_heuristic_team_beats_a_random_team():
    from ninjatable.bots import play_game
    from ninjatable.core import RandomBot

    won = 0.0
    games = 24
    for i in range(games):
        state = new(4, seed=500 + i)
        bots = [GAME.heuristic_bot(seed=i, samples=8) if s in (0, 2) else RandomBot(seed=i * 7 + s) for s in range(4)]
        play_game(state, bots)
        winners = set(state.winners())
        won += len(winners & {0, 2}) / len(winners)
    assert won / games >= 0.65, f"the heuristic team won {won / games:.0%} of the games"


# Observation layout (docs/rules): hand (n), step (2), 5 per-seat blocks (5n), latest gestures (n x 13),
# last card passed and received (2n), share of the pass limit (1), the teammate's gesture read by the code (n).
def last_pass_slots(n: int) -> slice:
    start = n + 2 + 5 * n + n * (len(SIGNALS) + 1)
    return slice(start, start + 2 * n)


def partner_code_slots(n: int) -> slice:
    start = n + 2 + 5 * n + n * (len(SIGNALS) + 1) + 2 * n + 1
    return slice(start, start + n)


def test_a_sampled_world_observes_other_seats_without_inventing_their_passes():
    state = new(4, seed=3)
    state.set_position(hands=NO_CLAN)
    step(state, {0: "pass Tiger", 1: "pass Fox", 2: "pass Dragon", 3: "pass Crane"})
    step(state, {1: "signal wink"})
    rng = random.Random(1)
    for _ in range(10):
        world = state.sample_world(0, rng)
        for seat in (1, 2, 3):
            mine, true = world.observation(seat), state.observation(seat)
            # Gestures, scores, teams and steps are public: only the hand and the (unknown) passes may differ.
            mine[:4] = true[:4] = 0
            mine[last_pass_slots(4)] = true[last_pass_slots(4)] = 0
            if seat != 2:
                # What Player 2's wink means to Player 4 is their secret: Player 1 does not know it.
                mine[partner_code_slots(4)] = true[partner_code_slots(4)] = 0
            assert (mine == true).all(), f"Player {seat + 1}'s observation in a sampled world"
        # Player 3's pass and receipt are unknown to Player 1: the world does not make them up.
        assert not world.observation(2)[last_pass_slots(4)].any()


def test_sampled_worlds_depend_only_on_what_the_seat_saw():
    """Two tables Player 1 cannot tell apart give the same sampled worlds from the same random stream."""
    seen_by_p1 = ["Fox", "Fox", "Crane", "Tiger"]
    one = new(4, seed=8)
    one.set_position(hands=[seen_by_p1, *NO_CLAN[1:]])
    other = new(4, seed=8)
    other.set_position(
        hands=[
            seen_by_p1,
            ["Dragon", "Dragon", "Tiger", "Tiger"],
            ["Crane", "Crane", "Fox", "Fox"],
            ["Crane", "Tiger", "Dragon", "Dragon"],
        ]
    )
    # Player 1 passes a Tiger and gets a Crane from Player 4 at both tables; the hidden passes differ.
    step(one, {0: "pass Tiger", 1: "pass Fox", 2: "pass Dragon", 3: "pass Crane"})
    step(other, {0: "pass Tiger", 1: "pass Tiger", 2: "pass Crane", 3: "pass Crane"})
    step(one, {2: "signal nod"})
    step(other, {2: "signal nod"})
    act(one, 1, "pass Crane")  # Player 2 has decided at both tables, on different cards
    act(other, 1, "pass Dragon")
    assert one.view(0) == other.view(0) and one.observation(0).tolist() == other.observation(0).tolist()
    assert one.hands != other.hands
    for k in range(20):
        a, b = one.sample_world(0, random.Random(k)), other.sample_world(0, random.Random(k))
        assert a.hands == b.hands and a.pending == b.pending and a.passed == b.passed


def test_a_sampled_world_keeps_a_card_passed_two_passes_ago_within_two_seats():
    state = new(5, seed=4)
    state.set_position(
        hands=[
            ["Fox", "Fox", "Crane", "Tiger"],
            ["Crane", "Crane", "Tiger", "Dragon"],
            ["Tiger", "Tiger", "Dragon", "Snake"],
            ["Dragon", "Dragon", "Snake", "Fox"],
            ["Fox", "Crane", "Snake", "Snake"],
        ]
    )
    step(state, {0: "pass Fox", 4: "pass Snake"})  # Player 1 gives a Fox, gets a Snake
    step(state)
    step(state, {0: "pass Fox", 4: "pass Snake"})  # and again
    assert hand(state, 0) == {"Crane": 1, "Tiger": 1, "Snake": 2}
    rng = random.Random(2)
    spread = set()
    for _ in range(200):
        world = state.sample_world(0, rng)
        foxes = [world.view(s)["hand"].get("Fox", 0) for s in range(5)]
        # The Fox given at the last pass is with Player 2; the one before, with Player 2 or Player 3.
        assert foxes[1] >= 1 and foxes[1] + foxes[2] >= 2
        spread.add(tuple(foxes))
    # The two other Foxes (never seen by Player 1) may be anywhere among the others.
    assert any(f[3] or f[4] for f in spread) and any(f[1] + f[2] == 2 for f in spread)


@pytest.mark.parametrize(
    ("deal", "call"),
    [
        (FOX_FOR_P1_P3, {0: "ninjaaa"}),  # right Ninjaaa!
        (NO_CLAN, {0: "ninjaaa"}),  # wrong Ninjaaa!
        (FOX_FOR_P1_P3, {1: "attack"}),  # right Attack!
        (NO_CLAN, {1: "attack"}),  # wrong Attack!
    ],
)
def test_every_resolved_call_ends_the_round_with_a_fresh_deal(deal, call):
    state = new(4, seed=6)
    state.set_position(hands=deal)
    step(state, {0: "pass Crane", 1: "pass Crane", 2: "pass Crane", 3: "pass Crane"})
    step(state, {2: "signal nod"})
    before = len(state.events)
    step(state, call)
    assert len(state.score_sheet()) == 1
    view = state.view(None)
    assert view["round"] == 2 and view["step"] == "pass" and view["passes"] == 0 and view["signals"] == []
    assert state.to_move() == (0, 1, 2, 3)
    # Reshuffled and dealt again: each player is told a new hand of 4, and holds exactly that.
    dealt = {e.to: e.text for e in state.events[before:] if e.kind == "deal"}
    assert sorted(dealt) == [0, 1, 2, 3]
    counts = [0] * 4
    for seat in range(4):
        told = dealt[seat].removeprefix("You are dealt ").split(", ")
        assert {f: told.count(f) for f in told} == hand(state, seat)
        for f in told:
            counts[FAMILIES.index(f)] += 1
        assert state.view(seat)["my_passes"] == []
    assert counts == [4, 4, 4, 4]


def test_redeals_are_shuffled_afresh():
    state = new(4, seed=9)
    deals = set()
    for _ in range(6):
        state.set_position(hands=NO_CLAN)
        step(state, {0: "attack"})
        deals.add(tuple(state.hands))
    assert len(deals) > 1


def test_odd_counts_a_wrong_call_leaves_the_partner_points():
    state = new(5)
    # Round 1 (lone wolf Player 1): Player 3 + Player 5 hold the four Tigers.
    state.set_position(
        hands=[
            ["Fox", "Fox", "Crane", "Snake"],
            ["Crane", "Crane", "Dragon", "Snake"],
            ["Tiger", "Tiger", "Fox", "Dragon"],
            ["Crane", "Fox", "Dragon", "Snake"],
            ["Tiger", "Tiger", "Dragon", "Snake"],
        ]
    )
    step(state, {2: "ninjaaa"})
    assert state.scores() == [0, 0, 1, 0, 1]
    # Round 2 (lone wolf Player 2): Player 3 + Player 5 are partners again, hold nothing whole, and
    # Player 3 calls Ninjaaa!: only the caller loses a point.
    assert [2, 4] in [t["seats"] for t in state.view(None)["teams"]]
    state.set_position(
        hands=[
            ["Fox", "Crane", "Tiger", "Dragon"],
            ["Fox", "Crane", "Tiger", "Dragon"],
            ["Fox", "Crane", "Tiger", "Dragon"],
            ["Fox", "Crane", "Tiger", "Snake"],
            ["Dragon", "Snake", "Snake", "Snake"],
        ]
    )
    step(state, {2: "ninjaaa"})
    assert labels(state)[-1] == "Wrong call by Player 3 (Ninjaaa!)"
    assert state.scores() == [0, 0, 0, 0, 1]
    assert state.view(None)["penalised_next_round"] == [] and state.view(None)["penalised"] == []


@pytest.mark.parametrize("players", [3, 9])
def test_four_to_eight_players(players):
    from ninjatable.core import BadOptions

    with pytest.raises(BadOptions, match="4, 5, 6, 7, 8"):
        new(players)


def test_a_call_at_a_pass_step_is_judged_before_the_cards_move():
    state = new(4)
    state.set_position(hands=FOX_FOR_P1_P3)
    # Player 1 gives away a Fox in the same step in which Player 3 calls: the Foxes were together when called.
    step(state, {0: "pass Fox", 1: "pass Crane", 2: "ninjaaa", 3: "pass Crane"})
    assert labels(state) == ["Ninjaaa! by Player 3"] and state.scores() == [1, 0, 1, 0]


def test_a_call_is_still_possible_after_the_last_pass_before_the_redeal():
    state = new(4, max_passes=2)
    state.set_position(hands=NO_CLAN)
    step(state, {0: "pass Tiger", 1: "pass Fox", 2: "pass Dragon", 3: "pass Crane"})
    step(state)
    # From pass 1 on, Player 2 and Player 4 hold two Tigers each; pass 2 is the last one of the round.
    step(state, {0: "pass Crane", 1: "pass Crane", 2: "pass Dragon", 3: "pass Dragon"})
    assert state.view(None)["passes"] == 2 and state.view(None)["step"] == "signal"
    step(state, {1: "ninjaaa"})
    assert labels(state) == ["Ninjaaa! by Player 2"]


def test_a_redealt_round_moves_the_lone_wolf_and_uses_up_a_penalty():
    state = new(5, max_passes=1)
    state.set_position(
        hands=[
            ["Fox", "Crane", "Snake", "Dragon"],
            ["Crane", "Crane", "Snake", "Snake"],
            ["Fox", "Fox", "Tiger", "Tiger"],
            ["Crane", "Snake", "Fox", "Dragon"],
            ["Tiger", "Tiger", "Dragon", "Dragon"],
        ]
    )
    step(state, {0: "ninjaaa"})  # the lone wolf has no 3 of a family, at 0 points: Penalty for round 2
    assert state.view(None)["penalised"] == [0] and state.view(None)["lone_wolf"] == 1
    step(state)  # the one pass of round 2
    step(state)  # its signals: the round is redealt unscored
    view = state.view(None)
    assert view["round"] == 3 and view["lone_wolf"] == 2 and view["penalised"] == []
    assert state.scores() == [0] * 5


def test_a_pending_call_looks_like_any_other_decision_to_the_others():
    calling, passing = new(4, seed=5), new(4, seed=5)
    for state in (calling, passing):
        state.set_position(hands=BOTH_RIGHT)
    act(calling, 1, "attack")
    act(passing, 1, "pass Tiger")
    for seat in (0, 2, 3, None):
        assert calling.view(seat) == passing.view(seat)
        assert calling.events_for(seat) == passing.events_for(seat)
        if seat is not None:
            assert calling.observation(seat).tolist() == passing.observation(seat).tolist()


def break_even(points: tuple[int, int]) -> float:
    """Player 1's break-even for a call, with its team's points first (3 points to win)."""
    state = new(4)
    state.set_position(points=[points[0], points[1], points[0], points[1]])
    return call_break_even(state.view(0), 0)


def test_a_call_is_worth_longer_odds_with_no_point_to_lose():
    # At 0 points a wrong call costs a Penalty round, which costs little; with a point it costs the point.
    assert break_even((0, 0)) < 0.25 < break_even((1, 0)) < break_even((2, 0)) < 0.5


def test_with_both_teams_one_call_from_the_win_a_lead_is_not_worth_guarding():
    assert break_even((2, 2)) < break_even((2, 0))


def test_the_heuristic_plays_for_the_game_not_for_a_one_in_three_gamble():
    state = new(4)
    state.set_position(
        hands=[
            ["Fox", "Fox", "Fox", "Crane"],
            ["Crane", "Crane", "Tiger", "Dragon"],
            ["Fox", "Crane", "Tiger", "Dragon"],
            ["Tiger", "Tiger", "Dragon", "Dragon"],
        ]
    )
    # Right after the deal, with three Foxes, the teammate holds the fourth one time in three: a call would be
    # wrong twice as often as right, so the bot collects instead, at 0 points as well as 2 points up.
    assert {heuristic_choice(state, 0, seed) for seed in range(5)} == {"pass Crane"}
    state.set_position(points=[2, 0, 2, 0])
    assert {heuristic_choice(state, 0, seed) for seed in range(5)} == {"pass Crane"}


def test_the_heuristic_calls_when_its_teammate_promised_the_family_it_holds_two_of():
    state = new(4, seed=5)
    state.set_position(
        hands=[
            ["Fox", "Fox", "Crane", "Tiger"],
            ["Crane", "Tiger", "Dragon", "Dragon"],
            ["Fox", "Fox", "Crane", "Tiger"],
            ["Crane", "Tiger", "Dragon", "Dragon"],
        ]
    )
    step(state, {0: "pass Tiger", 1: "pass Crane", 2: "pass Tiger", 3: "pass Crane"})
    fox = next(g for g, f in state.view(2)["codebook"].items() if f == "Fox")
    step(state, {2: f"signal {fox}"})  # Player 3 promises the Foxes: it holds 2 and keeps them
    # Player 1 holds the other two: a clan for certain, whatever the odds in its sampled worlds.
    assert heuristic_choice(state, 0, margin=1.1) == "ninjaaa"
    # Under the Penalty the pair's cards do not count together: no certain call.
    state.set_position(penalised=frozenset({0, 2}))
    assert heuristic_choice(state, 0, margin=1.1) != "ninjaaa"


def test_the_heuristic_attacks_when_an_enemy_pair_makes_the_same_gesture():
    state = new(6, seed=5)
    state.set_position(hands=SIX_THIRD_TEAM_CLAN)
    step(state)
    # Player 3 and Player 6 share a code: the same gesture names the same family, 2 or more in each hand.
    step(state, {2: "signal fist", 5: "signal fist"})
    assert heuristic_choice(state, 0, margin=1.1) == "attack"
    assert heuristic_choice(state, 2, margin=1.1) != "attack"  # not one's own team


# --- the partnerships' codebooks ---------------------------------------------------------------------------------
def test_each_partnership_has_a_private_codebook_drawn_from_the_seed():
    state = new(4, seed=11)
    code = state.view(0)["codebook"]
    # The partners share it: every family named by a gesture of its own.
    assert state.view(2)["codebook"] == code
    assert sorted(code.values()) == sorted(FAMILIES[:4]) and set(code) <= set(SIGNALS)
    # Hidden from the other team and from spectators.
    assert state.view(1)["codebooks"][0] is None and state.view(None)["codebooks"] == [None, None]
    assert state.view(0)["codebooks"][1] is None
    # The same seed draws the same codes; the deal does not depend on them.
    assert new(4, seed=11).view(0)["codebook"] == code
    assert new(4, seed=11, codebooks=False).hands == state.hands
    drawn = {tuple(new(4, seed=s).view(0)["codebook"].items()) for s in range(10)}
    assert len(drawn) > 5


def test_public_codes_are_the_same_for_everybody_and_seen_by_all():
    state = new(4, codebooks=False)
    for seat in range(4):
        assert state.view(seat)["codebook"] == dict(zip(SIGNALS, FAMILIES[:4], strict=False))
    assert all(entry is not None for entry in state.view(None)["codebooks"])


def test_odd_counts_every_pair_of_seats_has_its_own_codebook():
    state = new(5, seed=4)
    codebooks = state.view(None)["codebooks"]
    assert len(codebooks) == 10  # 5 players: 10 pairs
    for seat in range(5):
        known = [entry["seats"] for entry in state.view(seat)["codebooks"] if entry is not None]
        assert sorted(known) == sorted([sorted((seat, o)) for o in range(5) if o != seat])
    # Round 1: lone wolf Player 1, who has nobody to signal to; Player 2 + Player 4 read by their pair's code.
    assert state.view(0)["codebook"] is None
    pair = next(e for e in state.view(1)["codebooks"] if e is not None and e["seats"] == [1, 3])
    assert state.view(1)["codebook"] == state.view(3)["codebook"] == pair["code"]
    step(state, {0: "attack"})
    # Round 2: lone wolf Player 2; Player 1 + Player 4 now read by theirs.
    pair = next(e for e in state.view(0)["codebooks"] if e is not None and e["seats"] == [0, 3])
    assert state.view(0)["codebook"] == state.view(3)["codebook"] == pair["code"]


def test_a_sampled_world_keeps_the_seats_codes_and_redraws_the_others():
    state = new(6, seed=2)
    rng = random.Random(3)
    worlds = [state.sample_world(0, rng) for _ in range(20)]
    assert all(w.pair_code((0, 3)) == state.pair_code((0, 3)) for w in worlds)
    assert len({w.pair_code((1, 4)) for w in worlds}) > 10
    # In its own world, the seat sees what it saw: its code, no other.
    assert all(w.view(0)["codebook"] == state.view(0)["codebook"] for w in worlds)


def test_sampled_codes_depend_on_the_view_and_the_generator_only():
    state = new(6, seed=2)
    other = state.clone()
    other.codebooks[(1, 4)] = tuple(reversed(other.codebooks[(1, 4)]))  # a hidden truth Player 1 cannot see
    assert state.view(0) == other.view(0)
    for seed in range(5):
        a, b = state.sample_world(0, random.Random(seed)), other.sample_world(0, random.Random(seed))
        assert [a.pair_code(p) for p in a.codebooks] == [b.pair_code(p) for p in b.codebooks]
        assert a.hands == b.hands


def test_a_worlds_unknown_codes_are_the_same_whatever_order_they_are_read_in():
    state = new(7, seed=4)
    pairs = [p for p in state.codebooks if 0 not in p]
    a, b = state.sample_world(0, random.Random(1)), state.sample_world(0, random.Random(1))
    forward = [a.pair_code(p) for p in pairs]
    assert [b.pair_code(p) for p in reversed(pairs)] == forward[::-1]
    assert a.clone().view(None) == b.view(None)


def test_a_world_sampled_from_a_world_keeps_the_codes_its_seat_has_there():
    state = new(5, seed=4)
    world = state.sample_world(0, random.Random(2))
    # Player 2 and Player 4 are partners in round 1; their code is one Player 1 cannot know, made in its world.
    inner = world.sample_world(1, random.Random(3))
    assert inner.pair_code((1, 3)) == world.pair_code((1, 3)) != state.pair_code((1, 3))
    assert inner.view(1)["codebook"] == world.view(1)["codebook"]
    assert inner.pair_code((0, 2)) != world.pair_code((0, 2))  # a code Player 2 cannot know: made afresh


def test_unknown_codes_are_uniform_random_orders_of_the_gestures():
    state = new(5, seed=4)
    rng = random.Random(5)
    named_first = [state.sample_world(0, rng).pair_code((1, 2))[0] for _ in range(6000)]
    counts = [named_first.count(g) for g in range(len(SIGNALS))]
    assert all(400 <= c <= 600 for c in counts), counts  # 500 each expected
    assert len({tuple(state.sample_world(0, rng).pair_code((3, 4))) for _ in range(200)}) == 200


def test_a_gesture_is_public_and_its_meaning_is_the_partnerships():
    state = new(4, seed=3)
    state.set_position(hands=NO_CLAN)
    step(state)
    tiger = next(g for g, f in state.view(1)["codebook"].items() if f == "Tiger")
    step(state, {1: f"signal {tiger}"})
    # Everybody sees the gesture, with who made it...
    assert all({"seat": 1, "signal": tiger} in [{k: e[k] for k in ("seat", "signal")} for e in state.view(s)["signals"]]
               for s in (0, 1, 2, 3, None))
    # ...and the partner's observation reads it as Tiger; the opponents' has no reading of it.
    assert state.observation(3)[partner_code_slots(4)].tolist() == [0, 0, 1, 0]
    assert not state.observation(0)[partner_code_slots(4)].any()


def test_heuristic_gestures_name_a_family_the_gesturer_holds_two_of_by_its_code():
    from ninjatable.games.ninjaaatack.heuristic import NinjaaaTackHeuristic

    for players in (4, 5):
        state = new(players, seed=21, max_rounds=2, max_passes=6)
        bots = [NinjaaaTackHeuristic(seed=s, margin=1.1) for s in range(players)]  # no gamble at the gong: rounds go on
        checked = 0
        while not state.is_over() and checked < 20:
            movers = state.to_move()
            for seat in movers:
                if seat not in state.to_move():
                    break
                action = bots[seat].choose(state, seat)
                label = state.action_label(action)
                if label.startswith("signal "):
                    family = state.view(seat)["codebook"][label.removeprefix("signal ")]
                    assert state.hand_text(seat).count(family) == 1
                    assert state.hand_counts(seat)[FAMILIES.index(family)] >= 2
                    checked += 1
                state.apply(seat, action)
        assert checked > 0


def test_the_game_s_own_draws_equal_the_library_s_and_the_kernel_s_deal():
    # Deals and sampled hands draw inline (rules.py, worlds.py): the same results from the same generator, which they leave
    # in the same state as the library's and the kernel's draws would.
    from ninjatable.core import deal_by_places
    from ninjatable.core.deal import shuffle
    from ninjatable.games.ninjaaatack.worlds import deal_unseen

    for seed in range(200):
        draw = random.Random(seed)
        items = list(range(draw.randrange(1, 33)))
        mine, theirs = items[:], items[:]
        a, b = random.Random(seed), random.Random(seed)
        shuffle(a, mine)
        b.shuffle(theirs)
        assert mine == theirs and a.random() == b.random()
        places = draw.randrange(3, 8)
        reaches = sorted(draw.sample(range(1, places), draw.randrange(0, places - 1)))
        tracked = [(k, draw.randrange(places + 1)) for k in reaches]
        free = sorted(draw.randrange(places + 1) for _ in range(4 * places - len(tracked)))
        families = [f for _, f in tracked] + free
        options = [tuple(range(k)) for k, _ in tracked] + [tuple(range(places))] * len(free)
        a, b = random.Random(seed), random.Random(seed)
        dealt = deal_by_places(range(len(families)), [4] * places, options.__getitem__, b)
        assert [sorted(h) for h in deal_unseen(tracked, free[:], places, a)] == [
            sorted(families[t] for t in tokens) for tokens in dealt
        ]
        assert a.random() == b.random()


def test_a_scripted_deal_refuses_a_pass_of_a_card_no_longer_held():
    state = new()
    state.legal_actions(0)  # handed out for the deal before the script
    state.set_position(hands=[["Dragon"] * 4, ["Fox"] * 4, ["Crane"] * 4, ["Tiger"] * 4])
    with pytest.raises(IllegalAction):
        state.apply(0, state.parse_action("pass Fox"))
    assert state.history == [] and hand(state, 0) == {"Dragon": 4}
