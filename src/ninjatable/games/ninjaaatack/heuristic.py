"""A heuristic Ninjaaa'Tack player: collect one family with your teammate, say which in plain sight, and
tap the gong when the odds of the call being right are worth what a wrong call costs.

Table-talk convention (shared by every heuristic seat): after a pass, a seat holding 2 or more cards of the
family it collects makes the gesture that names that family in its partnership's codebook; otherwise it stays
silent. Teammates read it to agree on a family; opponents see only that a gesture was made. A partner seen to
break the convention (trust.py) is no longer read: the bot then plays as with a silent partner.
"""

from __future__ import annotations

import random
from typing import Any

from ...core import Bot, SeatInfo, win_chances
from .actions import attack_action, ninjaaa_action
from .cards import clan_size
from .convention import (
    SILENT,
    UNKNOWN,
    choose_pass_among,
    convention_signal,
    gesture_action,
    latest_signals,
    mate_of,
    own_hand,
    own_team,
    partner_promise,
)
from .reading import WINDOW, read_deals, read_hands
from .trust import PartnerTrust

# Weight of a sampled world in which a seat's gesture would have been a bluff (random players bluff a lot).
BLUFF_WEIGHT = 0.25
# Deals read per gong decision when a search plays this bot in its rollouts; and worlds sampled instead where a
# world does not hold the passes the seat saw.
ROLLOUT_READING = 16
ROLLOUT_SAMPLES = 6
# The static estimate, measured in 1,600 games at 4 players between heuristic partnerships calling at fixed
# thresholds (the win rate at the start of each round, by points and Penalty): a seat's standing is NEAR_WIN /
# (points it still needs), so that a point counts for more the nearer it brings the target, less PENALTY_COST
# for a Penalty in the round being played (it costs little: most points come from Attack!, which it does not
# touch), and a seat one unit of standing ahead is e times as likely to win. Fits every measured cell within
# 0.011. (Between bots calling at the break-even a Penalty costs nothing measurable; without a cost, though, a
# call at 0 points would be worth making on any odds.)
NEAR_WIN = 1.55
PENALTY_COST = 0.06
# How far the odds must clear a call's break-even (`call_break_even`) before the bot taps the gong: waiting may
# bring better odds (measured: 0.05 beat 0, 0.1 and 0.15 between heuristic partnerships).
MARGIN = 0.05
# The least odds at which the bot gambles on the gong when it does not know: a call more likely wrong than
# right loses as many points as it wins (at 0 points it buys a Penalty round), and with more than two teams
# such gambles kept every score hovering near 0 (games ended by the round safeguard). Measured in
# benchmarks/ninjaaatack_rounds.py; the partnership's certain calls (`known_call`) do not need it.
GAMBLE_FLOOR = 0.6
# Deals read from the round (reading.py), and the largest table where the reading is used by default: with
# more players the gestures allow far more deals than a reading keeps, and it then believes a few of them too
# firmly (more wrong Attack! calls than the gesture weights alone, measured at 5, 6 and 8 players).
READING = 128
CANDIDATE_READING = 512
READING_MAX_PLAYERS = 4
# Sampled worlds from which one is drawn by its gestures, where the table is not read; and how many such
# worlds a search plays in (sampling worlds for 8 players is slow, and these are only loosely told apart).
WEIGHED_DRAW = 4
WEIGHED_POOL = 16


