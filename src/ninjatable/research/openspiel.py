"""The OpenSpiel bridge: every registered game as an OpenSpiel Python game (needs the `openspiel` extra).

    from ninjatable.research.openspiel import load_game   # importing the module registers every game
    game = load_game("dragon", players=4)      # or pyspiel.load_game("ninjatable_dragon(players=4)")

How the kernel maps onto OpenSpiel's game type (see docs/research.md for the reasons):
- dynamics SEQUENTIAL: a simultaneous decision is taken one seat at a time, in seat order; a seat's choice
  stays pending (hidden from the others) until every seat of the decision has chosen.
- chance SAMPLED_STOCHASTIC: shuffles and reveals are drawn inside the state from its seed at the moment
  they happen, so there are no chance nodes; each new initial state takes a fresh seed from the game's
  `rng_seed` stream, and a cloned state keeps its seed (its future chance events are fixed).
- information IMPERFECT_INFORMATION, reward model TERMINAL, utility CONSTANT_SUM (`reward="win"`: 1 shared
  among the winners) or GENERAL_SUM (`reward="score"`: the final scores).
- observations: the game's float32 observation as the observation tensor, the seat's view as JSON for
  the observation string. No information-state string or tensor is declared: the kernel's observation
  summarises what a seat knows now and is not guaranteed to have perfect recall.
- `resample_from_infostate` (a Python method, used by OpenSpiel's Python ISMCTS) uses the kernel's
  `sample_world`.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable
from typing import Any

import numpy as np
import pyspiel

from ..core import Game, all_games
from .common import check_reward, final_rewards, resolve_game

PREFIX = "ninjatable_"
# The kernel declares no bound on game length or scores, so the bridge declares generous ones that a game
# can tighten through the parameters of the same names. Every game of the contract suite ends within
# 20,000 moves of random play.
MAX_GAME_LENGTH = 20_000
SCORE_BOUND = 10_000.0
_BRIDGE_PARAMETERS = ("players", "reward", "rng_seed", "max_game_length", "min_utility", "max_utility")


def short_name(game: Game) -> str:
    """The name a game is registered under in OpenSpiel: `ninjatable_<id>`."""
    return PREFIX + game.id


def game_type(game: Game, reward: str = "win") -> pyspiel.GameType:
    """OpenSpiel's description of `game` (the utility kind depends on the reward)."""
    parameters: dict[str, Any] = {
        "players": game.default_players,
        "reward": "win",
        "rng_seed": -1,
        "max_game_length": MAX_GAME_LENGTH,
        "min_utility": -SCORE_BOUND,
        "max_utility": SCORE_BOUND,
    }
    for option in game.options:
        if option.name in parameters:  # pragma: no cover - a game would have to name an option "players"
            raise ValueError(f"{game.id} option {option.name!r} clashes with a bridge parameter")
        parameters[option.name] = option.default
    utility = pyspiel.GameType.Utility.CONSTANT_SUM if reward == "win" else pyspiel.GameType.Utility.GENERAL_SUM
    return pyspiel.GameType(
        short_name=short_name(game),
        long_name=f"ninjatable {game.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(game.player_counts),
        min_num_players=min(game.player_counts),
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters,
    )


class NinjaSpielGame(pyspiel.Game):
    """A ninjatable game seen by OpenSpiel; one subclass per game sets `KERNEL_GAME`."""

    KERNEL_GAME: Game

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        game = self.KERNEL_GAME
        players = game.check_players(params.get("players", game.default_players))
        reward = check_reward(params.get("reward", "win"))
        options = {k: v for k, v in params.items() if k not in _BRIDGE_PARAMETERS}
        game.new_state(players, seed=0, **options)  # checks the options (BadOptions) before OpenSpiel sees them
        if reward == "win":
            low, high, total = 0.0, 1.0, 1.0
        else:
            low = float(params.get("min_utility", -SCORE_BOUND))
            high = float(params.get("max_utility", SCORE_BOUND))
            total = None
        info = pyspiel.GameInfo(
            num_distinct_actions=game.num_actions(players),
            max_chance_outcomes=0,
            num_players=players,
            min_utility=low,
            max_utility=high,
            utility_sum=total,
            max_game_length=int(params.get("max_game_length", MAX_GAME_LENGTH)),
        )
        super().__init__(game_type(game, reward), info, params)
        self.kernel_game = game
        self.players = players
        self.reward_kind = reward
        self.options = options
        seed = int(params.get("rng_seed", -1))
        self._seeds = random.Random(seed if seed >= 0 else None)

    def new_initial_state(self) -> NinjaSpielState:
        return NinjaSpielState(self)

    def next_seed(self) -> int:
        return self._seeds.getrandbits(63)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> NinjaObserver:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        if iig_obs_type is not None and iig_obs_type.perfect_recall:
            raise ValueError("only observations are provided, not perfect-recall information states")
        return NinjaObserver(self.kernel_game, self.players)


