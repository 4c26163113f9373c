"""The arena: balanced seats, exact replay from the seed, clear errors, and the `arena` command."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from typer.testing import CliRunner

from ninjatable.arena import lineups, run_arena, wilson
from ninjatable.cli import app
from ninjatable.core import BadOptions, all_games
from ninjatable.core.rating import finishing_ranks

TINY_SEARCH = "ismcts:iterations=6,depth=20,rollout=random"  # the heuristic plays in its own seat
SHORT = {"gakko": {"max_turns": 12}, "ninjaaatack": {"max_rounds": 2}}  # long games, capped by their safeguards


@pytest.mark.parametrize(
    ("entries", "players"),
    [(["a", "b"], 2), (["a", "b"], 4), (["a", "b", "c"], 3), (["a", "b", "c"], 4), (["a", "b", "c"], 5),
     (list("abcde"), 3), (["s", "h", "h", "h"], 4), (["a", "b"], 5)],
)
def test_every_bot_sits_in_every_seat_in_proportion(entries, players):
    block = lineups(entries, players)
    weight = Counter(entries)
    for seat in range(players):
        seen = Counter(lineup[seat] for lineup in block)
        # Each bot sits in each seat in proportion to how often it was listed.
        ratios = {bot: seen[bot] / weight[bot] for bot in weight}
        assert len(set(ratios.values())) == 1, f"seat {seat}: {dict(seen)}"
    assert all(len(lineup) == players for lineup in block)


def test_mirrored_seating_gives_both_neighbour_orders():
    assert sorted(lineups(["a", "b", "c"], 3)) == sorted(
        [("a", "b", "c"), ("b", "c", "a"), ("c", "a", "b"), ("c", "b", "a"), ("b", "a", "c"), ("a", "c", "b")]
    )


def test_winners_rank_first_then_scores():
    assert finishing_ranks([10, 30, 30, 5], [1, 2]) == [3, 1, 1, 4]
    assert finishing_ranks([-5, -20, -20], [0]) == [1, 2, 2]
    # co-winners share first place whatever their scores (Ninjaaa'Tack: every team reaching the target wins)
    assert finishing_ranks([12, 10, 5, 11], [0, 1]) == [1, 1, 4, 3]


def test_wilson_interval_brackets_the_rate():
    interval = wilson(30, 100)
    assert interval.low < 0.3 < interval.high
    # The textbook Wilson bounds for 0 successes in 10 trials: [0, 0.278].
    assert wilson(0, 10).low == 0.0 and wilson(0, 10).high == pytest.approx(0.2775, abs=1e-3)
    assert wilson(10, 10).high == pytest.approx(1.0)


def test_results_replay_exactly_from_the_seed(toy):
    first = run_arena("toy", 3, ["random", TINY_SEARCH], games=12, seed=5)
    again = run_arena("toy", 3, ["random", TINY_SEARCH], games=12, seed=5)
    other = run_arena("toy", 3, ["random", TINY_SEARCH], games=12, seed=6)
    assert first.to_dict() == again.to_dict()
    assert first.to_dict()["games"] != other.to_dict()["games"]


def test_games_round_up_to_whole_blocks_sharing_one_deal(toy):
    result = run_arena("toy", 2, ["random", "heuristic"], games=3, seed=1)
    assert len(result.games) == 4  # a block is two seatings of one deal
    deals = [g.deal_seed for g in result.games]
    assert deals[0] == deals[1] and deals[2] == deals[3] and deals[0] != deals[2]
    for summary in result.summaries:
        assert summary.games == 4


def test_a_bot_listed_twice_takes_two_seats(toy):
    result = run_arena("toy", 3, ["heuristic", "random", "random"], games=3, seed=2)
    assert result.bots == ["heuristic", "random"]
    seats = Counter(bot for g in result.games for bot in g.lineup)
    assert seats["random"] == 2 * seats["heuristic"]
    shares = sum(s.win_rate.value * s.games for s in result.summaries)
    assert shares == pytest.approx(len(result.games)), "win shares add up to one per game"


# The two slowest games' heuristic bots make theirs soak runs (`make soak`, run by CI after `make test`).
@pytest.mark.parametrize("game", [pytest.param(g, id=g.id, marks=pytest.mark.soak if g.id in SHORT else ())
                                  for g in all_games()])
def test_parallel_games_give_the_same_results(game):
    bots = ["random", TINY_SEARCH] + (["heuristic"] if game.heuristic_bot else [])
    options = SHORT.get(game.id, {})
    serial = run_arena(game.id, game.default_players, bots, games=2, seed=3, options=options)
    parallel = run_arena(game.id, game.default_players, bots, games=2, seed=3, jobs=2, options=options)
    assert serial.to_dict() == parallel.to_dict()


class TestErrors:
    def test_unknown_bot(self, toy):
        with pytest.raises(BadOptions, match="no bot 'champion'; the bots are: heuristic, ismcts, random"):
            run_arena("toy", 2, ["random", "champion"], games=2)

    def test_heuristic_for_a_game_without_one_fails_before_playing(self, toy, monkeypatch):
        monkeypatch.setattr(type(toy), "heuristic_bot", None)
        with pytest.raises(BadOptions, match="toy has no heuristic bot"):
            run_arena("toy", 2, ["random", "heuristic"], games=2)


class TestCommand:
    runner = CliRunner()

    def test_json_report(self, toy):
        out = self.runner.invoke(app, ["arena", "toy", "--players", "2", "--bots", "heuristic,random",
                                       "--games", "4", "--seed", "3", "--json"])
        assert out.exit_code == 0, out.output
        report = json.loads(out.stdout)
        assert [b["bot"] for b in report["bots"]] == ["heuristic", "random"]
        assert report["games_played"] == 4
        for bot in report["bots"]:
            assert bot["win_rate"]["low"] <= bot["win_rate"]["value"] <= bot["win_rate"]["high"]
            assert {"mu", "sigma", "ordinal"} <= set(bot["rating"])

    def test_table_and_plot(self, toy, tmp_path):
        plot = tmp_path / "arena.png"
        out = self.runner.invoke(app, ["arena", "toy", "--bots", "heuristic,random", "--games", "2",
                                       "--plot", str(plot)])
        assert out.exit_code == 0, out.output
        assert "heuristic" in out.stdout and "Even share" in out.stdout
        assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

    @pytest.mark.parametrize(
        ("args", "message"),
        [
            (["--bots", "random,wizard"], "no bot 'wizard'"),
            (["--bots", "ismcts:budget=3"], "its parameters are: iterations=<int>"),
            (["--players", "7"], "played by 2, 3 players"),
            (["--games", "0"], "at least 1"),
            (["--plot", "out.txt"], "should end in .png"),
        ],
    )
    def test_errors_are_one_line_and_exit_2(self, toy, args, message):
        out = self.runner.invoke(app, ["arena", "toy", *args])
        assert out.exit_code == 2
        assert message in out.output
        assert "Traceback" not in out.output
