"""A heuristic gakko bot: a balanced split, then greedy turns looked at two hand actions deep.

Strategy (also in docs/rules/gakko.md, "Heuristic bot"):
- Split: keep each rank's cards together (a bigger set beats more of the table) and deal the rank groups,
  biggest first, to whichever hand holds fewer cards, so both hands empty at a similar pace and the worse
  hand, the one that scores, stays small.
- Turn: try every pair of hand actions (the first, then the best second, with the lock re-evaluated in
  between) in a world sampled from what the seat knows, and keep the first action of the best pair. A
  position is judged by going out, then the penalty of the worse hand, then all cards held, then cards
  whose rank lies inside the table's span (unplayable until the table is cleaned).
"""

from __future__ import annotations

from ...core import Bot, SeatInfo, win_chances
from . import actions as A
from . import cards as C
from .cards import EARTH, HEAVEN, RANKS, SPLIT, STRIDE

WON = 10_000.0
# How far apart (in points) two seats' expected totals must be for the leader to be e times as likely to
# win: the current round's outcome is uncertain, and each round still to come adds more.
SPREAD_THIS_ROUND = 3.0
SPREAD_PER_ROUND_LEFT = 5.0


class GakkoHeuristic(Bot):
    name = "heuristic"

    def act(self, info: SeatInfo) -> int:
        legal = info.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if legal[0] < A.HAND_BASE:
            return self._split_step(info.view()["seats"][info.seat], legal)
        return self._best_turn_action(info, legal)

    @staticmethod
    def estimate(state) -> list[float]:
        """Each seat's chance to win: its total so far plus what its hands are likely to score this round."""
        values = [total + round_outlook(state, seat) for seat, total in enumerate(state.scores())]
        spread = SPREAD_THIS_ROUND + SPREAD_PER_ROUND_LEFT * (C.ROUNDS - state.round)
        return win_chances(values, spread)

    # --- the split -----------------------------------------------------------------------------------
    def _split_step(self, me: dict, legal: list[int]) -> int:
        """The next step towards the target split (deterministic, so each call continues the same plan)."""
        target = earth_target(me["heaven"] + me["earth"])
        have = [0] * STRIDE
        for r in me["earth"]:
            have[r] += 1
        for r in range(1, RANKS + 1):
            if have[r] < target[r]:
                return A.SPLIT_TO_EARTH + r - 1
            if have[r] > target[r]:
                return A.SPLIT_TO_HEAVEN + r - 1
        return A.DONE

    # --- a turn --------------------------------------------------------------------------------------
    def _best_turn_action(self, info: SeatInfo, legal: list[int]) -> int:
        seat = info.seat
        world = info.sample_world(self.rng)
        best, best_value = legal[0], -float("inf")
        order = list(legal)
        self.rng.shuffle(order)  # ties go to a random action
        for action in order:
            after = world.clone()
            after.advance(seat, action)  # legal: taken from the legal actions
            value = self._value_after(after, world, seat)
            if value > best_value:
                best, best_value = action, value
        return best

    def _value_after(self, after, before, seat: int) -> float:
        """Value of `after` for `seat`; while the seat still has a hand to act with, its best follow-up."""
        if after.round != before.round or after.is_over():
            return WON if after.sheet[-1].points[seat] > 0 else -WON
        if after.current == seat:
            values = []
            for action in after.legal_actions(seat):
                nxt = after.clone()
                nxt.advance(seat, action)
                if nxt.round != before.round or nxt.is_over():
                    return WON
                values.append(position_value(nxt, seat))
            return max(values)
        return position_value(after, seat)


def earth_target(hand: list[int]) -> list[int]:
    """How many cards of each rank go to Earth: whole rank groups, biggest first, to the smaller hand."""
    counts = [0] * STRIDE
    for r in hand:
        counts[r] += 1
    # Biggest groups first; among equals, extreme ranks first, so each hand gets some easy-to-play cards.
    groups = sorted((r for r in range(1, RANKS + 1) if counts[r]), key=lambda r: (-counts[r], -abs(r - 7), r))
    sizes = [0, 0]
    target = [0] * STRIDE
    for r in groups:
        hand_ = EARTH if sizes[EARTH] < sizes[HEAVEN] else HEAVEN
        sizes[hand_] += counts[r]
        if hand_ == EARTH:
            target[r] = counts[r]
    return target


def position_value(state, seat: int) -> float:
    """Higher is better for `seat`: small worse-hand penalty, few cards, few cards stuck inside the table."""
    base = seat * STRIDE
    heaven = C.hand_penalty(state.heaven, base)
    earth = C.hand_penalty(state.earth, base)
    cards = state.heaven_n[seat] + state.earth_n[seat]
    stuck = 0
    if state.tier_rank:
        low, high = state.tier_rank[0], state.tier_rank[-1]
        for r in range(low, high + 1):
            stuck += state.heaven[base + r] + state.earth[base + r]
    return -4.0 * max(heaven, earth) - 1.0 * (heaven + earth) - 1.0 * cards - 0.5 * stuck


def round_outlook(state, seat: int) -> float:
    """The points a seat's hands look set to score this round (position_value in points)."""
    if state.phase == SPLIT:
        # Mid-split, judge the whole hand as the balanced split would lay it out.
        base = seat * STRIDE
        counts = [state.heaven[base + r] + state.earth[base + r] for r in range(STRIDE)]
        target = earth_target(C.ranks_of(counts))
        heaven = C.hand_penalty([counts[r] - target[r] for r in range(STRIDE)])
        earth = C.hand_penalty(target)
        return -max(heaven, earth) - 0.25 * (heaven + earth) - 0.25 * sum(counts)
    return position_value(state, seat) / 4.0
