"""Ninjaaa'Tack: pass a card left all at once, signal your teammate in front of everybody, race to the gong.

The round is a loop of two simultaneous steps: a *pass* step (every seat picks a card; then all cards move
one seat to the left at once) and a *signal* step (every seat makes one gesture or stays silent; the
gestures are published together). At either step a seat may instead call the gong: "Ninjaaa!" (my team has
a clan) or "Attack!" (another team has one). A resolved call reveals the hands concerned, scores, and ends the
round; the cards are reshuffled and redealt.

Seats are numbered around the table to the left: the card a seat passes goes to the next seat.

This module holds the state machine (`NinjaaaTackState`, with its view in observe.py and its sampled worlds in
worlds.py) and, at the end, the game's description (`NinjaaaTackGame`).
"""

from __future__ import annotations

import random
from functools import cache
from itertools import chain, compress
from operator import add, getitem
from typing import Any, ClassVar

from ...core import (
    BadArgument,
    Decision,
    Event,
    Game,
    LiveStep,
    LiveTiming,
    Option,
    ScoreLine,
    State,
    seat_name,
    winners_text,
)
from ...core.deal import shuffle
from . import cards as C
from .actions import (
    NO_CHOICE,
    NUM_SIGNALS,
    PASS_STEP,
    PLAYER_COUNTS,
    PUBLIC_CODE,
    SIGNAL_STEP,
    action_label,
    attack_action,
    attack_base,
    codebook_pairs,
    ninjaaa_action,
    round_setup,
    silence_action,
    team_name,
)
from .observe import _OBSERVATION_SHAPES, Observer
from .worlds import WorldSampler, derived_codebook


class BadPosition(BadArgument, ValueError):
    """A scripted position the rules cannot hold (a deal that does not use every card once, a seat that does not
    exist): a wrong value given, so a ValueError as well."""


def draw_codebook(rng: random.Random) -> tuple[int, ...]:
    """A private code: the gestures in a random order; the k-th gesture of the order names family k."""
    order = list(PUBLIC_CODE)
    shuffle(rng, order)
    return tuple(order)


_DECKS = {n: tuple(f for f in range(n) for _ in range(C.CARDS_PER_FAMILY)) for n in PLAYER_COUNTS}
# The deck dealt as codes: a card of family f is 8**f, so the sum of a hand's four codes spells its family counts,
# one octal digit per family (a count is at most 4). A shuffle moves the codes as it would move the families.
_CODE_DECKS = {n: tuple(8**f for f in deck) for n, deck in _DECKS.items()}
# _DEAL_SLICES[n]: the places of the shuffled deck dealt to each seat, in seat order.
_DEAL_SLICES = {n: tuple(slice(s * C.HAND_SIZE, (s + 1) * C.HAND_SIZE) for s in range(n)) for n in _DECKS}
_ALL_SEATS = {n: tuple(range(n)) for n in _DECKS}
_FAMILY_IDS = range(len(C.FAMILIES))

# The private events logged at every pass, made once (events are immutable, so every game shares them):
# _CHOICE_EVENTS[seat][family] and _RECEIVED_EVENTS[seat][passed][received].
_SEATS = range(len(C.FAMILIES))
_CHOICE_EVENTS = tuple(tuple(Event("choice", f"You choose to pass {name}", s) for name in C.FAMILIES) for s in _SEATS)
_RECEIVED_EVENTS = tuple(
    tuple(tuple(Event("received", f"You pass {a} and receive {b}", s) for b in C.FAMILIES) for a in C.FAMILIES)
    for s in _SEATS
)
# The texts, events and rows below are remembered per argument (`functools.cache`): a game tells the same few hands,
# calls and score rows over and over, and the end of a round is a large share of a step.


@cache
def dealt_event(seat: int, counts: tuple[int, ...]) -> Event:
    """The private event telling `seat` the hand it is dealt: its cards by family, in family order."""
    names = [C.FAMILIES[f] for f, c in enumerate(counts) for _ in range(c)]
    return Event("deal", "You are dealt " + ", ".join(names), seat)


class DealtHands(dict):
    """For one player count: a dealt hand's code (the sum of its cards' codes, see `_CODE_DECKS`) to its family
    counts and each seat's deal event for it, made the first time that hand is dealt."""

    def __init__(self, n: int) -> None:
        super().__init__()
        self.n = n

    def __missing__(self, code: int) -> tuple[tuple[int, ...], tuple[Event, ...]]:
        counts = tuple(code >> (3 * f) & 7 for f in range(self.n))
        entry = self[code] = (counts, tuple(dealt_event(s, counts) for s in range(self.n)))
        return entry


