"""Placeholder replaced below."""
from ...core import Bot, SeatInfo


class Heuristic(Bot):
    name = "heuristic"

    def act(self, info: SeatInfo) -> int:
        return self.rng.choice(info.legal_actions())
