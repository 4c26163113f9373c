"""Trust in a partner's gestures: the heuristic learns within a game whether its partner follows the codebook."""

from __future__ import annotations

from ninjatable.bots import play_game
from ninjatable.core import SeatInfo, get_game
from ninjatable.games.ninjaaatack.actions import ninjaaa_action, silence_action
from ninjatable.games.ninjaaatack.cards import SIGNALS
from ninjatable.games.ninjaaatack.heuristic import NinjaaaTackHeuristic
from ninjatable.games.ninjaaatack.trust import TRUST_FLOOR, PartnerTrust, held

GAME = get_game("ninjaaatack")
ME, LEFT, PARTNER, RIGHT = range(4)
NINJAAA = ninjaaa_action(4)


def gesture_for(state, seat: int, family: str | None) -> str:
    """The action label of the gesture that names `family` in `seat`'s codebook; None: one that names nothing."""
    code = state.view(seat)["codebook"]
    if family is None:
        return "signal " + next(g for g in SIGNALS if g not in code)
    return "signal " + next(g for g, f in code.items() if f == family)


def step(state, bot: NinjaaaTackHeuristic, actions: dict[int, str]) -> int:
    """Let the bot decide for Player 1 (its choice is returned, not played), then play the scripted step."""
    choice = bot.act(SeatInfo(state, ME))
    for seat in range(4):
        state.apply(seat, state.parse_action(actions[seat]))
    return choice


def passes(family: str) -> dict[int, str]:
    return dict.fromkeys(range(4), f"pass {family}")


def gestures(state, by_partner: str) -> dict[int, str]:
    return {ME: "silence", LEFT: "silence", PARTNER: by_partner, RIGHT: "silence"}


def promise_then_a_call(left_hand: list[str], partner_hand: list[str]):
    """Player 3 (holding `partner_hand`) gestures Crane after the first pass; Player 2's Attack! then reveals every
    hand, and the bot of Player 1 reads that call in the next round. The bot, the state and its trust before."""
    state = GAME.new_state(4, seed=3)
    state.set_position(hands=[
        ["Fox", "Fox", "Tiger", "Dragon"],
        left_hand,
        partner_hand,
        ["Fox", "Crane", "Tiger", "Dragon"],
    ])
    bot = NinjaaaTackHeuristic(seed=1)
    step(state, bot, passes("Dragon"))
    step(state, bot, gestures(state, gesture_for(state, PARTNER, "Crane")))
    before = bot.partners.trust(PARTNER)
    step(state, bot, {**passes("Tiger"), LEFT: "attack"})
    bot.act(SeatInfo(state, ME))  # the next round: the bot reads the call that ended the last one
    return bot, state, before


def test_a_promise_the_revealed_hand_contradicts_lowers_the_trust():
    # Player 3 gestures Crane holding a single Crane.
    bot, state, before = promise_then_a_call(["Crane", "Crane", "Tiger", "Dragon"], ["Fox", "Crane", "Tiger", "Dragon"])
    assert state.view(ME)["last_call"]["revealed"]["Player 3"] == "1x Fox, 1x Crane, 1x Tiger, 1x Dragon"
    assert bot.partners.trust(PARTNER) < before
    assert bot.partners.trust(PARTNER) < TRUST_FLOOR
    assert not bot.partners.trusted(PARTNER)


def test_a_kept_promise_keeps_the_trust():
    bot, _, before = promise_then_a_call(["Fox", "Crane", "Tiger", "Dragon"], ["Crane", "Crane", "Tiger", "Dragon"])
    assert bot.partners.trust(PARTNER) > before
    assert bot.partners.kept == {PARTNER: 1} and not bot.partners.broken


def after_an_off_code_gesture_then_a_promise():
    """Player 3 makes a gesture its codebook gives no meaning, then the one that names Crane; Player 1 holds 2
    Crane, so the promise alone would make a clan."""
    state = GAME.new_state(4, seed=3)
    state.set_position(
        hands=[
            ["Crane", "Crane", "Fox", "Tiger"],
            ["Fox", "Fox", "Tiger", "Dragon"],
            ["Crane", "Fox", "Tiger", "Dragon"],
            ["Crane", "Tiger", "Dragon", "Dragon"],
        ]
    )
    return state


def test_with_low_trust_the_heuristic_does_not_call_on_the_partners_gestures_alone():
    choices = {}
    for learns in (True, False):
        state = after_an_off_code_gesture_then_a_promise()
        bot = NinjaaaTackHeuristic(seed=1, trust=learns)
        step(state, bot, passes("Tiger"))
        step(state, bot, gestures(state, gesture_for(state, PARTNER, None)))
        step(state, bot, passes("Tiger"))
        step(state, bot, gestures(state, gesture_for(state, PARTNER, "Crane")))
        choices[learns] = bot.act(SeatInfo(state, ME))
        if learns:
            assert not bot.partners.trusted(PARTNER)
    assert choices[False] == NINJAAA  # the promise read by the convention: a clan for certain
    assert choices[True] < NINJAAA  # not trusted: no call, a card passed


def test_a_partner_that_follows_the_code_is_trusted_from_the_start():
    state = after_an_off_code_gesture_then_a_promise()
    bot = NinjaaaTackHeuristic(seed=1)
    step(state, bot, passes("Tiger"))
    step(state, bot, gestures(state, "silence"))
    step(state, bot, passes("Tiger"))
    step(state, bot, gestures(state, gesture_for(state, PARTNER, "Crane")))
    assert bot.partners.trusted(PARTNER)
    assert bot.act(SeatInfo(state, ME)) == NINJAAA


def test_a_view_seen_twice_counts_once_and_a_new_game_starts_afresh():
    state = after_an_off_code_gesture_then_a_promise()
    trust = PartnerTrust()
    for seat, label in passes("Tiger").items():
        state.apply(seat, state.parse_action(label))
    for seat, label in gestures(state, gesture_for(state, PARTNER, None)).items():
        state.apply(seat, state.parse_action(label))
    view = state.view(ME)
    trust.observe(view, ME, 4)
    trust.observe(view, ME, 4)
    assert trust.broken == {PARTNER: 1}
    trust.observe(GAME.new_state(4, seed=4).view(ME), ME, 4)
    assert trust.broken == {}


def test_held_reads_a_revealed_hand():
    assert held("2x Fox, 1x Crane, 1x Owl", 0) == 2
    assert held("2x Fox, 1x Crane, 1x Owl", 1) == 1
    assert held("2x Fox, 1x Crane, 1x Owl", 2) == 0


class RandomGestures(NinjaaaTackHeuristic):
    """The heuristic with a random gesture or silence at every signal step."""

    def act(self, info: SeatInfo) -> int:
        action = super().act(info)
        if action < NINJAAA and info.view()["step"] == "signal":
            return self.rng.randrange(4, silence_action(4) + 1)
        return action


def test_in_a_whole_game_a_random_gesturer_loses_the_trust_a_heuristic_keeps():
    for partner, trusted in ((RandomGestures, False), (NinjaaaTackHeuristic, True)):
        state = GAME.new_state(4, seed=11)
        bots = [
            partner(seed=s, reading=16) if s == PARTNER else NinjaaaTackHeuristic(seed=s, reading=16) for s in range(4)
        ]
        play_game(state, bots)
        assert bots[ME].partners.trusted(PARTNER) is trusted
