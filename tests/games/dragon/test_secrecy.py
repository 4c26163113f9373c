"""Slaughter the Dragon, Ha: sampled worlds agree with everything a seat saw, and with nothing it did not see."""

from __future__ import annotations

import random

from ninjatable.games.dragon import cards as C
from ninjatable.games.dragon.actions import DONE, PICK_SCALE, SOUL_GIVE, SOUL_RETURN

from .deals import GAME, card, scripted


def act(state, seat: int, *labels: str) -> None:
    for lab in labels:
        state.apply(seat, state.parse_action(lab))


def holder(world, c: int) -> int | str:
    """Where a card lies in a sampled world: a seat's hand or pile, or the scale."""
    for s in range(world.players):
        if c in world.hands[s] or c in world.piles[s]:
            return s
    return "scale" if c in world.scale else "played"


def worlds(state, seat: int, count: int = 150, seed: int = 1):
    rng = random.Random(seed)
    for _ in range(count):
        world = state.sample_world(seat, rng)
        assert world.view(seat) == state.view(seat)
        yield world


# Soul-Sucking deal: seat 2 holds P12 and performs it (purple trump, Advanced Variant); seat 3 has no green.
SOUL_HANDS = [
    "P1 P2 R1 R2 R3 B1 B2 B3 G1 G2 G3",
    "P3 P4 R4 R5 R6 B4 B5 B6 G4 G5 G6",
    "P10 P11 P12 R10 R11 R12 B10 B11 B12 G7 G8",
    "P5 P6 P7 P8 P9 R7 R8 R9 B7 B8 B9",
]
SOUL_SCALE = "G9 G10 G11 G12"


def soul_state():
    state = scripted(SOUL_HANDS, SOUL_SCALE, "P", leader=2, advanced=True)
    assert state.phase == SOUL_GIVE and state.jutsu == 2 and state.countdown == 12
    return state


class TestSoulSuckingWorlds:
    def test_before_anything_moves_the_highest_purple_stays_with_the_practitioner(self):
        state = soul_state()
        act(state, 3, "B9")
        for world in worlds(state, 0):
            assert holder(world, card("P12")) == 2, "the practitioner answered at purple 12 and gave nothing yet"

    def test_during_the_returns_passed_cards_lie_with_the_practitioner_or_those_served(self):
        state = soul_state()
        act(state, 3, "B9")
        act(state, 0, "R2")
        act(state, 1, "G6")
        assert state.phase == SOUL_RETURN
        act(state, 2, "B10")  # to seat 3; seats 0 and 1 have received nothing yet
        places = {"P12": set(), "R2": set()}
        for world in worlds(state, 0):
            where = {lab: holder(world, card(lab)) for lab in places}
            for lab, place in where.items():
                assert place in (2, 3), f"{lab} went through the practitioner, who has only served seat 3"
                places[lab].add(place)
            assert where != {"P12": 3, "R2": 3}, "seat 3 received one card from the practitioner, not two"
        assert places == {"P12": {2, 3}, "R2": {2, 3}}, "both are possible for each card"

    def test_a_receiver_holds_at_most_one_card_that_went_through_the_practitioner(self):
        state = soul_state()
        act(state, 3, "B9")
        act(state, 0, "R2")
        act(state, 1, "G6")
        act(state, 2, "P12", "B11", "B12")  # to seats 3, 0, 1
        seen = set()
        for world in worlds(state, 0, count=300):
            where = (holder(world, card("P12")), holder(world, card("R2")))
            assert where[0] in (1, 2, 3) and where[1] in (1, 2, 3)
            assert where not in ((1, 1), (3, 3)), "each receiver got exactly one card from the practitioner"
            seen.add(where)
        assert (2, 2) in seen and (3, 2) in seen and (2, 1) in seen

    def test_a_receiver_who_plays_one_passed_card_holds_no_other(self):
        state = soul_state()
        act(state, 3, "B9")
        act(state, 0, "R2")
        act(state, 1, "G6")
        act(state, 2, "P12", "B11", "B12")
        act(state, 2, "G8")
        act(state, 3, "P12")  # seat 3 shows it received P12 (and that it has no green)
        for world in worlds(state, 0):
            assert holder(world, card("R2")) in (1, 2), "seat 3's one card from the practitioner was P12"

    def test_the_world_does_not_carry_the_others_secret_exchanges(self):
        state = soul_state()
        act(state, 3, "B9")
        act(state, 0, "R2")
        act(state, 1, "G6")
        act(state, 2, "P12", "B11", "B12")
        gifts_of_3 = set()
        for world in worlds(state, 0):
            known_by_3 = world.view(3)["seats"][3]["known_elsewhere"]
            assert len(known_by_3) <= 1, "empty when the practitioner gave seat 3 its own card back"
            for lab, place in known_by_3:
                assert place == "a hand"
                assert holder(world, card(lab)) in (0, 1, 2), "seat 3's gift went to the practitioner"
                gifts_of_3.add(lab)
            for lab, receiver in world.view(2)["seats"][2]["known_elsewhere"]:
                assert holder(world, card(lab)) == receiver, "the world's practitioner knows whom it gave what"
        assert len(gifts_of_3) > 1, "seat 0 does not know what seat 3 gave"


