"""A Gymnasium environment: the learner plays one seat, bots play the others.

The bots decide from their own seat's information only (the kernel's bot interface), so they cannot
peek at the learner's cards; their random streams are seeded from the environment's, so a seeded
reset replays the whole episode, bots included.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces

from ..bots import make_bot
from ..core import BadOptions, Bot, Game, IllegalAction, State, render_text
from .common import check_render_mode, check_reward, checked_state, final_rewards, resolve_game, show

ILLEGAL_MODES = ("penalty", "raise")


class NinjaSingleAgentEnv(gymnasium.Env):
    """One seat of a ninjatable game as a Gymnasium environment; bots play every other seat.

    Observation: the seat's float32 observation vector. Action: `Discrete(num_actions)`, with
    `action_masks()` (and `info["action_mask"]`) naming the legal ones. Reward: 0 until the game ends,
    then the seat's final score (`reward="score"`) or its share of the win (`reward="win"`).
    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(
        self,
        game: str | Game,
        seat: int = 0,
        opponents: str | Bot | Sequence[str | Bot] = "heuristic",
        players: int | None = None,
        reward: str = "score",
        render_mode: str | None = None,
        illegal: str = "penalty",
        illegal_penalty: float = -1.0,
        **options: Any,
    ) -> None:
        super().__init__()
        self.game = resolve_game(game)
        probe = checked_state(self.game, players, options)
        self.players = probe.players
        self.options = dict(options)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise BadOptions(f"seat={seat!r} does not exist; seats are 0 to {self.players - 1}")
        self.seat = seat
        self.reward_kind = check_reward(reward)
        self.render_mode = check_render_mode(render_mode)
        if illegal not in ILLEGAL_MODES:
            raise BadOptions(f"illegal={illegal!r} is not offered; use one of: {', '.join(ILLEGAL_MODES)}")
        self.illegal = illegal
        self.illegal_penalty = float(illegal_penalty)
        self._specs = self._opponent_specs(opponents)
        # Spec strings are checked now (BadOptions names the bots there are); reset() builds them afresh.
        self.bots = {seat: spec if isinstance(spec, Bot) else make_bot(spec) for seat, spec in self._specs.items()}

        self.num_actions = self.game.num_actions(self.players)
        shape = tuple(self.game.observation_shape(self.players))
        # The kernel declares no bounds for observations (some hold running scores), hence an unbounded box.
        self.observation_space = spaces.Box(-np.inf, np.inf, shape=shape, dtype=np.float32)
        self.action_space = spaces.Discrete(self.num_actions)
        self._state: State | None = None

    def _opponent_specs(self, opponents: str | Bot | Sequence[str | Bot]) -> dict[int, str | Bot]:
        """The bot spec (or Bot object) of each other seat, from one for all or a list in seat order."""
        others = [s for s in range(self.players) if s != self.seat]
        if isinstance(opponents, (str, Bot)):
            opponents = [opponents] * len(others)
        opponents = list(opponents)
        if len(opponents) != len(others):
            raise BadOptions(
                f"opponents lists {len(opponents)} bots but {len(others)} seats need one (seats {others})"
            )
        objects = [spec for spec in opponents if isinstance(spec, Bot)]
        if len({id(bot) for bot in objects}) != len(objects):
            raise BadOptions("give each seat its own Bot object (or a spec string)")
        return dict(zip(others, opponents))

    def _reseed_bots(self) -> None:
        """Fresh bots from their specs, seeded from the environment's generator, so a seeded reset replays them
        (a bot may keep state between games, such as helpers it built); a Bot object given as it is keeps its
        other state and only has its random stream reseeded."""
        for seat in sorted(self._specs):
            spec, seed = self._specs[seat], int(self.np_random.integers(2**63 - 1))
            if isinstance(spec, Bot):
                spec.rng.seed(seed)
            else:
                self.bots[seat] = make_bot(spec, seed=seed)

    # --- the Gymnasium API -----------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        """Start a game; `reset(seed=s)` deals as `game.new_state(players, seed=s)` and reseeds the bots.

        `options` is accepted for the Gymnasium signature; game options are fixed when the environment is made.
        """
        super().reset(seed=seed)
        game_seed = int(seed) if seed is not None else int(self.np_random.integers(2**63 - 1))
        self._reseed_bots()
        self._state = self.game.new_state(self.players, seed=game_seed, **self.options)
        self._let_bots_play()
        return self._observe(), self._info()

    def step(self, action: int):
        state = self._state
        if state is None:
            raise RuntimeError("call reset() before step()")
        if state.is_over():
            raise RuntimeError("the game is over; call reset() to start another")
        try:
            state.apply(self.seat, action)
        except IllegalAction as refused:
            if self.illegal == "raise":
                raise
            info = self._info()
            info["illegal_action"] = str(refused)
            return self._observe(), self.illegal_penalty, False, False, info
        self._let_bots_play()
        reward = 0.0
        if state.is_over():
            reward = final_rewards(state, self.reward_kind)[self.seat]
        return self._observe(), reward, state.is_over(), False, self._info()

    def action_masks(self) -> np.ndarray:
        """A bool array, True for each legal action of the learner's seat now (all False once the game is over)."""
        mask = np.zeros(self.num_actions, dtype=bool)
        if self._state is not None:
            legal = self._state.legal_actions(self.seat)
            if legal:
                mask[legal] = True
        return mask

    def render(self) -> str | None:
        """The game's text rendering of the learner's view: returned for `ansi`, printed for `human`."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode; make the env with render_mode='ansi'")
            return None
        if self._state is None:
            raise RuntimeError("call reset() before render()")
        return show(render_text(self.game, self._state.view(self.seat)), self.render_mode)

    def close(self) -> None:
        """Nothing to release."""

    # --- helpers -----------------------------------------------------------------------------------
    @property
    def game_state(self) -> State:
        """The kernel state being played (for logging, records and analysis; it holds hidden cards)."""
        if self._state is None:
            raise RuntimeError("call reset() first")
        return self._state

    def _let_bots_play(self) -> None:
        """Bots move until the learner's seat must decide or the game is over."""
        state = self._state
        bots = self.bots
        while True:
            movers = state.to_move()
            if not movers or self.seat in movers:
                return
            seat = movers[0]
            state.apply(seat, bots[seat].choose(state, seat))

    def _observe(self) -> np.ndarray:
        return self._state.observation(self.seat)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks().astype(np.int8)}
