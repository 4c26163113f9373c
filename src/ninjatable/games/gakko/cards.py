"""Shinobi no Gakko as data: the deck, the deal, the scoring table, the hands and ends, and the phases of a round.

Cards carry only a number (1-13, five copies each, no suits), so a hand is a list of counts indexed by
rank (index 0 unused) and a card is simply its rank.
"""

from __future__ import annotations

RANKS = 13
COPIES = 5
ROUNDS = 3
WIN_BONUS = 5
STRIDE = RANKS + 1  # length of one count list (index 0 unused)

# Per player count: cards dealt to each player, and the highest rank in the deck (3 players remove 12s and 13s).
DEAL_SIZE = {3: 15, 4: 13, 5: 11}
TOP_RANK = {3: 11, 4: 13, 5: 13}

# A group of n cards of one rank left in a hand costs n(n+1)/2 points (1/3/6/10/15).
GROUP_PENALTY = tuple(n * (n + 1) // 2 for n in range(COPIES + 1))

HEAVEN, EARTH = 0, 1
HAND_NAMES = ("Heaven", "Earth")
LOW, HIGH = 0, 1
END_NAMES = ("low", "high")

# The phases of a round (a state's `phase`), and the markers of no seat (no starter yet, nobody to move, no
# shuriken holder) and of a table with no locked end.
SPLIT, PLAY, OVER = range(3)
PHASE_NAMES = ("split", "play", "over")
NOBODY = -1
NO_LOCK = -1

# The ranks a hand holds as bits, rank r being bit r - 1 (so only the ranks held are looked at when listing plays).
RANK_BIT = tuple(1 << (r - 1) if r else 0 for r in range(STRIDE))  # by rank; 0 for the unused rank 0
BITS_BELOW = tuple((1 << (r - 1)) - 1 if r else 0 for r in range(STRIDE + 1))  # ranks 1 to r - 1
BITS_FROM = tuple(((1 << RANKS) - 1) ^ BITS_BELOW[r] for r in range(STRIDE + 1))  # ranks r to RANKS


def _build_ranks_of_bits() -> tuple[tuple[int, ...], ...]:
    """RANKS_OF_BITS[bits]: the ranks whose bits are set, in ascending order."""
    table: list[tuple[int, ...]] = [()]
    for r in range(1, RANKS + 1):
        table += [ranks + (r,) for ranks in table]
    return tuple(table)


RANKS_OF_BITS = _build_ranks_of_bits()


def hand_penalty(counts: list[int], base: int = 0) -> int:
    """Points a hand costs at round end: n(n+1)/2 for each group of n cards of one rank."""
    return sum(GROUP_PENALTY[counts[base + r]] for r in range(1, RANKS + 1))


def ranks_of(counts: list[int], base: int = 0) -> list[int]:
    """The cards of a count list as a sorted list of ranks."""
    return [r for r in range(1, RANKS + 1) for _ in range(counts[base + r])]
