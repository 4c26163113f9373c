"""How a game guides the search: its search defaults, its heuristic's prior, estimate and world weights."""

from __future__ import annotations

import random
from typing import Any, ClassVar

import pytest

from ninjatable.bots import SeatInfo, make_bot
from ninjatable.bots.ismcts import DEFAULT_ITERATIONS, IsmctsBot, _paired_best
from ninjatable.core import BadOptions, get_game, win_chances

from .toygame import ToyGame, ToyHeuristic


class GuidedToy(ToyGame):
    id = "guided-toy"
    search_defaults: ClassVar[dict[str, Any]] = {"iterations": 6, "rollout": "heuristic", "depth": 3, "prior": 0.5}


class TestSearchDefaults:
    def test_the_game_sets_the_settings_it_names_and_the_budget(self):
        bot = make_bot("ismcts", seed=1)
        bot.act(SeatInfo(GuidedToy().new_state(2, seed=3), 0))
        assert bot.settings()["rollout"] == "heuristic"
        assert bot.settings()["depth"] == 3
        assert bot.settings()["c"] == 0.7  # not named by the game: the general default
        assert bot.last_iterations == 6

    def test_parameters_given_by_name_win_over_the_game(self):
        bot = make_bot("ismcts:depth=9,iterations=4,rollout=random", seed=1)
        bot.act(SeatInfo(GuidedToy().new_state(2, seed=3), 0))
        assert bot.settings()["depth"] == 9
        assert bot.settings()["rollout"] == "random"
        assert bot.last_iterations == 4

    def test_a_game_without_defaults_keeps_the_general_ones(self):
        bot = make_bot("ismcts", seed=1)
        bot.act(SeatInfo(ToyGame().new_state(2, seed=3), 0))
        assert bot.settings()["rollout"] == "random"
        assert bot.last_iterations == DEFAULT_ITERATIONS

    def test_new_settings_are_checked(self):
        with pytest.raises(BadOptions, match="prior must be 0 or more"):
            make_bot("ismcts:prior=-1")
        with pytest.raises(BadOptions, match="beliefs must be 1"):
            make_bot("ismcts:beliefs=0")

    def test_a_prior_needs_a_heuristic(self):
        class Plain(ToyGame):
            id = "plain-prior"
            heuristic_bot = None

        with pytest.raises(BadOptions, match="plain-prior has no heuristic bot to take a prior from"):
            make_bot("ismcts:prior=0.3,iterations=3").act(SeatInfo(Plain().new_state(2, seed=1), 0))


def test_the_prior_keeps_the_heuristic_choice_when_the_search_cannot_tell_actions_apart():
    """With no iterations to learn from, every action looks alike: the heuristic's choice is played."""
    state = ToyGame().new_state(2, seed=4)
    state.apply(0, state.legal_actions(0)[0])  # a simultaneous trick: seat 1 still to pick
    info = SeatInfo(state, 1)
    expected = ToyHeuristic(seed=0).act(info)
    # c = 0 and a single iteration: one action is tried; the heuristic's keeps a bonus of half the budget.
    for seed in range(5):
        bot = IsmctsBot(seed=seed, iterations=2, c=0.0, prior=1.0, rollout="random")
        assert bot.act(info) == expected


class TestPairedWorlds:
    """`paired=1`: every candidate played in the same worlds, the heuristic's choice kept unless clearly beaten."""

    def test_the_heuristic_choice_stands_against_a_gain_within_the_noise(self):
        results = {0: [0.5, 0.5, 0.5, 0.5], 1: [0.6, 0.4, 0.7, 0.3]}
        assert _paired_best(results, guide=0, z=2.0) == 0

    def test_a_candidate_better_in_the_same_worlds_overrules_the_heuristic(self):
        # Candidate 1 is ahead by 0.05 in every world: no noise in the difference, however noisy each result.
        base = [0.1, 0.9, 0.4, 0.6, 0.2]
        results = {0: base, 1: [v + 0.05 for v in base], 2: [v - 0.3 for v in base]}
        assert _paired_best(results, guide=0, z=2.0) == 1

    def test_without_a_heuristic_the_best_mean_wins(self):
        assert _paired_best({3: [0.2, 0.4], 5: [0.6, 0.1], 7: [0.3, 0.3]}, guide=None, z=2.0) == 5

    def test_the_budget_counts_one_rollout_per_candidate_and_world(self):
        state = ToyGame().new_state(2, seed=4)
        info = SeatInfo(state, 0)
        candidates = len(info.legal_actions())
        bot = IsmctsBot(seed=1, iterations=2 * candidates + 1, paired=1, rollout="heuristic")
        bot.act(info)
        assert bot.last_iterations == 3 * candidates  # whole worlds only: each candidate in each world

    def test_paired_is_on_or_off(self):
        with pytest.raises(BadOptions, match="paired must be 0 .* or 1"):
            make_bot("ismcts:paired=2")


