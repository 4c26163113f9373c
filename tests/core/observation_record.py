"""Recorded observations of seeded random games, to keep every game's observation equal value for value.

`record()` plays each case's game with random legal moves from a seeded generator and digests, after every
move, the observations of every seat (float32 bytes); `python tests/core/observation_record.py` writes them to
observations.json beside this file. The digests were written before the observation builders were made faster.
Ninjaaa'Tack's sampled worlds at 5 and 7 players were recorded again when a world began to make the codes its
seat cannot know only when they are read: each recorded world is the first from a fresh generator, so its hands
are the same, and 5 of those 60 digests changed (other seats' readings of gestures by those codes; the recorded
positions at 4, 6 and 8 players hold no gesture).
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

from ninjatable.core import get_game

FIXTURE = Path(__file__).with_name("observations.json")
# (game, players, options, seed): every player count of every game, the Advanced Variant of the Dragon
# (Soul-Sucking Jutsu) and Ninjaaa'Tack with one Attack! per team and open codes.
CASES = [
    ("oboro", 3, {}, 1), ("oboro", 3, {}, 2), ("oboro", 3, {"red8_arrow": False}, 3),
    ("dragon", 3, {}, 1), ("dragon", 4, {}, 2), ("dragon", 5, {}, 3), ("dragon", 4, {"advanced": True}, 4),
    ("clanwars", 2, {}, 1), ("clanwars", 3, {}, 2), ("clanwars", 4, {}, 3), ("clanwars", 5, {}, 4),
    ("clanwars", 6, {}, 5),
    ("gakko", 3, {}, 1), ("gakko", 4, {}, 2), ("gakko", 5, {}, 3),
    ("ninjaaatack", 4, {}, 1), ("ninjaaatack", 5, {}, 2), ("ninjaaatack", 6, {}, 3), ("ninjaaatack", 7, {}, 4),
    ("ninjaaatack", 8, {}, 5), ("ninjaaatack", 4, {"attack": "team", "codebooks": False}, 6),
]
MAX_MOVES = 300


def case_key(game_id: str, players: int, options: dict, seed: int) -> str:
    flags = ",".join(f"{k}={v}" for k, v in sorted(options.items()))
    return f"{game_id}/{players}/{flags}/{seed}"


def digests(game_id: str, players: int, options: dict, seed: int) -> list[str]:
    """One digest per position of the random game: the observations of all seats, in seat order."""
    game = get_game(game_id)
    state = game.new_state(players, seed=seed, **options)
    rng = random.Random(seed)
    found = []
    for _ in range(MAX_MOVES):
        h = hashlib.sha1()
        for s in range(players):
            obs = state.observation(s)
            assert obs.dtype.name == "float32" and obs.shape == game.observation_shape(players)
            h.update(obs.tobytes())
        found.append(h.hexdigest()[:12])
        if state.is_over():
            break
        seat = state.to_move()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return found


def world_digests(game_id: str, players: int, options: dict, seed: int) -> list[str]:
    """At every 10th position of the same random game, a digest of a world sampled for the seat to move
    (every seat's observation of it) from a generator seeded by the position's number."""
    game = get_game(game_id)
    state = game.new_state(players, seed=seed, **options)
    rng = random.Random(seed)
    found = []
    for move in range(MAX_MOVES):
        if state.is_over():
            break
        seat = state.to_move()[0]
        if move % 10 == 0:
            world = state.sample_world(seat, random.Random(move))
            h = hashlib.sha1()
            for s in range(players):
                h.update(world.observation(s).tobytes())
            found.append(h.hexdigest()[:12])
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return found


def record() -> dict[str, dict[str, list[str]]]:
    return {
        "observations": {case_key(*case): digests(*case) for case in CASES},
        "worlds": {case_key(*case): world_digests(*case) for case in CASES},
    }


if __name__ == "__main__":
    FIXTURE.write_text(json.dumps(record(), indent=0) + "\n", encoding="utf-8")
