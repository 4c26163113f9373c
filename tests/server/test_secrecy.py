"""No leaks: every message to a seat holds exactly what the kernel lets that seat see, and no other seat's token.

Whole games of every game are played over the sockets of every seat at once, with a spectator watching; then
the record is replayed and each update a client received is compared with the kernel's `view(seat)` (the
spectator's `view(None)`), legal actions and events for that seat at that move.
"""

from __future__ import annotations

import asyncio
import json

import jsonschema
import pytest
from live import SocketClient, play_randomly, run_async

from ninjatable.core import Record, get_game

CASES = [("dragon", 4), ("dragon", 3), ("oboro", 3), ("clanwars", 2), ("clanwars", 3), ("ninjaaatack", 4),
         ("ninjaaatack", 5), ("gakko", 4)]


def choices(state, seat) -> dict:
    """What the kernel lets the seat do, as an update carries it."""
    if seat is None or state.is_over():
        return {"legal": [], "decision": None, "refused": []}
    decision = state.decision(seat)
    return {"legal": [{"id": a, "label": state.action_label(a)} for a in state.legal_actions(seat)],
            "decision": decision and decision._asdict(),
            "refused": [{"id": a, "label": state.action_label(a), "reason": r}
                        for a, r in sorted(state.refusals(seat).items())]}


def kernel_truth(record: Record) -> tuple[dict[int, dict], dict]:
    """For every move count, each viewer's view, legal actions and number of events, from a replay of the record;
    and each viewer's events at the end."""
    state = record.start()
    viewers = [None, *range(state.players)]
    counts = dict.fromkeys(viewers, 0)

    def snapshot():
        for event in state.events[snapshot.seen:]:
            for v in viewers:
                counts[v] += event.to is None or event.to == v
        snapshot.seen = len(state.events)
        return {v: (state.view(v), choices(state, v), counts[v]) for v in viewers}

    snapshot.seen = 0
    truth = {0: snapshot()}
    for i, (seat, action) in enumerate(record.moves, start=1):
        state.apply(seat, action)
        truth[i] = snapshot()
    final = {v: [{"kind": e.kind, "text": e.text} for e in state.events_for(v)] for v in viewers}
    return truth, final


def drafted(record: Record, version: int, seat: int, steps: list[int]) -> tuple[dict, dict]:
    """The seat's view and choices with its draft played on the state after `version` moves."""
    state = record.start()
    for who, action in record.moves[:version]:
        state.apply(who, action)
    for action in steps:
        state.apply(seat, action)
    return state.view(seat), choices(state, seat)


# Each game at its usual player count in `make test`; the other counts are soak runs (`make soak`, run by CI).
PARAMS = [pytest.param(g, p, id=f"{g}-{p}p", marks=() if p == get_game(g).default_players else pytest.mark.soak)
          for g, p in CASES]


@pytest.mark.parametrize(("game_id", "players"), PARAMS)
def test_every_message_holds_only_what_its_seat_may_see(server, game_id, players):
    check_every_message([server], game_id, players)


def check_every_message(servers: list, game_id: str, players: int) -> None:
    """Play a game of people only, the table created on the first of `servers` and each seat's socket (and the
    spectator's, last) on the next one in turn, and check every frame against what the kernel lets its seat see."""
    server = servers[0]
    names = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]
    # Shorter games than the usual (a Gakko round here ends after 25 turns): every kind of move still comes up.
    options = {"ninjaaatack": {"max_rounds": 8}, "gakko": {"max_turns": 25}}.get(game_id, {})
    # Turn by turn (a live table's timing has its own tests in test_live.py).
    created = server.create(game=game_id, players=players, options=options, seed=17, settings={"live": False},
                            seats=[{"kind": "person", "name": names[s]} for s in range(players)])
    table_id = created["table"]["id"]
    tokens = [t["token"] for t in created["tokens"]]

    async def scenario():
        seats = [SocketClient(servers[s % len(servers)], table_id, token) for s, token in enumerate(tokens)]
        watcher = SocketClient(servers[players % len(servers)], table_id)
        for client in [watcher, *seats]:
            await client.connect()
        played = await asyncio.gather(*(play_randomly(c, seed=s) for s, c in enumerate(seats)),
                                      return_exceptions=True)
        failed = [str(p) for p in played if isinstance(p, BaseException)]
        assert not failed, "\n".join(failed)
        await watcher.wait_for(lambda m: m["type"] == "update" and m["status"] == "finished")
        for client in [watcher, *seats]:
            await client.close()
        return watcher, seats

    watcher, seats = run_async(scenario(), 240)
    with server.http() as http:
        record = Record.from_dict(http.get(f"/api/tables/{table_id}/record").json())
        published = http.get("/api/protocol").json()["server"]  # the protocol as the server publishes it
    update_keys = set(published["$defs"]["Update"]["properties"])
    frames = jsonschema.Draft202012Validator(published)
    truth, final_events = kernel_truth(record)
    for viewer, client in [(None, watcher), *enumerate(seats)]:
        others = [t for s, t in enumerate(tokens) if s != viewer]
        events = final_events[viewer]
        received = 0
        for message in client.messages:
            text = json.dumps(message)
            assert not any(token in text for token in others), "another seat's token was sent"
            frames.validate(message)
            if message["type"] != "update":
                continue
            assert set(message) == update_keys and message["live"] is None
            view, choice, count = truth[message["version"]][viewer]
            if message["draft"]:  # the seat's own unconfirmed steps, played on the state of that version
                view, choice = drafted(record, message["version"], viewer, message["draft"])
            assert message["seat"] == viewer
            assert message["view"] == view
            assert {k: message[k] for k in choice} == choice
            # the events are this viewer's, in order, each sent once, none ahead of the move that made it
            assert message["events_from"] == received
            assert message["events"] == events[received:received + len(message["events"])]
            received += len(message["events"])
            assert received == count
        assert received == len(events)
        assert client.last_update()["status"] == "finished"


def test_the_spectator_view_hides_every_private_value():
    """The kernel's redaction, which the server relies on, leaves no owned secret in view(None) of any game."""
    from ninjatable.core.secrecy import Private

    def privates(data, found):
        if isinstance(data, Private):
            found.append(data)
            privates(data.value, found)
        elif isinstance(data, dict):
            for value in data.values():
                privates(value, found)
        elif isinstance(data, (list, tuple)):
            for value in data:
                privates(value, found)
        return found

    for game_id, players in CASES:
        state = get_game(game_id).new_state(players, seed=3)
        owned = [p for p in privates(state._view(), []) if p.owners]
        assert owned, game_id
        public = json.dumps(state.view(None))
        for secret in owned:
            if isinstance(secret.value, list) and secret.value and secret.value != secret.shown:
                assert json.dumps(secret.value) not in public