class TestSummoningWorlds:
    HANDS = (
        "P1 P2 P3 R1 R2 R3 B1 B2 B3 G1 G2",
        "P4 P5 P6 R4 R5 R6 B4 B5 B6 G3 G4",
        "P7 P8 P9 R7 R8 R9 B7 B8 B9 G5 G6",
        "P10 P11 R10 R11 G10 B10 B11 B12 G7 G8 G9",
    )
    SCALE = "P12 R12 G11 G12"

    def test_the_world_does_not_carry_the_summoners_returned_cards(self):
        state = scripted(self.HANDS, self.SCALE, "B", leader=0, summoner=0)
        state.apply(0, PICK_SCALE)
        state.apply(0, PICK_SCALE)
        act(state, 0, "P1", "G1")
        returned = set()
        for world in worlds(state, 1):
            known = world.view(0)["seats"][0]["known_elsewhere"]
            assert len(known) == 2 and all(place == "scale" for _, place in known)
            assert all(card(lab) in world.scale for lab, _ in known), "they lie in the world's scale"
            returned.add(frozenset(lab for lab, _ in known))
        assert len(returned) > 1, "seat 1 does not know which cards went back"

    def test_the_summoner_knows_its_returned_cards_in_every_world(self):
        state = scripted(self.HANDS, self.SCALE, "B", leader=0, summoner=0)
        state.apply(0, PICK_SCALE)
        state.apply(0, PICK_SCALE)
        act(state, 0, "P1", "G1")
        for world in worlds(state, 0):
            assert {holder(world, card("P1")), holder(world, card("G1"))} == {"scale"}


class TestBodilyDivisionWorlds:
    def test_a_void_shown_by_the_first_half_does_not_bind_the_pile(self):
        hands = [
            "P1 P2 P3 R1 R2 R3 B1 B2 B3 G1 G2",
            "P4 P5 P6 R4 R5 R6 B4 B5 B6 G3 G4",
            "P7 P8 P9 R7 R8 R9 B7 B8 B9 G5 G6",
            "P10 P11 R10 R11 R12 B10 B11 B12 G7 G8 G9",
        ]
        state = scripted(hands, "P12 G10 G11 G12", "R", leader=0)
        act(state, 3, "P10", "P11", "R10", "R11", "R12", "B10", "B11", "B12", "G7", "G8")
        state.apply(3, DONE)
        act(state, 0, "B1")
        act(state, 1, "B4")
        act(state, 2, "B7")
        act(state, 3, "G9")  # no blue in the 1st half
        blue_with_3 = False
        for world in worlds(state, 0):
            blue_with_3 |= any(C.COLOUR_OF[c] == C.BLUE for c in world.hands[3])
        assert blue_with_3, "the pile, now the hand, may hold blue"

    def test_the_practitioners_top_trump_is_in_its_hand_or_pile(self):
        hands = [
            "P1 P2 P3 R1 R2 R3 B1 B2 B3 G1 G2",
            "P4 P5 P6 R4 R5 R6 B4 B5 B6 G3 G4",
            "P7 P8 P9 R7 R8 R9 B7 B8 B9 G5 G6",
            "P10 P11 R10 R11 G10 B10 B11 B12 G7 G8 G9",
        ]
        state = scripted(hands, "P12 R12 G11 G12", "R", leader=0)
        assert state.jutsu == 3 and state.countdown == 11
        act(state, 3, "R11")
        state.apply(3, DONE)
        for world in worlds(state, 0):
            assert card("R11") in world.piles[3] or card("R11") in world.hands[3]
            assert card("R12") in world.scale, "nobody answered to R12"


