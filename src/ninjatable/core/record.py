"""Records: `(game, players, options, seed, moves)` and the result, saved as JSON and replayed exactly."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .checks import check_seed, shown
from .errors import BadOptions, BadRecord, IllegalAction, UnknownGame
from .game import State, seat_name
from .registry import get_game

FORMAT = "ninjatable-record"
VERSION = 1


@dataclass
class Record:
    game: str
    players: int
    options: dict[str, Any]
    seed: int
    moves: list[tuple[int, int]] = field(default_factory=list)
    result: dict[str, Any] | None = None

    @classmethod
    def from_state(cls, state: State) -> Record:
        return cls(
            game=state.game.id,
            players=state.players,
            options=dict(state.options),
            seed=state.seed,
            moves=list(state.history),
            result=state.result(),
        )

    # --- JSON ----------------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "players": self.players,
            "options": self.options,
            "seed": self.seed,
            "moves": [list(m) for m in self.moves],
            "result": self.result,
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=None, separators=(",", ":"))

    def save(self, path: str | Path) -> None:
        try:
            Path(path).write_text(self.to_json() + "\n", encoding="utf-8")
        except OSError as e:
            raise BadRecord(f"cannot write the record to {path}: {e.strerror or e}") from None

    @classmethod
    def from_json(cls, text: str | bytes) -> Record:
        """A record from its JSON text (or UTF-8 bytes); BadRecord says in one line what is wrong."""
        if isinstance(text, (bytes, bytearray)):
            try:
                text = bytes(text).decode("utf-8")
            except UnicodeDecodeError as e:
                raise BadRecord(f"the record is not UTF-8 text (byte {e.start} cannot be read)") from None
        if len(text) > MAX_CHARS:
            raise BadRecord(f"the record is {len(text):,} characters long; a record is at most {MAX_CHARS:,}")
        try:
            data = json.loads(text, parse_int=_read_int, parse_constant=_refuse_constant)
        except json.JSONDecodeError as e:
            raise BadRecord(f"the record is not valid JSON ({e.msg} at line {e.lineno})") from None
        except RecursionError:
            raise BadRecord("the record's JSON is nested too deeply to be a record") from None
        except ValueError as e:  # from _read_int and _refuse_constant
            raise BadRecord(f"the record is not valid: {e}") from None
        return cls.from_dict(data)

    @classmethod
    def load(cls, path: str | Path) -> Record:
        try:
            with Path(path).open("rb") as file:
                data = file.read(MAX_CHARS * 4 + 1)
        except OSError as e:
            raise BadRecord(f"cannot read record {path}: {e.strerror or e}") from None
        return cls.from_json(data)

    @classmethod
    def from_dict(cls, data: Any) -> Record:
        """A record from its JSON object, checked field by field (types, ranges, sizes)."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise BadRecord(f"not a ninjatable record (expected \"format\": \"{FORMAT}\")")
        if data.get("version") != VERSION or not _is_int(data.get("version")):
            raise BadRecord(f"record version {shown(data.get('version'))} is not supported; this is version {VERSION}")
        unknown = [key for key in data if key not in FIELDS]
        if unknown:
            raise BadRecord(f"the record has an unknown field {shown(unknown[0])}; its fields are {', '.join(FIELDS)}")
        game = _expect(data, "game", str)
        if not 0 < len(game) <= MAX_NAME:
            raise BadRecord(f"the record's \"game\" should be a game id of 1 to {MAX_NAME} characters")
        players = _expect(data, "players", int)
        if not 1 <= players <= MAX_PLAYERS:
            raise BadRecord(f"the record's \"players\" should be from 1 to {MAX_PLAYERS}, not {players}")
        options = _check_options(_expect(data, "options", dict))
        try:
            seed = check_seed(_expect(data, "seed", int))
        except BadOptions as e:
            raise BadRecord(f"the record's \"seed\" is not valid: {e}") from None
        moves = _check_moves(_expect(data, "moves", list), players)
        result = data.get("result")
        if result is not None and not isinstance(result, dict):
            raise BadRecord("the record's \"result\" should be an object or null")
        if result is not None and _depth(result) > MAX_RESULT_DEPTH:
            raise BadRecord(f"the record's \"result\" is nested {_depth(result)} deep; a result is at most "
                            f"{MAX_RESULT_DEPTH} (its score sheet: rows of points)")
        return cls(game, players, options, seed, moves, result)

    # --- replay --------------------------------------------------------------------------------------
    def start(self) -> State:
        """The state before the first move."""
        try:
            game = get_game(self.game)
            return game.new_state(self.players, seed=self.seed, **self.options)
        except (UnknownGame, BadOptions) as e:
            raise BadRecord(f"the record cannot start: {e}") from None

    def replay(self, check: bool = True) -> State:
        """Apply every move; BadRecord names the first that does not apply, or a result that differs."""
        state = self.start()
        for i, (seat, action) in enumerate(self.moves):
            try:
                state.apply(seat, action)
            except IllegalAction as e:
                label = state.action_label(action) if 0 <= action < state.game.num_actions(state.players) else action
                raise BadRecord(f"move {i + 1} ({seat_name(seat)}: {label}) does not apply: {e}") from None
        if check and self.result is not None:
            self.check_result(state)
        return state

    def verify(self) -> State:
        """Replay and check the stored result; BadRecord if it stores none (there is nothing to check)."""
        if self.result is None:
            raise BadRecord("the record stores no result, so there is nothing to check")
        return self.replay(check=True)

    def check_result(self, state: State) -> None:
        """BadRecord naming the first difference between the stored result and the replayed one, fields included."""
        stored, actual = self.result or {}, state.result()
        missing = [key for key in actual if key not in stored]
        if missing:
            raise BadRecord(f"the stored result has no {', '.join(missing)}; the replay gives {_brief(actual)}")
        extra = [key for key in stored if key not in actual]
        if extra:
            raise BadRecord(f"the stored result has {', '.join(map(repr, extra))}, which the replay does not give; "
                            f"its fields are {', '.join(actual)}")
        for key, value in actual.items():
            # Compared as JSON so that true is not taken for 1, nor 1.0 for 1, nor an extra field in a row missed.
            if _canonical(stored[key]) != _canonical(value):
                raise BadRecord(
                    f"the replay does not reproduce the stored {key}: stored {_brief(stored[key])}, "
                    f"replayed {_brief(value)}"
                )


