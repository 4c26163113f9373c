"""The dragon heuristic bot: shed purples safely, count trumps, avoid the Dragon Head trap.

It decides from its seat's view and observation only (see docs/rules/dragon.md, "Heuristic bot").
A trick is worth +5 to its winner but brings the purple cards in it, and the last trick brings the
purples of the Inverted Scale as well; so the bot wins tricks only when they are clean and cheap,
and throws its own purples onto tricks it cannot win.
"""

from __future__ import annotations

from ...core import Bot, SeatInfo
from . import cards as C
from .actions import DONE
from .cards import COLOUR_OF, LABEL_TO_CARD, NUMBERS, PURPLE
from .observe import OBS_PLAYED, OBS_RETURNED, OBS_VOID

TOKEN = C.TOKEN_POINTS


class Table:
    """What the bot reads from its view and observation for one decision."""

    def __init__(self, info: SeatInfo) -> None:
        view = info.view()
        obs = info.observation()
        self.seat = info.seat
        self.players = info.players
        me = view["seats"][self.seat]
        self.hand = [LABEL_TO_CARD[x] for x in me["hand"]]
        self.pile = [LABEL_TO_CARD[x] for x in me["pile"]]
        self.trump = C.COLOUR_NAMES.index(view["trump"])
        self.trick = [(s, LABEL_TO_CARD[x]) for s, x in view["trick"]]
        self.purple_broken = view["purple_broken"]
        self.tricks_left = view["tricks_in_round"] - view["tricks_played"]
        self.scale_size = view["scale_size"]
        self.phase = view["phase"]
        colours = 3 if self.players == 3 else 4
        in_use = range(colours * NUMBERS)
        # The public facts the bot counts with, from the observation (observe.py): the cards played to tricks this
        # round, the cards this seat knows lie in the Inverted Scale, and the voids shown (4 flags per relative seat).
        played = {c for c in in_use if obs[OBS_PLAYED + c]}
        known_scale = {c for c in in_use if obs[OBS_RETURNED + c]}
        mine = set(self.hand) | set(self.pile)
        # Cards still out of sight: in another hand or pile, or in the scale.
        self.unseen = [c for c in in_use if c not in played and c not in mine and c not in known_scale]
        self.known_scale = known_scale
        self.voids = [
            {col for col in range(4) if obs[OBS_VOID + ((s - self.seat) % self.players) * 4 + col]}
            for s in range(self.players)
        ]

    # --- counting ------------------------------------------------------------------------------------
    def higher_unseen(self, card: int) -> int:
        """Unseen cards of the same colour that beat `card`."""
        col = COLOUR_OF[card]
        return sum(1 for c in self.unseen if COLOUR_OF[c] == col and c > card)

    def unseen_of(self, colour: int) -> int:
        return sum(1 for c in self.unseen if COLOUR_OF[c] == colour)

    def scale_purple_risk(self) -> float:
        """Expected purple points in the scale, which the winner of the last trick takes."""
        known = sum(C.number(c) for c in self.known_scale if c < NUMBERS)
        unknown_slots = self.scale_size - len(self.known_scale)
        if unknown_slots <= 0 or not self.unseen:
            return float(known)
        purple_points = sum(C.number(c) for c in self.unseen if c < NUMBERS)
        return known + unknown_slots * purple_points / len(self.unseen)

    def winning(self, card: int) -> bool:
        """Would `card` beat the trick as it stands now?"""
        if not self.trick:
            return True
        lead = COLOUR_OF[self.trick[0][1]]
        best = self.trick[0][1]
        for _, c in self.trick[1:]:
            if _beats(c, best, lead, self.trump):
                best = c
        return _beats(card, best, lead, self.trump)

    def purples_in_trick(self) -> int:
        return sum(C.number(c) for _, c in self.trick if c < NUMBERS)

    def seats_after_me(self) -> list[int]:
        return [(self.seat + k) % self.players for k in range(1, self.players - len(self.trick))]


def _beats(card: int, best: int, lead: int, trump: int) -> bool:
    col, best_col = COLOUR_OF[card], COLOUR_OF[best]
    if col == best_col:
        return card > best
    return col == trump