class _Kernel:
    """Holds the kernel state; OpenSpiel deep-copies a Python state's attributes on clone, and this makes
    that copy the kernel's own cheap `clone()`. It also keeps the labels of the moves made through the
    bridge, so that `str(state)` does not relabel the whole history at every call."""

    __slots__ = ("moves", "reward", "seed_source", "state")

    def __init__(self, state: Any, reward: str, seed_source: NinjaSpielGame | None, moves: list[str]) -> None:
        self.state = state
        self.reward = reward
        self.seed_source = seed_source
        self.moves = moves

    def get(self) -> Any:
        """The kernel state, started (with the next seed of the game's stream) on first use."""
        if self.state is None:
            game = self.seed_source
            self.state = game.kernel_game.new_state(game.players, seed=game.next_seed(), **game.options)
            self.seed_source = None
        return self.state

    def __deepcopy__(self, memo: dict) -> _Kernel:
        return _Kernel(self.get().clone(), self.reward, None, self.moves.copy())

    def __getstate__(self) -> tuple:
        return (self.get(), self.reward, self.moves)

    def __setstate__(self, data: tuple) -> None:
        self.state, self.reward, self.moves = data
        self.seed_source = None


class NinjaSpielState(pyspiel.State):
    """One game in progress, wrapping a kernel state."""

    def __init__(self, game: NinjaSpielGame) -> None:
        super().__init__(game)
        # OpenSpiel makes a fresh initial state for every clone and then overwrites its attributes, so the
        # kernel state is started lazily: a clone never draws a seed it would throw away.
        self._k = _Kernel(None, game.reward_kind, game, [])

    def _kernel(self) -> Any:
        return self._k.get()

    # --- the OpenSpiel state API ---------------------------------------------------------------------
    def current_player(self) -> int:
        movers = self._kernel().to_move()
        return movers[0] if movers else pyspiel.PlayerId.TERMINAL

    def _legal_actions(self, player: int) -> list[int]:
        return self._kernel().legal_actions(player)

    def _apply_action(self, action: int) -> None:
        state = self._kernel()
        seat = state.to_move()[0]
        state.apply(seat, action)
        self._k.moves.append(f"{seat}:{state.action_label(action)}")

    def _action_to_string(self, player: int, action: int) -> str:
        return self._kernel().action_label(action)

    def is_terminal(self) -> bool:
        return self._kernel().is_over()

    def returns(self) -> list[float]:
        state = self._kernel()
        if not state.is_over():
            return [0.0] * state.players
        return final_rewards(state, self._k.reward)

    def __str__(self) -> str:
        """The record of this state: game, players, options, seed and moves (seat:move), which replay it.

        A world from `resample_from_infostate` shows its own fresh seed and no moves (it was sampled, not
        played). For a picture of the table, `ninjatable.core.render_text(game, state.view(seat))`.
        """
        state = self._kernel()
        moves = " ".join(self._k.moves)
        return f"{state.game.id} players={state.players} options={state.options} seed={state.seed} moves: {moves}"

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> NinjaSpielState:
        """A state `player_id` cannot tell apart from this one (the kernel's `sample_world`)."""
        rng = random.Random(int(probability_sampler() * 2**53))
        world = self.clone()
        world._k.state = self._kernel().sample_world(player_id, rng)
        world._k.moves = []
        return world


class NinjaObserver:
    """OpenSpiel's Python observer interface over the kernel's observation and view."""

    def __init__(self, game: Game, players: int) -> None:
        self.tensor = np.zeros(game.observation_shape(players), dtype=np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: NinjaSpielState, player: int) -> None:
        state._kernel().observation(player, out=self.tensor)

    def string_from(self, state: NinjaSpielState, player: int) -> str:
        return json.dumps(state._kernel().view(player), sort_keys=True)


_REGISTERED: dict[str, type] = {}


def register_games(games: Iterable[Game] | None = None) -> list[str]:
    """Register games (every registered ninjatable game by default) with OpenSpiel, once each.

    Returns the short names registered so far.
    """
    for game in all_games() if games is None else games:
        name = short_name(game)
        if name not in _REGISTERED:
            cls = type(f"NinjaSpielGame_{game.id}", (NinjaSpielGame,), {"KERNEL_GAME": game})
            pyspiel.register_game(game_type(game), cls)
            _REGISTERED[name] = cls
    return sorted(_REGISTERED)


def load_game(game: str | Game, **params: Any) -> pyspiel.Game:
    """`pyspiel.load_game` for a ninjatable game: `load_game("dragon", players=4, reward="score")`."""
    game = resolve_game(game)
    register_games([game])
    return pyspiel.load_game(short_name(game), params)


register_games()  # like OpenSpiel's own Python games: importing the module registers them