class NinjaaaTackHeuristic(Bot):
    """Collect, signal, and call the gong on sampled-world odds."""

    name = "heuristic"

    def __init__(
        self,
        seed: int | None = None,
        samples: int = 16,
        margin: float = MARGIN,
        reading: int | None = None,
        floor: float = GAMBLE_FLOOR,
        signals: bool = True,
        trust: bool = True,
        **params: Any,
    ) -> None:
        super().__init__(
            seed, samples=samples, margin=margin, reading=reading, floor=floor, signals=signals, trust=trust, **params
        )
        self.floor = floor
        # False: the partner's gestures are always read by the convention (as before trust was learnt; and in a
        # search's rollouts, where one bot plays a seat of many worlds and no game is followed from its start).
        self.learns_trust = trust
        self.partners = PartnerTrust()
        self.signals = signals  # False: always silent (a partnership that does not talk, for comparison)
        self.reading = reading  # None: `default_reading` deals at up to READING_MAX_PLAYERS players, else none
        self.default_reading = READING
        self.samples = samples
        self.margin = margin

    def act(self, info: SeatInfo) -> int:
        view = info.view()
        legal = info.legal_actions()
        seat = info.seat
        n = info.players
        hand = own_hand(view, n)
        team = own_team(view, seat)
        need = clan_size(team)
        ninjaaa = ninjaaa_action(n)
        ignored = self._untrusted(view, seat, team, n)
        # A clan in my own hand is a certain point, Penalty or not.
        if max(hand) >= need:
            return ninjaaa
        signals = without(latest_signals(view, n), ignored)
        call = known_call(view, seat, hand, team, signals, legal)
        if call is None:
            call = self._best_call(info, view, legal, ninjaaa, ignored)
        if call is not None:
            return call
        if view["step"] == "pass":
            left = (seat + 1) % n
            return self.rng.choice(choose_pass_among(hand, seat, team, left, signals))
        family = convention_signal(hand, seat, team, signals) if self.signals else SILENT
        return gesture_action(view, family, n)

    def _untrusted(self, view: dict[str, Any], seat: int, team: tuple[int, ...], n: int) -> frozenset[int]:
        """The partner, if its gestures have been seen to break the convention too often to be read; else none."""
        if not self.learns_trust:
            return frozenset()
        self.partners.observe(view, seat, n)
        partner = mate_of(seat, team)
        return frozenset() if self.partners.trusted(partner) else frozenset([partner])

    @classmethod
    def for_rollouts(cls, seed: int) -> NinjaaaTackHeuristic:
        """In a search's rollouts: a reading of few deals, since rollouts are many (where a world does not hold the
        passes a seat saw, a few sampled worlds weighed by the gestures instead), and the partners trusted."""
        bot = cls(seed=seed, samples=ROLLOUT_SAMPLES, trust=False)
        bot.default_reading = ROLLOUT_READING
        return bot

    @staticmethod
    def estimate(state) -> list[float]:
        """Each seat's chance to win from the points it still needs, a Penalty this round counting against it."""
        return win_shares(state.points, state.penalised, state.target)

    @staticmethod
    def world_weight(view: dict[str, Any], world, seat: int) -> float:
        """How well a world fits the gestures under the convention: each gesture it makes a bluff counts less."""
        return _weight(latest_signals(view, world.players), world, seat)

    def _worlds(self, info: SeatInfo, view: dict[str, Any], ignored: frozenset[int] = frozenset()):
        """Weighted worlds for the gong odds: read from the round (see `reading_particles`), else weighed by the
        gestures; the gestures of the `ignored` seats are not read."""
        particles = reading_particles(self.reading, info.players, self.default_reading)
        if particles and knows_its_passes(view):
            world = info.sample_world(self.rng)
            for hands in read_hands(view, info.seat, info.players, self.rng, particles, ignored=ignored):
                world._place_hands(hands)  # read from the round: they keep the seat's hand and every card
                yield world, 1.0
            return
        latest = without(latest_signals(view, info.players), ignored)  # the same for every world: read once
        for _ in range(self.samples):
            world = info.sample_world(self.rng)
            yield world, _weight(latest, world, info.seat)

    @classmethod
    def believed_worlds(cls, info: SeatInfo, rng: random.Random, count: int) -> list:
        """`count` worlds for a search: hands read from the round (see reading.py) where the bot reads it, else
        each drawn from a few sampled worlds by the gestures (`world_weight`). The seats that already decided
        this step have not decided yet in them: the search's own players decide for them, the gong included."""
        view = info.view()
        if reading_particles(None, info.players):
            worlds = []
            # The deals come out in random order: the first `count` are a fair draw from the reading.
            for hands, passes in read_deals(view, info.seat, info.players, rng, max(count, READING))[:count]:
                world = info.sample_world(rng)
                world.place_hands(info.seat, hands, passes)
                worlds.append(world)
        else:
            worlds = [_weighed_world(info, view, rng) for _ in range(min(count, WEIGHED_POOL))]
        for world in worlds:
            # Their true choices are hidden; a choice drawn here by the convention would never tap the gong on
            # the odds, as the players do, and the search would take a step's calls for its own alone.
            world.reopen_choices(info.seat)
        return worlds

    @classmethod
    def search_candidates(cls, info: SeatInfo, legal: list[int]) -> list[int]:
        """For a search: of the calls, only the one with the best odds (the others are the same gamble on worse
        odds, which a search would only judge on fewer worlds); at a signal step, the convention's gesture
        alone, since any other only misleads the teammate. At a pass step, every card."""
        view = info.view()
        n = info.players
        seat = info.seat
        ninjaaa = ninjaaa_action(n)
        keep = [a for a in legal if a < ninjaaa]
        if view["step"] != "pass":
            hand, team = own_hand(view, n), own_team(view, seat)
            gesture = gesture_action(view, convention_signal(hand, seat, team, latest_signals(view, n)), n)
            keep = [a for a in keep if a == gesture]
        if any(a >= ninjaaa for a in legal):
            # Read from the view alone, with a fixed seed: the same for every world the seat cannot tell apart;
            # more deals than for the bot's own call, since two calls' odds are often close.
            reader = cls(seed=0, reading=CANDIDATE_READING if reading_particles(None, n) else None)
            best, _ = reader._call_odds(info, view, legal, ninjaaa)
            keep.append(best)
        return keep

    # --- the gong ----------------------------------------------------------------------------------------------
    def _best_call(
        self, info: SeatInfo, view: dict[str, Any], legal: list[int], ninjaaa: int, ignored: frozenset[int]
    ) -> int | None:
        """The call with the best odds in the worlds the bot believes, if they clear the threshold."""
        best, odds = self._call_odds(info, view, legal, ninjaaa, ignored)
        # Worth it when the odds beat the break-even by a margin (waiting may give better odds later), and are
        # good enough to play for the game rather than the round (GAMBLE_FLOOR).
        threshold = max(call_break_even(view, info.seat) + self.margin, self.floor)
        return best if odds >= threshold else None

    def _call_odds(
        self,
        info: SeatInfo,
        view: dict[str, Any],
        legal: list[int],
        ninjaaa: int,
        ignored: frozenset[int] = frozenset(),
    ) -> tuple[int, float]:
        """The call most likely to be right in the worlds the bot believes (not reading the `ignored` seats'
        gestures), and its odds."""
        seat = info.seat
        attacks = [a for a in legal if a > ninjaaa]
        attack_all = attack_action(info.players)
        first_attack = attack_all + 1  # the house rule's Attack! on one team: this id plus one of its seats
        wins = {a: 0.0 for a in [ninjaaa, *attacks]}
        total = 0.0
        for world, weight in self._worlds(info, view, ignored):
            total += weight
            if world.ninjaaa_points(seat):
                wins[ninjaaa] += weight
            for a in attacks:
                right = world.attack_points(seat) if a == attack_all else world.clans(world.team_of[a - first_attack])
                if right:
                    wins[a] += weight
        best = max(wins, key=wins.get)
        return best, wins[best] / total


