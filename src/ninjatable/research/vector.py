"""A batch of single-agent environments behind Gymnasium's vector API, for training on many games at once.

    from ninjatable.research import vector_env
    envs = vector_env("dragon", players=4, num_envs=64, opponents="random")
    obs, infos = envs.reset(seed=0)                  # obs: (64, observation size) float32
    obs, rewards, terminated, truncated, infos = envs.step(actions)   # infos["action_mask"]: (64, actions) bool

Each sub-environment is a `NinjaSingleAgentEnv` (the learner's seat against bots), stepped in turn in this process.
Every observation and mask is written straight into two arrays made once, by the game itself: `step` returns
those same arrays, so copy them to keep them past the next call. A finished game is started again in the same
step (Gymnasium's same-step autoreset): its last observation is in `infos["final_obs"]` (rows marked by
`infos["_final_obs"]`) and the returned row already shows the new game.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ..core import BadOptions, Game, IllegalAction
from .common import final_rewards
from .single import NinjaSingleAgentEnv


class NinjaVectorEnv(VectorEnv):
    """`num_envs` copies of one game's single-agent environment (same seat, opponents, reward and options)."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, game: str | Game, num_envs: int, **kwargs: Any) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise BadOptions(f"num_envs must be a whole number of at least 1, not {num_envs!r}")
        if kwargs.get("render_mode") is not None:
            raise BadOptions("a vector environment does not render; render one single_agent_env instead")
        self.envs = [NinjaSingleAgentEnv(game, **kwargs) for _ in range(num_envs)]
        first = self.envs[0]
        self.num_envs = num_envs
        self.game, self.players, self.seat = first.game, first.players, first.seat
        self.single_observation_space = first.observation_space
        self.single_action_space = first.action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._obs = np.zeros((num_envs, *self.single_observation_space.shape), dtype=np.float32)
        self._mask = np.zeros((num_envs, first.num_actions), dtype=bool)
        self._started = False

    def reset(self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None):
        """Start a game in every sub-environment; `seed=s` seeds them `s, s + 1, ...` (or give one seed each)."""
        if seed is None or isinstance(seed, int):
            seeds = [None if seed is None else seed + i for i in range(self.num_envs)]
        else:
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise BadOptions(f"{len(seeds)} seeds given for {self.num_envs} environments")
        for i, (env, s) in enumerate(zip(self.envs, seeds)):
            env.reset(seed=s)
            self._write(i, env)
        self._started = True
        return self._obs, {"action_mask": self._mask}

    def step(self, actions):
        """Play one action in every sub-environment (bots answer), restarting finished games at once."""
        if not self._started:
            raise RuntimeError("call reset() before step()")
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,):
            raise BadOptions(f"step() needs one action per environment, shape ({self.num_envs},), not {actions.shape}")
        rewards = np.zeros(self.num_envs, dtype=np.float64)
        terminated = np.zeros(self.num_envs, dtype=bool)
        infos: dict[str, Any] = {}
        seat = self.seat
        for i, env in enumerate(self.envs):
            state = env._state
            try:
                state.apply(seat, int(actions[i]))
            except IllegalAction as refused:
                if env.illegal == "raise":
                    raise
                rewards[i] = env.illegal_penalty
                infos.setdefault("illegal_action", np.full(self.num_envs, None, dtype=object))[i] = str(refused)
                continue  # the position is unchanged: its row stays as it was
            env._let_bots_play()
            if state.is_over():
                rewards[i] = final_rewards(state, env.reward_kind)[seat]
                terminated[i] = True
                final = infos.setdefault("final_obs", np.zeros_like(self._obs))
                state.observation(seat, out=final[i])
                env.reset()  # seeded from the environment's own generator: a seeded run replays
            self._write(i, env)
        if "final_obs" in infos:
            infos["_final_obs"] = terminated.copy()
        infos["action_mask"] = self._mask
        return self._obs, rewards, terminated, np.zeros(self.num_envs, dtype=bool), infos

    def action_masks(self) -> np.ndarray:
        """The legal actions of every sub-environment's learner now (the array `step` fills), shape (num_envs, n)."""
        return self._mask

    def _write(self, i: int, env: NinjaSingleAgentEnv) -> None:
        """The observation and mask of sub-environment `i`, written into row i of the shared arrays."""
        state = env._state
        state.observation(self.seat, out=self._obs[i])
        row = self._mask[i]
        row[:] = False
        row[state.legal_actions(self.seat)] = True

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release."""

    def __repr__(self) -> str:
        return f"NinjaVectorEnv({self.game.id}, players={self.players}, num_envs={self.num_envs})"

