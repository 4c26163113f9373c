"""Slaughter the Dragon, Ha in the browser: three people and a bot play a whole game by clicking."""

from __future__ import annotations

import pytest
from pages import Setup, three_people_play_a_whole_game


# One of the two longest whole games by clicking: a soak run (`make soak`, run by CI after `make test`);
# tests/browser/test_table_page.py and test_table_help.py play this game's page in `make test`.
@pytest.mark.soak
def test_three_people_and_a_bot_play_a_whole_game(live, person, screenshots):
    three_people_play_a_whole_game(live, person, screenshots, Setup("dragon", 4))
