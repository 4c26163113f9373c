"""Random Ninjaaa'Tack games checked step by step against a second, plain reading of the rules.

The reading here is written from the rules page alone: teams (opposite seats; the lone wolf moving one seat
left each round and the others paired opposite among themselves), clans (4 between two partners, 3 for a lone
wolf), the Penalty (one player alone must hold the clan), points per clan, a wrong call costing the team (odd
counts: the caller) a point with a floor at 0, every call ending the round, and the pass moving each chosen card
one seat to the left. Random players call the gong very often, so these games are full of right and wrong calls,
penalties and redeals.
"""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest

from ninjatable.core import get_game

GAME = get_game("ninjaaatack")
CALLER = re.compile(r"^(?:Ninjaaa! by|Attack! by|Wrong call by) Player (\d+)")


def reference_teams(n: int, round_number: int) -> list[tuple[int, ...]]:
    if n % 2 == 0:
        return [(s, s + n // 2) for s in range(n // 2)]
    lone = (round_number - 1) % n
    others = [(lone + 1 + i) % n for i in range(n - 1)]
    half = (n - 1) // 2
    return [(lone,)] + [tuple(sorted((others[i], others[i + half]))) for i in range(half)]


def hands_of(state) -> list[Counter]:
    return [Counter(state.view(s)["hand"]) for s in range(state.players)]


def clans(hands: list[Counter], team: tuple[int, ...]) -> int:
    if len(team) == 1:
        return sum(1 for c in hands[team[0]].values() if c >= 3)
    together = hands[team[0]] + hands[team[1]]
    return sum(1 for c in together.values() if c >= 4)


def solo_clans(hands: list[Counter], seats, need: int) -> int:
    return sum(1 for s in seats for c in hands[s].values() if c >= need)


class Reference:
    """The expected totals and penalties, updated from each resolved call."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.totals = [0] * n
        self.penalised: set[int] = set()

    def judge(self, hands, teams, caller: int, label: str) -> tuple[list[int], set[int], bool]:
        """The points a call earns per seat and who is penalised next round; `label` is the call made."""
        n = self.n
        team = next(t for t in teams if caller in t)
        if label == "ninjaaa":
            if n % 2 == 0 and self.penalised & set(team):
                points = solo_clans(hands, team, 4)
            elif n % 2 == 1 and caller in self.penalised:
                points = solo_clans(hands, (caller,), 3 if len(team) == 1 else 4)
            else:
                points = clans(hands, team)
        elif label == "attack":
            # The rulebook's Attack!: every enemy clan of every other team.
            points = sum(clans(hands, t) for t in teams if t != team)
        else:
            target_seat = int(label.removeprefix("attack Player ")) - 1
            points = clans(hands, next(t for t in teams if target_seat in t))
        row = [0] * n
        if points:
            for s in team:
                row[s] = points
            return row, set(), True
        losers = team if n % 2 == 0 else (caller,)
        if self.totals[caller] >= 1:
            for s in losers:
                row[s] = -1
            return row, set(), False
        return row, set(losers), False


def check_game(players: int, seed: int, options: dict) -> int:
    """Play one random game, checking every step; return the number of calls resolved."""
    state = GAME.new_state(players, seed=seed, **options)
    rng = random.Random(seed)
    ref = Reference(players)
    submitted: dict[int, str] = {}
    calls = 0
    while not state.is_over():
        view = state.view(None)
        teams = reference_teams(players, view["round"])
        assert [tuple(t["seats"]) for t in view["teams"]] == sorted(teams)
        assert view["penalised"] == sorted(ref.penalised)
        hands = hands_of(state)
        step_kind, round_before, lines_before = view["step"], view["round"], len(state.score_sheet())
        seat = rng.choice(state.to_move())
        action = rng.choice(state.legal_actions(seat))
        submitted[seat] = state.action_label(action)
        state.apply(seat, action)
        sheet = state.score_sheet()
        if len(sheet) > lines_before:
            calls += 1
            line = sheet[-1]
            caller = int(CALLER.match(line.label).group(1)) - 1
            made = submitted[caller]
            assert made == "ninjaaa" or made.startswith("attack"), "only a seat that called is scored"
            row, penalised_next, right = ref.judge(hands, teams, caller, made)
            assert list(line.points) == row, f"{line.label}: {list(line.points)} != {row}"
            assert line.label.startswith("Wrong") != right
            ref.totals = [t + p for t, p in zip(ref.totals, row)]
            assert min(ref.totals) >= 0
            assert state.scores() == ref.totals
            if not state.is_over():
                # Every call ends the round: a fresh round starts, with the Penalty the call brought.
                assert state.view(None)["round"] == round_before + 1 and state.view(None)["passes"] == 0
            ref.penalised = penalised_next
            submitted = {}
        elif len(state.to_move()) == players or state.is_over():
            # A step completed with no call: a pass moved the cards, or the gestures were published.
            if step_kind == "pass":
                chosen = [submitted[s].removeprefix("pass ") for s in range(players)]
                after = hands_of(state)
                for s in range(players):
                    expected = hands[s] - Counter([chosen[s]]) + Counter([chosen[s - 1]])
                    assert after[s] == expected
            elif state.view(None)["round"] != round_before:
                ref.penalised = set()  # the pass limit redealt the round: a penalty is used up
            submitted = {}
    target = state.options["points_to_win"]
    if max(ref.totals) >= target:
        assert sorted(state.winners()) == [s for s in range(players) if ref.totals[s] >= target]
    else:
        assert state.view(None)["round"] == state.options["max_rounds"]
    return calls


@pytest.mark.parametrize("players", [4, 5, 6, 7, 8])
@pytest.mark.parametrize(("gong_order", "attack"), [("random", "all"), ("arrival", "all"), ("random", "team")])
def test_random_games_follow_the_rules(players, gong_order, attack):
    options = {"gong_order": gong_order, "attack": attack, "max_passes": 6, "max_rounds": 40}
    calls = sum(check_game(players, seed, options) for seed in range(2))
    assert calls > 20
