"""The games the research tests run on: every registered game and player count, each non-default option
value once, and the unregistered test game Blind Bids (which has a simultaneous decision)."""

from __future__ import annotations

from typing import Any

from blindbids import GAME as BLIND_BIDS

from ninjatable.core import Game, all_games


def configurations(with_options: bool = True) -> list[tuple[Game, int, dict[str, Any]]]:
    configs: list[tuple[Game, int, dict[str, Any]]] = []
    for game in [*all_games(), BLIND_BIDS]:
        for players in game.player_counts:
            configs.append((game, players, {}))
        if with_options:
            for option in game.options:
                for value in option.allowed:
                    if value != option.default:
                        configs.append((game, game.default_players, {option.name: value}))
    return configs


def config_id(config: tuple[Game, int, dict[str, Any]]) -> str:
    game, players, options = config
    return f"{game.id}-{players}p" + "".join(f"-{k}={v}" for k, v in options.items())
