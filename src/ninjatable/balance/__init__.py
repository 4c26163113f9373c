"""Balance reports: many games between bots, per player count and option variant, read as a designer would.

Game i of every configuration uses deal seed `seed + i` and bots seeded from it (as `simulate` does), so the
default and each variant are played from the same seeds and compared game by game (paired differences).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..bots import make_bot, play_game
from ..core import BadOptions, Game, get_game
from ..core.options import resolve_options
from ..runner import Backend, run
from .figures import equal_seats_test, mean_interval, paired_difference, relative_change, wilson


@dataclass(frozen=True)
class Variant:
    """The options a set of games is played with; `label` is `default` or the one option changed (`NAME=V`)."""

    label: str
    options: dict[str, Any]


@dataclass(frozen=True)
class BalanceTask:
    """One game, picklable for a worker process or a Ray task."""

    game: str
    players: int
    options: dict[str, Any]
    seed: int
    bots: tuple[str, ...]


@dataclass
class Outcome:
    """What a balance report keeps of one game."""

    scores: list[float]
    winners: list[int]
    moves: int
    stats: dict[str, float]


def play_balance_game(task: BalanceTask) -> Outcome:
    """Play one game with its deal seed and bots seeded from it; keep scores, winners, length and stats."""
    state = get_game(task.game).new_state(task.players, seed=task.seed, **task.options)
    play_game(state, [make_bot(spec, seed=task.seed * 101 + s) for s, spec in enumerate(task.bots)])
    return Outcome(state.scores(), state.winners(), len(state.history), state.stats())


def parse_vary(game: Game, items: Sequence[str] | None, base: dict[str, Any]) -> list[Variant]:
    """`["mission_value=9,11"]` to the default plus one variant per value that differs from it."""
    declared = {o.name: o for o in game.options}
    variants = [Variant("default", dict(base))]
    for item in items or []:
        name, eq, values = item.partition("=")
        name = name.strip()
        if not eq or not values.strip():
            raise BadOptions(f"--vary {item!r} should be OPTION=V1,V2")
        if name not in declared:
            allowed = ", ".join(declared) or "none"
            raise BadOptions(f"{game.id} has no option {name!r}; its options are: {allowed}")
        option = declared[name]
        for text in values.split(","):
            value = option.check(text)
            options = {**base, name: value}
            resolved = resolve_options(game.options, options, game.id)
            if any(resolved == resolve_options(game.options, v.options, game.id) for v in variants):
                continue  # the default's own value, or a value given twice
            variants.append(Variant(f"{name}={_show(value)}", options))
    return variants


@dataclass
class BalanceResult:
    game: str
    title: str
    seed: int
    games: int
    bots: list[str]
    players: list[int]
    variants: list[Variant]
    outcomes: dict[tuple[int, str], list[Outcome]] = field(default_factory=dict)  # (players, variant label)

    def to_dict(self) -> dict[str, Any]:
        """Every figure of the report, JSON-safe; the same arguments give the same dict."""
        return {
            "game": self.game,
            "title": self.title,
            "seed": self.seed,
            "games": self.games,
            "bots": self.bots,
            "variants": [{"label": v.label, "options": v.options} for v in self.variants],
            "player_counts": [self.player_count(p) for p in self.players],
        }

    def player_count(self, players: int) -> dict[str, Any]:
        base = self.outcomes[(players, "default")]
        return {
            "players": players,
            "seat_bots": seat_bots(self.bots, players),
            "variants": [summarise(self.outcomes[(players, v.label)], players) | {"label": v.label}
                         for v in self.variants],
            "differences": [compare(self.outcomes[(players, v.label)], base, players) | {"label": v.label}
                            for v in self.variants[1:]],
        }


def seat_bots(bots: Sequence[str], players: int) -> list[str]:
    return [bots[s % len(bots)] for s in range(players)]


def summarise(outcomes: list[Outcome], players: int) -> dict[str, Any]:
    """Win rate by seat with 95% intervals and the equal-seats test, scores, length and the game's stats."""
    n = len(outcomes)
    wins = [sum(_share(o, s) for o in outcomes) for s in range(players)]
    statistic, p_value = equal_seats_test(wins, n)
    names = stat_names(outcomes)
    return {
        "games": n,
        "win_rate": [wilson(w, n).to_dict() for w in wins],
        "equal_seats": {"chi_square": statistic, "df": players - 1, "p_value": p_value},
        "score": [mean_interval([o.scores[s] for o in outcomes]).to_dict() for s in range(players)],
        "scores": [[o.scores[s] for o in outcomes] for s in range(players)],
        "moves": mean_interval([o.moves for o in outcomes]).to_dict(),
        "moves_per_game": [o.moves for o in outcomes],
        "rounds": mean_interval(rounds(outcomes)).to_dict() if has_rounds(outcomes) else None,
        "rounds_per_game": rounds(outcomes) if has_rounds(outcomes) else None,
        "stats": {
            name: {
                "per_game": mean_interval([o.stats.get(name, 0) for o in outcomes]).to_dict(),
                "games_with": sum(1 for o in outcomes if o.stats.get(name)),
                "where_present": _where_present(outcomes, name),
            }
            for name in names if name != "rounds"
        },
    }


