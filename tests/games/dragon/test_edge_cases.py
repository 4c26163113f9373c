"""Slaughter the Dragon, Ha: the rulebook's corner cases, from scripted deals."""

from __future__ import annotations

import pytest

from ninjatable.games.dragon.actions import (
    DONE,
    OVER,
    PICK_SCALE,
    PLAY,
    SOUL_GIVE,
    SOUL_RETURN,
    SPLIT,
)

from .deals import FOUR, FOUR_SCALE, GAME, cards, labels, play, scripted


def split(state, pile: str) -> None:
    """The practitioner sets the named cards aside as the 2nd-half pile."""
    for lab in pile.split():
        state.apply(state.jutsu, state.parse_action(lab))
    state.apply(state.jutsu, DONE)


class TestFollowingSuit:
    def test_a_player_holding_the_led_colour_must_play_it(self):
        state = scripted(FOUR, FOUR_SCALE, "B", leader=0, jutsu=False)
        play(state, "R1")
        assert labels(state.legal_actions(1)) == {"R4", "R5", "R6"}

    def test_a_player_without_the_led_colour_may_play_any_card_purple_included(self):
        state = scripted(["R1 B1", "P4 G3", "R7 B7"], "", "B", leader=0, jutsu=False)
        play(state, "R1")
        assert labels(state.legal_actions(1)) == {"P4", "G3"}


class TestTrickWinner:
    @pytest.mark.parametrize(("trick", "winner"), [
        ("R5 R12 R8 G1", 1),  # the highest led card, not merely one higher than the lead
        ("R5 B1 R12 G12", 1),  # the lowest trump beats the highest led card played after it
        ("R5 B1 B7 R12", 2),  # the higher of two trumps
        ("R5 G12 R6 P12", 2),  # no trump: cards of another colour never win, however high
        ("B3 R12 B2 B4", 3),  # trump led: the highest trump
        ("G2 R12 G1 B1", 3),  # a trump played last still wins
    ])
    def test_highest_trump_else_highest_of_the_led_colour(self, trick, winner):
        hands = [word for word in trick.split()]
        state = scripted(hands, "", "B", leader=0, jutsu=False)
        play(state, *hands)
        assert state.leader == winner and state.turn == winner


class TestPurpleLead:
    def test_purple_may_not_be_led_at_the_start_even_when_purple_is_trump(self):
        state = scripted(FOUR, FOUR_SCALE, "P", leader=0)
        split(state, "R10")  # seat 3 answered at P11
        assert state.jutsu == 3
        assert labels(state.legal_actions(0)) == {"R1", "R2", "R3", "B1", "B2", "B3", "G1", "G2"}

    def test_a_purple_taken_in_an_earlier_round_does_not_allow_a_purple_lead(self):
        # One-trick round: seat 0 takes P4, P7, P10 (and the scale's P12) with R12; the game goes on.
        state = scripted(["R12", "P4", "P7", "P10"], "P12 R1 R2 R3", "G", leader=0, tricks=1, jutsu=False)
        play(state, "R12", "P4", "P7", "P10")
        assert state.round == 2 and not state.is_over()
        assert not state.purple_broken, "a new round starts with purple not yet acquired"


class TestBodilyDivisionEdges:
    def test_a_one_card_pile_is_taken_up_for_the_last_trick(self):
        state = scripted(FOUR, FOUR_SCALE, "R", leader=0)
        assert state.jutsu == 3
        split(state, "R12")
        r12 = cards("R12")[0]
        for _ in range(10):
            for _ in range(4):
                (seat,) = state.to_move()
                legal = state.legal_actions(seat)
                assert r12 not in legal, "the 2nd-half pile is not in hand while the 1st half lasts"
                state.apply(seat, legal[0])
        assert state.hands[3] == [r12] and state.piles[3] == [], "taken up before the last trick begins"
        assert state.view(1)["seats"][3]["hand_size"] == 1
        while state.to_move() != (3,):
            (seat,) = state.to_move()
            state.apply(seat, state.legal_actions(seat)[0])
        assert state.legal_actions(3) == [r12]

    def test_follow_suit_returns_with_the_pile(self):
        # Seat 3 keeps G9 alone in hand; once it is played the pile, with reds, is the hand and must follow red.
        state = scripted(FOUR, FOUR_SCALE, "R", leader=0)
        split(state, "P10 P11 R10 R11 R12 B10 B11 B12 G7 G8")
        play(state, "B1", "B4", "B7", "G9")  # seat 3 cannot follow blue; seat 2 wins
        play(state, "R7")
        assert state.legal_actions(3) == cards("R10 R11 R12")

    def test_no_pile_means_nothing_is_taken_up(self):
        state = scripted(["R1 R2", "R3 R4", "R5 R6"], "", "B", leader=0, jutsu=False)
        play(state, "R1", "R3", "R5")
        assert [len(h) for h in state.hands] == [1, 1, 1]


