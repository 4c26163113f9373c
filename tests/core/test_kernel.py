"""The kernel on its own: options, secrecy, constrained deals, records, the registry and the bot registry."""

from __future__ import annotations

import json
import random

import pytest

from ninjatable.bots import make_bot, parse_bot_list
from ninjatable.core import (
    BadOptions,
    BadRecord,
    IllegalAction,
    Option,
    Private,
    Record,
    UnknownGame,
    constrained_deal,
    get_game,
    redact,
)


class TestOptions:
    def test_bool_option_reads_common_spellings(self):
        opt = Option("advanced", False, "x")
        assert opt.parse("true") is True and opt.parse("OFF") is False
        assert opt.allowed == (True, False)
        with pytest.raises(BadOptions, match="true or false"):
            opt.parse("maybe")

    def test_choice_option_names_its_values(self):
        opt = Option("mission_value", 9, "x", choices=(9, 11))
        assert opt.check("11") == 11
        with pytest.raises(BadOptions, match="use 9, 11"):
            opt.check(10)

    def test_range_option(self):
        opt = Option("max_turns", 200, "x", minimum=10, maximum=1000)
        assert opt.check(10) == 10 and opt.allowed == (200, 10)
        with pytest.raises(BadOptions, match="from 10 to 1000"):
            opt.check(5)
        with pytest.raises(BadOptions, match="not a number"):
            opt.check("lots")


def test_redact_shows_secrets_to_their_owners_only():
    data = {"hands": [Private(["R1"], 0, 1), Private(["B2", "B3"], 1, 2)], "trick": ["G4"]}
    assert redact(data, 0) == {"hands": [["R1"], 2], "trick": ["G4"]}
    assert redact(data, 1) == {"hands": [1, ["B2", "B3"]], "trick": ["G4"]}
    assert redact(data, None) == {"hands": [1, 2], "trick": ["G4"]}
    shared = Private("note", (0, 2))
    assert [redact(shared, s) for s in (0, 1, 2)] == ["note", None, "note"]