class TestEstimates:
    def test_win_chances_share_one_win_and_favour_the_leader(self):
        chances = win_chances([10.0, 4.0, 4.0], spread=3.0)
        assert sum(chances) == pytest.approx(1.0)
        assert chances[0] > chances[1] == pytest.approx(chances[2])
        assert win_chances([1.0, 1.0], spread=1.0) == [0.5, 0.5]

    def test_clanwars_favours_the_clan_with_the_higher_ranked_ninja(self):
        game = get_game("clanwars")
        state = game.new_state(2, seed=2)
        cls = game.heuristic_bot
        even = cls.estimate(state)
        assert sum(even) == pytest.approx(1.0)
        # Give seat 0 the Legendary Ninja (Cost 5) in play.
        legendary = next(u for u, unit in enumerate(_clanwars_units()) if unit.name == "Legendary Ninja")
        state._enter_play(legendary, 0)
        assert cls.estimate(state)[0] > max(even[0], 0.5)

    def test_clanwars_counts_a_defeated_clan_out(self):
        game = get_game("clanwars")
        state = game.new_state(2, seed=2)
        state.defeated[1] = True
        assert game.heuristic_bot.estimate(state)[1] < 1e-6

    def test_gakko_favours_the_seat_whose_worse_hand_costs_less(self):
        game = get_game("gakko")
        state = game.new_state(4, seed=1)
        # Seat 0 holds three singles in each hand; the others hold pairs and triples (bigger penalties).
        state.set_position(
            hands=[([1, 5, 9], [2, 6, 10]), ([3, 3, 3], [4, 4, 7]), ([8, 8, 8], [11, 11, 12]),
                   ([13, 13, 13], [2, 2, 9])],
            table=[(6, 1), (7, 1)], current=1,
        )
        chances = game.heuristic_bot.estimate(state)
        assert sum(chances) == pytest.approx(1.0)
        assert chances[0] == max(chances)


    def test_ninjaaatack_counts_a_penalty_against_the_team_that_carries_it(self):
        game = get_game("ninjaaatack")
        state = game.new_state(4, seed=3)
        even = game.heuristic_bot.estimate(state)
        assert even == pytest.approx([0.25] * 4)
        state.penalised = frozenset({1, 3})  # Players 2 and 4 called wrongly at 0 points last round
        penalised = game.heuristic_bot.estimate(state)
        assert penalised[0] == penalised[2] > 0.25 > penalised[1] == penalised[3]
        state.points = [0, 1, 0, 1]  # a point is worth more than a Penalty costs
        assert game.heuristic_bot.estimate(state)[1] > 0.25

    @pytest.mark.parametrize(
        ("points", "penalised", "measured"),
        # A team's win rate at the start of a round between heuristic partnerships calling at fixed thresholds
        # (1,600 games).
        [
            ((1, 0), (), 0.571),
            ((2, 0), (), 0.741),
            ((2, 1), (), 0.675),
            ((0, 0), (0, 2), 0.491),
            ((0, 1), (0, 2), 0.414),
        ],
    )
    def test_ninjaaatack_estimate_agrees_with_measured_win_rates(self, points, penalised, measured):
        game = get_game("ninjaaatack")
        state = game.new_state(4, seed=3)
        state.points = [points[0], points[1], points[0], points[1]]
        state.penalised = frozenset(penalised)
        chances = game.heuristic_bot.estimate(state)
        assert chances[0] + chances[2] == pytest.approx(measured, abs=0.015)

    def test_ninjaaatack_a_point_counts_more_nearer_the_target(self):
        game = get_game("ninjaaatack")
        state = game.new_state(4, seed=3)
        state.points = [1, 0, 1, 0]
        one_from_nothing = game.heuristic_bot.estimate(state)[0]
        state.points = [2, 1, 2, 1]
        one_from_the_win = game.heuristic_bot.estimate(state)[0]
        assert one_from_the_win > one_from_nothing > 0.25


def _clanwars_units():
    from ninjatable.games.clanwars import cards

    return cards.UNITS