def words(events) -> set[str]:
    return {w.strip(",.;:") for e in events for w in e.text.split()}


class TestEventsAndViews:
    def test_summoning_tells_only_the_summoner_what_it_took_and_returned(self):
        state = scripted(TestSummoningWorlds.HANDS, TestSummoningWorlds.SCALE, "B", leader=0, summoner=0)
        state.apply(0, PICK_SCALE)  # P12
        state.apply(0, PICK_SCALE)  # R12
        act(state, 0, "P1", "G1")
        assert {"P12", "R12", "P1", "G1"} <= words(state.events_for(0))
        for other in (1, 2, 3, None):
            assert not {"P12", "R12", "P1", "G1"} & words(state.events_for(other))
            view = state.view(other)
            assert view["seats"][0]["hand"] is None and view["seats"][0]["known_elsewhere"] == []

    def test_soul_sucking_tells_each_seat_only_its_own_exchanges(self):
        state = soul_state()
        act(state, 3, "B9")
        act(state, 0, "R2")
        act(state, 1, "G6")
        act(state, 2, "P12", "B11", "B12")  # to seats 3, 0, 1
        secret = {0: {"R2", "B11"}, 1: {"G6", "B12"}, 3: {"B9", "P12"}}
        everything = set().union(*secret.values())
        assert everything <= words(state.events_for(2)), "the practitioner knows every card exchanged"
        for seat, mine in secret.items():
            assert words(state.events_for(seat)) & everything == mine
        assert not words(state.events_for(None)) & everything
        assert state.view(0)["seats"][0]["known_elsewhere"] == [["R2", "a hand"]]
        assert sorted(state.view(2)["seats"][2]["known_elsewhere"]) == [["B11", 0], ["B12", 1], ["P12", 3]]
        assert all(state.view(s)["seats"][t]["known_elsewhere"] == [] for s in range(4) for t in range(4) if s != t)

    def test_a_pending_soul_sucking_choice_is_hidden_until_all_have_chosen(self):
        state = soul_state()
        act(state, 3, "B9")
        assert state.view(3)["seats"][3]["gift"] == "B9"
        for other in (0, 1, 2, None):
            assert state.view(other)["seats"][3]["gift"] is None and state.view(other)["seats"][3]["chosen"]
            assert "B9" not in words(state.events_for(other))
        assert state.view(0)["seats"][3]["hand_size"] == 11, "nothing has moved yet"

    def test_the_observation_differs_only_by_what_the_seat_may_see(self):
        # Two deals that differ only in seat 3's hand and the scale look the same to seat 0.
        a = scripted(SOUL_HANDS, SOUL_SCALE, "R", leader=0)
        hands = SOUL_HANDS[:3] + ["P5 P6 P7 P8 P9 R7 R8 R9 B7 B8 G9"]
        b = scripted(hands, "B9 G10 G11 G12", "R", leader=0)
        assert a.jutsu == b.jutsu == 2
        assert (a.observation(0) == b.observation(0)).all()
        assert (a.observation(3) != b.observation(3)).any()