_DEALT_HANDS = {n: DealtHands(n) for n in _DECKS}


@cache
def counts_text(counts: tuple[int, ...]) -> str:
    """A hand in words, `2x Fox, 1x Crane, 1x Owl`."""
    return ", ".join(f"{c}x {C.FAMILIES[f]}" for f, c in enumerate(counts) if c) or "nothing"


@cache
def reveal_event(seat: int, counts: tuple[int, ...]) -> Event:
    """The public event showing the hand `seat` reveals at a call."""
    return Event("reveal", f"{seat_name(seat)} reveals {counts_text(counts)}")


@cache
def call_terms(teams: tuple[tuple[int, ...], ...], team: tuple[int, ...], caller: int, action: int) -> tuple:
    """How a call by `caller` (of `team`, among `teams`) is judged and told, remembered per table layout: the seats
    whose hands are revealed, the teams judged (names), the call and its score label in words, the names of
    the tallies it counts (calls, right, wrong), and the gong's log line."""
    n = sum(len(t) for t in teams)
    if action == ninjaaa_action(n):
        target = team
        judged = team_name(team)
        call = "Ninjaaa!"
        label = f"Ninjaaa! by {seat_name(caller)}"
    elif action == attack_action(n):
        target = tuple(s for t in teams if t != team for s in t)
        judged = "; ".join(team_name(t) for t in teams if t != team)
        call = "Attack!"
        label = f"Attack! by {seat_name(caller)}"
    else:
        target = next(t for t in teams if action - attack_base(n) in t)
        judged = team_name(target)
        call = f"Attack! on {team_name(target)}"
        label = f"Attack! by {seat_name(caller)} on {team_name(target)}"
    kind = "ninjaaa" if target == team else "attack"
    tallies = (f"{kind}_calls", f"{kind}_right", f"{kind}_wrong")
    return target, judged, call, label, tallies, f"{seat_name(caller)} taps the gong: {call}"


@cache
def call_order_text(order: tuple[int, ...]) -> str:
    """The gong's log line for simultaneous calls registered in this order of callers."""
    return f"Several calls at once; registered in the order {', '.join(seat_name(s) for s in order)}"


@cache
def wrong_call_label(caller: int, call: str) -> str:
    """`Wrong call by Player 2 (Attack!)`, the score label of a wrong call."""
    return f"Wrong call by {seat_name(caller)} ({call})"


@cache
def score_text(row: tuple[int, ...]) -> str:
    """A score row in words, `Player 1 +1, Player 2 +0, ...`."""
    return ", ".join(f"{seat_name(s)} {p:+d}" for s, p in enumerate(row))


@cache
def score_row(n: int, seats: tuple[int, ...], points: int) -> tuple[int, ...]:
    """A score row of n seats giving `points` to each of `seats` and 0 to the others."""
    return tuple(points if s in seats else 0 for s in range(n))


@cache
def score_entry(label: str, row: tuple[int, ...]) -> tuple[ScoreLine, str]:
    """A line of the score sheet and its log line, `label: Player 1 +1, ...`, as `State.score` words it."""
    return ScoreLine(label, row), f"{label}: {score_text(row)}"


