"""The command line with bad files, paths and typed moves: one clear line on stderr, exit code 2, no traceback."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from ninjatable.cli import app
from ninjatable.core import Record

runner = CliRunner()


def run(*args: str, input: str | None = None):
    return runner.invoke(app, list(args), input=input)


def refused(result, message: str) -> None:
    """The command failed cleanly: exit code 2, `message` on one line of stderr, no traceback."""
    assert result.exit_code == 2, (result.exit_code, result.output)
    assert message in result.stderr, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit)


@pytest.fixture
def record_file(tmp_path):
    """A finished game's record, saved by `simulate --records`."""
    folder = tmp_path / "records"
    assert run("simulate", "oboro", "-n", "1", "--seed", "3", "--records", str(folder)).exit_code == 0
    return next(folder.iterdir())


def edited(record_file, tmp_path, change) -> str:
    data = json.loads(record_file.read_text())
    change(data)
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(data))
    return str(path)


def test_records_folder_that_is_a_file(tmp_path):
    path = tmp_path / "taken"
    path.write_text("x")
    refused(run("simulate", "oboro", "-n", "1", "--records", str(path)), "is a file; give a folder")


def test_record_in_a_folder_that_is_a_file(tmp_path):
    (tmp_path / "dir").write_text("x")
    refused(run("play", "oboro", "--record", str(tmp_path / "dir" / "x.json"), input="q\n"), "is a file, not a folder")
    refused(run("play", "oboro", "--record", str(tmp_path / "none" / "x.json"), input="q\n"), "does not exist")
    refused(run("play", "oboro", "--record", str(tmp_path), input="q\n"), "is a folder")


def test_replay_of_a_folder(tmp_path):
    refused(run("replay", "--check", str(tmp_path)), "cannot read record")


def test_check_of_a_record_that_is_not_utf8(tmp_path):
    path = tmp_path / "latin1.json"
    path.write_bytes('{"format": "ninjatable-record", "game": "dragón"}'.encode("latin-1"))
    refused(run("replay", "--check", str(path)), "not UTF-8")


def test_check_of_deeply_nested_json(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    refused(run("replay", "--check", str(path)), "nested too deeply")


def test_check_of_a_huge_seed(record_file, tmp_path):
    path = tmp_path / "seed.json"
    path.write_text(record_file.read_text().replace('"seed":3', '"seed":' + "7" * 5000))
    refused(run("replay", "--check", str(path)), "5,000 digits")


def test_check_without_a_result_has_nothing_to_check(record_file, tmp_path):
    refused(run("replay", "--check", edited(record_file, tmp_path, lambda d: d.pop("result"))), "nothing to check")


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d["result"].update(extra=1), "'extra', which the replay does not give"),
    (lambda d: d["result"].pop("winners"), "the stored result has no winners"),
    (lambda d: d["result"]["score_sheet"][0].update(note="x"), "stored score_sheet"),
    (lambda d: d["result"].update(over=1), "stored over"),
    (lambda d: d["result"]["scores"].append(0), "stored scores"),
])
def test_check_reports_any_difference_of_the_result(record_file, tmp_path, change, message):
    refused(run("replay", "--check", edited(record_file, tmp_path, change)), message)


def test_check_of_an_unchanged_record_is_ok(record_file):
    result = run("replay", "--check", str(record_file))
    assert result.exit_code == 0 and result.stdout.startswith("ok:")


def test_move_prompt_takes_no_strange_digits(tmp_path):
    record = tmp_path / "game.json"
    typed = "²\n9999\n" + "9" * 5000 + "\n١\n1\nq\n"
    result = run("play", "oboro", "--seed", "1", "--record", str(record), input=typed)
    assert result.exit_code == 0, result.output
    assert "'²' is not a move of oboro" in result.output
    assert "9999 is not on the menu" in result.output
    assert [seat for seat, _ in Record.load(record).moves].count(0) == 1, "only the valid move was played"
