"""The `ninjatable` command as a user runs it."""

from __future__ import annotations

import json
import re

import pytest
from rich.console import Console
from typer.testing import CliRunner

from ninjatable import cli
from ninjatable.cli import app
from ninjatable.core import Record, all_games

runner = CliRunner()


def run(*args: str, input: str | None = None):
    return runner.invoke(app, list(args), input=input)


def test_every_command_has_help():
    for command in ("games", "rules", "play", "simulate", "replay"):
        result = run(command, "--help")
        assert result.exit_code == 0, command
        assert "Usage" in result.output


def test_games_json_lists_ids_counts_and_options():
    result = run("games", "--json")
    assert result.exit_code == 0
    games = {g["id"]: g for g in json.loads(result.stdout)}
    assert games["dragon"]["players"] == [3, 4, 5]
    assert {"name": "advanced", "default": False} .items() <= games["dragon"]["options"][0].items()


def test_rules_show_the_rules_document():
    result = run("rules", "dragon")
    assert result.exit_code == 0
    assert "Bodily Division" in result.output and "Shoot the Moon" in result.output


def test_simulate_reports_each_seat_and_writes_records(tmp_path):
    result = run("simulate", "dragon", "--players", "3", "--games", "4", "--seed", "7", "--json",
                 "--records", str(tmp_path))
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["games"] == 4 and len(summary["seats"]) == 3
    assert abs(sum(s["win_rate"] for s in summary["seats"]) - 1.0) < 1e-9
    assert summary["mean_moves"] > 3 * 11
    files = sorted(tmp_path.iterdir())
    assert len(files) == 4
    assert run("replay", "--check", str(files[0])).exit_code == 0


def test_simulate_in_parallel_gives_the_same_summary():
    one = json.loads(run("simulate", "dragon", "--games", "6", "--seed", "3", "--json").stdout)
    two = json.loads(run("simulate", "dragon", "--games", "6", "--seed", "3", "--json", "--jobs", "2").stdout)
    assert one == two


def test_replay_shows_the_game_move_by_move(tmp_path):
    run("simulate", "dragon", "--games", "1", "--records", str(tmp_path))
    (path,) = tmp_path.iterdir()
    result = run("replay", str(path))
    assert result.exit_code == 0
    assert "   1. Player" in result.output and "wins the trick" in result.output


def test_replay_check_names_the_first_move_that_does_not_apply(tmp_path):
    run("simulate", "dragon", "--games", "1", "--records", str(tmp_path))
    (path,) = tmp_path.iterdir()
    rec = Record.load(path)
    rec.moves[10] = (rec.moves[10][0], 52)
    rec.save(path)
    result = run("replay", "--check", str(path))
    assert result.exit_code == 2
    assert "move 11" in result.stderr and "does not apply" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, "one clear line"


def test_bad_input_is_one_clear_line_and_exit_code_2(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{oops")
    cases = [
        (("simulate", "chess"), "no game 'chess'"),
        (("simulate", "dragon", "--option", "speed=3"), "no option 'speed'"),
        (("simulate", "dragon", "--option", "advanced=sometimes"), "true or false"),
        (("simulate", "dragon", "--players", "2"), "3, 4, 5 players"),
        (("simulate", "dragon", "--bots", "oracle"), "no bot 'oracle'"),
        (("play", "dragon", "--seat", "9"), "seat 9 does not exist"),
        (("replay", str(bad)), "not valid JSON"),
        (("replay", str(tmp_path / "missing.json")), "cannot read record"),
        (("rules", "go"), "no game 'go'"),
    ]
    for args, message in cases:
        result = run(*args)
        assert result.exit_code == 2, args
        assert message in result.stderr, (args, result.stderr)
        assert len(result.stderr.strip().splitlines()) == 1, args


def test_play_explains_a_bad_move_and_asks_again(tmp_path):
    record = tmp_path / "game.json"
    result = run("play", "dragon", "--seed", "3", "--record", str(record), input="zz\n99\n1\nq\n")
    assert result.exit_code == 0, result.output
    assert "'zz' is not a move of dragon; legal now:" in result.output
    assert "99 is not on the menu" in result.output
    assert "You left the game." in result.output
    moves = Record.load(record).moves
    assert any(seat == 0 for seat, _ in moves), "the valid move was played and recorded"


def test_play_to_the_end_with_the_first_legal_move():
    result = run("play", "dragon", "--players", "3", "--seed", "5", input="1\n" * 400)
    assert result.exit_code == 0
    assert "Game over" in result.output and re.search(r"(You|Player \d) wins?\.\n", result.output)


def test_usage_errors_of_the_command_line_are_one_line_and_exit_code_2():
    cases = [
        (("play", "dragon", "--players", "abc"), "Invalid value for '--players'"),
        (("rules",), "Missing argument 'game'"),
        (("frobnicate",), "No such command 'frobnicate'"),
        (("simulate", "dragon", "--nope"), "No such option: --nope"),
    ]
    for args, message in cases:
        result = run(*args)
        assert result.exit_code == 2, args
        assert message in result.stderr and "--help" in result.stderr, (args, result.stderr)
        assert len(result.stderr.strip().splitlines()) == 1, (args, result.stderr)


@pytest.fixture
def narrow(monkeypatch):
    """The command's output at 80 columns, as in a default terminal."""
    monkeypatch.setattr(cli, "console", Console(width=80))


def fits(output: str) -> bool:
    return all(len(line) <= 80 for line in output.splitlines()) and "…" not in output


def test_games_fit_80_columns_and_show_each_default_player_count(narrow):
    result = run("games")
    assert result.exit_code == 0
    assert fits(result.output), result.output
    assert "lead_after_cleaning=true" in result.output
    for game in all_games():
        assert f"players (default {game.default_players})" in result.output


def test_arena_table_fits_80_columns_and_says_what_its_figures_are(narrow):
    result = run("arena", "oboro", "--bots", "ismcts:iterations=5,random", "--games", "3")
    assert result.exit_code == 0, result.output
    assert fits(result.output), result.output
    assert "ismcts" in result.output and "random" in result.output
    assert "(95% CI)" in result.output and "(± 2σ)" in result.output and "mu ± 2 sigma" in result.output


def test_simulate_json_numbers_seats_from_1_with_every_option_and_rounded_figures():
    summary = json.loads(run("simulate", "oboro", "--games", "3", "--json").stdout)
    assert [s["seat"] for s in summary["seats"]] == [1, 2, 3]
    assert summary["options"] == {o.name: o.default for o in cli.get_game("oboro").options}
    for seat in summary["seats"]:
        for key in ("mean_score", "score_sd", "win_rate"):
            assert seat[key] == round(seat[key], 4)
    table = run("simulate", "oboro", "--games", "3").output
    assert "Player 1" in table and "Win rate: a shared win counts as a fraction." in table