class NinjaaaTackState(Observer, WorldSampler, State):
    """A game of Ninjaaa'Tack in progress."""

    # What a sampled world makes the codes its seat cannot know from (see `pair_code`); a dealt game knows them all.
    unknown_codes: int | None = None

    def __init__(self, game: Game, players: int, seed: int, options: dict[str, Any]) -> None:
        super().__init__(game, players, seed, options)
        n = players
        self.arrival = options["gong_order"] == "arrival"
        self.talk_at_once = options["talk"] == "at_once"
        self.per_team = options["attack"] == "team"
        self.private_codes = options["codebooks"]
        self.max_passes = options["max_passes"]
        self.max_rounds = options["max_rounds"]
        self.target = options["points_to_win"]
        self.points = [0] * n
        # hands[s * n + f]: how many cards of family f seat s holds.
        self.hands = [0] * (n * n)
        self.pending = [NO_CHOICE] * n
        self.waiting = n
        self.step = PASS_STEP
        self.round = 0
        self.passes = 0
        self.lone_wolf = -1
        self.teams: tuple[tuple[int, ...], ...] = ()
        self.calls: tuple[tuple[int, ...], ...] = ()
        self.signal_choices: tuple[tuple[int, ...], ...] = ()
        self.team_names = ""
        self.movers: tuple[int, ...] = ()
        self.team_of: tuple[tuple[int, ...], ...] = ()
        self.penalised: frozenset[int] = frozenset()
        self.penalised_next: frozenset[int] = frozenset()
        # This round's published gestures: (pass number, seat, signal index).
        self.signals: list[tuple[int, int, int]] = []
        # passed[k][s]: the family seat s passed at pass k of this round (-1 where unknown in a sampled world).
        self.passed: list[tuple[int, ...]] = []
        # The last resolved call, for the views: (caller, action, the teams judged (names), revealed hands, points,
        # correct).
        self.last_call: tuple | None = None
        self.over = False
        # codebooks[(a, b)]: the code seats a and b agreed before play (see `draw_codebook`). Drawn from a stream
        # of their own, so the deals of a seed are the same with or without private codes.
        rng = random.Random(f"{seed}:codebooks")
        self.codebooks = {
            pair: draw_codebook(rng) if self.private_codes else PUBLIC_CODE for pair in codebook_pairs(n)
        }
        self._start_round()

    # --- rounds ----------------------------------------------------------------------------------------
    def _start_round(self) -> None:
        """Set up the teams and penalties of the next round, then shuffle and deal."""
        n = self.players
        self.round += 1
        if n % 2:
            # The lone wolf starts with Player 1 and moves one seat to the left each round.
            self.lone_wolf = (self.round - 1) % n
        self.teams, self.team_of, self.calls, self.team_names, self.signal_choices = round_setup(
            n, self.lone_wolf, self.per_team
        )
        # A penalty earned in the previous round applies to this round only.
        self.penalised = self.penalised_next
        self.penalised_next = frozenset()
        self._deal()
        self.step = PASS_STEP
        self.passes = 0
        self.signals = []
        self.passed = []
        self._reset_step()
        self.log("round", f"Round {self.round}: {self.team_names}")
        if self.penalised:
            for s in sorted(self.penalised):
                self.log("penalty", f"{seat_name(s)} is under the Penalty this round")

    def _deal(self) -> None:
        n = self.players
        deck = list(_CODE_DECKS[n])
        shuffle(self.chance(), deck)
        # Speed: each step below runs through the hands in C (`map`, `zip`, `chain`), not a Python loop.
        codes = map(sum, map(deck.__getitem__, _DEAL_SLICES[n]))
        counts, events = zip(*map(_DEALT_HANDS[n].__getitem__, codes))
        self.hands = list(chain.from_iterable(counts))
        self.events += map(getitem, events, _ALL_SEATS[n])  # each seat's own deal event

    def _reset_step(self) -> None:
        n = self.players
        self.pending = [NO_CHOICE] * n
        self.waiting = n
        self.movers = _ALL_SEATS[n]

    # --- the contract ------------------------------------------------------------------------------------
    def to_move(self) -> tuple[int, ...]:
        return () if self.over else self.movers

    def _legal_actions(self, seat: int) -> list[int]:
        if self.over or self.pending[seat] != NO_CHOICE:
            return []
        if self.step == PASS_STEP:
            n = self.players
            row = seat * n
            moves = list(compress(_FAMILY_IDS, self.hands[row : row + n]))  # the families held
            moves += self.calls[seat]
            return moves
        return list(self.signal_choices[seat])

    def _apply(self, seat: int, action: int) -> None:
        n = self.players
        if action < n:
            self.events.append(_CHOICE_EVENTS[seat][action])
        elif action <= n + NUM_SIGNALS:  # a gesture or silence (see `silence_action`)
            if self.talk_at_once:
                self._publish_signal(seat, action)
        elif self.arrival:
            # Live play: the first call to reach the gong is the one resolved, at once.
            self._resolve_call(seat, action)
            return
        self.pending[seat] = action
        self.waiting -= 1
        movers = self.movers
        i = movers.index(seat)
        self.movers = movers[:i] + movers[i + 1 :]
        if self.waiting == 0:
            self._finish_step()

    def is_over(self) -> bool:
        return self.over

    def _decision(self, seat: int) -> Decision:
        alone = len(self.team_of[seat]) == 1
        if self.step == PASS_STEP:
            return Decision("Choose a card to pass to the left, or tap the gong")
        if alone:
            return Decision("You are the lone wolf: make a gesture or stay silent, or tap the gong")
        return Decision("Make a gesture to your teammate or stay silent, or tap the gong")

    def live_step(self) -> LiveStep | None:
        """Passes are held and made together on a count; gestures are shown as made; the gong is first come."""
        if self.over or not self.arrival:
            return None
        n = self.players
        calls = frozenset(range(ninjaaa_action(n), attack_base(n) + n))
        if self.step == PASS_STEP:
            return LiveStep(held=True, instant=calls, timing="pass")
        return LiveStep(held=False, instant=calls, default=silence_action(n), timing="talk")

    def scores(self) -> list[int]:
        return list(self.points)

    def winners(self) -> list[int]:
        """Every seat that reached the target (teammates together); the best totals after the safeguard."""
        if not self.over:
            return []
        reached = [s for s, p in enumerate(self.points) if p >= self.target]
        if reached:
            return reached
        best = max(self.points)
        return [s for s, p in enumerate(self.points) if p == best]

    # --- a decision step completes -------------------------------------------------------------------------
    def _finish_step(self) -> None:
        n = self.players
        pending = self.pending
        first_call = ninjaaa_action(n)
        callers = [s for s, a in enumerate(pending) if a >= first_call] if max(pending) >= first_call else None
        if callers:
            if len(callers) > 1:
                # Simultaneous calls: a seeded random draw orders them; the first registered is resolved.
                order = callers[:]
                shuffle(self.chance(), order)
                self.log("gong", call_order_text(tuple(order)))
                callers = order
            self._resolve_call(callers[0], self.pending[callers[0]])
        elif self.step == PASS_STEP:
            self._pass_cards()
        else:
            self._publish_signals()

    def _pass_cards(self) -> None:
        """Every chosen card moves one seat to the left at the same time."""
        n = self.players
        chosen = tuple(self.pending)
        hands = self.hands
        for s, f in enumerate(chosen):
            hands[s * n + f] -= 1
            hands[((s + 1) % n) * n + f] += 1
        self.passed.append(chosen)
        self.passes += 1
        self.log("pass", f"Pass {self.passes}: every player passes a card to the left")
        self.events += [_RECEIVED_EVENTS[s][f][chosen[s - 1]] for s, f in enumerate(chosen)]
        self.step = SIGNAL_STEP
        self._reset_step()

    def _publish_signal(self, seat: int, action: int) -> None:
        """A gesture is seen by everybody, attributed to its maker."""
        n = self.players
        if action != silence_action(n):
            self.signals.append((self.passes, seat, action - n))
            self.log("signal", f"{seat_name(seat)} signals: {C.SIGNALS[action - n]}")

    def _publish_signals(self) -> None:
        """The gestures are seen by everybody (already, when shown as made); then the next pass or a redeal."""
        if not self.talk_at_once:
            for s, a in enumerate(self.pending):
                self._publish_signal(s, a)
        if self.passes >= self.max_passes:
            self.log("redeal", f"Round {self.round} reaches {self.passes} passes with no call: redealt, no score")
            self._next_round()
            return
        self.step = PASS_STEP
        self._reset_step()

    def _next_round(self) -> None:
        if self.round >= self.max_rounds:
            self.over = True
            self.log("end", f"The game stops after {self.round} rounds (safeguard); the best totals win")
            self.count("stopped_by_safeguard")
            return
        self._start_round()

    # --- the gong ---------------------------------------------------------------------------------------------
    def clans(self, members: tuple[int, ...]) -> int:
        """How many clans the hands of `members` assemble together (4 of a family; 3 for a lone wolf)."""
        n = self.players
        hands = self.hands
        # The counts are compared with the clan size by `map` (`size.__le__(count)` is `count >= size`).
        if len(members) == 1:
            row = members[0] * n
            return sum(map(C.CLAN_SIZE_LONE_WOLF.__le__, hands[row : row + n]))
        a, b = members[0] * n, members[1] * n
        return sum(map(C.CLAN_SIZE_PAIR.__le__, map(add, hands[a : a + n], hands[b : b + n])))

    def solo_clans(self, seats: tuple[int, ...], need: int) -> int:
        """How many families one of `seats` holds alone, `need` cards or more (the Penalty's test)."""
        n = self.players
        hands = self.hands
        return sum(1 for s in seats for f in range(n) if hands[s * n + f] >= need)

    def ninjaaa_points(self, caller: int) -> int:
        """The clans a Ninjaaa! by `caller` is worth (0 makes it a wrong call)."""
        team = self.team_of[caller]
        if not self.penalised.intersection(team):
            return self.clans(team)
        need = C.clan_size(team)
        if self.players % 2:
            # Odd counts: the Penalty is personal, so it binds only a penalised caller, who must hold it alone.
            if caller not in self.penalised:
                return self.clans(team)
            return self.solo_clans((caller,), need)
        return self.solo_clans(team, need)

    def attack_points(self, caller: int) -> int:
        """The clans the rulebook's Attack! by `caller` is worth: every other team's (0 makes it a wrong call)."""
        team = self.team_of[caller]
        return sum(self.clans(t) for t in self.teams if t != team)

    def _resolve_call(self, caller: int, action: int) -> None:
        """Reveal the hands concerned, score the call, and end the round."""
        n = self.players
        team = self.team_of[caller]
        target, judged, call, label, kind, gong = call_terms(self.teams, team, caller, action)
        if action == ninjaaa_action(n):
            points = self.ninjaaa_points(caller)
        elif action == attack_action(n):
            # The rulebook's Attack!: every other team is judged, and every enemy clan scores.
            points = self.attack_points(caller)
        else:
            points = self.clans(target)
        self.log("gong", gong)
        self.count(kind[0])
        self.count(kind[1] if points else kind[2])
        hands = self.hands
        revealed = tuple([(s, tuple(hands[s * n : s * n + n])) for s in target])
        self.events += [reveal_event(s, counts) for s, counts in revealed]
        if points:
            self._score(label, score_row(n, team, points))
        else:
            self._wrong_call(caller, call)
        self.last_call = (caller, action, judged, revealed, points, bool(points))
        self._reset_step()
        if max(self.points) >= self.target:
            self.over = True
            self.log("end", f"The game is over: {winners_text(self.winners())}")
            return
        self._next_round()

    def _wrong_call(self, caller: int, call: str) -> None:
        """A wrong call costs a point; with no point to lose, the Penalty for the next round."""
        n = self.players
        # Even counts: the team shares its score; odd counts: only the caller answers for the call.
        losers = self.team_of[caller] if n % 2 == 0 else (caller,)
        what = wrong_call_label(caller, call)
        if self.points[caller] >= 1:
            self._score(what, score_row(n, losers, -1))
        else:
            self.penalised_next = frozenset(losers)
            self.count("penalties", len(losers))
            self._score(what + ": Penalty next round", score_row(n, (), 0))

    def _score(self, label: str, row: tuple[int, ...]) -> None:
        """Add a row to the running totals and to the score sheet, logged as `State.score` logs it."""
        points = self.points
        points[:] = map(add, points, row)
        line, text = score_entry(label, row)
        self.sheet.append(line)
        self.log("score", text)

    # --- codes and hands -----------------------------------------------------------------------------------------
    def pair_code(self, pair: tuple[int, int]) -> tuple[int, ...]:
        """The codebook the two seats of `pair` agreed. In a sampled world, a code its seat cannot know is made
        when first read (see `WorldSampler._sample_hidden`)."""
        code = self.codebooks[pair]
        if code is None:
            code = self.codebooks[pair] = derived_codebook(self.unknown_codes, pair)
        return code

    def hand_counts(self, seat: int) -> list[int]:
        n = self.players
        return self.hands[seat * n : seat * n + n]

    def counts_text(self, counts: Any) -> str:
        return counts_text(tuple(counts))

    def hand_text(self, seat: int) -> str:
        return self.counts_text(self.hand_counts(seat))

    # --- game-end figures and copies -----------------------------------------------------------------------------
    def _stats(self) -> dict[str, float]:
        return {"rounds": self.round}

    def _copy_mutables(self, other: State) -> None:
        other.points = self.points[:]
        other.hands = self.hands[:]
        other.pending = self.pending[:]
        other.signals = self.signals[:]
        other.passed = self.passed[:]
        other.codebooks = dict(self.codebooks)

    # --- scripting (tests and tutorials) ----------------------------------------------------------------------
    def _set_position(
        self,
        hands: list[list[str]] | list[list[int]] | None = None,
        points: list[int] | None = None,
        penalised: frozenset[int] | set[int] | None = None,
        **unknown: Any,
    ) -> None:
        """A position set by hand; what is not named stays as it is.

        `hands`: the deal, one list of families (names or indices) per seat, 4 each, every card once. `points`:
        each seat's total. `penalised`: the seats under the Penalty this round.
        """
        n = self.players
        if unknown:
            raise BadPosition(
                f"a ninjaaatack position has no {', '.join(unknown)}; it sets hands, points and penalised"
            )
        counts = None
        if hands is not None:
            families = C.FAMILIES[:n]
            deal = f"a deal is {n} hands of {C.HAND_SIZE} cards using each of the {n} families 4 times"
            if len(hands) != n or any(
                len(hand) != C.HAND_SIZE or not all(card in families or card in range(n) for card in hand)
                for hand in hands
            ):
                raise BadPosition(deal)
            counts = [0] * (n * n)
            for s, hand in enumerate(hands):
                for card in hand:
                    f = C.FAMILIES.index(card) if isinstance(card, str) else card
                    counts[s * n + f] += 1
            if any(sum(counts[s * n + f] for s in range(n)) != C.CARDS_PER_FAMILY for f in range(n)):
                raise BadPosition(deal)
        if points is not None and (len(points) != n or not all(isinstance(p, int) for p in points)):
            raise BadPosition(f"points: one whole number per seat, {n} in all")
        if penalised is not None and not all(s in range(n) for s in penalised):
            raise BadPosition(f"penalised: seats from 0 to {n - 1}")
        if counts is not None:
            self.hands = counts
        if points is not None:
            self.points = list(points)
        if penalised is not None:
            self.penalised = frozenset(penalised)