# What a record may hold: generous for any real game, small enough that loading one never costs much.
FIELDS = ("format", "version", "game", "players", "options", "seed", "moves", "result")
MAX_CHARS = 10_000_000
MAX_DIGITS = 25
MAX_NAME = 40
MAX_PLAYERS = 100
MAX_MOVES = 100_000
MAX_OPTIONS = 100
MAX_RESULT_DEPTH = 4


def _depth(value: Any) -> int:
    """How deeply lists and objects nest in `value` (a scalar is 0), without recursion."""
    deepest, level = 0, [(value, 0)]
    while level:
        item, depth = level.pop()
        if isinstance(item, (list, dict)):
            deepest = max(deepest, depth + 1)
            level.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


def _read_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise ValueError(f"a number of {len(text.lstrip('-')):,} digits; numbers in a record have at most {MAX_DIGITS}")
    return int(text)


def _refuse_constant(text: str) -> Any:
    raise ValueError(f"{text} is not a number a record may hold")


def _check_options(options: dict[str, Any]) -> dict[str, Any]:
    if len(options) > MAX_OPTIONS:
        raise BadRecord(f"the record has {len(options)} options; a game has at most {MAX_OPTIONS}")
    for name, value in options.items():
        short = not isinstance(value, str) or len(value) <= MAX_NAME
        if len(name) > MAX_NAME or not isinstance(value, (bool, int, str)) or not short:
            raise BadRecord(
                f"option {shown(name)} should be a true/false, integer or short text value, not {shown(value)}"
            )
    return options


def _check_moves(moves: list[Any], players: int) -> list[tuple[int, int]]:
    if len(moves) > MAX_MOVES:
        raise BadRecord(f"the record has {len(moves):,} moves; a record holds at most {MAX_MOVES:,}")
    checked = []
    for i, m in enumerate(moves):
        if not (isinstance(m, list) and len(m) == 2 and all(_is_int(x) for x in m)):
            raise BadRecord(f"move {i + 1} should be [seat, action] as two integers, not {shown(m)}")
        seat, action = m
        if not 0 <= seat < players:
            raise BadRecord(f"move {i + 1} is by seat {seat}; seats are 0 to {players - 1}")
        if action < 0:
            raise BadRecord(f"move {i + 1} has action {action}; actions are never negative")
        checked.append((seat, action))
    return checked


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def _brief(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 200 else text[:197] + "..."


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _expect(data: dict[str, Any], key: str, kind: type) -> Any:
    if key not in data:
        raise BadRecord(f"the record has no \"{key}\"")
    value = data[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        names = {"str": "a string", "int": "an integer", "dict": "an object", "list": "a list"}
        raise BadRecord(f"the record's \"{key}\" should be {names[kind.__name__]}, not {shown(value)}")
    return value
