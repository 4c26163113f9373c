"""Steps per second through the research environments, beside the bare engine and peer environments.

A step is one decision: the player to act gets its observation and legal-action mask, picks a random legal
action, and the environment applies it. Columns:

- engine: the kernel alone, `legal_actions` then `apply` (no observation), as in engine_speed.py;
- engine+obs: the same plus a fresh observation array and action mask per step, the work no environment avoids;
- PettingZoo AEC: `agent_iter()`, `last()`, `step()` through ninjatable.research.env (or a PettingZoo
  classic environment), counting decisions only (the finished agents' `step(None)` are not counted);
- Gym vector: `ninjatable.research.vector_env` with 16 games against random bots, counting the learner's
  decisions only (the bots' moves are extra work, not counted), observations and masks written into its arrays;
- OpenSpiel: an OpenSpiel game stepped from Python: the observation written by `make_observation` and copied,
  the legal actions as a mask, `apply_action` (chance outcomes sampled and not counted). For ninjatable games
  this goes through the OpenSpiel bridge.

Peers, each measured in the same run when installed: OpenSpiel's hearts (`pip install open_spiel`) and
PettingZoo's classic card environments (`pip install rlcard pygame`). Runs on one core; each figure is the best
of three runs sharing `--seconds`, since other work on the machine can only slow a run down.
Usage: python benchmarks/env_speed.py [--seconds S] [--all-counts] [--game ID ...]
"""

from __future__ import annotations

import argparse
import random
import time
import warnings
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

import numpy as np

from ninjatable.core import all_games, get_game
from ninjatable.research import env as make_env
from ninjatable.research import vector_env

if TYPE_CHECKING:
    import pyspiel

PETTINGZOO_CLASSIC = ("texas_holdem_v4", "texas_holdem_no_limit_v6", "leduc_holdem_v4", "hanabi_v5")


def mask_of(legal: list[int], size: int, empty: bytes) -> np.ndarray:
    """A fresh int8 mask of the legal actions (the same construction for every environment measured)."""
    mask = bytearray(empty)
    for action in legal:
        mask[action] = 1
    return np.frombuffer(mask, dtype=np.int8)


REPEATS = 3


def timed(run: Callable[[float], int], seconds: float) -> float:
    """Steps per second of `run(deadline)` (which returns the steps it made): the best of a few runs that share
    `seconds`, because other work on the machine can only slow a run down."""
    best = 0.0
    for _ in range(REPEATS):
        start = time.perf_counter()
        steps = run(start + seconds / REPEATS)
        best = max(best, steps / (time.perf_counter() - start))
    return best


# --- ninjatable: the kernel alone and with observations --------------------------------------------------------
def engine_steps(game, players: int, seed: int, observe: bool) -> Callable[[float], int]:
    def run(deadline: float) -> int:
        rng = random.Random(seed)
        pick = rng.random
        size = game.num_actions(players)
        empty = bytes(size)
        steps = games = 0
        state = game.new_state(players, seed=seed)
        while True:
            if state.is_over():
                games += 1
                if time.perf_counter() > deadline:
                    return steps
                state = game.new_state(players, seed=seed + games)
            seat = state.to_move()[0]
            legal = state.legal_actions(seat)
            if observe:
                state.observation(seat)
                mask_of(legal, size, empty)
            state.apply(seat, legal[int(pick() * len(legal))])
            steps += 1

    return run


# --- Gymnasium: the vector environment, a batch of games against random bots -----------------------------------
VECTOR_ENVS = 16


def vector_steps(game, players: int, seed: int) -> Callable[[float], int]:
    def run(deadline: float) -> int:
        envs = vector_env(game.id, players=players, num_envs=VECTOR_ENVS, opponents="random")
        _, infos = envs.reset(seed=seed)
        pick = random.Random(seed).random
        steps = 0
        while time.perf_counter() < deadline:
            actions = []
            for row in infos["action_mask"]:
                legal = np.flatnonzero(row)
                actions.append(int(legal[int(pick() * len(legal))]))
            _, _, _, _, infos = envs.step(actions)
            steps += VECTOR_ENVS
        return steps

    return run


# --- PettingZoo: the same loop for ninjatable's environment and PettingZoo's own -----------------------------
def aec_steps(make: Callable[[], object], seed: int) -> Callable[[float], int]:
    def run(deadline: float) -> int:
        aec = make()
        aec.reset(seed=seed)
        pick = random.Random(seed).random
        steps = 0
        while True:
            for agent in aec.agent_iter():
                observation, _, terminated, truncated, _ = aec.last()
                if terminated or truncated:
                    action = None
                else:
                    legal = np.flatnonzero(observation["action_mask"])
                    action = int(legal[int(pick() * len(legal))])
                    steps += 1
                aec.step(action)
            if time.perf_counter() > deadline:
                return steps
            aec.reset()

    return run


