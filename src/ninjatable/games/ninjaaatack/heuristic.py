"""A heuristic Ninjaaa'Tack player: collect one family with your teammate, say which in plain sight, and
tap the gong when sampled worlds say the call is probably right.

Table-talk convention (shared by every heuristic seat): after a pass, a seat holding 2 or more cards of the
family it collects makes the gesture whose index is that family (nod = Fox, wink = Crane, ...); otherwise it
stays silent. Teammates read it to agree on a family; opponents read it too, to attack.
"""

from __future__ import annotations

from typing import Any

from ...core import Bot, SeatInfo, win_chances
from .cards import CLAN_SIZE_LONE_WOLF, CLAN_SIZE_PAIR, FAMILIES, SIGNALS

# How much a teammate's gesture for a family adds to its value when choosing what to keep.
TEAMMATE_SIGNAL_BONUS = 2.5
# How much an opponent's gesture on our left makes us keep that family rather than feed it to them.
FEED_ENEMY_PENALTY = 1.5
# Weight of a sampled world in which a seat's gesture would have been a bluff (random players bluff a lot).
BLUFF_WEIGHT = 0.25
# Worlds sampled per gong decision when a search plays this bot in its rollouts.
ROLLOUT_SAMPLES = 6
# The static estimate: a Penalty for the round being played is worth this much of a point (a wrong call at
# 0 points is not free), and a seat this many points ahead is e times as likely to win.
PENALTY_COST = 0.4
POINT_SPREAD = 1.0


class Heuristic(Bot):
    """Collect, signal, and call the gong on sampled-world odds."""

    name = "heuristic"

    def __init__(
        self, seed: int | None = None, samples: int = 16, dare: float = 0.35, careful: float = 0.5, **params: Any
    ) -> None:
        super().__init__(seed, samples=samples, dare=dare, careful=careful, **params)
        self.samples = samples
        self.dare = dare
        self.careful = careful

    def act(self, info: SeatInfo) -> int:
        view = info.view()
        legal = info.legal_actions()
        seat = info.seat
        n = info.players
        hand = [view["hand"].get(name, 0) for name in FAMILIES[:n]]
        team = next(t["seats"] for t in view["teams"] if seat in t["seats"])
        need = CLAN_SIZE_LONE_WOLF if len(team) == 1 else CLAN_SIZE_PAIR
        ninjaaa = info.game.num_actions(n) - n - 1
        # A clan in my own hand is a certain point, Penalty or not.
        if max(hand) >= need:
            return ninjaaa
        call = self._best_call(info, view, legal, ninjaaa)
        if call is not None:
            return call
        signals = _latest_signals(view, n)
        if view["step"] == "pass":
            return self._choose_pass(seat, n, hand, team, signals, legal)
        target = self._target(seat, n, hand, team, signals)
        return n + target if hand[target] >= 2 else n + len(SIGNALS)  # the family's gesture, else silence

    @classmethod
    def for_rollouts(cls, seed: int) -> Heuristic:
        """In a search's rollouts: fewer sampled worlds per gong decision, since rollouts are many."""
        return cls(seed=seed, samples=ROLLOUT_SAMPLES)

    @staticmethod
    def estimate(state) -> list[float]:
        """Each seat's chance to win from the points so far, a Penalty this round counting against it."""
        values = [p - (PENALTY_COST if s in state.penalised else 0.0) for s, p in enumerate(state.points)]
        return win_chances(values, POINT_SPREAD)

    @staticmethod
    def world_weight(view: dict[str, Any], world, seat: int) -> float:
        """How well a world fits the gestures under the convention: each gesture it makes a bluff counts less."""
        weight = 1.0
        for s, family in _latest_signals(view, world.players).items():
            if s != seat and world.hand_counts(s)[family] < 2:
                weight *= BLUFF_WEIGHT
        return weight

    # --- the gong ----------------------------------------------------------------------------------------------
    def _best_call(self, info: SeatInfo, view: dict[str, Any], legal: list[int], ninjaaa: int) -> int | None:
        """The call with the best odds in sampled worlds, if they clear the threshold."""
        seat = info.seat
        attacks = [a for a in legal if a > ninjaaa]
        first_attack = ninjaaa + 1
        wins = {a: 0.0 for a in [ninjaaa, *attacks]}
        total = 0.0
        for _ in range(self.samples):
            world = info.sample_world(self.rng)
            weight = self.world_weight(view, world, seat)
            total += weight
            if world.ninjaaa_points(seat):
                wins[ninjaaa] += weight
            for a in attacks:
                if world.clans(world.team_of[a - first_attack]):
                    wins[a] += weight
        best = max(wins, key=wins.get)
        odds = wins[best] / total
        # A wrong call costs a point; with no point to lose it costs only a Penalty round, so dare more.
        threshold = self.careful if view["scores"][seat] >= 1 else self.dare
        return best if odds >= threshold else None

    # --- collecting ----------------------------------------------------------------------------------------------
    def _values(self, seat: int, n: int, hand: list[int], team: list[int], signals: dict[int, int]) -> list[float]:
        """How much each family is worth keeping: cards held, plus the teammate's declared family."""
        values = [float(c) for c in hand]
        for mate in team:
            if mate != seat and mate in signals:
                values[signals[mate]] += TEAMMATE_SIGNAL_BONUS
        return values

    def _target(self, seat: int, n: int, hand: list[int], team: list[int], signals: dict[int, int]) -> int:
        values = self._values(seat, n, hand, team, signals)
        held = [f for f in range(n) if hand[f]]
        return max(held, key=lambda f: (values[f], -f))

    def _choose_pass(
        self, seat: int, n: int, hand: list[int], team: list[int], signals: dict[int, int], legal: list[int]
    ) -> int:
        """Pass the card least worth keeping, never the target, and rather not what the left neighbour wants."""
        values = self._values(seat, n, hand, team, signals)
        target = self._target(seat, n, hand, team, signals)
        left = (seat + 1) % n
        if left not in team and left in signals:
            values[signals[left]] += FEED_ENEMY_PENALTY
        choices = [f for f in legal if f < n and f != target] or [target]
        low = min(values[f] for f in choices)
        return self.rng.choice([f for f in choices if values[f] == low])


def _latest_signals(view: dict[str, Any], n: int) -> dict[int, int]:
    """Each seat's most recent gesture this round, as the family it names under the convention."""
    latest: dict[int, int] = {}
    for entry in view["signals"]:
        index = SIGNALS.index(entry["signal"])
        if index < n:
            latest[entry["seat"]] = index
        else:
            latest.pop(entry["seat"], None)
    return latest
