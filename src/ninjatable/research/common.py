"""What the research adapters share: finding the game, naming agents, and the end-of-game reward."""

from __future__ import annotations

from typing import Any

from ..core import BadOptions, Game, State, get_game

REWARDS = ("score", "win")
RENDER_MODES = (None, "ansi", "human")


def resolve_game(game: str | Game) -> Game:
    """A registered game by id, or a Game object used as it is (handy for games under development)."""
    return game if isinstance(game, Game) else get_game(game)


def agent_name(seat: int) -> str:
    """PettingZoo's customary agent name for a seat: player_0, player_1, ..."""
    return f"player_{seat}"


def check_reward(reward: str) -> str:
    if reward not in REWARDS:
        raise BadOptions(f"reward={reward!r} is not offered; use one of: {', '.join(REWARDS)}")
    return reward


def check_render_mode(render_mode: str | None) -> str | None:
    if render_mode not in RENDER_MODES:
        raise BadOptions(f"render_mode={render_mode!r} is not offered; use None, 'ansi' (render() returns the text) "
                         "or 'human' (render() prints it)")
    return render_mode


def checked_state(game: Game, players: int | None, options: dict[str, Any]) -> State:
    """A throwaway state: checks the player count and options once, before any space is built."""
    return game.new_state(players, seed=0, **options)


def final_rewards(state: State, reward: str) -> list[float]:
    """Each seat's reward for a finished game.

    `score`: the seat's final score. `win`: 1 shared equally among the winners (1 each for a sole winner,
    1/k each when k seats tie for the best total), 0 for everyone else, so the rewards always sum to 1.
    """
    if reward == "score":
        return [float(s) for s in state.scores()]
    winners = state.winners()
    share = 1.0 / len(winners) if winners else 0.0
    rewards = [0.0] * state.players
    for seat in winners:
        rewards[seat] = share
    return rewards


def show(text: str, render_mode: str) -> str | None:
    """A rendering for `render_mode`: the text itself for `ansi`; printed, and None, for `human`."""
    if render_mode == "human":
        print(text)
        return None
    return text