class TestConstrainedDeal:
    def test_respects_sizes_and_constraints(self):
        rng = random.Random(0)
        cards = list(range(12))
        # Place 0 may hold only even cards, place 1 anything, place 2 only cards below 6.
        rule = {0: lambda c: c % 2 == 0, 1: lambda c: True, 2: lambda c: c < 6}
        for _ in range(200):
            dealt = constrained_deal(cards, [4, 5, 3], lambda c, p: rule[p](c), rng)
            assert [len(d) for d in dealt] == [4, 5, 3]
            assert sorted(sum(dealt, [])) == cards
            assert all(rule[p](c) for p, d in enumerate(dealt) for c in d)

    def test_finds_the_only_deal_when_greedy_guesses_fail(self):
        # Each card fits exactly one place: only a careful search finds the one assignment.
        cards = list(range(8))
        dealt = constrained_deal(cards, [2, 2, 2, 2], lambda c, p: c // 2 == p, random.Random(3), tries=0)
        assert [sorted(d) for d in dealt] == [[0, 1], [2, 3], [4, 5], [6, 7]]

    def test_spreads_unconstrained_cards(self):
        rng = random.Random(1)
        first = [0] * 6
        for _ in range(3000):
            dealt = constrained_deal(list(range(6)), [3, 3], lambda c, p: True, rng)
            for c in dealt[0]:
                first[c] += 1
        assert all(1300 < n < 1700 for n in first), "each card lands in each half about as often"


class TestRecords:
    def _finished(self):
        state = get_game("dragon").new_state(3, seed=4)
        rng = random.Random(4)
        while not state.is_over():
            seat = state.to_move()[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        return state

    def test_round_trip_keeps_the_result_and_score_sheet(self, tmp_path):
        state = self._finished()
        rec = Record.from_state(state)
        path = tmp_path / "r.json"
        rec.save(path)
        data = json.loads(path.read_text())
        assert data["result"]["score_sheet"][0]["label"] == "Round 1"
        assert len(data["result"]["score_sheet"][0]["points"]) == 3
        assert Record.load(path).replay().result() == state.result()

    @pytest.mark.parametrize(("text", "message"), [
        ("{not json", "not valid JSON"),
        ('{"format": "other"}', "not a ninjatable record"),
        ('{"format": "ninjatable-record", "version": 9}', "version 9"),
        ('{"format": "ninjatable-record", "version": 1, "game": "dragon"}', "has no .players."),
        ('{"format": "ninjatable-record", "version": 1, "game": "dragon", "players": 4, "options": {},'
         ' "seed": 1, "moves": [[0]]}', "move 1 should be"),
        ('{"format": "ninjatable-record", "version": 1, "game": "chess", "players": 4, "options": {},'
         ' "seed": 1, "moves": []}', "no game 'chess'"),
        ('{"format": "ninjatable-record", "version": 1, "game": "dragon", "players": 4, "options": {"x": 1},'
         ' "seed": 1, "moves": []}', "no option 'x'"),
    ])
    def test_malformed_records_are_refused_clearly(self, text, message):
        with pytest.raises(BadRecord, match=message):
            Record.from_json(text).replay()

    def test_a_move_that_does_not_apply_is_named(self):
        rec = Record.from_state(self._finished())
        rec.moves[5] = (rec.moves[5][0], 52)  # `done` in the middle of a trick
        with pytest.raises(BadRecord, match="move 6 .*does not apply"):
            rec.replay()

    def test_a_tampered_result_is_refused(self):
        rec = Record.from_state(self._finished())
        rec.result["winners"] = [0, 1, 2]
        with pytest.raises(BadRecord, match="winners"):
            rec.replay()


def test_unknown_game_lists_the_games():
    with pytest.raises(UnknownGame, match="dragon"):
        get_game("chess")


def test_state_errors_name_the_turn_and_the_moves():
    state = get_game("dragon").new_state(4, seed=1)
    mover = state.to_move()[0]
    other = (mover + 1) % 4
    with pytest.raises(IllegalAction, match=f"not Player {other + 1}'s turn"):
        state.apply(other, state.legal_actions(mover)[0])
    with pytest.raises(IllegalAction, match="seat 9 does not exist"):
        state.view(9)


class TestBotRegistry:
    def test_unknown_bot_lists_the_bots(self):
        with pytest.raises(BadOptions, match="the bots are: .*random"):
            make_bot("genius")

    def test_unknown_parameter_lists_the_parameters(self):
        with pytest.raises(BadOptions, match="random has no parameter"):
            make_bot("random:depth=3")

    def test_bot_lists_split_on_commas(self):
        assert parse_bot_list("random, random") == ["random", "random"]


class TestSearchAndScriptingApi:
    """The kernel's named doors for searches (advance, next_choice) and for positions set by hand (set_position)."""

    @pytest.mark.parametrize("game_id", ["oboro", "dragon", "gakko", "clanwars", "ninjaaatack"])
    def test_a_search_steps_the_games_own_methods_under_public_names(self, game_id):
        state_class = type(get_game(game_id).new_state(seed=1))
        # No extra call on the hot path: the public names are the game's functions themselves.
        assert state_class.advance is state_class._apply
        assert state_class.next_choice is state_class._next_choice

    @pytest.mark.parametrize("name", ["advance", "next_choice", "apply_offered", "set_position", "apply"])
    def test_a_game_cannot_replace_the_kernels_public_methods(self, name):
        from ninjatable.core import State

        with pytest.raises(TypeError, match=f"overrides {name}"):
            type("Rogue", (State,), {name: lambda self, *args, **kwargs: None})

    def test_a_position_set_by_hand_forgets_the_moves_handed_out_before(self):
        state = get_game("oboro").new_state(seed=4)
        seat = state.to_move()[0]
        handed_out = state.legal_actions(seat)
        others = [s for s in range(3) if s != seat]
        hands = {seat: ["R1", "R2"], others[0]: ["B1", "B2"], others[1]: ["G1", "G2"]}
        state.set_position(hands=[hands[s] for s in range(3)], leader=seat)
        gone = next(a for a in handed_out if state.action_label(a) not in ("R1", "R2"))
        with pytest.raises(IllegalAction, match="not allowed now"):
            state.apply(seat, gone)
        assert state.legal_actions(seat) == [state.parse_action("R1"), state.parse_action("R2")]

    def test_a_game_without_scripted_positions_says_so(self):
        from tests.bots.toygame import ToyGame

        from ninjatable.core import BadArgument

        state = ToyGame().new_state(2, seed=0)
        with pytest.raises(BadArgument, match="has no scripted positions"):
            state.set_position(hands=[[1], [2]])

    def test_a_mixin_of_the_state_cannot_replace_a_kernel_method_either(self):
        from ninjatable.core import State

        class Seeing:
            def view(self, seat):
                return {}

        with pytest.raises(TypeError, match="overrides view"):
            type("Rogue", (Seeing, State), {})

    @pytest.mark.parametrize("game_id", ["oboro", "dragon", "gakko", "clanwars", "ninjaaatack"])
    def test_a_position_with_a_keyword_the_game_does_not_know_is_refused_and_changes_nothing(self, game_id):
        from ninjatable.core import BadArgument

        state = get_game(game_id).new_state(seed=2)
        before = state.view(None)
        with pytest.raises(BadArgument, match="hands|handz"):  # the message names what was wrong
            state.set_position(handz=[[]])
        assert state.view(None) == before


def test_every_live_step_names_a_kind_of_step_its_game_declares():
    """A live game declares what its live mode times, and each step it plays live is one of those kinds."""
    from ninjatable.core import all_games

    live_games = [g for g in all_games() if g.live_options is not None]
    assert live_games
    for game in live_games:
        declared = {timing.name for timing in game.live_timings}
        assert declared and game.live_summary and game.live_race_words
        state = game.new_state(seed=5, **game.live_options, max_rounds=3)
        rng = random.Random(5)
        while not state.is_over():
            step = state.live_step()
            assert step is not None and step.timing in declared
            seat = state.to_move()[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))


@pytest.mark.parametrize(("game_id", "script"), [
    ("dragon", {"hands": ["P1", "P2", "P3", "P4"], "trump": "G", "scale": "R1 X9"}),
    ("dragon", {"hands": ["P1", "P2", "P3", "P4"], "trump": "G"}),  # no trump held: no countdown can run
    ("oboro", {"hands": [["R1", "R2"], ["B1", "B2"], ["G1", "Q9"]]}),
    ("gakko", {"hands": [[1, 2], [3, 4], [5, 99]]}),
    ("clanwars", {"hands": [["Plan"], ["No Such Card"], ["Plot"]]}),
    ("ninjaaatack", {"hands": [["Fox"] * 4] * 4}),
])
def test_a_script_refused_for_a_bad_card_leaves_the_position_as_it_was(game_id, script):
    from ninjatable.core import BadArgument

    state = get_game(game_id).new_state(len(script["hands"]), seed=2)
    before = json.dumps([state.view(s) for s in [None, *range(state.players)]])
    with pytest.raises(BadArgument):
        state.set_position(**script)
    assert json.dumps([state.view(s) for s in [None, *range(state.players)]]) == before