class TestNinjaaatackBeliefs:
    def test_a_world_that_makes_a_gesture_a_bluff_weighs_less(self):
        game = get_game("ninjaaatack")
        cls = game.heuristic_bot
        state = game.new_state(4, seed=5, codebooks=False)
        state.set_position(hands=[["Fox", "Fox", "Crane", "Tiger"], ["Crane", "Crane", "Fox", "Dragon"],
                                  ["Tiger", "Tiger", "Dragon", "Dragon"], ["Fox", "Crane", "Tiger", "Dragon"]])
        view = state.view(0)
        # Player 2 nods (Fox under the public code).
        view = dict(view, signals=[{"seat": 1, "signal": "nod"}])
        rng = random.Random(1)
        weights = set()
        for _ in range(40):
            world = state.sample_world(0, rng)
            fits = world.hand_counts(1)[0] >= 2
            weight = cls.world_weight(view, world, 0)
            assert weight == (1.0 if fits else 0.25)
            weights.add(weight)
        assert weights == {1.0, 0.25}  # both kinds of world were drawn

    def test_a_gesture_in_a_secret_code_says_only_two_of_some_family(self):
        game = get_game("ninjaaatack")
        state = game.new_state(4, seed=5)
        view = dict(state.view(0), signals=[{"seat": 1, "signal": "nod"}])
        rng = random.Random(1)
        for _ in range(40):
            world = state.sample_world(0, rng)
            fits = max(world.hand_counts(1)) >= 2
            assert game.heuristic_bot.world_weight(view, world, 0) == (1.0 if fits else 0.25)

    def test_own_gestures_do_not_weigh(self):
        game = get_game("ninjaaatack")
        state = game.new_state(4, seed=5)
        view = dict(state.view(0), signals=[{"seat": 0, "signal": "wink"}])
        world = state.sample_world(0, random.Random(2))
        assert game.heuristic_bot.world_weight(view, world, 0) == 1.0


class TestOthersByPolicy:
    @staticmethod
    def searched_seats(others: str, rollout: str) -> set[int]:
        """The seats the tree chose for during one decision of seat 0 in a three-player toy game."""
        seats: set[int] = set()

        class Recording(IsmctsBot):
            def _select(self, node, seat, legal, size):
                seats.add(seat)
                return super()._select(node, seat, legal, size)

        Recording(seed=3, iterations=30, others=others, rollout=rollout).act(SeatInfo(ToyGame().new_state(3, seed=2), 0))
        return seats

    def test_the_tree_decides_for_every_seat_by_default(self):
        assert self.searched_seats("search", "random") == {0, 1, 2}

    def test_with_others_by_policy_the_tree_decides_for_the_searching_seat_only(self):
        assert self.searched_seats("policy", "heuristic") == {0}
        assert self.searched_seats("policy", "random") == {0}

    def test_an_unknown_others_setting_is_refused(self):
        with pytest.raises(BadOptions, match="others='rivals' is unknown; choose search or policy"):
            make_bot("ismcts:others=rivals")


class TestReadingTheTable:
    """A heuristic may hand the search the worlds it reads, and rule out actions not worth weighing."""

    @staticmethod
    def reading_game(read: list, ruled_out: set[int]):
        class Reader(ToyHeuristic):
            @classmethod
            def believed_worlds(cls, info, rng, count):
                read.append(count)
                worlds = [info.sample_world(rng) for _ in range(count)]
                for world in worlds:
                    world.marked = True
                return worlds

            @classmethod
            def search_candidates(cls, info, legal):
                return [a for a in legal if a not in ruled_out]

        class ReadingToy(ToyGame):
            id = "reading-toy"
            heuristic_bot = Reader

        return ReadingToy()

    def test_with_beliefs_the_search_plays_in_the_worlds_the_heuristic_reads(self):
        read: list[int] = []
        seen: list[bool] = []

        class Watching(IsmctsBot):
            def _iterate(self, root, world, size):
                seen.append(getattr(world, "marked", False))
                return super()._iterate(root, world, size)

        game = self.reading_game(read, set())
        Watching(seed=1, iterations=20, beliefs=8).act(SeatInfo(game.new_state(2, seed=3), 0))
        assert read == [8]  # read once for the decision
        assert seen == [True] * 20

    def test_without_beliefs_the_reading_is_not_asked(self):
        read: list[int] = []
        game = self.reading_game(read, set())
        IsmctsBot(seed=1, iterations=20).act(SeatInfo(game.new_state(2, seed=3), 0))
        assert read == []

    def test_the_search_never_plays_an_action_the_heuristic_rules_out(self):
        state = ToyGame().new_state(2, seed=3)
        hand = state.legal_actions(0)
        keep = hand[0]  # the lowest card: without the ruling, the search would rather play a high one
        game = self.reading_game([], set(hand) - {keep})
        state = game.new_state(2, seed=3)
        for seed in range(5):
            assert IsmctsBot(seed=seed, iterations=30).act(SeatInfo(state, 0)) == keep
