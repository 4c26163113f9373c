"""Slaughter the Dragon, Ha: each rule of the rulebook, from scripted deals."""

from __future__ import annotations

import random

import pytest

from ninjatable.core import IllegalAction
from ninjatable.games.dragon import cards as C
from ninjatable.games.dragon.actions import DONE, PICK_SCALE, PLAY, SOUL_GIVE, SOUL_RETURN, SPLIT, SUMMON_PICK

from .deals import FOUR, FOUR_SCALE, GAME, cards, play, scripted


def skip_split(state):
    """The practitioner sets aside their lowest card and is done (a minimal legal split)."""
    seat = state.jutsu
    state.apply(seat, state.hands[seat][0])
    state.apply(seat, DONE)


class TestSetupTables:
    @pytest.mark.parametrize(("players", "colours", "hand", "scale", "tricks"),
                             [(3, 3, 11, 3, 11), (4, 4, 11, 4, 11), (5, 4, 9, 3, 9)])
    def test_player_count_tables(self, players, colours, hand, scale, tricks):
        state = GAME.new_state(players, seed=5)
        view = state.view(0)
        assert [s["hand_size"] + s["pile_size"] for s in view["seats"]] == [hand] * players
        assert view["scale_size"] == scale
        assert view["tricks_in_round"] == tricks
        dealt = {c for h in state.hands for c in h} | set(state.scale) | {c for p in state.piles for c in p}
        assert dealt == set(range(colours * 12)), "all cards of the colours in use, and only those"

    @pytest.mark.parametrize(("players", "body"), [(3, 10), (4, 10), (5, 8)])
    def test_dragon_tokens_one_per_trick_and_the_head_for_the_last(self, players, body):
        state = GAME.new_state(players, seed=players)
        rng = random.Random(1)
        while state.round == 1:
            seat = state.to_move()[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        tricks = [e.text for e in state.events if e.kind == "trick"]
        assert sum("Dragon Body token" in t for t in tricks) == body
        assert sum("Dragon Head" in t for t in tricks) == 1 and "Dragon Head" in tricks[-1]

    def test_green_trump_indicators_are_removed_with_three_players(self):
        for seed in range(60):
            state = GAME.new_state(3, seed=seed)
            assert state.trump != C.GREEN
            assert len(state.indicators) == 5  # 6 in play, one revealed and returned to the box

    def test_each_round_reveals_a_fresh_indicator_that_goes_back_to_the_box(self):
        state = GAME.new_state(4, seed=8)
        rng = random.Random(8)
        trumps = [state.trump]
        while not state.is_over():
            rnd = state.round
            seat = state.to_move()[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
            if state.round != rnd and not state.is_over():
                trumps.append(state.trump)
        assert len(state.indicators) == 8 - len(trumps)
        assert all(trumps.count(c) <= 2 for c in range(4)), "two indicator cards of each colour"


class TestCountdownAndBodilyDivision:
    def test_the_highest_trump_in_hand_finds_the_practitioner(self):
        # Red trump: R12 is in seat 3's hand.
        state = scripted(FOUR, FOUR_SCALE, "R")
        assert state.jutsu == 3 and state.countdown == 12 and state.phase == SPLIT
        # Green trump: G10-G12 lie in the scale, so the countdown stops at G9 (seat 3).
        state = scripted(FOUR, FOUR_SCALE, "G")
        assert state.jutsu == 3 and state.countdown == 9

    def test_each_half_keeps_at_least_one_card(self):
        state = scripted(FOUR, FOUR_SCALE, "R")
        assert DONE not in state.legal_actions(3), "the 2nd-half pile may not be empty"
        with pytest.raises(IllegalAction):
            state.apply(3, DONE)
        for c in state.hands[3][:-1]:
            state.apply(3, c)
        assert state.legal_actions(3) == [DONE], "the 1st-half hand may not be empty"

    def test_follow_suit_looks_only_at_the_current_hand(self):
        # Seat 3 (R12) keeps only greens and a blue in hand, its reds in the pile.
        state = scripted(FOUR, FOUR_SCALE, "R", leader=2)
        for lab in ["P10", "P11", "R10", "R11", "R12", "B12"]:
            state.apply(3, state.parse_action(lab))
        state.apply(3, DONE)
        assert state.view(0)["seats"][3]["pile_size"] == 6, "the 2nd-half pile's size is public"
        assert state.view(0)["seats"][3]["pile"] is None, "its contents are not"
        play(state, "R7")  # seat 2 leads red
        assert state.legal_actions(3) == cards("B10 B11 G7 G8 G9"), "no red in the current hand: any card"

    def test_the_pile_is_taken_up_between_tricks(self):
        state = scripted(FOUR, FOUR_SCALE, "R", leader=3)
        keep = ["G9"]  # a one-card 1st-half hand
        for c in list(state.hands[3]):
            if C.LABELS[c] not in keep:
                state.apply(3, c)
        state.apply(3, DONE)
        play(state, "G9", "G2", "G4", "G6")
        assert state.hands[3] == cards("P10 P11 R10 R11 R12 B10 B11 B12 G7 G8"), "the pile became the hand"
        assert state.piles[3] == []
        assert state.view(0)["seats"][3]["hand_size"] == 10

    def test_purple_lead_exception_looks_only_at_the_current_hand(self):
        state = scripted(FOUR, FOUR_SCALE, "R", leader=3)
        for c in list(state.hands[3]):
            if C.LABELS[c] not in ("P10", "P11"):
                state.apply(3, c)
        state.apply(3, DONE)
        assert state.legal_actions(3) == cards("P10 P11"), "only purples in hand: purple may be led"


class TestSummoning:
    def _second_round(self, seed=4):
        state = GAME.new_state(4, seed=seed)
        rng = random.Random(seed)
        while state.round == 1:
            seat = state.to_move()[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        return state

    def test_last_trick_winner_summons_and_leads(self):
        state = self._second_round()
        head = state.score_sheet()  # round 1 scored
        assert head
        assert state.phase == SUMMON_PICK
        assert state.to_move() == (state.summoner,)
        assert state.leader == state.summoner == state.last_winner

    def test_blind_pick_of_two_then_return_any_two(self):
        state = self._second_round()
        s = state.summoner
        before_scale = len(state.scale)
        assert state.legal_actions(s) == [PICK_SCALE + i for i in range(4)], "any Inverted Scale card, face down"
        state.apply(s, PICK_SCALE + 3)
        state.apply(s, PICK_SCALE)
        assert len(state.hands[s]) == 13
        assert state.legal_actions(s) == state.hands[s], "any two hand cards go back"
        returned = state.hands[s][:2]
        other = (s + 1) % 4
        seen_before = len(state.events_for(other))
        state.apply(s, returned[0])
        state.apply(s, returned[1])
        assert len(state.hands[s]) == 11 and len(state.scale) == before_scale
        assert set(returned) <= set(state.scale)
        assert state.view(other)["seats"][s]["known_elsewhere"] == []
        assert {lab for lab, _ in state.view(s)["seats"][s]["known_elsewhere"]} == {C.LABELS[c] for c in returned}
        news = " ".join(e.text for e in state.events_for(other)[seen_before:])
        assert "returns a card" in news
        assert not any(f" {C.LABELS[c]} " in f" {news} " for c in returned), "others never see them"


class TestTricks:
    def test_purple_may_not_be_led_until_a_purple_is_taken(self):
        state = scripted(["P1 R1 B1", "P4 B2 B3", "P7 R7 B7", "P10 R12 G9"], "", "B", leader=0)
        skip_split(state)  # seat 2 (B7) sets P7 aside
        assert state.legal_actions(0) == cards("R1 B1"), "purple may not be led at the start"
        with pytest.raises(IllegalAction):
            state.apply(0, state.parse_action("P1"))
        play(state, "R1", "P4", "R7", "R12")  # seat 1 cannot follow red and sheds P4; seat 3 wins it
        assert state.taken[3] == cards("P4") and state.purple_broken
        assert state.turn == 3
        assert state.legal_actions(3) == cards("P10 G9"), "someone has taken a purple: purple may be led"

    def test_highest_trump_wins_else_highest_of_the_led_colour(self):
        state = scripted(FOUR, FOUR_SCALE, "B", leader=0)
        skip_split(state)  # seat 3 (B12) sets aside its lowest card, P10
        play(state, "R1", "R6", "R9", "R12")
        assert state.leader == 3, "no trump: the highest red wins"
        state = scripted(FOUR, FOUR_SCALE, "B", leader=0)
        skip_split(state)
        play(state, "G1", "G3", "G6", "G9")
        assert state.leader == 3
        state = scripted(["R1 R2", "B1 B2", "G1 G2"], "", "B", leader=0, jutsu=False)  # 3 players, short hands
        play(state, "R1", "B1", "G1")
        assert state.leader == 1, "a trump beats the led colour"

    def test_tokens_purples_and_the_scale_go_to_the_winners(self):
        state = scripted(["P1 R1", "P2 R2", "P3 R3"], "P12", "R", leader=0, tricks=2, jutsu=False)  # two tricks
        play(state, "R1", "R2", "R3")
        assert state.tokens == [0, 0, 1] and state.head is None
        play(state, "P3", "P1", "P2")
        # Last trick: P3 led (purple in hand only), P3 is highest purple; it takes P1 P2 P3, the head, and P12.
        line = state.score_sheet()[0]
        assert line.points == (0, 0, 2 * 5 - (1 + 2 + 3 + 12))


class TestScoring:
    @pytest.mark.parametrize("players", [3, 4, 5])
    def test_each_round_adds_up_to_the_rulebook_total(self, players):
        expected = -23 if players in (3, 4) else -33
        rounds = 0
        for seed in range(25):
            state = GAME.new_state(players, seed=seed)
            rng = random.Random(seed)
            while not state.is_over():
                seat = state.to_move()[0]
                state.apply(seat, rng.choice(state.legal_actions(seat)))
            for line in state.score_sheet():
                if "Shoot the Moon" not in line.label:
                    assert sum(line.points) == expected
                    rounds += 1
        assert rounds >= 25

    def test_shoot_the_moon(self):
        hands = ["P1 P2 P3 P4 R1", "P5 P6 P7 P8 R2", "P9 P10 P11 R3 R4"]
        state = scripted(hands, "P12", "R", leader=0, tricks=5, jutsu=False, purple_broken=True)
        # Seat 2 takes every trick: it holds the highest card of every colour led.
        for _ in range(5):
            leader = state.leader
            order = [(leader + k) % 3 for k in range(3)]
            for seat in order:
                state.apply(seat, max(state.legal_actions(seat)))
        line = state.score_sheet()[0]
        assert "Shoot the Moon" in line.label
        taker = line.points.index(60)
        assert sorted(line.points) == [-20, -20, 60]
        assert taker == 2, "the player who took every trick, and with the last one the scale's P12"

    def test_game_ends_when_someone_reaches_minus_100(self):
        state = GAME.new_state(4, seed=3)
        state.score("earlier rounds", [-95, 0, 0, 0])
        rng = random.Random(3)
        while state.round == 1 and not state.is_over():
            seat = state.to_move()[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        totals = state.scores()
        assert state.is_over() == (min(totals) <= -100)

    @pytest.mark.parametrize("players", [3, 4, 5])
    def test_game_lasts_as_many_rounds_as_players(self, players):
        state = GAME.new_state(players, seed=1)
        state.sheet.clear()
        rng = random.Random(2)
        while not state.is_over():
            seat = state.to_move()[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        rounds = [line for line in state.score_sheet() if line.label.startswith("Round")]
        assert len(rounds) == players or min(state.scores()) <= -100

    def test_ties_share_the_victory(self):
        state = GAME.new_state(3, seed=1)
        state.phase = 6  # over
        state.sheet.clear()
        state.score("Round 1", [5, 5, -33])
        assert state.winners() == [0, 1]


class TestAdvancedVariant:
    def test_purple_trump_brings_soul_sucking_by_the_highest_purple(self):
        hands = FOUR[:3] + ["P10 P11 P12 R10 R11 B10 B11 B12 G7 G8 G9"]
        state = scripted(hands, "R12 G10 G11 G12", "P", advanced=True)
        assert state.phase == SOUL_GIVE and state.jutsu == 3 and state.countdown == 12
        assert set(state.to_move()) == {0, 1, 2}, "everyone else chooses at the same time"
        state.apply(1, state.parse_action("P4"))
        assert state.view(0)["seats"][1]["gift"] is None, "a pending choice is secret"
        assert state.view(0)["seats"][1]["chosen"] is True
        state.apply(0, state.parse_action("G1"))
        state.apply(2, state.parse_action("B9"))
        assert state.phase == SOUL_RETURN and len(state.hands[3]) == 14
        for label in ["P12", "P11", "G1"]:  # to seats 0, 1, 2 in turn
            state.apply(3, state.parse_action(label))
        assert state.phase == PLAY
        assert [len(h) for h in state.hands] == [11, 11, 11, 11]
        assert cards("P12") == [c for c in state.hands[0] if c == 11]
        assert cards("P11")[0] in state.hands[1] and cards("G1")[0] in state.hands[2]

    def test_without_the_variant_a_purple_trump_means_bodily_division(self):
        state = scripted(FOUR, FOUR_SCALE, "P", advanced=False)
        assert state.phase == SPLIT and state.jutsu == 3 and state.countdown == 11

    def test_the_variant_changes_nothing_for_other_trumps(self):
        state = scripted(FOUR, FOUR_SCALE, "B", advanced=True)
        assert state.phase == SPLIT


def test_other_hands_are_hidden():
    state = GAME.new_state(4, seed=2)
    view = state.view(1)
    for s, seat in enumerate(view["seats"]):
        assert (seat["hand"] is None) == (s != 1)
    assert all(seat["hand"] is None for seat in state.view(None)["seats"])
