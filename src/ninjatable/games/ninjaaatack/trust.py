"""How far a partner's gestures can be trusted, learnt within a game from what the seat sees.

A player following the codebook makes only gestures its code gives a meaning, and gestures a family only
when it holds 2 or more of it, then keeps them (see convention.py). A seat checks each of its partners against
that with what its view shows:
- a gesture of the partner that names no family in the pair's codebook breaks the convention;
- when a call reveals the partner's hand, the family the partner last promised (`partner_promise`, as the seat
  read it at its last decision of the round) is there 2 or more times, or the promise was broken.
A seat never sees its partner's passes (partners never sit side by side), so passes are not checked.

The trust in a partner is the share of kept checks, counting PRIOR_KEPT kept and PRIOR_BROKEN broken checks
before any is seen; below TRUST_FLOOR the seat plays as if that partner were silent.
"""

from __future__ import annotations

from typing import Any

from ...core import seat_name
from .cards import FAMILIES, SIGNALS
from .convention import OFF_CONVENTION, known_codes, latest_signals, mate_of, own_team, partner_promise, read_gesture

# The checks a partner is credited with before any is seen. A partner that follows the code never breaks it (no
# broken check in 300 seat-games between heuristics at 4, 5 and 6 players, 133 kept), so one broken check stops
# the seat reading its gestures (trust 1 / 2.25 = 0.44), and one kept check after it brings them back (0.62).
PRIOR_KEPT = 1.0
PRIOR_BROKEN = 0.25
# The least trust at which the seat reads the partner's gestures by the convention.
TRUST_FLOOR = 0.5


class PartnerTrust:
    """One seat's record, for one game, of how often each partner's gestures were seen to keep the convention."""

    def __init__(self) -> None:
        self._reset()

    def _reset(self) -> None:
        """Forget everything: a new game."""
        self.kept: dict[int, int] = {}
        self.broken: dict[int, int] = {}
        self._round = 0
        self._signals_read = 0
        self._promised: dict[int, int] = {}  # partner: the family it promised, as of the seat's latest view
        self._last_call: dict[str, Any] | None = None

    def trust(self, partner: int) -> float:
        """The share of checks the partner kept, the prior included."""
        kept = self.kept.get(partner, 0) + PRIOR_KEPT
        return kept / (kept + self.broken.get(partner, 0) + PRIOR_BROKEN)

    def trusted(self, partner: int | None) -> bool:
        """Whether the partner's gestures are read by the convention (a lone wolf has none to read)."""
        return partner is None or self.trust(partner) >= TRUST_FLOOR

    def observe(self, view: dict[str, Any], seat: int, n: int) -> None:
        """Take in what this view adds to the seat's last one; a view seen twice counts once."""
        if self._is_new_game(view):
            self._reset()
        if view["round"] != self._round:
            self._check_reveal(view["last_call"])
            self._round = view["round"]
            self._signals_read = 0
            self._promised = {}
        self._last_call = view["last_call"]
        partner = mate_of(seat, own_team(view, seat))
        if partner is None:
            return
        self._check_gestures(view, partner, n)
        promise = partner_promise(seat, own_team(view, seat), latest_signals(view, n))
        if promise >= 0:
            self._promised[partner] = promise
        else:
            self._promised.pop(partner, None)

    def _is_new_game(self, view: dict[str, Any]) -> bool:
        """Whether the view is from another game than the last one seen (a bot may be asked to play again)."""
        if view["round"] != self._round:
            return view["round"] < self._round or (view["last_call"] is None and self._last_call is not None)
        return len(view["signals"]) < self._signals_read

    def _check_gestures(self, view: dict[str, Any], partner: int, n: int) -> None:
        """Count each new gesture of the partner that its codebook gives no meaning."""
        codes = known_codes(view, n)
        signals = view["signals"]
        for entry in signals[self._signals_read :]:
            if entry["seat"] == partner:
                meaning = read_gesture(codes, partner, SIGNALS.index(entry["signal"]))
                if meaning == OFF_CONVENTION:
                    self._count(partner, kept=False)
        self._signals_read = len(signals)

    def _check_reveal(self, call: dict[str, Any] | None) -> None:
        """At a new round: if the call that ended the last one revealed a partner that had promised a family, was
        the family there?"""
        if call is None or call == self._last_call:
            return  # the round was redealt with no call
        for partner, family in self._promised.items():
            counts = call["revealed"].get(seat_name(partner))
            if counts is not None:
                self._count(partner, kept=held(counts, family) >= 2)

    def _count(self, partner: int, kept: bool) -> None:
        tally = self.kept if kept else self.broken
        tally[partner] = tally.get(partner, 0) + 1


def held(counts_text: str, family: int) -> int:
    """How many cards of `family` a revealed hand holds, from its text (`2x Fox, 1x Crane, 1x Owl`)."""
    for part in counts_text.split(", "):
        count, _, name = part.partition("x ")
        if name == FAMILIES[family]:
            return int(count)
    return 0
