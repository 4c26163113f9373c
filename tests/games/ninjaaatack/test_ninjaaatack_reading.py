"""Reading the table: the hands a seat believes the others hold, if they play the table-talk convention."""

from __future__ import annotations

import random

import pytest

from ninjatable.bots import play_game
from ninjatable.core import SeatInfo, get_game
from ninjatable.games.ninjaaatack.cards import FAMILIES, SIGNALS
from ninjatable.games.ninjaaatack.heuristic import READING, NinjaaaTackHeuristic, knows_its_passes, reading_particles
from ninjatable.games.ninjaaatack.reading import pass_likelihood, read_deals, read_hands

GAME = get_game("ninjaaatack")
FOX, CRANE, TIGER, DRAGON = range(4)
SILENCE = 4 + len(SIGNALS)


def after_one_pass(gestures: dict[int, str], **options) -> object:
    """A scripted deal, one pass (each passes a card the convention allows), then the given gestures."""
    state = GAME.new_state(4, seed=3, **options)
    state.set_position(
        hands=[
            ["Fox", "Crane", "Tiger", "Dragon"],
            ["Crane", "Crane", "Tiger", "Dragon"],
            ["Fox", "Fox", "Tiger", "Dragon"],
            ["Fox", "Crane", "Tiger", "Dragon"],
        ]
    )
    for seat, family in enumerate(["Dragon", "Dragon", "Dragon", "Dragon"]):
        state.apply(seat, state.parse_action(f"pass {family}"))
    for seat in range(4):
        label = gestures.get(seat, "silence")
        state.apply(seat, state.parse_action(label if label == "silence" else f"signal {label}"))
    assert state.view(0)["step"] == "pass"
    return state


def share(pools, test) -> float:
    return sum(1 for hands in pools if test(hands)) / len(pools)


def test_every_read_deal_keeps_the_seat_hand_and_uses_each_card_once():
    state = after_one_pass({1: "wink"})
    for hands in read_hands(state.view(0), 0, 4, random.Random(1), 64):
        assert hands[0] == state.hand_counts(0)
        assert all(sum(h) == 4 for h in hands)
        assert all(sum(h[f] for h in hands) == 4 for f in range(4))


def crane_gesture(seat: int) -> str:
    """The gesture that names Crane in the codebook of `seat`'s partnership (the deal of `after_one_pass`)."""
    return next(g for g, f in after_one_pass({}).view(seat)["codebook"].items() if f == "Crane")


def test_a_gesture_under_the_convention_tells_the_partner_the_family():
    # Player 2 makes the gesture that names Crane in its codebook. Player 4, its partner, reads it; a plain
    # sampled world does not.
    state = after_one_pass({1: crane_gesture(1)})
    read = read_hands(state.view(3), 3, 4, random.Random(1), 200)
    believed = share(read, lambda hands: hands[1][CRANE] >= 2)
    rng = random.Random(1)
    plain = share(
        [[w.hand_counts(s) for s in range(4)] for w in (state.sample_world(3, rng) for _ in range(200))],
        lambda hands: hands[1][CRANE] >= 2,
    )
    assert believed > 0.6
    assert believed > 2 * plain


def test_an_opponents_gesture_says_only_that_it_holds_two_of_some_family():
    # Player 1 does not know Player 2's code: it learns that Player 2 holds a pair, not which.
    state = after_one_pass({1: crane_gesture(1)})
    read = read_hands(state.view(0), 0, 4, random.Random(1), 200)
    assert share(read, lambda hands: max(hands[1]) >= 2) > 0.6
    partner = read_hands(state.view(3), 3, 4, random.Random(1), 200)
    assert share(read, lambda hands: hands[1][CRANE] >= 2) < share(partner, lambda hands: hands[1][CRANE] >= 2)


def test_with_public_codes_everybody_reads_a_gesture_alike():
    state = after_one_pass({1: "wink"}, codebooks=False)  # the second gesture names the second family
    read = read_hands(state.view(0), 0, 4, random.Random(1), 200)
    assert share(read, lambda hands: hands[1][CRANE] >= 2) > 0.6


def test_silence_says_the_player_does_not_hold_two_of_a_family():
    # Everyone else was silent: under the convention nobody holds a pair, so few read deals give anyone one.
    state = after_one_pass({})
    read = read_hands(state.view(0), 0, 4, random.Random(2), 200)
    assert share(read, lambda hands: any(max(hands[s]) >= 2 for s in (1, 2, 3))) < 0.3