def known_call(
    view: dict[str, Any], seat: int, hand: list[int], team: tuple[int, ...], latest: dict[int, int], legal: list[int]
) -> int | None:
    """A call the seat knows to be right if the players follow the convention, or None.

    Ninjaaa!: the teammate promised a family (it holds 2 or more and keeps them) and the seat holds 2 more,
    unless the team is under the Penalty (then the pair's cards do not count together). Attack!: the two
    players of an enemy pair both last made the same gesture: one code, so one family, 2 or more each.
    """
    n = view["players"]
    promised = partner_promise(seat, team, latest)
    penalised = set(view["penalised"])
    barred = seat in penalised if n % 2 else bool(penalised.intersection(team))
    if promised >= 0 and hand[promised] >= 2 and not barred:
        return ninjaaa_action(n)
    attack = attack_action(n)
    if attack in legal and any(len(t["seats"]) == 2 and seat not in t["seats"] and same_gesture(view, t["seats"])
                               for t in view["teams"]):
        return attack
    return None


def without(latest: dict[int, int], ignored: frozenset[int]) -> dict[int, int]:
    """The latest gestures with the `ignored` seats' left out, as if those seats had stayed silent."""
    if not ignored:
        return latest
    return {s: f for s, f in latest.items() if s not in ignored}


