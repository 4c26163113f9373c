"""Every game names each decision in words, explains refusals from the seat's own knowledge, and keeps its
multi-step choices free of chance, so front ends may hold them as drafts."""

from __future__ import annotations

import random

import pytest

from ninjatable.core import Decision, all_games

CASES = [(g.id, p) for g in all_games() for p in g.player_counts]


@pytest.mark.parametrize(("game_id", "players"), CASES, ids=[f"{g}-{p}p" for g, p in CASES])
def test_every_decision_has_words_and_multi_steps_draw_no_chance(game_id, players):
    game = next(g for g in all_games() if g.id == game_id)
    rng = random.Random(players)
    for seed in range(2):
        state = game.new_state(players, seed=seed)
        size = game.num_actions(players)
        while not state.is_over():
            movers = state.to_move()
            for seat in range(players):
                decision = state.decision(seat)
                refusals = state.refusals(seat)
                if seat not in movers:
                    assert decision is None and refusals == {}
                    continue
                assert isinstance(decision, Decision) and decision.prompt.strip()
                legal = state.legal_actions(seat)
                assert not set(refusals) & set(legal)
                assert all(0 <= a < size and reason.strip() for a, reason in refusals.items())
                if decision.multi:
                    assert decision.confirm is not None and 0 <= decision.confirm < size
            seat = movers[rng.randrange(len(movers))]
            action = rng.choice(state.legal_actions(seat))
            decision = state.decision(seat)
            if decision.multi and action != decision.confirm:
                chance = state._chance
                state.apply(seat, action)
                assert state._chance == chance, "a step of a multi-step choice drew a chance"
                assert seat in state.to_move() and state.decision(seat).multi
            else:
                state.apply(seat, action)
