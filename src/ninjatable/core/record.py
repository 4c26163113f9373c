"""Records: `(game, players, options, seed, moves)` and the result, saved as JSON and replayed exactly."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

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
        Path(path).write_text(self.to_json() + "\n", encoding="utf-8")

    @classmethod
    def from_json(cls, text: str) -> Record:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise BadRecord(f"the record is not valid JSON ({e.msg} at line {e.lineno})") from None
        return cls.from_dict(data)

    @classmethod
    def load(cls, path: str | Path) -> Record:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as e:
            raise BadRecord(f"cannot read record {path}: {e.strerror}") from None
        return cls.from_json(text)

    @classmethod
    def from_dict(cls, data: Any) -> Record:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise BadRecord(f"not a ninjatable record (expected \"format\": \"{FORMAT}\")")
        if data.get("version") != VERSION:
            raise BadRecord(f"record version {data.get('version')!r} is not supported; this is version {VERSION}")
        _expect(data, "game", str)
        _expect(data, "players", int)
        _expect(data, "options", dict)
        _expect(data, "seed", int)
        _expect(data, "moves", list)
        moves = []
        for i, m in enumerate(data["moves"]):
            if not (isinstance(m, list) and len(m) == 2 and all(_is_int(x) for x in m)):
                raise BadRecord(f"move {i + 1} should be [seat, action] as two integers, not {m!r}")
            moves.append((m[0], m[1]))
        result = data.get("result")
        if result is not None and not isinstance(result, dict):
            raise BadRecord("the record's \"result\" should be an object")
        return cls(data["game"], data["players"], data["options"], data["seed"], moves, result)

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

    def check_result(self, state: State) -> None:
        actual = state.result()
        for key in ("scores", "winners", "score_sheet", "over"):
            if key in self.result and self.result[key] != actual[key]:
                raise BadRecord(
                    f"the replay does not reproduce the stored {key}: stored {self.result[key]!r}, "
                    f"replayed {actual[key]!r}"
                )


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _expect(data: dict[str, Any], key: str, kind: type) -> None:
    if key not in data:
        raise BadRecord(f"the record has no \"{key}\"")
    value = data[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise BadRecord(f"the record's \"{key}\" should be {kind.__name__}, not {value!r}")
