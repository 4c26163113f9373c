"""Research environments: PettingZoo (multi-agent) and Gymnasium (one seat against bots) for every game.

    from ninjatable.research import env, single_agent_env
    aec = env("dragon", players=4)                              # PettingZoo AEC environment
    gym_env = single_agent_env("dragon", opponents="random")    # Gymnasium environment
    gym_env = gymnasium.make("ninjatable/dragon-v0", opponents="random")   # the same, by Gymnasium id
    envs = vector_env("dragon", players=4, num_envs=64)          # Gymnasium vector API, 64 games at once

The OpenSpiel bridge lives in `ninjatable.research.openspiel` (needs the `openspiel` extra).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .common import REWARDS, final_rewards

if TYPE_CHECKING:
    from ..core import Game
    from .aec import NinjaAECEnv
    from .single import NinjaSingleAgentEnv
    from .vector import NinjaVectorEnv

__all__ = ["REWARDS", "env", "final_rewards", "register_gymnasium_envs", "single_agent_env", "vector_env"]

_MISSING = "the research environments need PettingZoo and Gymnasium: pip install 'ninjatable[research]'"


def env(
    game_id: str | Game,
    players: int | None = None,
    reward: str = "score",
    render_mode: str | None = None,
    **options: Any,
) -> NinjaAECEnv:
    """A PettingZoo AEC environment for `game_id` (players default to the game's usual count).

    `reward="score"` gives each agent its final score at the end, `reward="win"` gives 1 shared among the
    winners; `render_mode="ansi"` makes `render()` return the game's text view; `options` are the game's
    variants (see `ninjatable rules GAME`).
    """
    try:
        from .aec import NinjaAECEnv
    except ImportError as error:  # pragma: no cover - depends on the installation
        raise ImportError(_MISSING) from error
    return NinjaAECEnv(game_id, players=players, reward=reward, render_mode=render_mode, **options)


def single_agent_env(
    game_id: str | Game,
    seat: int = 0,
    opponents: Any = "heuristic",
    players: int | None = None,
    reward: str = "score",
    render_mode: str | None = None,
    illegal: str = "penalty",
    illegal_penalty: float = -1.0,
    **options: Any,
) -> NinjaSingleAgentEnv:
    """A Gymnasium environment where the learner plays `seat` and bots play every other seat.

    `opponents` is one bot spec for all other seats (`"random"`, `"heuristic"`, `"ismcts:iterations=200"`),
    or a list with one spec or `Bot` per other seat, in seat order. `action_masks()` gives the legal
    actions for maskable algorithms. An illegal action is refused: with `illegal="penalty"` the step
    returns `illegal_penalty` and the unchanged position (the game goes on); with `illegal="raise"` it
    raises `IllegalAction`.
    """
    try:
        from .single import NinjaSingleAgentEnv
    except ImportError as error:  # pragma: no cover - depends on the installation
        raise ImportError(_MISSING) from error
    return NinjaSingleAgentEnv(
        game_id,
        seat=seat,
        opponents=opponents,
        players=players,
        reward=reward,
        render_mode=render_mode,
        illegal=illegal,
        illegal_penalty=illegal_penalty,
        **options,
    )


def vector_env(game_id: str | Game, players: int | None = None, num_envs: int = 8, **kwargs: Any) -> NinjaVectorEnv:
    """`num_envs` single-agent environments behind Gymnasium's vector API (`gymnasium.vector.VectorEnv`).

    `kwargs` are those of `single_agent_env` (seat, opponents, reward, illegal, the game's options). Observations
    and action masks are written into arrays made once: `step` returns the same arrays each time (copy to keep).
    A finished game restarts in the same step, its last observation in `infos["final_obs"]`.
    """
    try:
        from .vector import NinjaVectorEnv
    except ImportError as error:  # pragma: no cover - depends on the installation
        raise ImportError(_MISSING) from error
    return NinjaVectorEnv(game_id, num_envs, players=players, **kwargs)


def register_gymnasium_envs() -> list[str]:
    """Register each game's single-agent environment with Gymnasium as `ninjatable/<id>-v0` (done on import).

    `gymnasium.make("ninjatable/dragon-v0", seat=1, opponents="random")` then passes its keyword arguments
    to `single_agent_env`.
    """
    import gymnasium

    from ..core import all_games

    ids = []
    for game in all_games():
        env_id = f"ninjatable/{game.id}-v0"
        if env_id not in gymnasium.registry:
            gymnasium.register(
                id=env_id, entry_point="ninjatable.research.single:NinjaSingleAgentEnv", kwargs={"game": game.id}
            )
        ids.append(env_id)
    return ids


try:
    register_gymnasium_envs()
except ImportError:  # pragma: no cover - gymnasium missing: env() and single_agent_env() explain what to install
    pass