def test_a_step_ended_without_a_call_says_nobody_held_a_clan_in_hand():
    state = after_one_pass({})
    read = read_hands(state.view(0), 0, 4, random.Random(3), 200)
    assert share(read, lambda hands: any(max(hands[s]) == 4 for s in (1, 2, 3))) < 0.05


def test_a_gesture_outside_the_convention_blurs_the_reading_but_keeps_it_whole():
    state = after_one_pass({1: "shrug", 2: "fist", 3: "touch-ear"})
    read = read_hands(state.view(0), 0, 4, random.Random(4), 64)
    assert len(read) == 64
    assert all(hands[0] == state.hand_counts(0) for hands in read)


def test_a_pass_is_likelier_when_the_convention_makes_it_and_impossible_from_a_hand_without_it():
    hand = [2, 1, 1, 0]
    assert pass_likelihood(hand, [CRANE, TIGER], CRANE) > pass_likelihood(hand, [CRANE, TIGER], FOX)
    assert pass_likelihood(hand, [CRANE, TIGER], FOX) > 0  # players may depart from the convention
    assert pass_likelihood(hand, [CRANE, TIGER], DRAGON) == 0


def test_believed_worlds_are_worlds_the_seat_cannot_tell_from_the_real_one():
    state = after_one_pass({1: "wink", 3: "nod"})
    mine = state.view(0)
    for world in GAME.heuristic_bot.believed_worlds(SeatInfo(state, 0), random.Random(5), 16):
        seen = world.view(0)
        for key in ("hand", "my_passes", "signals", "step", "scores"):
            assert seen[key] == mine[key]


def test_in_believed_worlds_the_seats_that_decided_this_step_decide_again_for_the_search():
    state = after_one_pass({1: "wink", 3: "nod"})
    state.apply(2, state.parse_action("ninjaaa"))  # hidden from Player 1 until the step completes
    state.apply(3, state.legal_actions(3)[0])
    for world in GAME.heuristic_bot.believed_worlds(SeatInfo(state, 0), random.Random(5), 8):
        assert world.to_move() == (0, 1, 2, 3)
        assert all(world.legal_actions(s) for s in range(4))
    assert state.to_move() == (0, 1)


def test_a_read_deal_keeps_the_passes_the_seat_saw_and_the_hands_they_leave():
    state = after_one_pass({1: "wink"})
    state.apply(0, state.parse_action("pass Crane"))  # a second pass: Player 1 passes Crane, the rest pass next
    for seat in (1, 2, 3):
        state.apply(seat, state.legal_actions(seat)[0])
    seen = state.view(0)["my_passes"]
    for hands, passes in read_deals(state.view(0), 0, 4, random.Random(6), 32):
        assert len(passes) == len(seen) == 2
        for entry, chosen in zip(seen, passes):
            assert entry["passed"] == FAMILIES[chosen[0]]
            assert entry["received"] == FAMILIES[chosen[3]]  # from the right-hand neighbour, Player 4
        # Undoing the replayed passes leaves four whole hands: every seat held each card it passed.
        before = [h[:] for h in hands]
        for chosen in reversed(passes):
            for s, f in enumerate(chosen):
                before[(s + 1) % 4][f] -= 1
                before[s][f] += 1
        assert all(min(h) >= 0 and sum(h) == 4 for h in before)


def test_in_a_believed_world_every_seat_can_read_the_table_too():
    """The search's rollouts let every seat read the round as the heuristic does: each needs the passes it saw."""
    state = after_one_pass({1: "wink", 3: "nod"})
    sampled = state.sample_world(0, random.Random(8))
    assert not knows_its_passes(sampled.view(2))  # a plain sampled world does not know Player 3's passes
    for world in GAME.heuristic_bot.believed_worlds(SeatInfo(state, 0), random.Random(8), 8):
        assert all(knows_its_passes(world.view(s)) for s in range(4))


def test_a_seat_whose_received_card_a_world_does_not_know_plays_there_without_reading_the_round():
    """In a world sampled for Player 1, Player 4 passed the card Player 1 received, but what Player 4 received is
    Player 3's secret: the heuristic playing Player 4 there (as an analysis's rollouts do) must not read."""
    state = after_one_pass({1: "wink", 3: "nod"})
    sampled = state.sample_world(0, random.Random(8))
    last = sampled.view(3)["my_passes"][-1]
    assert last["passed"] == "Dragon" and last["received"] is None
    assert not knows_its_passes(sampled.view(3))
    bot = GAME.heuristic_bot(seed=1)
    assert bot.act(SeatInfo(sampled, 3)) in sampled.legal_actions(3)


