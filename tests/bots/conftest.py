"""Fixtures for the bot tests: the toy game, registered for the duration of a test."""

from __future__ import annotations

import pytest

from ninjatable.core import registry

from .toygame import TOY


@pytest.fixture
def toy():
    """The toy game, registered so that it can be found by id (and pickled by id)."""
    registry._GAMES[TOY.id] = TOY
    yield TOY
    registry._GAMES.pop(TOY.id, None)
