"""Clan Wars' designer figures: recruits, raids on villages, and the Event cards that decided contests."""

from __future__ import annotations

import pytest

from ninjatable.bots import make_bot, play_game
from ninjatable.core import get_game


def played(seed: int, players: int = 2):
    state = get_game("clanwars").new_state(players, seed=seed)
    play_game(state, [make_bot("heuristic", seed=seed * 10 + s) for s in range(players)])
    return state


@pytest.mark.parametrize("seed", range(3))
def test_recruits_and_attacks_match_the_game_log(seed):
    state = played(seed)
    stats = state.stats()
    kinds = [e.kind for e in state.events]
    assert stats.get("recruits", 0) == kinds.count("recruit")
    assert stats.get("raids", 0) + stats.get("attacks_on_ninja", 0) == kinds.count("attack")
    raids = sum(1 for e in state.events if e.kind == "attack" and "'s village with" in e.text)
    assert stats.get("raids", 0) == raids


@pytest.mark.parametrize("seed", range(3))
def test_a_deciding_card_was_played_in_a_contest(seed):
    state = played(seed)
    played_cards = {e.text.split(" plays ", 1)[1].rsplit(" (", 1)[0] for e in state.events
                    if e.kind == "play" and " plays " in e.text}
    deciders = {k.split(":", 1)[1] for k in state.stats() if k.startswith("decided_by:")}
    assert deciders <= played_cards


def test_every_fight_is_won_by_one_side():
    state = played(1)
    stats = state.stats()
    fights = sum(1 for e in state.events if e.kind == "combat" and "Fight contest" in e.text)
    assert stats.get("fights_won_by_attacker", 0) + stats.get("fights_won_by_defender", 0) == fights