class TestSummonerAndPractitioner:
    HANDS = (
        "P1 P2 P3 R1 R2 R3 B1 B2 B3 G1 G2",
        "P4 P5 P6 R4 R5 R6 B4 B5 B6 G3 G4",
        "P7 P8 P9 R7 R8 R9 B7 B8 B9 G5 G6",
        "P10 P11 R10 R11 G10 B10 B11 B12 G7 G8 G9",
    )
    SCALE = "P12 R12 G11 G12"  # in this order: positions scale1 to scale4

    def test_a_trump_summoned_from_the_scale_makes_the_summoner_the_practitioner(self):
        state = scripted(self.HANDS, self.SCALE, "R", leader=0, summoner=0)
        state.apply(0, PICK_SCALE + 1)  # R12
        state.apply(0, PICK_SCALE)  # P12
        for lab in ("P12", "G1"):
            state.apply(0, state.parse_action(lab))
        assert state.phase == SPLIT and state.jutsu == 0 and state.countdown == 12
        assert state.to_move() == (0,)
        split(state, "P1")
        assert state.phase == PLAY and state.to_move() == (0,), "the summoner leads the first trick"

    def test_a_trump_returned_to_the_scale_is_skipped_by_the_countdown(self):
        state = scripted(self.HANDS, self.SCALE, "R", leader=0, summoner=0)
        state.apply(0, PICK_SCALE + 1)  # R12
        state.apply(0, PICK_SCALE)  # P12
        for lab in ("R12", "G1"):
            state.apply(0, state.parse_action(lab))
        assert state.jutsu == 3 and state.countdown == 11


class TestSoulSucking:
    HANDS = (
        "P1 P2 P3 R1 R2 R3 B1 B2 B3 G1 G2",
        "P4 P5 P6 R4 R5 R6 B4 B5 B6 G3 G4",
        "P10 P11 P12 R10 R11 B10 B11 B12 G7 G8 G9",
        "P7 P8 P9 R7 R8 R9 B7 B8 B9 G5 G6",
    )
    SCALE = "R12 G10 G11 G12"

    def test_the_practitioner_who_leads_gives_clockwise_then_leads(self):
        state = scripted(self.HANDS, self.SCALE, "P", leader=2, advanced=True)
        assert state.phase == SOUL_GIVE and state.jutsu == 2 and state.countdown == 12
        assert set(state.to_move()) == {0, 1, 3}
        for seat, lab in ((3, "G6"), (0, "G2"), (1, "G4")):
            state.apply(seat, state.parse_action(lab))
        assert state.phase == SOUL_RETURN
        receivers = []
        for lab in ("P12", "P11", "P10"):
            receivers.append(state.view(None)["receivers_left"][0])
            state.apply(2, state.parse_action(lab))
        assert receivers == [3, 0, 1], "one card to each other player, clockwise from the left"
        assert cards("P12")[0] in state.hands[3] and cards("P11")[0] in state.hands[0]
        assert labels(state.hands[2]) >= {"G2", "G4", "G6"}
        assert state.phase == PLAY and state.to_move() == (2,), "the leader leads the first trick"
        assert [len(h) for h in state.hands] == [11] * 4

    def test_a_shoot_the_moon_round_still_pays_60_and_minus_20(self):
        # Three players, purple trump: seat 0 soul-sucks every remaining purple and takes every trick.
        state = scripted(["P1 P2 P12 R12", "P3 P4 R1 R2", "P5 P6 R3 R4"], "P7 P8 P9 P10 P11", "P",
                         leader=0, advanced=True, tricks=4)
        assert state.phase == SOUL_GIVE and state.jutsu == 0
        state.apply(1, state.parse_action("P4"))
        state.apply(2, state.parse_action("P6"))
        state.apply(0, state.parse_action("P1"))
        state.apply(0, state.parse_action("P2"))
        assert labels(state.hands[0]) == {"P4", "P6", "P12", "R12"}
        play(state, "R12", "R1", "R3")  # purple may not be led yet; R12 wins (no trump played)
        play(state, "P12", "P3", "P5")  # seat 0 takes P3 and P5
        play(state, "P6", "P1", "P2")  # purple led: the others must follow with their last purples
        play(state, "P4", "R2", "R4")  # last trick: seat 0 also takes the scale's P7-P11
        line = state.score_sheet()[0]
        assert "Shoot the Moon" in line.label and line.points == (60, -20, -20)


