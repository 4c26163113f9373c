"""The WebSocket protocol has one source: the models of server/protocol.py, published at GET /api/protocol.

A client (the page, a bot of someone's own, these tests) reads the version and the shape of every message from
there; every frame the server sends validates against it, and no message carries a field it does not publish.
"""

from __future__ import annotations

import re

import jsonschema
import pytest
from live import SocketClient, run_async
from pydantic import ValidationError

from ninjatable.server.protocol import PROTOCOL, Update

CLIENT_TYPES = {"hello", "act", "preview", "ping", "say"}
SERVER_TYPES = {"welcome", "update", "preview", "said", "notice", "error", "pong", "rematch"}


def published(server) -> dict:
    with server.http() as http:
        answer = http.get("/api/protocol")
    assert answer.status_code == 200
    return answer.json()


def message_types(schema: dict) -> set[str]:
    """The `type` values of the messages a published union allows."""
    return set(schema["discriminator"]["mapping"])


def test_the_protocol_is_published_with_its_version_and_every_message(server):
    protocol = published(server)
    assert protocol["version"] == PROTOCOL
    assert message_types(protocol["client"]) == CLIENT_TYPES
    assert message_types(protocol["server"]) == SERVER_TYPES
    # The welcome carries the chat so far, and a live step names the seats whose time ran out.
    defs = protocol["server"]["$defs"]
    assert "chat" in defs["Welcome"]["required"]
    assert "timed_out" in defs["LiveOut"]["required"]


def test_no_server_message_has_a_field_it_does_not_publish(server):
    defs = published(server)["server"]["$defs"]
    objects = {name: d for name, d in defs.items() if d.get("type") == "object"}
    assert {"Update", "Welcome", "LiveOut", "SeatInfo", "TableInfo", "TableSettings"} <= set(objects)
    assert all(d.get("additionalProperties") is False for d in objects.values()), [
        name for name, d in objects.items() if d.get("additionalProperties") is not False]
    with pytest.raises(ValidationError, match="extra"):
        Update(version=0, status="waiting", seat=None, view=None, legal=[], decision=None, refused=[], draft=None,
               events=[], events_from=0, seats=[], clocks=[], live=None, secret="x")


def test_the_page_says_hello_in_the_version_the_server_publishes(server):
    with server.http() as http:
        page = http.get("/").text
    found = re.search(r'<meta name="ninjatable-protocol" content="(\d+)">', page)
    assert found and int(found.group(1)) == published(server)["version"]


def test_every_frame_of_a_conversation_matches_the_published_schema(server):
    """A seat of Shinobi no Gakko says hello, pings, chats, previews a step of its split, sends nonsense and plays;
    a spectator who comes later is welcomed with the chat so far. Every frame validates."""
    schema = published(server)
    frames = jsonschema.Draft202012Validator(schema["server"])
    said = jsonschema.Draft202012Validator(schema["client"])
    created = server.create(game="gakko", players=3, seed=5, settings={"bot_pause": 0},
                            seats=[{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "random"},
                                   {"kind": "bot", "bot": "random"}])
    table_id, token = created["table"]["id"], created["tokens"][0]["token"]

    async def scenario():
        async with SocketClient(server, table_id, token) as ann:
            update = await ann.wait_for(lambda m: m["type"] == "update" and m["legal"])
            step = update["legal"][0]["id"]
            sent = [{"type": "ping"}, {"type": "say", "text": "<b>hello</b>"}, {"type": "preview", "actions": [step]}]
            for message in sent:
                said.validate(message)
                await ann.send(message)
            nonsense = {"type": "act", "action": -1}
            assert not said.is_valid(nonsense)  # the published schema refuses what the server refuses
            await ann.send(nonsense)
            await ann.wait_for(lambda m: m["type"] == "error")
            async with SocketClient(server, table_id) as watcher:
                welcome = await watcher.wait_for(lambda m: m["type"] == "welcome")
                await watcher.wait_for(lambda m: m["type"] == "update")
            return ann.messages + watcher.messages, welcome

    messages, welcome = run_async(scenario(), 60)
    for message in messages:
        frames.validate(message)
    assert {"welcome", "update", "pong", "said", "preview", "error"} <= {m["type"] for m in messages}
    assert welcome["chat"] == [{"type": "said", "seat": 0, "name": "Ann", "text": "<b>hello</b>"}]


def test_the_server_guide_documents_every_message_the_protocol_publishes(server):
    from pathlib import Path

    guide = (Path(__file__).parents[2] / "docs" / "server.md").read_text(encoding="utf-8")
    section = guide.split("## The WebSocket protocol", 1)[1].split("\n## ", 1)[0]
    client_part, server_part = section.split("**Server to client**", 1)
    protocol = published(server)
    assert set(re.findall(r'\{"type": "(\w+)"', client_part)) == message_types(protocol["client"])
    assert set(re.findall(r'\{"type": "(\w+)"', server_part)) == message_types(protocol["server"])
    assert f"## The WebSocket protocol (version {protocol['version']})" in guide
