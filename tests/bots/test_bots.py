"""The bots: they decide from their seat's information only, finish every game, and refuse unknown names."""

from __future__ import annotations

import random

import pytest

from ninjatable.bots import SeatInfo, make_bot, parse_bot_list, play_game
from ninjatable.core import BadOptions, all_games, constrained_deal, get_game

from .toygame import TOY, ToyGame

# Tiny ISMCTS budgets keep the suite fast; the strength is measured by benchmarks/bot_strength.py.
SEARCH = "ismcts:iterations=8,depth=20"
SEARCH_HEURISTIC = "ismcts:iterations=3,rollout=heuristic,depth=10"
SEARCH_MODELLED = "ismcts:iterations=3,rollout=heuristic,depth=10,others=policy,prior=0.5,beliefs=2"
SEARCH_PAIRED = "ismcts:iterations=4,rollout=heuristic,depth=10,paired=1"


# Games that run long between bots are capped by their own safeguard options, so that playing them to the end
# (by the rules or by the safeguard) stays fast; the rules of a capped game are the same.
# (Ninjaaa'Tack's heuristic waits until its pair knows, so its games run many rounds.)
SHORT = {"gakko": {"max_turns": 30}, "ninjaaatack": {"max_rounds": 4}}


def configurations() -> list[tuple[object, int]]:
    """Every registered game at every player count, and the toy game (simultaneous tricks) at 2 and 3."""
    configs = [(game, players) for game in all_games() for players in game.player_counts]
    return configs + [(TOY, 2), (TOY, 3)]


def soak_beyond_the_usual_count(configs: list[tuple[object, int]]) -> list:
    """Each game at its usual player count runs in `make test`; the other counts are soak runs (`-m soak`, run by
    CI after `make test`), since every bot playing whole games at every count is most of the suite's time."""
    usual = [pytest.param(g, p, id=f"{g.id}-{p}p") for g, p in configs if p == g.default_players or g is TOY]
    more = [pytest.param(g, p, id=f"{g.id}-{p}p", marks=pytest.mark.soak) for g, p in configs
            if not (p == g.default_players or g is TOY)]
    return usual + more


CONFIGS = soak_beyond_the_usual_count(configurations())


def bot_specs(game) -> list[str]:
    specs = ["random", SEARCH]
    if game.heuristic_bot is not None:
        specs += ["heuristic", SEARCH_HEURISTIC, SEARCH_MODELLED, SEARCH_PAIRED]
    return specs


def positions(game, players: int, seed: int, count: int):
    """`count` positions (state, seat to move) from one game played by random bots."""
    state = game.new_state(players, seed=seed)
    rng = random.Random(seed)
    length = len(play_game(state.clone(), [make_bot("random", seed=seed)] * players).history)
    marks = set(rng.sample(range(length), min(count, length)))
    step = 0
    while not state.is_over():
        movers = state.to_move()
        if step in marks:
            yield state, movers[rng.randrange(len(movers))]
        seat = movers[rng.randrange(len(movers))]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        step += 1


@pytest.mark.parametrize(("game", "players"), CONFIGS)
def test_no_bot_can_peek(game, players):
    """Same seed, same decision, whether the bot stands in the true state or in a world sampled for its seat."""
    rng = random.Random(7)
    for state, seat in positions(game, players, seed=5, count=5):
        for spec in bot_specs(game):
            true_choice = make_bot(spec, seed=99).act(SeatInfo(state, seat))
            for _ in range(2):
                world = state.sample_world(seat, rng)
                world_choice = make_bot(spec, seed=99).act(SeatInfo(world, seat))
                assert world_choice == true_choice, (
                    f"{spec} chose {state.action_label(true_choice)} in the true state but "
                    f"{state.action_label(world_choice)} in a world {seat} cannot tell apart from it"
                )


@pytest.mark.parametrize(("game", "players"), CONFIGS)
def test_every_bot_plays_to_the_end(game, players):
    specs = bot_specs(game)
    for first in range(2):
        lineup = [specs[(first + s) % len(specs)] for s in range(players)]
        state = game.new_state(players, seed=first, **SHORT.get(game.id, {}))
        bots = [make_bot(spec, seed=s) for s, spec in enumerate(lineup)]
        play_game(state, bots)
        assert state.is_over() and state.winners()


@pytest.mark.parametrize(("game", "players"), CONFIGS)
def test_a_seeded_bot_replays_its_game(game, players):
    def play(seed: int):
        bots = [make_bot((SEARCH, "random")[s % 2], seed=seed + s) for s in range(players)]
        return play_game(game.new_state(players, seed=3, **SHORT.get(game.id, {})), bots).history

    assert play(10) == play(10)


def test_search_ducks_a_trick_it_cannot_take_with_its_lowest_card():
    """Facing the 12, every card loses the trick; the lowest gives away fewest points and keeps the best."""
    for seed in range(3):
        state = TOY.new_state(2, seed=1)
        state.hands = [[0, 4, 8, 10], [1, 5, 9, 11]]
        state.apply(0, 10)  # the simultaneous first trick: 11 against 2
        state.apply(1, 1)
        state.apply(1, 11)  # P2 leads the 12 to the second trick
        assert make_bot("ismcts:iterations=200", seed=seed).act(SeatInfo(state, 0)) == 0