def test_placing_passes_that_contradict_the_seat_own_is_refused_and_changes_nothing():
    state = after_one_pass({})
    hands = [state.hand_counts(s) for s in range(4)]
    passed = state.passed[:]
    with pytest.raises(ValueError, match="keep what Player 1 passed and received"):
        state.place_hands(0, hands, [[FOX, DRAGON, DRAGON, DRAGON]])  # Player 1 passed a Dragon
    assert state.passed == passed and [state.hand_counts(s) for s in range(4)] == hands


def test_placing_hands_that_change_the_seat_hand_or_lose_a_card_is_refused_and_changes_nothing():
    state = after_one_pass({})
    before = [state.hand_counts(s) for s in range(4)]
    wrong_own = [[4, 0, 0, 0], [0, 4, 0, 0], [0, 0, 4, 0], [0, 0, 0, 4]]
    with pytest.raises(ValueError, match="keep Player 1's hand"):
        state.place_hands(0, wrong_own)
    lost = [before[0], [4, 0, 0, 0], [0, 4, 0, 0], [0, 0, 4, 0]]
    with pytest.raises(ValueError):
        state.place_hands(0, lost)
    assert [state.hand_counts(s) for s in range(4)] == before


def test_at_a_signal_step_the_search_weighs_the_convention_gesture_and_one_call_only():
    state = after_one_pass({})
    # One more pass (each seat its first card), then the signal step.
    for seat in range(4):
        held = [f for f in range(4) if state.hand_counts(seat)[f]]
        state.apply(seat, held[0])
    info = SeatInfo(state, 0)
    legal = info.legal_actions()
    candidates = GAME.heuristic_bot.search_candidates(info, legal)
    gestures = [a for a in candidates if 4 <= a <= SILENCE]
    assert len(gestures) == 1
    hand = state.hand_counts(0)
    code = {f: g for g, f in state.view(0)["codebook"].items()}
    target = FAMILIES[max(range(4), key=lambda f: (hand[f], -f))]
    expected = SILENCE if max(hand) < 2 else 4 + SIGNALS.index(code[target])
    assert gestures == [expected]
    calls = [a for a in candidates if a > SILENCE]
    assert len(calls) == 1 and calls[0] in legal


def dealt(hand: list[str]) -> object:
    """Right after a deal in which Player 1 holds `hand`."""
    state = GAME.new_state(4, seed=3)
    rest = [f for f in ["Fox", "Crane", "Tiger", "Dragon"] for _ in range(4)]
    for card in hand:
        rest.remove(card)
    state.set_position(hands=[hand, rest[0::3], rest[1::3], rest[2::3]])
    return state


@pytest.mark.parametrize(
    ("hand", "call"),
    [
        # A clan in hand: Ninjaaa! is certain.
        (["Fox", "Fox", "Fox", "Fox"], "ninjaaa"),
        # No Tiger and no Dragon in hand: the other team holds all four of one about one time in four; the
        # teammate both missing Foxes or both missing Cranes less than one time in five.
        (["Fox", "Fox", "Crane", "Crane"], "attack"),
    ],
)
def test_of_the_calls_the_search_weighs_the_likeliest_only(hand, call):
    state = dealt(hand)
    info = SeatInfo(state, 0)
    legal = info.legal_actions()
    candidates = GAME.heuristic_bot.search_candidates(info, legal)
    assert [state.action_label(a) for a in candidates if a >= 4] == [call]
    # Every card in hand is still weighed at a pass step.
    assert [a for a in candidates if a < 4] == [a for a in legal if a < 4]


def test_the_heuristic_reads_the_table_at_four_players_and_uses_the_gesture_weights_beyond():
    assert reading_particles(None, 4) == READING
    assert reading_particles(None, 6) == 0
    assert reading_particles(0, 4) == 0  # asked for by name


# Matches of many games are soak runs (`make soak`, run by CI after `make test`).
@pytest.mark.soak
def test_a_partnership_that_reads_the_table_beats_one_that_only_weighs_the_gestures():
    wins = 0.0
    games = 30
    for game in range(games):
        state = GAME.new_state(4, seed=100 + game)
        readers = (0, 2) if game % 2 == 0 else (1, 3)
        bots = [NinjaaaTackHeuristic(seed=10 * game + s, reading=None if s in readers else 0) for s in range(4)]
        play_game(state, bots)
        winners = state.winners()
        wins += sum(1 for s in winners if s in readers) / len(winners)
    assert wins / games > 0.6
