"""Seat assignments for a match: every bot in every seat equally often, neighbours in both orders."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence


def lineups(entries: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """One balanced block of lineups (the bot spec of each seat) for `entries` at `players` seats.

    Entry k starts the base lineup `entries[k], entries[k+1], ...` (cyclically); each base lineup is
    played in every seat rotation and mirrored (seats in reverse order). Over the block each entry sits
    in every seat exactly equally often, whether there are fewer, as many or more entries than seats.
    A spec listed twice counts twice (`ismcts,heuristic,heuristic` at 3 players: one search bot
    against two heuristic bots). Identical lineups are played once when that keeps the balance.
    """
    if not entries:
        raise ValueError("a match needs at least one bot")
    count = len(entries)
    block: list[tuple[str, ...]] = []
    for k in range(count):
        base = [entries[(s + k) % count] for s in range(players)]
        for order in (base, base[::-1]):
            for r in range(players):
                block.append(tuple(order[(s + r) % players] for s in range(players)))
    multiplicity = Counter(block)
    if len(set(multiplicity.values())) == 1:
        # Every distinct lineup occurs equally often: playing each once keeps the balance exactly.
        return list(dict.fromkeys(block))
    return block