def world_facts(world) -> tuple:
    return (world.hands, world.piles, world.scale, world.returned, world.given, world.received, world.gifts)


def same_worlds(a, b, seat: int, count: int = 20) -> bool:
    """Sampled from two states that look alike to `seat`, with the same random stream, worlds must match."""
    assert a.view(seat) == b.view(seat) and a.events_for(seat) == b.events_for(seat)
    assert (a.observation(seat) == b.observation(seat)).all()
    return all(
        world_facts(a.sample_world(seat, random.Random(k))) == world_facts(b.sample_world(seat, random.Random(k)))
        for k in range(count)
    )


class TestWorldsUseOnlyWhatTheSeatSaw:
    def test_bodily_division_round(self):
        hands = [
            "P1 P2 P3 R1 R2 R3 B1 B2 B3 G1 G2",
            "P4 P5 P6 R4 R5 R6 B4 B5 B6 G3 G4",
            "P7 P8 P9 R7 R8 R9 B7 B8 B9 G5 G6",
            "P10 P11 R10 R11 R12 B10 B11 B12 G7 G8 G9",
        ]
        swapped = hands[:1] + ["P4 P5 P6 R4 R5 R6 B4 B5 G7 G3 G4", hands[2],
                               "P10 P11 R10 R11 R12 B10 B11 B12 B6 G8 G9"]
        states = [scripted(h, "P12 G10 G11 G12", "R", leader=0) for h in (hands, swapped)]
        for state in states:
            act(state, 3, "P10", "R12")
            state.apply(3, DONE)
            act(state, 0, "B1")
        assert same_worlds(*states, seat=0)

    def test_summoning_returns(self):
        states = []
        for returned in (("P1", "G1"), ("P12", "G1")):
            state = scripted(TestSummoningWorlds.HANDS, TestSummoningWorlds.SCALE, "B", leader=0, summoner=0)
            state.apply(0, PICK_SCALE)  # P12
            state.apply(0, PICK_SCALE)  # R12
            act(state, 0, *returned)
            states.append(state)
        assert same_worlds(*states, seat=1)

    def test_soul_sucking_exchanges(self):
        states = []
        for gift_of_3, to_3 in (("B9", "P12"), ("B8", "B10")):
            state = soul_state()
            act(state, 3, gift_of_3)
            act(state, 0, "R2")
            act(state, 1, "G6")
            act(state, 2, to_3, "B11")  # to seats 3 and 0; seat 1 still waits
            states.append(state)
        assert same_worlds(*states, seat=0)
        assert same_worlds(*states, seat=1)


def secrets_fit(world) -> None:
    """Every seat's knowledge in a world is true of that world's deal."""
    for s in range(world.players):
        for lab, place in world.view(s)["seats"][s]["known_elsewhere"]:
            c = card(lab)
            if place == "scale":
                assert c in world.scale
            elif place == "a hand":
                assert c not in world.scale and c not in world.hands[s]
            else:
                assert c in world.hands[place]
    for r, c in enumerate(world.received):
        if c != -1:
            assert c in world.hands[r] or world.played_by[c] == r


def test_worlds_fit_every_seats_secrets_over_random_soul_sucking_rounds():
    checked = 0
    for players in (3, 4, 5):
        seeds = [s for s in range(40) if GAME.new_state(players, seed=s, advanced=True).trump == C.PURPLE][:3]
        for seed in seeds:
            state = GAME.new_state(players, seed=seed, advanced=True)
            rng = random.Random(seed)
            while state.round == 1:
                for seat in range(players):
                    world = state.sample_world(seat, rng)
                    assert world.view(seat) == state.view(seat)
                    secrets_fit(world)
                    checked += 1
                movers = state.to_move()
                mover = movers[rng.randrange(len(movers))]
                state.apply(mover, rng.choice(state.legal_actions(mover)))
    assert checked > 1000