class TestShootTheMoonAndScale:
    def test_the_scales_purples_go_to_the_last_trick_winner_even_if_that_spoils_a_moon(self):
        hands = ["P1 P2 P3 P4 R12", "P5 P6 P7 P8 R1", "P9 P10 P11 R2 R3"]
        state = scripted(hands, "P12", "B", leader=0, tricks=5, jutsu=False, purple_broken=True)
        play(state, "P4", "P8", "P11")  # seat 2 takes P4 P8 P11
        play(state, "P10", "P3", "P7")
        play(state, "P9", "P2", "P6")
        play(state, "R2", "R12", "R1")  # seat 0 wins with R12
        play(state, "P1", "P5", "R3")  # seat 1 takes P1 P5 and, with the last trick, the scale's P12
        line = state.score_sheet()[0]
        assert "Shoot the Moon" not in line.label
        assert line.points == (5, 5 - 18, 3 * 5 - (4 + 8 + 11 + 10 + 3 + 7 + 9 + 2 + 6))

    def test_a_moon_completed_by_the_scale(self):
        hands = ["P1 P2 P3 P4 R1", "P5 P6 P7 P8 R2", "P9 P10 P11 R3 R12"]
        state = scripted(hands, "P12", "B", leader=2, tricks=5, jutsu=False, purple_broken=True)
        play(state, "P11", "P4", "P8")
        play(state, "P10", "P3", "P7")
        play(state, "P9", "P2", "P6")
        play(state, "R3", "R1", "R2")
        assert len(state.taken[2]) == 9
        play(state, "R12", "P1", "P5")  # the last trick brings P1, P5 and the scale's P12: all 12
        line = state.score_sheet()[0]
        assert line.label.endswith("(Shoot the Moon: Player 3)") and line.points == (-20, -20, 60)


class TestGameEnd:
    @pytest.mark.parametrize(("before", "over"), [(-90, True), (-89, False)])
    def test_the_game_ends_once_someone_has_reached_minus_100(self, before, over):
        state = scripted(["R12", "P4", "P5", "P6"], "G1 G2 G3 G4", "G", leader=0, tricks=1, jutsu=False)
        state.score("earlier rounds", [before, 0, 0, 0])
        play(state, "R12", "P4", "P5", "P6")  # seat 0: +5 for the head, -15 for the purples
        assert state.scores()[0] == before - 10
        assert state.is_over() == over
        assert (state.phase == OVER) == over and (state.round == 1) == over

    def test_the_game_ends_after_as_many_rounds_as_players(self):
        state = scripted(["R12", "P4", "P5"], "G1 G2 G3", "R", leader=0, tricks=1, jutsu=False, round=3)
        play(state, "R12", "P4", "P5")
        assert state.is_over()
        assert state.winners() == [1, 2], "seat 0 lost 4 points; the others tie at 0 and share the victory"

    def test_the_game_goes_on_before_the_last_round(self):
        state = scripted(["R12", "P4", "P5"], "G1 G2 G3", "R", leader=0, tricks=1, jutsu=False, round=2)
        play(state, "R12", "P4", "P5")
        assert not state.is_over() and state.round == 3
        assert state.summoner == 0 and state.leader == 0, "the last trick's winner summons and leads"

    def test_tied_players_share_the_victory(self):
        state = scripted(["R12", "R11", "P5"], "G1 G2 G3", "R", leader=0, tricks=1, jutsu=False, round=3)
        state.score("earlier rounds", [5, 5, 0])
        play(state, "R12", "R11", "P5")  # seat 0: +5 for the head, -5 for P5
        assert state.scores() == [5, 5, 0] and state.winners() == [0, 1]


class TestRendering:
    def test_the_dragon_head_is_not_counted_twice(self):
        from ninjatable.core import render_text

        # Last round, two tricks: seat 1 takes a body token, seat 0 the last trick and the head.
        state = scripted(["R12 R1", "R11 B1", "P5 B2"], "G1 G2 G3", "R", leader=1, tricks=2, jutsu=False, round=3)
        play(state, "R11", "P5", "R1")
        play(state, "B1", "B2", "R12")
        assert state.is_over()
        seats = state.view(None)["seats"]
        assert [s["dragon_tokens"] for s in seats] == [1, 1, 0] and seats[0]["dragon_head"]
        rows = {line.split()[0] + line.split()[1]: line for line in render_text(GAME, state.view(None), width=100)
                .splitlines() if line.startswith("Player")}
        assert " 0 + head " in rows["Player1"] + " " and " 1 + head" not in rows["Player1"]


def test_the_revealed_scale_stays_in_view_during_the_next_round():
    import random as _random

    from ninjatable.core import get_game

    state = get_game("dragon").new_state(4, seed=6)
    rng = _random.Random(6)
    while state.round == 1:
        seat = state.to_move()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    reveal = next(e.text for e in reversed(state.events) if e.kind == "scale")
    for seat in (None, 0, 1, 2, 3):
        shown = state.view(seat)["revealed_scale"]
        assert len(shown) == 4 and all(label in reveal for label in shown)