def test_ismcts_decides_a_simultaneous_pick_without_the_others_pick():
    """In a simultaneous trick the other seat's pending pick is hidden: changing it changes nothing."""
    state = TOY.new_state(2, seed=4)
    state.apply(0, state.hands[0][0])
    choices = set()
    for other_pick in state.hands[0]:
        variant = state.clone()
        variant.pending[0] = other_pick
        choices.add(make_bot("ismcts:iterations=200", seed=1).act(SeatInfo(variant, 1)))
    assert len(choices) == 1


def test_the_cycle_guard_never_holds_back_a_seat_whose_game_moved_on():
    """Clanwars turns can look alike in a fixed-size observation; the guard must not take them for a cycle."""
    game = get_game("clanwars")
    for seed in range(2):
        state = game.new_state(2, seed=seed)
        bots = [make_bot("heuristic", seed=seed * 10 + s) for s in range(2)]
        guard = make_bot("ismcts:iterations=1", seed=seed)
        while not state.is_over():
            seat = state.to_move()[0]
            legal = state.legal_actions(seat)
            if seat == 0:
                assert guard._not_going_back(SeatInfo(state, 0), legal) == legal
            state.apply(seat, bots[seat].act(SeatInfo(state, seat)))


def test_ms_budget_stops_the_search():
    state = TOY.new_state(3, seed=2)
    bot = make_bot("ismcts:ms=20", seed=1)
    bot.act(SeatInfo(state, 0))
    assert bot.last_iterations >= 1


class TestErrors:
    def test_unknown_bot_lists_the_bots(self):
        with pytest.raises(BadOptions, match="no bot 'genius'.*heuristic, ismcts, random"):
            make_bot("genius")

    def test_unknown_parameter_lists_the_parameters(self):
        with pytest.raises(BadOptions, match="no parameter 'depht=3'.*iterations=<int>.*ms=<float>"):
            make_bot("ismcts:depht=3")

    def test_parameter_of_the_wrong_type(self):
        with pytest.raises(BadOptions, match="iterations='many' should be int"):
            make_bot("ismcts:iterations=many")

    def test_parameter_out_of_its_values(self):
        with pytest.raises(BadOptions, match="rollout='smart'.*random or heuristic"):
            make_bot("ismcts:rollout=smart")
        with pytest.raises(BadOptions, match="reward='money'.*win, score, rank, mix"):
            make_bot("ismcts:reward=money")
        with pytest.raises(BadOptions, match="iterations must be at least 1"):
            make_bot("ismcts:iterations=0")

    def test_random_and_heuristic_take_no_parameters(self):
        with pytest.raises(BadOptions, match="heuristic has no parameter 'x=1'; its parameters are: none"):
            make_bot("heuristic:x=1")

    def test_bot_lists_validate_every_spec(self):
        assert parse_bot_list("heuristic, ismcts:iterations=5,c=1.0 ,random") == [
            "heuristic",
            "ismcts:iterations=5,c=1.0",
            "random",
        ]
        with pytest.raises(BadOptions, match="no bot 'nobody'"):
            parse_bot_list("random,nobody")

    def test_heuristic_for_a_game_without_one_names_the_game(self):
        class Plain(ToyGame):
            id = "plain"
            heuristic_bot = None

        state = Plain().new_state(2, seed=1)
        with pytest.raises(BadOptions, match="plain has no heuristic bot"):
            make_bot("heuristic").act(SeatInfo(state, 0))
        with pytest.raises(BadOptions, match="plain has no heuristic bot"):
            make_bot("ismcts:rollout=heuristic,iterations=3").act(SeatInfo(state, 0))


def test_a_constrained_deal_depends_on_the_cards_not_their_order():
    """Games gather unseen cards from the true places; the order must not reach the sampled world."""
    cards = list(range(10))
    shuffled = [7, 2, 9, 0, 5, 1, 8, 3, 6, 4]
    rule = lambda card, place: place != 0 or card % 2 == 0
    for seed in range(20):
        a = constrained_deal(cards, [3, 3, 4], rule, random.Random(seed))
        b = constrained_deal(shuffled, [3, 3, 4], rule, random.Random(seed))
        assert a == b


def test_a_search_world_leaves_the_round_after_its_horizon_undealt():
    dragon = get_game("dragon")
    for horizon in (1, None):
        world = dragon.new_state(4, seed=11).sample_world(0, random.Random(1))
        world.search_horizon = horizon
        rng = random.Random(2)
        while not world.sheet:
            seat = world.to_move()[0]
            world.apply(seat, rng.choice(world.legal_actions(seat)))
        dealt = any(world.hands)
        assert world.round == (1 if horizon else 2) and dealt == (horizon is None) and not world.is_over()


@pytest.mark.parametrize("game_id", ["dragon", "oboro"])
def test_the_search_decides_alike_whether_or_not_the_round_after_its_horizon_is_dealt(game_id, monkeypatch):
    from ninjatable.core import State

    game = get_game(game_id)
    places = [(s.clone(), seat) for s, seat in positions(game, game.default_players, seed=4, count=6)]
    decide = [make_bot("ismcts:iterations=40", seed=9).choose(s, seat) for s, seat in places]
    monkeypatch.setattr(State, "deals_next_round", lambda self: True)
    assert [make_bot("ismcts:iterations=40", seed=9).choose(s, seat) for s, seat in places] == decide
