"""Slaughter the Dragon, Ha: the rules as a state machine on the kernel contract.

A round: deal, reveal the trump, Summoning Jutsu (the previous round's last-trick winner), then Bodily
Division Jutsu by the holder of the highest trump (or, in the Advanced Variant with a purple trump,
Soul-Sucking Jutsu), then the tricks. See docs/rules/dragon.md for every rule and interpretation.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Sequence
from typing import Any

from ...core import BadArgument, Decision, Event, Game, Option, State, seat_name, winners_text
from ...core.deal import shuffle
from . import cards as C
from .actions import (
    ACTION_LABELS,
    DONE,
    OVER,
    PICK_SCALE,
    PLAY,
    SOUL_GIVE,
    SOUL_RETURN,
    SPLIT,
    SUMMON_PICK,
    SUMMON_RETURN,
)
from .cards import COLOUR_OF, LABEL_TO_CARD, LABELS, MAX_SEATS, NOBODY, NUMBERS, PURPLE, SCALE, SETUPS, SOME_HAND
from .observe import OBS_SIZE, Observer
from .render import render
from .worlds import WorldSampler

# The event of every (seat, card) play, built once: logging a play is then a look-up (events are immutable).
PLAY_EVENTS = tuple(tuple(Event("play", f"{seat_name(s)} plays {label}") for label in LABELS) for s in range(MAX_SEATS))
# WIN_TEXTS[seat][last trick]: what the log says when the seat wins a trick (before any purples it takes).
WIN_TEXTS = tuple((f"{seat_name(s)} wins the trick with a Dragon Body token",
                   f"{seat_name(s)} wins the trick with the Dragon Head") for s in range(MAX_SEATS))


class DragonState(Observer, WorldSampler, State):
    def __init__(self, game: Game, players: int, seed: int, options: dict[str, Any]) -> None:
        super().__init__(game, players, seed, options)
        self.setup = SETUPS[players]
        self.in_use = list(range(self.setup.colours * NUMBERS))
        self.indicators = [c for c in range(self.setup.colours) for _ in range(C.INDICATORS_PER_COLOUR)]
        self.round = 0
        self.phase = PLAY
        self.leader = self.chance().randrange(players)  # "whoever most recently used ninjutsu": by lot
        self.last_winner: int | None = None
        self.revealed_scale: list[int] = []  # the last Inverted Scale revealed (public until the next reveal)
        self._start_round()

    # --- round set-up -------------------------------------------------------------------------------
    def _start_round(self) -> None:
        n = self.players
        self.round += 1
        deck = self.in_use.copy()
        rng = self.chance()
        shuffle(rng, deck)
        size = self.setup.hand
        self.hands = [sorted(deck[s * size:(s + 1) * size]) for s in range(n)]
        self.scale = deck[n * size:]
        self.piles: list[list[int]] = [[] for _ in range(n)]
        self.trump = self.indicators.pop(self.chance().randrange(len(self.indicators)))
        self.log("trump", f"Round {self.round}: the Trump Indicator shows {C.COLOUR_NAMES[self.trump]}")
        self.count(f"trump_{C.COLOUR_NAMES[self.trump]}")
        self.trick: list[int] = []
        self.tricks_played = 0
        self.tokens = [0] * n
        self.head: int | None = None
        self.taken: list[list[int]] = [[] for _ in range(n)]
        self.played = 0  # bitmask of cards played to tricks this round
        self.purple_broken = False
        self.void = [0] * n  # bitmask of colours each seat's current hand has shown it lacks
        self.played_by = [NOBODY] * C.DECK_SIZE  # who played each card this round (public)
        self.returned: list[int] = []  # Summoning: the cards put back in the scale (the summoner's secret)
        # Soul-Sucking: the card each seat gave the practitioner, and the card each received back (secrets
        # of the giver, the receiver and the practitioner).
        self.given = [NOBODY] * n
        self.received = [NOBODY] * n
        self.summoner = self.last_winner
        self.jutsu: int | None = None  # the Bodily Division or Soul-Sucking practitioner
        self.countdown = 0  # the trump number the practitioner answered to
        self.soul = False
        self.gifts: dict[int, int] = {}  # soul-sucking: seat -> card chosen (pending until all have chosen)
        self.returns_left: list[int] = []  # soul-sucking: seats still to receive a card, in order
        self.turn = self.leader
        if self.summoner is not None:
            self.phase = SUMMON_PICK
            self.picks_left = 2
            self.log("jutsu", f"{seat_name(self.summoner)} performs the Summoning Jutsu")
        else:
            self._find_practitioner()

    def _find_practitioner(self) -> None:
        """Step 5: the countdown from 12 finds the holder of the highest trump (never empty: >= 8 in hands)."""
        for num in range(NUMBERS, 0, -1):
            wanted = C.card(self.trump, num)
            for seat in range(self.players):
                if wanted in self.hands[seat]:
                    self.jutsu, self.countdown = seat, num
                    self._begin_jutsu()
                    return
        raise AssertionError("no trump card in any hand")  # impossible: the scale holds at most 4 cards

    def _begin_jutsu(self) -> None:
        who = seat_name(self.jutsu)
        trump = C.COLOUR_NAMES[self.trump]
        if self.options["advanced"] and self.trump == PURPLE:
            self.soul = True
            self.phase = SOUL_GIVE
            self.log("jutsu", f"{who} answers at purple {self.countdown} and performs the Soul-Sucking Jutsu")
        else:
            self.phase = SPLIT
            self.log("jutsu", f"{who} answers at {trump} {self.countdown} and performs the Bodily Division Jutsu")

    # --- the contract ------------------------------------------------------------------------------
    def to_move(self) -> tuple[int, ...]:
        phase = self.phase
        if phase == PLAY:
            return (self.turn,)
        if phase == OVER:
            return ()
        if phase == SOUL_GIVE:
            return tuple(s for s in range(self.players) if s != self.jutsu and s not in self.gifts)
        if phase == SUMMON_PICK or phase == SUMMON_RETURN:
            return (self.summoner,)
        return (self.jutsu,)

    def is_over(self) -> bool:
        return self.phase == OVER

    def _next_choice(self) -> tuple[int, list[int]] | None:
        if self.phase == PLAY:  # in the tricks (nearly every move), answered without asking `to_move`
            return self.turn, self._playable()
        return super()._next_choice()

    def _legal_actions(self, seat: int) -> list[int]:
        phase = self.phase
        if phase == PLAY:
            return self._playable() if seat == self.turn else []
        if seat not in self.to_move():
            return []
        hand = self.hands[seat]
        if phase == SUMMON_PICK:
            return list(range(PICK_SCALE, PICK_SCALE + len(self.scale)))
        if phase == SPLIT:
            # Cards go to the 2nd-half pile one by one; each half keeps at least one card.
            moves = hand.copy() if len(hand) > 1 else []
            if self.piles[seat]:
                moves.append(DONE)
            return moves
        return hand.copy()  # return to the scale, give to or from the Soul-Sucking practitioner

    def _playable(self) -> list[int]:
        hand = self.hands[self.turn]  # sorted, so the cards of one colour lie together
        trick = self.trick
        if trick:
            lead = COLOUR_OF[trick[0]] * NUMBERS
            first = bisect_left(hand, lead)
            end = bisect_left(hand, lead + NUMBERS, first)
            return hand[first:end] if first < end else hand.copy()  # follow the lead colour if you can
        if self.purple_broken:
            return hand.copy()
        # Purple may not be led until a purple card has been taken, unless the hand holds nothing else.
        others = hand[bisect_left(hand, NUMBERS):]
        return others if others else hand.copy()

    def _decision(self, seat: int) -> Decision:
        phase = self.phase
        if phase == PLAY:
            return Decision("Lead a card" if not self.trick else "Play a card to the trick")
        if phase == SUMMON_PICK:
            return Decision(f"Summoning Jutsu: take an Inverted Scale card, unseen ({3 - self.picks_left} of 2)")
        if phase == SUMMON_RETURN:
            return Decision(f"Summoning Jutsu: return a card to the Inverted Scale ({3 - self.picks_left} of 2)")
        if phase == SPLIT:
            return Decision("Bodily Division: set aside cards for your 2nd half (keep at least one), then done",
                            multi=True, confirm=DONE)
        if phase == SOUL_GIVE:
            return Decision(f"Soul-Sucking Jutsu: give {seat_name(self.jutsu)} a card, face down")
        return Decision(f"Soul-Sucking Jutsu: give {seat_name(self.returns_left[0])} a card, face down")

    def _refusals(self, seat: int) -> dict[int, str]:
        if self.phase != PLAY:
            return {}
        hand = self.hands[seat]
        if self.trick:
            lead = COLOUR_OF[self.trick[0]]
            reason = f"you must follow {C.COLOUR_NAMES[lead]}"
            return {c: reason for c in hand if COLOUR_OF[c] != lead} if any(COLOUR_OF[c] == lead for c in hand) else {}
        if self.purple_broken or all(c < NUMBERS for c in hand):
            return {}
        return {c: "purple may not be led until a purple card has been taken" for c in hand if c < NUMBERS}

    def _apply(self, seat: int, action: int) -> None:
        phase = self.phase
        if phase == PLAY:
            self._play(seat, action)
        elif phase == SUMMON_PICK:
            self._summon_pick(seat, action - PICK_SCALE)
        elif phase == SUMMON_RETURN:
            self._summon_return(seat, action)
        elif phase == SPLIT:
            self._split(seat, action)
        elif phase == SOUL_GIVE:
            self._soul_give(seat, action)
        else:
            self._soul_return(seat, action)

    # --- Summoning Jutsu -----------------------------------------------------------------------------
    def _summon_pick(self, seat: int, position: int) -> None:
        card = self.scale.pop(position)
        insort(self.hands[seat], card)
        self.log("summon", f"{seat_name(seat)} takes an Inverted Scale card")
        self.log("summon", f"{seat_name(seat)} takes {LABELS[card]} from the Inverted Scale", to=seat)
        self.picks_left -= 1
        if self.picks_left == 0:
            self.phase = SUMMON_RETURN
            self.picks_left = 2

    def _summon_return(self, seat: int, card: int) -> None:
        self.hands[seat].remove(card)
        self.scale.append(card)
        self.returned.append(card)
        self.log("summon", f"{seat_name(seat)} returns a card to the Inverted Scale")
        self.log("summon", f"{seat_name(seat)} returns {LABELS[card]} to the Inverted Scale", to=seat)
        self.picks_left -= 1
        if self.picks_left == 0:
            self._find_practitioner()

    # --- Bodily Division Jutsu ----------------------------------------------------------------------
    def _split(self, seat: int, action: int) -> None:
        if action == DONE:
            self.phase = PLAY
            self.log("jutsu", f"{seat_name(seat)} sets aside a 2nd-half pile of {len(self.piles[seat])} cards")
            self.count("bodily_division_pile_cards", len(self.piles[seat]))
            return
        self.hands[seat].remove(action)
        insort(self.piles[seat], action)
        self.log("jutsu", f"{seat_name(seat)} sets {LABELS[action]} aside for the 2nd half", to=seat)

    # --- Soul-Sucking Jutsu (Advanced Variant) -------------------------------------------------------
    def _soul_give(self, seat: int, card: int) -> None:
        self.gifts[seat] = card
        self.log("soul", f"{seat_name(seat)} has chosen a card for {seat_name(self.jutsu)}")
        if len(self.gifts) == self.players - 1:
            taker = self.jutsu
            for giver, given in sorted(self.gifts.items()):
                self.hands[giver].remove(given)
                insort(self.hands[taker], given)
                self.given[giver] = given
                self.log("soul", f"{seat_name(giver)} gives {LABELS[given]} to {seat_name(taker)}", to=giver)
                self.log("soul", f"{seat_name(giver)} gives {LABELS[given]} to {seat_name(taker)}", to=taker)
            self.log("soul", f"Every player gives {seat_name(taker)} a card face down")
            self.gifts = {}
            self.returns_left = [(taker + k) % self.players for k in range(1, self.players)]
            self.phase = SOUL_RETURN

    def _soul_return(self, seat: int, card: int) -> None:
        receiver = self.returns_left.pop(0)
        self.hands[seat].remove(card)
        insort(self.hands[receiver], card)
        self.received[receiver] = card
        self.log("soul", f"{seat_name(seat)} gives {seat_name(receiver)} a card face down")
        self.log("soul", f"{seat_name(seat)} gives {LABELS[card]} to {seat_name(receiver)}", to=seat)
        self.log("soul", f"{seat_name(seat)} gives {LABELS[card]} to {seat_name(receiver)}", to=receiver)
        if not self.returns_left:
            self.phase = PLAY

    # --- tricks --------------------------------------------------------------------------------------
    def _play(self, seat: int, card: int) -> None:
        hand = self.hands[seat]
        trick = self.trick
        colour = COLOUR_OF[card]
        if trick:
            lead = COLOUR_OF[trick[0]]
            if colour != lead:
                self.void[seat] |= 1 << lead  # could not follow: the current hand lacks the lead colour
        elif colour == PURPLE and not self.purple_broken:
            self.void[seat] |= 0b1110  # led purple early: the hand held nothing but purple
        hand.remove(card)
        trick.append(card)
        self.played |= 1 << card
        self.played_by[card] = seat
        self.events.append(PLAY_EVENTS[seat][card])  # self.log("play", ...) with the event built once
        if len(trick) < self.players:
            self.turn = (seat + 1) % self.players
        else:
            self._finish_trick()

    def _trick_winner(self) -> int:
        """Highest trump if any trump was played, else the highest card of the led colour."""
        trick = self.trick
        trump = self.trump
        best = 0
        suit = COLOUR_OF[trick[0]]
        for i in range(1, len(trick)):
            c = trick[i]
            col = COLOUR_OF[c]
            if col == suit:
                if c > trick[best]:
                    best = i
            elif col == trump:
                best, suit = i, trump
        return (self.leader + best) % self.players

    def _finish_trick(self) -> None:
        winner = self._trick_winner()
        purples = [c for c in self.trick if c < NUMBERS]
        if purples:
            self.taken[winner].extend(purples)
            self.purple_broken = True
        self.tricks_played += 1
        self.tokens[winner] += 1
        last = self.tricks_played == self.setup.hand
        if not self.quiet:
            text = WIN_TEXTS[winner][last]
            self.log("trick", f"{text} and {', '.join(LABELS[c] for c in purples)}" if purples else text)
        self.trick = []
        self.leader = self.turn = winner
        if last:
            self.head = winner
            self._finish_round(winner)
            return
        if not any(self.piles):  # most tricks: no 2nd-half pile is waiting
            return
        for s in range(self.players):
            if not self.hands[s] and self.piles[s]:
                # The 1st-half hand is used up: the 2nd-half pile becomes the hand before the next trick.
                self.hands[s], self.piles[s] = self.piles[s], []
                self.void[s] = 0
                self.log("jutsu", f"{seat_name(s)} takes up the 2nd-half pile")

    # --- end of round --------------------------------------------------------------------------------
    def _finish_round(self, last_winner: int) -> None:
        scale_purples = [c for c in self.scale if c < NUMBERS]
        self.taken[last_winner].extend(scale_purples)
        self.revealed_scale = sorted(self.scale)
        if not self.quiet:
            shown = ", ".join(LABELS[c] for c in self.revealed_scale)
            self.log("scale", f"The Inverted Scale is revealed: {shown}; {seat_name(last_winner)} takes its purples")
        self.score(*self._round_points())
        self._tally_round()
        self.last_winner = last_winner
        totals = self.scores()
        if min(totals) <= C.END_SCORE or self.round == self.players:
            self.phase = OVER
            if not self.quiet:
                self.log("end", f"The game is over: {winners_text(self.winners())}")
        else:
            self.leader = last_winner
            if self.deals_next_round():
                self._start_round()

    def _round_points(self) -> tuple[str, list[int]]:
        label = f"Round {self.round}"
        for s in range(self.players):
            if len(self.taken[s]) == NUMBERS:
                points = [C.MOON_OTHERS] * self.players
                points[s] = C.MOON_POINTS
                return f"{label} (Shoot the Moon: {seat_name(s)})", points
        return label, [
            C.TOKEN_POINTS * self.tokens[s] - sum(map(C.number, self.taken[s])) for s in range(self.players)
        ]

    def _tally_round(self) -> None:
        """The round's figures for `stats`: Shoot the Moon, and what the Bodily Division earned its practitioner."""
        most = max(len(taken) for taken in self.taken)
        self.count("shoot_the_moon", 1 if most == NUMBERS else 0)
        self.count("moon_missed_by_one", 1 if most == NUMBERS - 1 else 0)  # one purple short of the Moon
        if self.jutsu is not None and not self.soul:
            points = self.sheet[-1].points
            others = [p for s, p in enumerate(points) if s != self.jutsu]
            self.count("bodily_division_rounds")
            # The practitioner's round points against the other seats' mean: what the jutsu was worth.
            self.count("bodily_division_edge", points[self.jutsu] - sum(others) / len(others))

    def _stats(self) -> dict[str, float]:
        figures = {"rounds": self.round}
        if self.tallies.get("bodily_division_rounds"):
            figures["bodily_division_edge_per_round"] = (
                self.tallies["bodily_division_edge"] / self.tallies["bodily_division_rounds"])
        return figures

    # --- what each seat knows ------------------------------------------------------------------------
    @property
    def knowledge(self) -> list[list[tuple[int, int]]]:
        """Per seat, the (card, place) pairs it knows: place a seat's hand, SCALE or SOME_HAND."""
        return [self._known(s) for s in range(self.players)]

    def _known(self, seat: int) -> list[tuple[int, int]]:
        """(card, place) for each card `seat` knows the place of that is neither played nor in its hand."""
        facts: list[tuple[int, int]] = []
        if seat == self.summoner:
            facts += [(c, SCALE) for c in self.returned]
        if self.soul:
            if seat == self.jutsu:
                facts += [(c, r) for r, c in enumerate(self.received) if c != NOBODY]
            elif self.given[seat] != NOBODY:
                passed_on = any(c != NOBODY for c in self.received)
                facts.append((self.given[seat], SOME_HAND if passed_on else self.jutsu))
        hand = self.hands[seat]
        return [(c, where) for c, where in facts if not self.played >> c & 1 and c not in hand]

    # --- copies ------------------------------------------------------------------------------------------
    def _copy_mutables(self, other: State) -> None:
        other.indicators = self.indicators.copy()
        other.hands = [h.copy() for h in self.hands]
        other.piles = [p.copy() for p in self.piles]
        other.scale = self.scale.copy()
        other.trick = self.trick.copy()
        other.tokens = self.tokens.copy()
        other.taken = [t.copy() for t in self.taken]
        other.void = self.void.copy()
        other.played_by = self.played_by.copy()
        other.returned = self.returned.copy()
        other.given = self.given.copy()
        other.received = self.received.copy()
        other.revealed_scale = self.revealed_scale.copy()
        other.gifts = self.gifts.copy()
        other.returns_left = self.returns_left.copy()

    def __getstate__(self) -> dict[str, Any]:
        # The kept table is derived, and changed in place: copies and pickles leave it out.
        state = super().__getstate__()
        state.pop("_table", None)
        return state

    # --- positions set by hand ---------------------------------------------------------------------------
    def _set_position(self, *, hands: Sequence[str | Sequence[int]], scale: str | Sequence[int] = (),
                      trump: str | int, leader: int = 0, summoner: int | None = None, tricks: int | None = None,
                      jutsu: bool = True, purple_broken: bool = False, round: int | None = None,
                      tricks_played: int = 0, played: str | Sequence[int] = (), **unknown: Any) -> None:
        """A round set up by hand from its deal, for tests and examples (`set_position`).

        `hands` (one per seat) and the Inverted Scale (in its order: positions scale1 on) are card labels separated
        by spaces ("R12 P3") or card ids; `trump` is a colour letter (P, R, B, G) or its number; `leader` leads the
        first trick. The round then opens with the Summoning Jutsu by `summoner`, else with the countdown and the
        jutsu it finds (`jutsu=True`), else with the tricks (`jutsu=False`). `tricks` makes the round that many
        tricks long, `round` numbers it, and `tricks_played`, `played` (the cards gone in those tricks) and
        `purple_broken` start it part-way through.
        """
        if unknown:
            raise BadArgument(f"a dragon position has no {', '.join(sorted(unknown))}; it is set from hands, scale, "
                              "trump, leader, summoner, tricks, jutsu, purple_broken, round, tricks_played, played")
        n = self.players
        if len(hands) != n:
            raise BadArgument(f"give one hand per player: {n}, not {len(hands)}")
        for what, seat in (("leader", leader), ("summoner", summoner)):
            if seat is not None and not (seat.__class__ is int and 0 <= seat < n):
                raise BadArgument(f"{what} {seat!r} is not a seat; seats are 0 to {n - 1}")
        if isinstance(trump, str) and len(trump) == 1 and trump.upper() in C.COLOUR_LETTERS:
            trump = C.COLOUR_LETTERS.index(trump.upper())
        if trump not in range(4):
            raise BadArgument(f"trump {trump!r} is not a colour: P, R, B or G (or 0 to 3)")
        # Every check before the first change: a script refused leaves the state as it was.
        dealt = [sorted(_scripted_cards(hand, f"hand {s}")) for s, hand in enumerate(hands)]
        scale_cards = _scripted_cards(scale, "scale")
        gone = _scripted_cards(played, "played")
        if summoner is None and jutsu and not any(COLOUR_OF[c] == trump for hand in dealt for c in hand):
            raise BadArgument("no hand holds a trump, so the countdown finds nobody: give jutsu=False")
        self.hands = dealt
        self.scale = scale_cards
        self.trump = trump
        self.setup = SETUPS[n] if tricks is None else SETUPS[n]._replace(hand=tricks)
        if round is not None:
            self.round = round
        self.piles = [[] for _ in range(n)]
        self.trick = []
        self.tricks_played = tricks_played
        self.tokens = [0] * n
        self.head = None
        self.taken = [[] for _ in range(n)]
        self.played = 0
        for c in gone:
            self.played |= 1 << c
        self.purple_broken = purple_broken
        self.void = [0] * n
        self.played_by = [NOBODY] * C.DECK_SIZE
        self.returned = []
        self.given = [NOBODY] * n
        self.received = [NOBODY] * n
        self.countdown = 0
        self.soul = False
        self.gifts = {}
        self.returns_left = []
        self.leader = self.turn = leader
        self.summoner = summoner
        self.jutsu = None
        if summoner is not None:
            self.phase, self.picks_left = SUMMON_PICK, 2
        elif jutsu:
            self._find_practitioner()
        else:
            self.phase = PLAY