def pettingzoo_classic(name: str) -> Callable[[], object] | None:
    """A constructor for a PettingZoo classic environment, or None when it (or what it needs) is missing."""
    try:
        module = __import__(f"pettingzoo.classic.{name}", fromlist=["env"])
        module.env().reset(seed=0)
    except ImportError:  # missing optional dependency (rlcard, pygame, hanabi) or removed from this version
        return None
    return module.env


# --- OpenSpiel: a game stepped from Python, with or without observation and mask -----------------------------
def openspiel_observer(spiel_game: pyspiel.Game):
    """An observer writing the game's observation tensor, or its information-state tensor when that is all it has."""
    import pyspiel
    from open_spiel.python.observation import make_observation

    recall = not spiel_game.get_type().provides_observation_tensor  # hearts offers only information-state tensors
    return make_observation(spiel_game, pyspiel.IIGObservationType(perfect_recall=recall) if recall else None)


def openspiel_steps(spiel_game: pyspiel.Game, seed: int, observe: bool) -> Callable[[float], int]:
    """Random legal moves through `spiel_game`; with `observe`, each decision also copies the observation of the
    player to act and builds its legal-action mask."""
    observer = openspiel_observer(spiel_game) if observe else None
    size = spiel_game.num_distinct_actions()
    empty = bytes(size)

    def run(deadline: float) -> int:
        pick = random.Random(seed).random
        steps = 0
        while True:
            state = spiel_game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[int(pick() * len(outcomes))][0])
                    continue
                if observe:
                    player = state.current_player()
                    observer.set_from(state, player)
                    observer.tensor.copy()
                    legal = state.legal_actions(player)
                    mask_of(legal, size, empty)
                else:
                    legal = state.legal_actions()
                state.apply_action(legal[int(pick() * len(legal))])
                steps += 1
            if time.perf_counter() > deadline:
                return steps

    return run


def load_openspiel():
    try:
        import pyspiel

        from ninjatable.research import openspiel as bridge
    except ImportError:
        return None, None
    return pyspiel, bridge


# --- the table ------------------------------------------------------------------------------------------------
COLUMNS = ("engine", "engine+obs", "PettingZoo AEC", "Gym vector", "OpenSpiel")


def measure(args: argparse.Namespace) -> list[tuple[str, str, dict[str, float]]]:
    rows = []
    pyspiel, bridge = load_openspiel()
    games = [get_game(g) for g in args.game] if args.game else all_games()
    for game in games:
        counts = game.player_counts if args.all_counts else (game.default_players,)
        for players in counts:
            cells = {
                "engine": timed(engine_steps(game, players, 1, observe=False), args.seconds),
                "engine+obs": timed(engine_steps(game, players, 1, observe=True), args.seconds),
                "PettingZoo AEC": timed(aec_steps(partial(make_env, game.id, players=players), 1), args.seconds),
                "Gym vector": timed(vector_steps(game, players, 1), args.seconds),
            }
            if bridge is not None:
                spiel_game = bridge.load_game(game.id, players=players, rng_seed=1)
                cells["OpenSpiel"] = timed(openspiel_steps(spiel_game, 1, observe=True), args.seconds)
            rows.append((f"ninjatable {game.id}", str(players), cells))
    if pyspiel is not None:
        hearts = pyspiel.load_game("hearts")
        rows.append(("OpenSpiel hearts (C++)", "4", {
            "engine": timed(openspiel_steps(hearts, 1, observe=False), args.seconds),
            "OpenSpiel": timed(openspiel_steps(hearts, 1, observe=True), args.seconds),
        }))
    else:
        rows.append(("OpenSpiel hearts: open_spiel not installed", "", {}))
    for name in PETTINGZOO_CLASSIC:
        make = pettingzoo_classic(name)
        if make is None:
            rows.append((f"PettingZoo {name}: not installed", "", {}))
            continue
        players = len(make().possible_agents)
        rows.append((f"PettingZoo {name}", str(players), {"PettingZoo AEC": timed(aec_steps(make, 1), args.seconds)}))
    return rows


def print_table(rows: list[tuple[str, str, dict[str, float]]]) -> None:
    width = max(len(name) for name, _, _ in rows)
    print("Decisions per second (random legal moves; see the module docstring for what each column does)")
    print(f"{'environment':<{width}}  {'players':>7}" + "".join(f"  {c:>14}" for c in COLUMNS))
    for name, players, cells in rows:
        shown = "".join(f"  {cells[c]:>14,.0f}" if c in cells else f"  {'-':>14}" for c in COLUMNS)
        print(f"{name:<{width}}  {players:>7}{shown}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per figure (default 3)")
    parser.add_argument("--all-counts", action="store_true", help="every player count, not only the default")
    parser.add_argument("--game", nargs="*", help="only these ninjatable games")
    # The peers' constructors warn about their own deprecations and dtypes; the table is what matters here.
    warnings.filterwarnings("ignore", category=DeprecationWarning)
    warnings.filterwarnings("ignore", category=UserWarning)
    print_table(measure(parser.parse_args(argv)))


if __name__ == "__main__":
    main()
