"""Observations and sampled worlds stay what they were: compared with digests recorded from seeded random games."""

from __future__ import annotations

import json

import pytest

from .observation_record import CASES, FIXTURE, case_key, digests, world_digests

RECORD = json.loads(FIXTURE.read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", CASES, ids=[case_key(*c) for c in CASES])
def test_observations_equal_the_recorded_ones(case):
    recorded = RECORD["observations"][case_key(*case)]
    found = digests(*case)
    first = next((i for i, (a, b) in enumerate(zip(found, recorded)) if a != b), None)
    assert first is None and len(found) == len(recorded), f"observations differ from position {first}"


@pytest.mark.parametrize("case", CASES, ids=[case_key(*c) for c in CASES])
def test_sampled_worlds_equal_the_recorded_ones(case):
    # The same generator deals the same world, so a seeded search decides as it did.
    assert world_digests(*case) == RECORD["worlds"][case_key(*case)]
