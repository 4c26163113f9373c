"""The table-talk convention of the heuristic players, as pure functions of a hand and the gestures seen.

After a pass, a player holding 2 or more cards of the family it collects makes the gesture that names that
family in its partnership's codebook; otherwise it stays silent (a lone wolf, with nobody to tell, always
does). It collects the family it values most (cards held, plus a bonus for the family its teammate last
gestured) and passes the card it values least, rather not the family its left-hand opponent gestured, when it
knows what that gesture means. The heuristic bot plays by these rules, and reads the table by them.

A gesture is read by the code of the pair that made it: the reader's own and its partner's by their
codebook; another partnership's gesture says only that its maker gestured (UNKNOWN), unless the codes are
public.
"""

from __future__ import annotations

from typing import Any

from .cards import FAMILIES, SIGNALS

# How much a teammate's gesture for a family adds to its value when choosing what to keep.
TEAMMATE_SIGNAL_BONUS = 2.5
# A player that gestured a family keeps collecting it while it holds 2 of it: its gesture is a promise the
# teammate counts on (see `partner_promise`). More than any other value a hand can give a family short of a clan.
PROMISE_BONUS = 5.0
# How much an opponent's gesture on our left makes us keep that family rather than feed it to them.
FEED_ENEMY_PENALTY = 1.5
SILENT = -1
# A gesture made by a seat whose code the reader does not know: it gestured, meaning unknown.
UNKNOWN = -3
# A gesture that names no family in its maker's code.
OFF_CONVENTION = -2


def known_codes(view: dict[str, Any], n: int) -> dict[int, dict[int, int]]:
    """The codes the looking seat can read gestures by: seat to {gesture index: family}. Its own and its
    partner's (their codebook), or every seat's when the codes are public."""
    if not view.get("codebooks_private", False):
        public = {g: g for g in range(n)}
        return dict.fromkeys(range(n), public)
    seat = view["seat"]
    if seat is None or view.get("codebook") is None:
        return {}
    code = {SIGNALS.index(g): FAMILIES.index(f) for g, f in view["codebook"].items()}
    return dict.fromkeys(own_team(view, seat), code)


def read_gesture(codes: dict[int, dict[int, int]], seat: int, gesture: int) -> int:
    """What a gesture of `seat` names for a reader with these codes: a family, OFF_CONVENTION or UNKNOWN."""
    code = codes.get(seat)
    if code is None:
        return UNKNOWN
    return code.get(gesture, OFF_CONVENTION)


def latest_signals(view: dict[str, Any], n: int) -> dict[int, int]:
    """Each seat's most recent gesture this round, as the family it names (or UNKNOWN: see `read_gesture`)."""
    codes = known_codes(view, n)
    latest: dict[int, int] = {}
    for entry in view["signals"]:
        meaning = read_gesture(codes, entry["seat"], SIGNALS.index(entry["signal"]))
        if meaning == OFF_CONVENTION:
            latest.pop(entry["seat"], None)
        else:
            latest[entry["seat"]] = meaning
    return latest


def mate_of(seat: int, team: tuple[int, ...] | list[int]) -> int | None:
    """The seat's teammate this round (None for a lone wolf)."""
    return next((s for s in team if s != seat), None)


def family_values(hand: list[int], seat: int, team: tuple[int, ...] | list[int], latest: dict[int, int]) -> list[float]:
    """How much each family is worth keeping: cards held, plus the teammate's declared family, plus the
    family the player itself declared while it holds 2 of it (a promise; when the two declared different
    families at once, the lower seat's promise stands)."""
    values = [float(c) for c in hand]
    mate = mate_of(seat, team)
    theirs = latest.get(mate, SILENT) if mate is not None else SILENT
    if theirs >= 0:
        values[theirs] += TEAMMATE_SIGNAL_BONUS
    mine = latest.get(seat, SILENT)
    if mine >= 0 and hand[mine] >= 2 and (theirs in (SILENT, UNKNOWN, mine) or seat < mate):
        values[mine] += PROMISE_BONUS
    return values


def partner_promise(seat: int, team: tuple[int, ...] | list[int], latest: dict[int, int]) -> int:
    """The family the teammate promised (it holds 2 or more of it, and keeps them), or SILENT: its latest
    gesture, unless the player itself declared another family (then the teammate may give way)."""
    mate = mate_of(seat, team)
    theirs = latest.get(mate, SILENT) if mate is not None else SILENT
    if theirs < 0 or latest.get(seat, SILENT) not in (SILENT, theirs):
        return SILENT
    return theirs


def target_family(hand: list[int], seat: int, team: tuple[int, ...] | list[int], latest: dict[int, int]) -> int:
    """The family the player collects: the most valuable one it holds (the first on a tie)."""
    return most_valuable(hand, family_values(hand, seat, team, latest))


def most_valuable(hand: list[int], values: list[float]) -> int:
    """`target_family`, from the hand's `family_values`."""
    return max((f for f, c in enumerate(hand) if c), key=lambda f: (values[f], -f))


def convention_signal(hand: list[int], seat: int, team: tuple[int, ...] | list[int], latest: dict[int, int]) -> int:
    """The family the player gestures after a pass, or SILENT: always for a lone wolf, and when the teammate
    declared another family (a second family would only split the pair)."""
    if len(team) == 1:
        return SILENT
    target = target_family(hand, seat, team, latest)
    theirs = latest.get(mate_of(seat, team), SILENT)
    if hand[target] < 2 or theirs not in (SILENT, UNKNOWN, target):
        return SILENT
    return target


def choose_pass_among(
    hand: list[int], seat: int, team: tuple[int, ...] | list[int], left: int, latest: dict[int, int]
) -> list[int]:
    """The families the player would pass (equally good): the least valuable, never the target if avoidable."""
    values = family_values(hand, seat, team, latest)
    target = most_valuable(hand, values)
    if left not in team and latest.get(left, SILENT) >= 0:
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


def gesture_action(view: dict[str, Any], family: int, n: int) -> int:
    """The action id of the gesture that names `family` in the looking seat's code, or of silence."""
    if family == SILENT:
        return n + len(SIGNALS)
    if not view.get("codebooks_private", False):
        return n + family
    gesture = next(g for g, f in view["codebook"].items() if f == FAMILIES[family])
    return n + SIGNALS.index(gesture)