def _scripted_cards(script: str | Sequence[int], what: str) -> list[int]:
    """The cards of a scripted place: labels separated by spaces ("R12 P3"), or card ids."""
    if isinstance(script, str):
        words = script.upper().split()
        unknown = [w for w in words if w not in LABEL_TO_CARD]
        if unknown:
            raise BadArgument(f"{what}: {unknown[0]!r} is not a card (cards are P1 to G12)")
        return [LABEL_TO_CARD[w] for w in words]
    cards_ = list(script)
    if not all(c.__class__ is int and 0 <= c < C.DECK_SIZE for c in cards_):
        raise BadArgument(f"{what}: give card labels such as 'R12', or card ids 0 to {C.DECK_SIZE - 1}")
    return cards_


class DragonGame(Game):
    id = "dragon"
    title = "Slaughter the Dragon, Ha"
    summary = "Trick-taking for 3-5: take Dragon tokens (+5), avoid purple cards, or take them all."
    player_counts = (3, 4, 5)
    default_players = 4
    options = (
        Option("advanced", False, "Advanced Variant: a purple trump brings Soul-Sucking Jutsu instead of "
               "Bodily Division"),
    )

    state_class = DragonState
    action_labels = ACTION_LABELS
    observation_size = OBS_SIZE
    renderer = staticmethod(render)
