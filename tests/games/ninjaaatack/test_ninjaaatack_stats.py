"""Ninjaaa'Tack's designer figures: calls right and wrong, Attack! against Ninjaaa!, Penalties."""

from __future__ import annotations

import pytest

from ninjatable.bots import make_bot, play_game
from ninjatable.core import get_game


@pytest.mark.parametrize("players", [4, 5])
def test_every_gong_call_is_right_or_wrong(players):
    state = get_game("ninjaaatack").new_state(players, seed=2, max_rounds=12)
    play_game(state, [make_bot("random", seed=s) for s in range(players)])
    stats = state.stats()
    gongs = sum(e.kind == "gong" and "taps the gong" in e.text for e in state.events)
    calls = stats.get("ninjaaa_calls", 0) + stats.get("attack_calls", 0)
    assert calls == gongs
    for kind in ("ninjaaa", "attack"):
        assert stats.get(f"{kind}_right", 0) + stats.get(f"{kind}_wrong", 0) == stats.get(f"{kind}_calls", 0)
    wrong = sum(line.label.startswith("Wrong call") for line in state.sheet)
    assert stats.get("ninjaaa_wrong", 0) + stats.get("attack_wrong", 0) == wrong
    penalised = sum(e.kind == "penalty" for e in state.events)
    assert stats.get("penalties", 0) >= penalised  # a Penalty earned in the last round is never served
