"""The post-game analysis: every decision of the chosen seats weighed from that seat's information alone; the same
record and seed give the same analysis; a move the search rates far below the best is a mistake; bad input is
refused with what is allowed."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from ninjatable.analysis import analyse, decisions_to_analyse, weigh_decision
from ninjatable.bots import make_bot, play_game
from ninjatable.cli import app
from ninjatable.core import BadOptions, Record, get_game

WORLDS = 8


def finished_oboro(seed: int = 5) -> Record:
    state = get_game("oboro").new_state(3, seed=seed)
    play_game(state, [make_bot("random" if s % 2 else "heuristic", seed=s) for s in range(3)])
    return Record.from_state(state)


def test_every_decision_of_the_chosen_seats_is_weighed_and_the_same_seed_gives_the_same_analysis():
    record = finished_oboro()
    first = analyse(record, seats=[1], worlds=WORLDS, seed=3)
    again = analyse(record, seats=[1], worlds=WORLDS, seed=3)
    assert first.to_dict() == again.to_dict()
    assert [d.move for d in first.decisions] == decisions_to_analyse(record, [1])
    state = record.start()
    for index, (seat, action) in enumerate(record.moves):
        if index in {d.move for d in first.decisions}:
            assert seat == 1 and len(state.legal_actions(1)) > 1  # a real choice of the seat asked for
        state.apply(seat, action)
    for d in first.decisions:
        assert d.played == record.moves[d.move][1] and any(o.action == d.played for o in d.options)
        assert [o.win for o in d.options] == sorted((o.win for o in d.options), reverse=True)
        assert sum(d.chances) == pytest.approx(1.0, abs=1e-3)
    assert [(s.seat, s.analysed) for s in first.seats] == [(1, len(first.decisions))]
    assert first.seats[0].mistakes == sum(d.mistake for d in first.decisions)


def test_a_move_far_below_the_best_is_a_mistake_and_the_best_move_costs_nothing():
    record = finished_oboro()
    # A decision where the options differ most, as the search saw it (the same worlds are sampled again below:
    # the same record before the move, index and seed).
    weighed = [weigh_decision(record.to_dict(), i, WORLDS, {"rollout": "random", "rounds": 1, "depth": 0}, 3)
               for i in decisions_to_analyse(record, [0])]
    decision = max(weighed, key=lambda d: d.options[0].win - d.options[-1].win)
    best, worst = decision.options[0], decision.options[-1]
    assert best.win - worst.win >= 0.3, "the test's game should hold a decision with a clearly worse option"

    def replayed_with(action: int) -> dict:
        moves = [list(m) for m in record.moves[:decision.move]] + [[decision.seat, action]]
        return {**record.to_dict(), "moves": moves, "result": None}

    settings = {"rollout": "random", "rounds": 1, "depth": 0}
    blunder = weigh_decision(replayed_with(worst.action), decision.move, WORLDS, settings, 3)
    good = weigh_decision(replayed_with(best.action), decision.move, WORLDS, settings, 3)
    assert blunder.label == worst.label and blunder.mistake and blunder.cost >= 0.1
    assert not good.mistake and good.cost <= blunder.cost


def test_an_unfinished_game_or_a_seat_it_lacks_is_refused():
    record = finished_oboro()
    unfinished = Record(record.game, record.players, record.options, record.seed, record.moves[:10])
    with pytest.raises(BadOptions, match="finished game"):
        analyse(unfinished)
    with pytest.raises(BadOptions, match="seats 1 to 3"):
        analyse(record, seats=[3])
    with pytest.raises(BadOptions, match="--worlds"):
        analyse(record, worlds=0)


def test_the_command_lists_mistakes_and_one_line_per_player(tmp_path):
    path = tmp_path / "game.json"
    finished_oboro().save(path)
    runner = CliRunner()
    shown = runner.invoke(app, ["analyse", str(path), "--worlds", str(WORLDS)])
    assert shown.exit_code == 0, shown.output
    for seat in (1, 2, 3):
        assert f"Player {seat}: " in shown.output and "moves analysed" in shown.output
    as_json = runner.invoke(app, ["analyse", str(path), "--seat", "2", "--worlds", str(WORLDS), "--json"])
    data = json.loads(as_json.output)
    assert data["game"] == "oboro" and {d["seat"] for d in data["decisions"]} == {1}
    refused = runner.invoke(app, ["analyse", str(path), "--seat", "4"])
    assert refused.exit_code == 2 and "seat 4 does not exist" in refused.output