class DragonHeuristic(Bot):
    """Plays Slaughter the Dragon from the strategy described in the rules doc."""

    name = "dragon-heuristic"

    def act(self, info: SeatInfo) -> int:
        legal = info.legal_actions()
        if len(legal) == 1:
            return legal[0]
        t = Table(info)
        if t.phase == "summoning: pick":
            return self.rng.choice(legal)  # blind: any position is as good as another
        if t.phase == "bodily division":
            return self._split(t, legal)
        if t.phase in ("summoning: return", "soul-sucking: give", "soul-sucking: return"):
            return self._part_with(t, legal)
        return self._lead(t, legal) if not t.trick else self._follow(t, legal)

    # --- jutsu ---------------------------------------------------------------------------------------
    def _part_with(self, t: Table, legal: list[int]) -> int:
        """Give away (to the scale or another player) the highest purple, else the weakest side card."""
        purples = [c for c in legal if c < NUMBERS]
        if purples and t.trump != PURPLE:
            return max(purples)
        side = [c for c in legal if COLOUR_OF[c] != t.trump and c >= NUMBERS]
        pool = side or legal
        return min(pool, key=lambda c: (C.number(c), c))

    def _split(self, t: Table, legal: list[int]) -> int:
        """1st half: trumps and purples (voids elsewhere let it trump or shed); the rest waits in the pile."""
        cards = t.hand + t.pile
        keep = {c for c in cards if COLOUR_OF[c] in (t.trump, PURPLE)}
        if len(keep) == len(cards):  # the pile needs a card: the weakest one waits
            keep.discard(min(cards, key=C.number))
        for c in t.hand:
            if c not in keep and c in legal:
                return c
        return DONE if DONE in legal else legal[0]

    # --- tricks --------------------------------------------------------------------------------------
    def _lead(self, t: Table, legal: list[int]) -> int:
        late = t.tricks_left == 2 and t.scale_purple_risk() > TOKEN
        scored = [(self._lead_value(t, c, late), -c) for c in legal]
        return legal[max(range(len(legal)), key=lambda i: scored[i])]

    def _lead_value(self, t: Table, card: int, late: bool) -> float:
        """How good leading `card` looks: clean sure wins first, then cheap losing leads."""
        col = COLOUR_OF[card]
        out_in_colour = t.unseen_of(col)
        others = t.players - 1
        if col == PURPLE:
            # A low purple led under higher ones goes to someone else.
            return 2.0 + 0.5 * t.higher_unseen(card) - C.number(card) / 4 if t.higher_unseen(card) else -10.0
        if late:
            # The trick before the last: lead the higher card, keeping the lowest for the Dragon Head's trick.
            return C.number(card) / 12 - (col == t.trump)
        trumps_out = t.unseen_of(t.trump) if col != t.trump else 0
        sure = t.higher_unseen(card) == 0
        if sure and out_in_colour >= others and trumps_out <= 1:
            return 4.0 + out_in_colour / 12  # a clean +5: the others must follow and cannot trump
        if col == t.trump and sure and t.unseen_of(PURPLE) < others:
            return 3.0  # draw trumps while few purples can be thrown on the trick
        # Otherwise lose cheaply: a low card of a colour the others still hold.
        return 1.0 - C.number(card) / 12 + min(out_in_colour, 2 * others) / (4 * others)

    def _follow(self, t: Table, legal: list[int]) -> int:
        lead = COLOUR_OF[t.trick[0][1]]
        last = len(t.trick) == t.players - 1
        penalty = t.purples_in_trick()
        # With two tricks left, the card kept now is the one played in the last trick (the Dragon Head's).
        trap = t.tricks_left == 2 and t.scale_purple_risk() > TOKEN
        winners = [c for c in legal if t.winning(c)]
        losers = [c for c in legal if not t.winning(c)]
        following = COLOUR_OF[legal[0]] == lead
        if not following:
            return self._discard(t, legal, winners, losers, last, penalty, trap)
        # Following suit.
        if trap and penalty == 0 and lead != PURPLE:
            return max(legal)  # keep the lowest card for the last trick
        if penalty > 0 or lead == PURPLE:
            if losers:
                return max(losers)  # duck as high as possible
            return max(winners) if last else min(winners)
        if last:
            # A clean trick: take it with the cheapest winner, else throw the lowest.
            return min(winners) if winners else min(legal)
        # Not last: win only with a card nobody left to play can beat, and when the colour is still held.
        sure = [c for c in winners if t.higher_unseen(c) == 0 and not self._can_be_trumped(t, lead)]
        if sure:
            return min(sure)
        return max(losers) if losers and self._dump_likely(t, lead) else min(legal)

    def _discard(self, t, legal, winners, losers, last, penalty, trap) -> int:
        """Void in the led colour: shed the highest purple that cannot win, or trump a clean trick."""
        safe_purples = [c for c in losers if c < NUMBERS]
        if safe_purples:
            return max(safe_purples)
        if trap and penalty == 0:
            return max(legal, key=lambda c: (COLOUR_OF[c] == t.trump, C.number(c)))  # keep a low card
        if winners and penalty == 0 and (last or not self._dump_likely(t, COLOUR_OF[t.trick[0][1]])):
            return min(winners)  # trump a clean trick cheaply
        if losers:
            # Throw the least useful card: low side cards before trumps.
            return min(losers, key=lambda c: (COLOUR_OF[c] == t.trump, C.number(c)))
        return min(winners, key=lambda c: C.number(c))

    def _can_be_trumped(self, t: Table, lead: int) -> bool:
        """Someone still to play is known void in `lead` and trumps may be out."""
        if lead == t.trump or t.unseen_of(t.trump) == 0:
            return False
        return any(lead in t.voids[s] for s in t.seats_after_me())

    def _dump_likely(self, t: Table, lead: int) -> bool:
        """Someone still to play is known void in `lead` and purples are still out."""
        if t.unseen_of(PURPLE) == 0:
            return False
        return any(lead in t.voids[s] for s in t.seats_after_me())