class NinjaaaTackGame(Game):
    id = "ninjaaatack"
    title = "Ninjaaa'Tack"
    summary = (
        "Teams of two pass cards left at the same time, signal each other in plain sight, and race to the "
        "gong: Ninjaaa! when your team holds a whole clan, Attack! when another team does. First to 3 points."
    )
    player_counts = PLAYER_COUNTS
    default_players = 4
    # Every seat decides at every step, so a tree that searched all four would spend its iterations on the
    # others' random calls: they play the heuristic (its table-talk convention) in the tree and in the
    # rollouts, each iteration plays in one of the deals the heuristic reads from the round, and a Penalty
    # counts in the estimate.
    search_defaults: ClassVar[dict[str, Any]] = {
        "iterations": 200,
        "rollout": "heuristic",
        "depth": 40,
        "reward": "win",
        "beliefs": 128,
        "paired": 1,
    }
    options = (
        Option(
            "gong_order",
            "random",
            "calls in one step: 'random' = seeded draw once all have decided; 'arrival' = first submitted wins",
            choices=("random", "arrival"),
        ),
        Option(
            "attack",
            "all",
            "what Attack! claims: 'all' = the rulebook's, some other team holds a clan (every enemy clan scores); "
            "'team' = a house rule, the one named team holds a clan",
            choices=("all", "team"),
        ),
        Option(
            "codebooks",
            True,
            "each partnership agrees in private what its gestures mean (drawn from the game's seed); "
            "false: one public code for everybody (the k-th gesture names the k-th family)",
        ),
        Option(
            "max_passes",
            40,
            "passes after which a round with no call is redealt, unscored",
            minimum=1,
        ),
        Option(
            "max_rounds",
            100,
            "rounds after which the game stops; the best totals win",
            minimum=1,
        ),
        Option("points_to_win", C.POINTS_TO_WIN, "points a team (or player) needs to win", minimum=1, maximum=20),
        Option(
            "talk",
            "together",
            "gestures of one step: 'together' = shown when every seat has decided; 'at_once' = shown as made",
            choices=("together", "at_once"),
        ),
    )
    # People at a live table race to the gong (the first call to arrive wins) and see each gesture as it is made.
    live_options: ClassVar[dict[str, Any] | None] = {"gong_order": "arrival", "talk": "at_once"}
    live_timings = (
        LiveTiming("pass", 15.0, "Time to choose a card to pass (seconds)", "Choose within", "pass!"),
        LiveTiming("talk", 8.0, "Time for gestures after each pass (seconds)", "Talk for"),
    )
    live_race_words = "tapped the gong"
    live_summary = ("In real time: cards are passed together on a count, gestures are seen as they are made, and "
                    "the first to tap the gong wins the race")

    def num_actions(self, players: int) -> int:
        return attack_base(players) + players

    def observation_shape(self, players: int) -> tuple[int, ...]:
        return _OBSERVATION_SHAPES[players]

    def action_label(self, action: int, players: int) -> str:
        return action_label(action, players)

    def _new_state(self, players: int, seed: int, options: dict[str, Any]) -> NinjaaaTackState:
        return NinjaaaTackState(self, players, seed, options)

    def render(self, view: dict[str, Any]) -> Any:
        from .render import render

        return render(view)