def same_gesture(view: dict[str, Any], seats: list[int]) -> bool:
    """Whether these seats' latest gestures this round are one and the same (silence keeps the last one)."""
    last: dict[int, str] = {}
    for entry in view["signals"]:
        last[entry["seat"]] = entry["signal"]
    gestures = [last.get(s) for s in seats]
    return gestures[0] is not None and all(g == gestures[0] for g in gestures)


def reading_particles(reading: int | None, players: int, default: int = READING) -> int:
    """How many deals to read: as asked, else `default` at tables of up to READING_MAX_PLAYERS, else none."""
    if reading is not None:
        return reading
    return default if players <= READING_MAX_PLAYERS else 0


def knows_its_passes(view: dict[str, Any]) -> bool:
    """Whether a view holds the passes a reading replays (a world sampled for another seat may not: the seat to
    its right, say, passed it a card it knows, but received one it does not)."""
    return all(entry["passed"] is not None and entry["received"] is not None for entry in view["my_passes"][-WINDOW:])


def _weighed_world(info: SeatInfo, view: dict[str, Any], rng: random.Random):
    """One of WEIGHED_DRAW sampled worlds, drawn in proportion to how well it fits the gestures."""
    worlds = [info.sample_world(rng) for _ in range(WEIGHED_DRAW)]
    latest = latest_signals(view, info.players)
    weights = [_weight(latest, w, info.seat) for w in worlds]
    return rng.choices(worlds, weights)[0]


def _weight(latest: dict[int, int], world, seat: int) -> float:
    """`NinjaaaTackHeuristic.world_weight`, from the latest gestures as the seat reads them (`latest_signals`)."""
    weight = 1.0
    for s, family in latest.items():
        held = world.hand_counts(s)
        # A gesture whose meaning is unknown still says its maker holds 2 of some family.
        if s != seat and (max(held) if family == UNKNOWN else held[family]) < 2:
            weight *= BLUFF_WEIGHT
    return weight


def win_shares(points: list[int], penalised: frozenset[int] | set[int], target: int) -> list[float]:
    """Each seat's chance to win (see NEAR_WIN): a point counts more the nearer the target it brings a seat."""
    values = [NEAR_WIN / max(target - p, 1) - (PENALTY_COST if s in penalised else 0.0) for s, p in enumerate(points)]
    return win_chances(values, 1.0)


def call_break_even(view: dict[str, Any], seat: int) -> float:
    """The odds at which a call by `seat` is worth as much to its team as no call, by `win_shares`.

    Right, the team scores a point (counted as one clan); wrong, it loses one, or with no point to lose
    takes the Penalty (the caller alone in the odd variant). What waiting may bring (better odds later, or
    the other team at the gong first) is left out: the heuristic adds its `margin` for that.
    """
    points = list(view["scores"])
    target = view["points_to_win"]
    team = own_team(view, seat)

    def team_share(after: list[int], penalised: set[int]) -> float:
        if any(after[s] >= target for s in team):
            return 1.0
        shares = win_shares(after, penalised, target)
        return sum(shares[s] for s in team)

    now = team_share(points, set())  # this round's Penalty ends with the round, call or no call
    won = team_share([p + 1 if s in team else p for s, p in enumerate(points)], set())
    losers = team if len(points) % 2 == 0 else (seat,)
    if points[seat] >= 1:
        lost = team_share([p - 1 if s in losers else p for s, p in enumerate(points)], set())
    else:
        lost = team_share(points, set(losers))
    if won <= lost:
        return 1.0
    return min(max((now - lost) / (won - lost), 0.0), 1.0)
