"""Every argument that crosses the kernel's public API is checked here, before anything changes.

Seats and actions are plain ints in range: NumPy integers (what RL code passes) are accepted and converted to
`int`, so a state's history only ever holds plain ints; `bool`, floats, strings and None are refused. A refused
argument raises `IllegalAction` (a seat or an action) or `BadArgument` (anything else) with a message that says
what was wrong and what is allowed. The kernel's public methods call these checks; games implement only the
protected methods behind them (`_legal_actions`, `_apply`, ...), which receive checked plain ints.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

import numpy as np

from .errors import BadArgument, BadOptions, IllegalAction

if TYPE_CHECKING:
    from .game import State

# Seeds are unsigned 64-bit integers: wide enough for any generator, small enough to store anywhere.
SEED_LIMIT = 2**64
# The longest text `parse_action` reads: far beyond any label, short enough to never cost anything.
MAX_MOVE_TEXT = 100


def shown(value: Any) -> str:
    """A short printable form of a refused value (a huge string or number is cut)."""
    text = repr(value)
    kind = type(value).__name__
    if len(text) > 40:
        text = text[:37] + "..."
    return text if kind in ("int", "str", "NoneType") or kind in text else f"{text} ({kind})"


def is_integer(value: Any) -> bool:
    """A plain or NumPy integer, and not a bool."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def check_seat(state: State, seat: Any) -> int:
    """`seat` as a plain int, or IllegalAction: seats are integers from 0 to players - 1."""
    last = state.players - 1
    if not is_integer(seat):
        raise IllegalAction(f"a seat is an integer from 0 to {last}, not {shown(seat)}")
    seat = int(seat)
    if not 0 <= seat <= last:
        raise IllegalAction(f"seat {shown(seat)} does not exist; seats are 0 to {last}")
    return seat


def check_viewer(state: State, seat: Any) -> int | None:
    """A seat as `check_seat`, or None for a spectator."""
    return None if seat is None else check_seat(state, seat)


def check_action(state: State, action: Any) -> int:
    """`action` as a plain int of the game's action space, or IllegalAction naming the space."""
    size = state.game.num_actions(state.players)
    if not is_integer(action):
        raise IllegalAction(f"an action of {state.game.id} is an integer from 0 to {size - 1}, not {shown(action)}")
    action = int(action)
    if not 0 <= action < size:
        raise IllegalAction(f"{shown(action)} is not an action of {state.game.id}; actions are 0 to {size - 1}")
    return action


def check_turn(state: State, seat: int) -> None:
    """IllegalAction unless `seat` (already checked) is one of the seats to move."""
    from .game import seat_name

    movers = state.to_move()
    if seat not in movers:
        if not movers:
            raise IllegalAction("the game is over; no more moves")
        waiting = ", ".join(seat_name(s) for s in movers)
        raise IllegalAction(f"it is not {seat_name(seat)}'s turn; waiting for {waiting}")


def check_text(text: Any) -> str:
    """A typed move: a string of at most MAX_MOVE_TEXT characters."""
    if not isinstance(text, str):
        raise IllegalAction(f"a typed move is a string, not {shown(text)}")
    if len(text) > MAX_MOVE_TEXT:
        raise IllegalAction(f"a typed move is at most {MAX_MOVE_TEXT} characters, not {len(text)}")
    return text


def check_rng(rng: Any) -> random.Random:
    """A `random.Random` (or subclass) to draw sampled worlds from."""
    if not isinstance(rng, random.Random):
        raise BadArgument(f"rng should be a random.Random, not {shown(rng)}")
    return rng


def check_buffer(out: Any, shape: tuple[int, ...]) -> np.ndarray:
    """A writable float32 NumPy array of `shape` to write an observation into."""
    if not isinstance(out, np.ndarray) or out.dtype != np.float32 or out.shape != tuple(shape):
        got = f"{out.dtype} array of shape {out.shape}" if isinstance(out, np.ndarray) else shown(out)
        raise BadArgument(f"out should be a float32 array of shape {tuple(shape)}, not a {got}")
    if not out.flags.writeable:
        raise BadArgument("out should be a writable array")
    return out


def check_seed(seed: Any) -> int:
    """A seed as a plain int from 0 to 2**64 - 1, or BadOptions."""
    if not is_integer(seed):
        raise BadOptions(f"the seed must be an integer from 0 to 2**64 - 1, not {shown(seed)}")
    seed = int(seed)
    if not 0 <= seed < SEED_LIMIT:
        raise BadOptions(f"the seed must be an integer from 0 to 2**64 - 1, not {shown(seed)}")
    return seed
