"""The balance report: seat win rates and their test, variants compared game by game, the files it writes."""

from __future__ import annotations

import json
import sys

import pytest
from typer.testing import CliRunner

from ninjatable.balance import run_balance
from ninjatable.balance.figures import _chi2_sf_exact, chi2_sf, equal_seats_test, relative_change
from ninjatable.balance.report import write_report
from ninjatable.cli import app
from ninjatable.core import BadOptions
from ninjatable.runner import Backend

runner = CliRunner()


@pytest.mark.parametrize("df", [1, 2, 3, 4, 7])
@pytest.mark.parametrize("x", [0.3, 2.0, 7.8, 20.0])
def test_the_exact_chi_square_tail_matches_scipy(df, x):
    stats = pytest.importorskip("scipy.stats")
    assert _chi2_sf_exact(x, df) == pytest.approx(stats.chi2.sf(x, df), rel=1e-9)


def test_equal_seats_test_tells_an_even_table_from_a_lopsided_one():
    assert equal_seats_test([25, 25, 25, 25], 100)[1] == pytest.approx(1.0)
    statistic, p = equal_seats_test([40, 20, 20, 20], 100)
    assert statistic == pytest.approx(12.0) and p == pytest.approx(chi2_sf(12.0, 3)) and p < 0.05


def test_relative_change_reads_a_shorter_game_with_its_interval():
    base = [100.0, 110.0, 90.0, 105.0, 95.0] * 20
    change = relative_change([0.88 * b for b in base], base)
    assert change.value == pytest.approx(-0.12)
    assert change.low <= -0.12 <= change.high


@pytest.fixture(scope="module")
def oboro_report(tmp_path_factory):
    out = tmp_path_factory.mktemp("report")
    result = run_balance("oboro", bots=["random"], games=12, vary=["mission_value=9,11"], seed=3)
    return out, write_report(result, out)


def test_the_report_has_win_rates_by_seat_and_a_p_value(oboro_report):
    _, data = oboro_report
    [pc] = data["player_counts"]
    default = pc["variants"][0]
    assert pc["players"] == 3 and default["label"] == "default" and default["games"] == 12
    assert sum(w["value"] for w in default["win_rate"]) == pytest.approx(1.0)
    assert all(w["low"] <= w["value"] <= w["high"] for w in default["win_rate"])
    assert 0 <= default["equal_seats"]["p_value"] <= 1 and default["equal_seats"]["df"] == 2
    assert {"mission_busts", "shuriken_scoring_1_round"} <= set(default["stats"])
    assert default["rounds"]["value"] >= 1


def test_vary_skips_the_default_value_and_compares_game_by_game(oboro_report):
    _, data = oboro_report
    [pc] = data["player_counts"]
    assert [v["label"] for v in pc["variants"]] == ["default", "mission_value=11"]
    [diff] = pc["differences"]
    # Random seats play the same cards from the same deals whatever the Mission Value: only the scoring moves.
    assert diff["moves"] == {"value": 0.0, "low": 0.0, "high": 0.0}
    assert diff["stats"]["mission_busts"]["value"] < 0  # a higher Mission Value is busted less


def test_report_html_is_one_self_contained_page(oboro_report):
    out, data = oboro_report
    page = (out / "report.html").read_text()
    assert page.count("data:image/png;base64,") >= 5
    assert "src='http" not in page and "<script" not in page
    assert json.loads((out / "report.json").read_text()) == data
    assert "mission_value=11" in page and "p = " in page


def test_the_same_seed_gives_the_same_report_in_two_processes():
    one = run_balance("gakko", bots=["random"], games=4, seed=1).to_dict()
    two = run_balance("gakko", bots=["random"], games=4, seed=1, backend=Backend(jobs=2)).to_dict()
    assert one == two


def test_bad_arguments_fail_before_any_game():
    with pytest.raises(BadOptions, match="no option 'speed'"):
        run_balance("oboro", games=1, vary=["speed=1,2"])
    with pytest.raises(BadOptions, match="played by 3 players"):
        run_balance("oboro", players=[4], games=1)


@pytest.mark.parametrize(("args", "message"), [
    (["--vary", "nope=1,2"], "oboro has no option 'nope'"),
    (["--vary", "mission_value=9,10"], "mission_value=10 is not allowed; use 9, 11"),
    (["--vary", "mission_value"], "should be OPTION=V1,V2"),
    (["--backend", "ray", "--address", "127.0.0.1:1"], "cannot reach a Ray cluster at 127.0.0.1:1"),
    (["--players", "three"], "--players takes whole numbers"),
])
def test_bad_input_is_one_line_and_exit_code_2(tmp_path, args, message):
    result = runner.invoke(app, ["balance", "oboro", "-n", "2", "--out", str(tmp_path), *args])
    assert result.exit_code == 2
    assert message in result.output and len(result.output.strip().splitlines()) == 1
    assert not (tmp_path / "report.json").exists()


def test_without_ray_the_backend_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now fails
    with pytest.raises(BadOptions, match=r"pip install 'ninjatable\[ray\]'"):
        Backend("ray").check()


def test_balance_command_prints_findings_and_writes_the_report(tmp_path):
    result = runner.invoke(app, ["balance", "dragon", "--players", "3", "--bots", "random", "-n", "6",
                                 "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "win rate by seat" in result.output and "chi-square" in result.output
    assert (tmp_path / "report.html").exists()
