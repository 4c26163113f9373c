"""A PettingZoo AEC environment over any registered game, straight on the kernel contract.

Turns: the agent to act is the first seat of `state.to_move()`. A simultaneous decision (several seats
to move) is taken one seat at a time; each seat submits on its own and its choice stays pending inside
the state until the last seat has chosen, so nothing an agent receives (observation, mask, reward,
info) depends on a choice still pending.

Speed: the environment is the only layer (no PettingZoo wrappers, which copy and check on every step).
Each observation is written once into a fresh float32 array by the game itself; an array handed to the
caller is never written again, so it can be stored in a replay buffer as it is.
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..core import Game, IllegalAction, State, render_text
from ..core.game import FLOAT32
from .common import agent_name, check_render_mode, check_reward, checked_state, final_rewards, resolve_game, show


class NinjaAECEnv(AECEnv):
    """One ninjatable game as a PettingZoo AEC environment (agents `player_0` ... `player_{n-1}`).

    Observations are `{"observation": float32 array, "action_mask": int8 array}`; rewards come only at
    the end of the game (`reward="score"`: final scores; `reward="win"`: 1 shared among the winners).
    An illegal action raises `IllegalAction` and changes nothing.
    """

    def __init__(
        self,
        game: str | Game,
        players: int | None = None,
        reward: str = "score",
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        self.game = resolve_game(game)
        probe = checked_state(self.game, players, options)
        self.players = probe.players
        self.options = dict(options)
        self.reward_kind = check_reward(reward)
        self.render_mode = check_render_mode(render_mode)
        self.metadata = {"name": f"ninjatable_{self.game.id}_v0", "render_modes": ["ansi", "human"], "render_fps": 1,
                         "is_parallelizable": False}

        self.num_actions = self.game.num_actions(self.players)
        self._no_actions = bytes(self.num_actions)
        self._shape = shape = tuple(self.game.observation_shape(self.players))
        self.possible_agents = [agent_name(s) for s in range(self.players)]
        self._seat_of = {name: s for s, name in enumerate(self.possible_agents)}
        # The kernel declares no bounds for observations (some hold running scores), hence unbounded boxes.
        self.observation_spaces = {
            name: spaces.Dict({
                "observation": spaces.Box(-np.inf, np.inf, shape=shape, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(self.num_actions,), dtype=np.int8),
            })
            for name in self.possible_agents
        }
        self.action_spaces = {name: spaces.Discrete(self.num_actions) for name in self.possible_agents}

        self._seeder = random.Random()
        self._state: State | None = None
        self._offered: dict[int, tuple[int, list[int]]] = {}  # per seat: (moves played, legal actions) last observed
        self.agents: list[str] = []
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection = None

    # --- spaces ----------------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # --- the AEC loop ----------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game. `reset(seed=s)` deals exactly as `game.new_state(players, seed=s)`.

        Later resets without a seed draw their seeds from `s`, so a seeded run of episodes replays.
        `options` is accepted for the PettingZoo signature; game options are fixed when the environment
        is made, because the spaces depend on them.
        """
        if seed is not None:
            seed = int(seed)
            self._seeder = random.Random(seed)
            game_seed = seed
        else:
            game_seed = self._seeder.getrandbits(63)
        self._state = self.game.new_state(self.players, seed=game_seed, **self.options)
        self.agents = self.possible_agents.copy()
        self.rewards = {name: 0.0 for name in self.agents}
        self._cumulative_rewards = {name: 0.0 for name in self.agents}
        self.terminations = {name: False for name in self.agents}
        self.truncations = {name: False for name in self.agents}
        self.infos = {name: {} for name in self.agents}
        self._offered = {}
        self._skip_agent_selection = None
        if self._state.is_over():  # a game cannot end before a move, but stay correct if one did
            self._finish()
        else:
            self.agent_selection = self.possible_agents[self._state.to_move()[0]]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The agent's observation and action mask, in new arrays that this environment never touches again."""
        state = self._state
        if state is None:
            raise RuntimeError("call reset() before observing")
        seat = self._seat_of[agent]
        # The seat comes from the agent's name, so the kernel's checks of `observation` and `legal_actions`
        # (a plain int in range) are skipped: this runs at every step.
        observation = np.zeros(self._shape, FLOAT32)
        state.observe_into(seat, observation)
        # Setting bytes of a fresh bytearray and viewing it as int8 costs half of numpy's fancy indexing.
        mask = bytearray(self._no_actions)
        legal = state.legal_for(seat)
        for action in legal:
            mask[action] = 1
        self._offered[seat] = (len(state.history), legal)  # `step` checks the action against it
        return {"observation": observation, "action_mask": np.frombuffer(mask, dtype=np.int8)}

    def step(self, action: int | None) -> None:
        """Play `action` for the selected agent; a finished agent steps with None to leave."""
        agent = self.agent_selection
        if self._state is None:
            raise RuntimeError("call reset() before step()")
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self._state
        seat = self._seat_of[agent]
        if action is None:
            legal = ", ".join(state.action_label(a) for a in state.legal_actions(seat))
            raise IllegalAction(f"{agent} must choose an action (None is only for finished agents); legal: {legal}")
        # Raises IllegalAction, changing nothing, if the move is not allowed.
        offered = self._offered.get(seat)
        if offered is None:
            state.apply(seat, action)
        else:
            state.apply_offered(seat, action, offered)
        self._cumulative_rewards[agent] = 0.0
        movers = state.to_move()  # () once the game is over (the kernel contract)
        if movers:
            self.agent_selection = self.possible_agents[movers[0]]
        else:
            self._finish()

    def last(self, observe: bool = True) -> tuple[dict[str, np.ndarray] | None, float, bool, bool, dict[str, Any]]:
        """The selected agent's observation (with `observe`), cumulative reward, termination, truncation and info."""
        agent = self.agent_selection
        if agent is None:
            raise RuntimeError("call reset() before last()")
        return (self.observe(agent) if observe else None, self._cumulative_rewards[agent], self.terminations[agent],
                self.truncations[agent], self.infos[agent])

    def _finish(self) -> None:
        """Hand out the final rewards and end the game for every agent."""
        for name, value in zip(self.possible_agents, final_rewards(self._state, self.reward_kind)):
            self.rewards[name] = value
            self.terminations[name] = True
        self._accumulate_rewards()
        self.agent_selection = self.agents[0]

    # --- extras ------------------------------------------------------------------------------------
    @property
    def game_state(self) -> State:
        """The kernel state being played (for logging, records and analysis; it holds hidden cards)."""
        if self._state is None:
            raise RuntimeError("call reset() first")
        return self._state

    def render(self) -> str | None:
        """The game's text rendering of what the agent to act sees (the public view once over): returned for
        `ansi`, printed for `human`."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode; make the env with render_mode='ansi'")
            return None
        state = self.game_state
        seat = None if state.is_over() else self._seat_of[self.agent_selection]
        return show(render_text(self.game, state.view(seat)), self.render_mode)

    def close(self) -> None:
        """Nothing to release; present so render() has its customary partner."""

    def __str__(self) -> str:
        return self.metadata["name"]
