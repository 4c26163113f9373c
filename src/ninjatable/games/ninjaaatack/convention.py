"""The table-talk convention of the heuristic players, as pure functions of a hand and the gestures seen.

After a pass, a player holding 2 or more cards of the family it collects makes the gesture whose index is that
family (nod = Fox, wink = Crane, ...); otherwise it stays silent. It collects the family it values most (cards
held, plus a bonus for the family its teammate last gestured) and passes the card it values least, rather not
the family its left-hand opponent gestured. The heuristic bot plays by these rules, and reads the table by them.
"""

from __future__ import annotations

from typing import Any

from .cards import FAMILIES, SIGNALS

# How much a teammate's gesture for a family adds to its value when choosing what to keep.
TEAMMATE_SIGNAL_BONUS = 2.5
# How much an opponent's gesture on our left makes us keep that family rather than feed it to them.
FEED_ENEMY_PENALTY = 1.5
SILENT = -1


def latest_signals(view: dict[str, Any], n: int) -> dict[int, int]:
    """Each seat's most recent gesture this round, as the family it names under the convention."""
    latest: dict[int, int] = {}
    for entry in view["signals"]:
        index = SIGNALS.index(entry["signal"])
        if index < n:
            latest[entry["seat"]] = index
        else:
            latest.pop(entry["seat"], None)
    return latest


def family_values(hand: list[int], seat: int, team: tuple[int, ...] | list[int], latest: dict[int, int]) -> list[float]:
    """How much each family is worth keeping: cards held, plus the teammate's declared family."""
    values = [float(c) for c in hand]
    for mate in team:
        if mate != seat and mate in latest:
            values[latest[mate]] += TEAMMATE_SIGNAL_BONUS
    return values


def target_family(hand: list[int], seat: int, team: tuple[int, ...] | list[int], latest: dict[int, int]) -> int:
    """The family the player collects: the most valuable one it holds (the first on a tie)."""
    values = family_values(hand, seat, team, latest)
    return max((f for f, c in enumerate(hand) if c), key=lambda f: (values[f], -f))


def convention_signal(hand: list[int], seat: int, team: tuple[int, ...] | list[int], latest: dict[int, int]) -> int:
    """The family the player gestures after a pass, or SILENT."""
    target = target_family(hand, seat, team, latest)
    return target if hand[target] >= 2 else SILENT


def choose_pass_among(
    hand: list[int], seat: int, team: tuple[int, ...] | list[int], left: int, latest: dict[int, int]
) -> list[int]:
    """The families the player would pass (equally good): the least valuable, never the target if avoidable."""
    values = family_values(hand, seat, team, latest)
    target = target_family(hand, seat, team, latest)
    if left not in team and left in latest:
        values[latest[left]] += FEED_ENEMY_PENALTY
    choices = [f for f, c in enumerate(hand) if c and f != target] or [target]
    low = min(values[f] for f in choices)
    return [f for f in choices if values[f] == low]


# --- reading a view ---------------------------------------------------------------------------------------------
def own_hand(view: dict[str, Any], n: int) -> list[int]:
    """The looking seat's hand as a count per family."""
    return [view["hand"].get(name, 0) for name in FAMILIES[:n]]


def own_team(view: dict[str, Any], seat: int) -> tuple[int, ...]:
    """The seats of `seat`'s team this round."""
    return next(tuple(t["seats"]) for t in view["teams"] if seat in t["seats"])


def gesture_action(family: int, n: int) -> int:
    """The action id of the convention's gesture for `family`, or of silence."""
    return n + len(SIGNALS) if family == SILENT else n + family
