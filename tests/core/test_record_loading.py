"""Records load strictly: every field's type, range and size is checked, and each refusal is one line."""

from __future__ import annotations

import json
import random

import pytest

from ninjatable.core import BadRecord, Record, get_game


def finished() -> dict:
    state = get_game("oboro").new_state(3, seed=2)
    rng = random.Random(2)
    while not state.is_over():
        seat = state.to_move()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return Record.from_state(state).to_dict()


GOOD = finished()


def with_(**fields) -> str:
    data = {**json.loads(json.dumps(GOOD)), **fields}
    return json.dumps(data)


@pytest.mark.parametrize(("text", "message"), [
    (with_(players=True), '"players" should be an integer'),
    (with_(players=10**9), '"players" should be from 1 to 100'),
    (with_(seed=-1), '"seed" is not valid'),
    (with_(seed=2**64), '"seed" is not valid'),
    (with_(seed=1.5), '"seed" should be an integer'),
    (with_(game="x" * 1000), "1 to 40 characters"),
    (with_(options={"mission_value": [[[]]]}), "option 'mission_value' should be"),
    (with_(options={f"o{i}": 1 for i in range(500)}), "at most 100"),
    (with_(moves=[[0, 1]] * 200_000), "at most 100,000"),
    (with_(moves=[[0, True]]), "move 1 should be [seat, action]"),
    (with_(moves=[[0, 1.0]]), "move 1 should be [seat, action]"),
    (with_(moves=[[7, 1]]), "move 1 is by seat 7; seats are 0 to 2"),
    (with_(moves=[[0, -4]]), "never negative"),
    (with_(result=[1]), '"result" should be an object'),
    (with_(result={"scores": [[[[[1]]]]]}), "nested 6 deep"),
    (with_(extra=1), "unknown field 'extra'"),
    (with_(version=True), "version True (bool) is not supported"),
    (with_(seed="1" * 5000), '"seed" should be an integer, not'),
    ('{"seed": ' + "1" * 5000 + "}", "5,000 digits"),
    ('{"seed": NaN}', "NaN is not a number"),
    ("[" * 50_000 + "]" * 50_000, "nested too deeply"),
])
def test_a_malformed_record_is_refused_in_one_line(text, message):
    with pytest.raises(BadRecord) as caught:
        Record.from_json(text).replay()
    assert message in str(caught.value)
    assert "\n" not in str(caught.value) and len(str(caught.value)) < 300


def test_bytes_must_be_utf8():
    with pytest.raises(BadRecord, match="not UTF-8"):
        Record.from_json(json.dumps(GOOD).replace("oboro", "obóro").encode("latin-1"))
    assert Record.from_json(json.dumps(GOOD).encode()).verify().is_over()


def test_verify_needs_a_stored_result():
    with pytest.raises(BadRecord, match="nothing to check"):
        Record.from_json(with_(result=None)).verify()


def test_a_result_differing_only_in_type_is_reported():
    result = json.loads(json.dumps(GOOD["result"]))
    result["over"] = 1  # equal to True in Python, not the same JSON
    with pytest.raises(BadRecord, match="stored over"):
        Record.from_json(with_(result=result)).verify()


def test_saving_where_the_folder_is_a_file(tmp_path):
    (tmp_path / "file").write_text("x")
    with pytest.raises(BadRecord, match="cannot write the record"):
        Record.from_dict(GOOD).save(tmp_path / "file" / "r.json")
