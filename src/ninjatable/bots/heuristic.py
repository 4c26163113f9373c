"""The `heuristic` bot: each game's own strategy bot (`Game.heuristic_bot`), chosen by the game being played."""

from __future__ import annotations

from ..core import BadOptions
from ..core.bot import Bot, SeatInfo


class HeuristicBot(Bot):
    """Delegates to the heuristic bot class the game ships; seeded, so a match replays."""

    name = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self._delegates: dict[str, Bot] = {}

    def act(self, info: SeatInfo) -> int:
        return self.delegate(info.game).act(info)

    def check_game(self, game) -> None:
        """Raise BadOptions now, rather than mid-match, if the game ships no heuristic bot."""
        if game.heuristic_bot is None:
            raise BadOptions(f"{game.id} has no heuristic bot; the bots that play every game are random and ismcts")

    def delegate(self, game) -> Bot:
        """The game's heuristic bot, made on first use with a seed drawn from this bot's generator."""
        bot = self._delegates.get(game.id)
        if bot is None:
            self.check_game(game)
            bot = self._delegates[game.id] = game.heuristic_bot(seed=self.rng.getrandbits(32))
        return bot