def compare(variant: list[Outcome], base: list[Outcome], players: int) -> dict[str, Any]:
    """The variant against the default, game by game from the same seeds: differences with 95% intervals."""
    out: dict[str, Any] = {
        "win_rate": [paired_difference([_share(o, s) for o in variant], [_share(o, s) for o in base]).to_dict()
                     for s in range(players)],
        "score": [paired_difference([o.scores[s] for o in variant], [o.scores[s] for o in base]).to_dict()
                  for s in range(players)],
        "moves": paired_difference([o.moves for o in variant], [o.moves for o in base]).to_dict(),
        "moves_relative": _to_dict(relative_change([o.moves for o in variant], [o.moves for o in base])),
    }
    if has_rounds(variant) and has_rounds(base):
        out["rounds"] = paired_difference(rounds(variant), rounds(base)).to_dict()
        out["rounds_relative"] = _to_dict(relative_change(rounds(variant), rounds(base)))
    out["stats"] = {
        name: paired_difference([o.stats.get(name, 0) for o in variant], [o.stats.get(name, 0) for o in base]).to_dict()
        for name in stat_names(variant + base) if name != "rounds"
    }
    return out


def stat_names(outcomes: list[Outcome]) -> list[str]:
    """Every stat named in any game, sorted (a name missing from a game counts 0 there)."""
    return sorted({name for o in outcomes for name in o.stats})


def has_rounds(outcomes: list[Outcome]) -> bool:
    return bool(outcomes) and all("rounds" in o.stats for o in outcomes)


def rounds(outcomes: list[Outcome]) -> list[float]:
    return [o.stats["rounds"] for o in outcomes]


def _share(outcome: Outcome, seat: int) -> float:
    """A seat's share of the win: 1, 1/k for a win shared by k seats, else 0."""
    return 1.0 / len(outcome.winners) if seat in outcome.winners else 0.0


def _where_present(outcomes: list[Outcome], name: str) -> dict[str, float] | None:
    values = [o.stats[name] for o in outcomes if name in o.stats]
    return mean_interval(values).to_dict() if values else None


def _to_dict(interval) -> dict[str, float] | None:
    return None if interval is None else interval.to_dict()


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def run_balance(
    game_id: str,
    players: Sequence[int] | None = None,
    bots: Sequence[str] = ("heuristic",),
    games: int = 200,
    vary: Sequence[str] | None = None,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    backend: Backend | None = None,
    on_game: Callable[[], None] | None = None,
) -> BalanceResult:
    """Play `games` games per player count and variant; every bad argument fails before any game is played."""
    game = get_game(game_id)
    counts = [game.check_players(p) for p in (players or [game.default_players])]
    counts = list(dict.fromkeys(counts))
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise BadOptions(f"--games must be at least 1, not {games!r}")
    specs = list(bots)
    if not specs:
        raise BadOptions("name at least one bot")
    for spec in specs:
        bot = make_bot(spec)  # an unknown bot or parameter fails here
        check = getattr(bot, "check_game", None)
        if check is not None:
            check(game)
    base = dict(options or {})
    for p in counts:
        game.new_state(p, seed=0, **base)  # checks the options for each player count
    variants = parse_vary(game, vary, base)
    tasks = [
        BalanceTask(game.id, p, v.options, seed + i, tuple(seat_bots(specs, p)))
        for p in counts for v in variants for i in range(games)
    ]
    report = None if on_game is None else (lambda _i, _o: on_game())
    played = run(play_balance_game, tasks, backend, on_result=report)
    result = BalanceResult(game.id, game.title, seed, games, specs, counts, variants)
    k = 0
    for p in counts:
        for v in variants:
            result.outcomes[(p, v.label)] = played[k:k + games]
            k += games
    return result
