"""Information-set Monte Carlo tree search, generic over every game of the kernel.

One tree per decision, shared by all sampled worlds (single-observer ISMCTS, Cowling, Powley and
Whitehouse 2012). Each iteration:

1. samples a world the deciding seat cannot tell from the real one (`SeatInfo.sample_world`: hidden
   cards redistributed, other seats' pending simultaneous choices re-chosen, a fresh random future);
   with `beliefs` > 1 and a game whose heuristic reads the table (`believed_worlds`), a copy of one of
   the worlds it read for this decision instead (such a world may leave the other seats' pending choices
   open, for the search's players to make);
2. descends the tree along actions legal in that world, each seat choosing by UCB over availability
   counts (an action's exploration term counts the visits in which it was legal, not the parent's);
3. adds one node, then plays the world on with the rollout policy (uniform random or each game's
   heuristic bot) until the game ends or the search horizon is reached;
4. backs up a reward vector, one component per seat, each edge learning the reward of the seat that
   chose it, so that every player maximises its own result in games of three or more.

Simultaneous decisions are decoupled: at a node where several seats must decide, each chooses from
its own statistics at that node, knowing nothing of the others' choices in this iteration; the
child is keyed by the joint choice. A seat's tree choice never depends on another's pending choice.

Root actions: the game's heuristic bot may rule out actions not worth weighing at a decision
(`search_candidates`, e.g. a gesture that would mislead one's own teammate); the search spreads its
iterations over the rest.

Paired worlds (`paired=1`): instead of a tree, every root candidate is played in each sampled world from the
same random seed (common random numbers), and candidates are compared by their difference world by world. Where
actions differ by less than the noise of one rollout, this tells them apart when a tree cannot; the heuristic's
own choice stands unless another beats it by `z` standard errors.

Cycles: where a game lets a seat undo a step (moving a card back and forth while splitting a hand), a
search that finds both orders equally good could wander forever. The bot remembers the views
at which it decided, and never chooses an action that brings its seat back to one of them (unless
every action would).

Rewards (`reward=`): `win` gives each of k winners 1/k (at a horizon, the seats sharing the best
running total); `score` maps the totals linearly onto [0, 1] (best 1, worst 0); `rank` gives the
fraction of the other seats a seat beats, ties counting half. Scores are taken as higher-is-better.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any, ClassVar

from ..core import BadOptions, State
from ..core.bot import Bot, SeatInfo

ROLLOUTS = ("random", "heuristic")
REWARDS = ("win", "score", "rank", "mix")
DEFAULT_ITERATIONS = 300
MEMORY = 512  # views remembered against cycles
# The settings a game does not change in `Game.search_defaults`.
GENERAL_DEFAULTS: dict[str, Any] = {
    "c": 0.7,
    "rollout": "random",
    "rounds": 1,
    "depth": 0,
    "reward": "mix",
    "prior": 0.0,
    "beliefs": 1,
    "others": "search",
    "paired": 0,
    "z": 2.0,
}
OTHERS = ("search", "policy")


class _Node:
    """A tree node: per-edge statistics `key -> [visits, reward sum, availability]`, and children."""

    __slots__ = ("children", "edges")

    def __init__(self) -> None:
        self.edges: dict[int, list[float]] = {}
        self.children: dict[Any, _Node] = {}


class IsmctsBot(Bot):
    """Single-observer ISMCTS with availability-count UCB, decoupled simultaneous moves, per-seat rewards."""

    name = "ismcts"
    PARAMS: ClassVar[dict[str, type]] = {
        "iterations": int,
        "ms": float,
        "c": float,
        "rollout": str,
        "rounds": int,
        "depth": int,
        "reward": str,
        "prior": float,
        "beliefs": int,
        "others": str,
        "paired": int,
        "z": float,
    }

    def __init__(
        self,
        seed: int | None = None,
        iterations: int | None = None,
        ms: float | None = None,
        **settings: Any,
    ) -> None:
        params: dict[str, Any] = {}
        if iterations is not None:
            params["iterations"] = iterations
        if ms is not None:
            params["ms"] = ms
        unknown = sorted(set(settings) - set(GENERAL_DEFAULTS))
        if unknown:
            raise BadOptions(f"ismcts has no parameter {unknown[0]!r}; its parameters are: {', '.join(self.PARAMS)}")
        super().__init__(seed, **params, **settings)
        if iterations is not None and iterations < 1:
            raise BadOptions(f"ismcts iterations must be at least 1, not {iterations}")
        if ms is not None and ms <= 0:
            raise BadOptions(f"ismcts ms must be positive, not {ms}")
        _check_settings(settings)
        # With neither budget given, a fixed iteration count keeps matches exactly replayable.
        self.iterations = iterations if iterations is not None or ms is not None else DEFAULT_ITERATIONS
        self.ms = ms
        self._budget_given = iterations is not None or ms is not None
        self._explicit = settings  # the rest comes from the game being played, then the general defaults
        self._settled_for = ""
        self._settle({})
        self._rollout_bots: dict[tuple[str, int], list[Bot]] = {}
        self._guides: dict[str, Bot] = {}
        self._visited: dict[str, None] = {}  # the views this bot decided at, oldest first
        self._root_allowed: set[int] | None = None
        self._root_seat = -1
        self.last_iterations = 0  # iterations run by the last decision (for benchmarks)

    def _settle(self, game_defaults: dict[str, Any]) -> None:
        """Take each setting from the parameters given, else the game's search defaults, else the general ones."""
        chosen = {**GENERAL_DEFAULTS, **game_defaults, **self._explicit}
        self.c = float(chosen["c"])
        self.rollout = chosen["rollout"]
        self.rounds = int(chosen["rounds"])
        self.depth = int(chosen["depth"])
        self.reward = chosen["reward"]
        self.prior = float(chosen["prior"])
        self.beliefs = int(chosen["beliefs"])
        self.others = chosen["others"]
        self.paired = bool(chosen["paired"])
        self.z = float(chosen["z"])

    def settings(self) -> dict[str, Any]:
        """The settings in force for the game last played (the general defaults before any)."""
        return {key: getattr(self, key) for key in GENERAL_DEFAULTS}

    def check_game(self, game) -> None:
        """Raise BadOptions now, rather than mid-match, if heuristic help is asked of a game without one."""
        if game.heuristic_bot is not None:
            return
        if self._explicit.get("rollout") == "heuristic":
            raise BadOptions(f"{game.id} has no heuristic bot; use ismcts:rollout=random")
        if self._explicit.get("prior"):
            raise BadOptions(f"{game.id} has no heuristic bot to take a prior from; use ismcts:prior=0")

    def _prepare(self, game) -> None:
        """Settle the settings for the game about to be played (its search defaults apply from now on)."""
        if self._settled_for == game.id:
            return
        self.check_game(game)
        defaults = dict(game.search_defaults)
        iterations = defaults.pop("iterations", DEFAULT_ITERATIONS)
        if not self._budget_given:  # the game's default budget, chosen to decide within a second
            self.iterations = iterations
        if game.heuristic_bot is None:  # whatever a game asks, there is no heuristic to use
            defaults.update(rollout="random", prior=0.0, beliefs=1, others="search", paired=0)
        self._settle(defaults)
        self._settled_for = game.id

    # --- the decision --------------------------------------------------------------------------------
    def act(self, info: SeatInfo) -> int:
        legal = info.legal_actions()
        if len(legal) == 1:
            self.last_iterations = 0
            return legal[0]
        self._prepare(info.game)
        seat = info.seat
        size = info.game.num_actions(info.players)
        fresh = self._not_going_back(info, legal)
        allowed = fresh
        if info.game.heuristic_bot is not None:
            allowed = info.game.heuristic_bot.search_candidates(info, fresh) or fresh
        if len(allowed) == 1:
            self.last_iterations = 0
            return allowed[0]
        if self.paired:
            return self._paired_choice(info, allowed, fresh)
        self._root_allowed = set(allowed) if len(allowed) < len(legal) else None
        self._root_seat = seat
        root = _Node()
        guide = self._guide_action(info, allowed)
        view = info.view() if self.beliefs > 1 else None
        pool = self._believed_worlds(info)
        deadline = self._deadline()
        done = 0
        while self._budget_left(done, deadline):
            world = self.rng.choice(pool).clone() if pool else self._draw_world(info, view)
            self._iterate(root, world, size)
            done += 1
        self.last_iterations = done
        self._root_allowed = None
        return self._best(root, seat, size, allowed, guide, self.prior * done)

    def _budget_left(self, done: int, deadline: float | None) -> bool:
        """Whether the iteration count and the time allow more (one iteration at least, whatever the clock)."""
        if self.iterations is not None and done >= self.iterations:
            return False
        return deadline is None or done == 0 or time.perf_counter() < deadline

    def _deadline(self) -> float | None:
        return time.perf_counter() + self.ms / 1000.0 if self.ms is not None else None

    def _paired_choice(self, info: SeatInfo, allowed: list[int], fresh: list[int]) -> int:
        """A one-level search on paired worlds: every candidate is played in each world, with one random stream.

        Each world is played on once per candidate from the same random seed (common random numbers), so that
        two candidates are compared on the same hidden cards and the same later chances: the difference of
        their results is far less noisy than either result. The heuristic's own choice is kept unless another
        candidate does better on average by `z` standard errors of the paired difference; without a heuristic,
        the best mean wins. The budget counts rollouts (one per candidate and world). The heuristic's choice is
        weighed even where the game's candidates leave it out, unless it would go back to a view seen before.
        """
        guide = self._guide_action(info, fresh, wanted=True)
        candidates = allowed if guide is None or guide in allowed else [*allowed, guide]
        pool = self._believed_worlds(info, -(-self.iterations // len(candidates)) if self.iterations else None)
        view = info.view() if self.beliefs > 1 else None
        deadline = self._deadline()
        results: dict[int, list[float]] = {a: [] for a in candidates}
        done = 0
        while self._budget_left(done, deadline):
            # Each believed world in turn (they come in random order), so that none is played twice before all once.
            world = pool[(done // len(candidates)) % len(pool)] if pool else self._draw_world(info, view)
            stream = self.rng.getrandbits(32)
            for action in candidates:
                results[action].append(self._play_paired(world.clone(), info.seat, action, stream))
            done += len(candidates)
        self.last_iterations = done
        return _paired_best(results, guide, self.z)

    def _play_paired(self, world: State, seat: int, action: int, stream: int) -> float:
        """The seat's reward for `action` in `world`, the rest played by the rollout policy from seed `stream`."""
        rng = random.Random(stream)
        bots = self._rollout_policy(world)
        for i, bot in enumerate(bots or ()):
            bot.rng.seed(stream + i)
        horizon = len(world.sheet) + self.rounds if self.rounds else None
        world.search_horizon = horizon
        # The other seats deciding at this step choose without seeing the seat's choice (it is simultaneous).
        moves = [
            (s, action if s == seat else _policy_action(bots, world, s, world.legal_actions(s), rng))
            for s in world.to_move()
        ]
        for s, a in moves:
            world.advance(s, a)
        self._play_out(world, horizon, rng)
        return self._rewards(world)[seat]

    def _guide_action(self, info: SeatInfo, allowed: list[int], wanted: bool = False) -> int | None:
        """The game's heuristic bot's choice here, which the search keeps unless it finds better (`prior`; always
        asked for by `wanted`)."""
        if not (self.prior or wanted) or info.game.heuristic_bot is None:
            return None
        guide = self._guides.get(info.game.id)
        if guide is None:
            guide = self._guides[info.game.id] = info.game.heuristic_bot(seed=self.rng.getrandbits(32))
        action = guide.act(info)
        return action if action in allowed else None

    def _believed_worlds(self, info: SeatInfo, needed: int | None = None) -> list[State] | None:
        """With `beliefs` > 1, the worlds the game's heuristic reads from the table, if it offers a reading."""
        if self.beliefs <= 1 or info.game.heuristic_bot is None:
            return None
        # No more worlds than iterations to play in them (or worlds `needed`).
        count = min(self.beliefs, needed or self.iterations) if self.ms is None else self.beliefs
        return info.game.heuristic_bot.believed_worlds(info, self.rng, count)

    def _draw_world(self, info: SeatInfo, view: dict[str, Any] | None) -> State:
        """A sampled world; with `beliefs` > 1, one of that many, drawn by how well each fits the table talk.

        Drawn in proportion to the heuristic bot's `world_weight` (sampling-importance-resampling), so table
        talk the rules do not enforce still shapes what the search believes.
        """
        if view is None or info.game.heuristic_bot is None:
            return info.sample_world(self.rng)
        weigh = info.game.heuristic_bot.world_weight
        worlds = [info.sample_world(self.rng) for _ in range(self.beliefs)]
        weights = [weigh(view, w, info.seat) for w in worlds]
        if sum(weights) <= 0:
            return worlds[0]
        return self.rng.choices(worlds, weights)[0]

    def _not_going_back(self, info: SeatInfo, legal: list[int]) -> list[int]:
        """The legal actions that do not return the seat to a view it has already decided at.

        The view with the legal actions, not the observation vector: together they are all the seat knows, so
        they repeat only in a true cycle, where a fixed-size observation may repeat across turns in which the
        game moved on (and a view alone may miss a use-once ability that was used).
        """
        here = _knowledge(info.view(), legal)
        self._visited[here] = None
        if len(self._visited) > MEMORY:
            del self._visited[next(iter(self._visited))]
        world = info.sample_world(self.rng)
        allowed = []
        for action in legal:
            after = world.clone()
            after.advance(info.seat, action)
            if (
                after.is_over()
                or _knowledge(after.view(info.seat), after.legal_actions(info.seat)) not in self._visited
            ):
                allowed.append(action)
        return allowed or legal

    def _best(
        self, root: _Node, seat: int, size: int, legal: list[int], guide: int | None = None, bonus: float = 0.0
    ) -> int:
        """The most visited of the seat's root actions; mean reward, then chance, break ties.

        The heuristic's own choice (`guide`) counts `bonus` visits more: the search overrules it only when
        it is clearly worse. Chance rather than action order breaks ties: always the first could walk a cycle.
        """
        best: list[int] = []
        best_key = (-1.0, -1.0)
        for action in legal:
            edge = root.edges.get(seat * size + action)
            if edge is None:
                continue
            visits = edge[0] + (bonus if action == guide else 0.0)
            key = (visits, edge[1] / edge[0] if edge[0] else 0.0)
            if key > best_key:
                best, best_key = [action], key
            elif key == best_key:
                best.append(action)
        return self.rng.choice(best) if best else legal[0]

    # --- one iteration -------------------------------------------------------------------------------
    def _iterate(self, root: _Node, world: State, size: int) -> None:
        horizon = len(world.sheet) + self.rounds if self.rounds else None
        world.search_horizon = horizon
        path: list[tuple[_Node, list[tuple[int, int]]]] = []
        node = root
        expanded = False
        model_others = self.others == "policy"
        policy = self._rollout_policy(world) if model_others else None
        if self.rollout == "random" and not model_others:
            world.make_quiet()  # no bot reads this world's log, in the tree or in the rollout
        root_seat, root_allowed = self._root_seat, self._root_allowed
        sheet = world.sheet
        end = horizon if horizon is not None else math.inf
        while not expanded and len(sheet) < end:
            movers = world.to_move()
            if not movers:  # the game is over
                break
            if len(movers) == 1 and not model_others:
                # One seat to move and the tree decides for it (nearly every step): the general case below, without
                # its lists.
                seat = movers[0]
                legal = world.legal_for(seat)
                if node is root and seat == root_seat and root_allowed is not None:
                    legal = [a for a in legal if a in root_allowed] or legal
                key, expanded = self._select(node, seat, legal, size)
                world.advance(seat, key - seat * size)
                path.append((node, ((seat, key),)))
                child = node.children.get(key)
                if child is None:
                    child = node.children[key] = _Node()
                    expanded = True
                node = child
                continue
            chosen: list[tuple[int, int]] = []  # (seat, edge key) of the seats the tree decides for
            moves: list[tuple[int, int]] = []  # (seat, action) of every mover, in the order asked
            # Every mover decides before any choice is applied: a simultaneous decision stays blind.
            for seat in movers:
                legal = world.legal_actions(seat)
                if model_others and seat != self._root_seat:
                    moves.append((seat, _policy_action(policy, world, seat, legal, self.rng)))
                    continue
                if node is root and seat == root_seat and root_allowed is not None:
                    legal = [a for a in legal if a in root_allowed] or legal
                key, fresh = self._select(node, seat, legal, size)
                chosen.append((seat, key))
                moves.append((seat, key - seat * size))
                expanded = expanded or fresh
            for seat, action in moves:
                world.advance(seat, action)
            if not chosen:  # only modelled seats moved: the tree waits for the searching seat's next choice
                continue
            path.append((node, chosen))
            child_key = chosen[0][1] if len(chosen) == 1 else tuple(k for _, k in chosen)
            child = node.children.get(child_key)
            if child is None:
                child = node.children[child_key] = _Node()
                expanded = True
            node = child
        self._play_out(world, horizon)
        rewards = self._rewards(world)
        for node, chosen in path:
            for seat, key in chosen:
                edge = node.edges[key]
                edge[0] += 1
                edge[1] += rewards[seat]

    def _select(self, node: _Node, seat: int, legal: list[int], size: int) -> tuple[int, bool]:
        """UCB over availability counts; an action never tried in this node is tried first."""
        edges = node.edges
        untried: list[int] = []
        best_key, best_value = -1, -1.0
        c = self.c
        sqrt, log = math.sqrt, math.log
        if not legal:  # a broken game; `_randbelow(0)` would never return
            raise AssertionError(f"seat {seat} is to move with no legal action")
        below = self.rng._randbelow  # `randrange(n)` and `choice`'s draw, a Python call fewer (the same numbers)
        start = below(len(legal))  # equal values: the first in a random rotation wins
        base = seat * size
        get = edges.get
        for action in legal[start:] + legal[:start]:
            key = base + action
            edge = get(key)
            if edge is None:
                untried.append(key)
                edges[key] = [0, 0.0, 1]
                continue
            edge[2] += 1
            visits = edge[0]
            if not visits:
                untried.append(key)
            elif not untried:
                value = edge[1] / visits + c * sqrt(log(edge[2]) / visits)
                if value > best_value:
                    best_key, best_value = key, value
        if untried:
            return untried[below(len(untried))], True
        return best_key, False

    def _play_out(self, world: State, horizon: int | None, rng: random.Random | None = None) -> None:
        """Play on with the rollout policy until the end, the horizon or the depth cutoff."""
        steps = 0
        depth = self.depth
        rng = rng or self.rng
        bots = self._rollout_policy(world)
        if bots is None and type(rng) is random.Random and not depth:
            self._play_out_random(world, horizon, rng)
            return
        while not world.is_over() and not _past(world, horizon):
            if depth and steps >= depth:
                break
            seat = world.to_move()[0]
            world.advance(seat, _policy_action(bots, world, seat, None, rng))  # legal by construction
            steps += 1

    @staticmethod
    def _play_out_random(world: State, horizon: int | None, rng: random.Random) -> None:
        """The random rollout, with the same draws as `rng.choice` of the legal actions, in fewer Python calls
        (rollouts are most of a search's time)."""
        pick = rng._randbelow
        sheet = world.sheet
        end = horizon if horizon is not None else math.inf
        world.make_quiet()  # nothing reads a random rollout's log
        next_choice, apply = world.next_choice, world.advance
        while len(sheet) < end:
            choice = next_choice()
            if choice is None:  # the game is over
                return
            seat, legal = choice
            if not legal:  # a broken game; `_randbelow(0)` would never return
                raise AssertionError(f"{world!r}: seat {seat} is to move with no legal action")
            apply(seat, legal[pick(len(legal))])  # legal by construction

    def _rollout_policy(self, world: State) -> list[Bot] | None:
        """The game's heuristic bot for every seat, made once per game and player count (None: random play)."""
        if self.rollout != "heuristic":
            return None
        key = (world.game.id, world.players)
        if key not in self._rollout_bots:
            self.check_game(world.game)
            cls = world.game.heuristic_bot
            self._rollout_bots[key] = [cls.for_rollouts(self.rng.getrandbits(32)) for _ in range(world.players)]
        return self._rollout_bots[key]

    def _rewards(self, world: State) -> list[float]:
        """One reward in [0, 1] per seat, from the final result or the running totals at the horizon."""
        over = world.is_over()
        if not over:
            bot = world.game.heuristic_bot
            if bot is not None and bot.estimate is not Bot.estimate:  # a game that offers a judgement
                judged = bot.estimate(world)
                if judged is not None:
                    return judged
        scores = world.scores()
        if over:
            winners = world.winners()
        else:
            best = max(scores)
            winners = [s for s, t in enumerate(scores) if t == best]
        if self.reward == "win":
            return _win_shares(winners, len(scores))
        if self.reward == "score":
            return _normalised(scores)
        if self.reward == "rank":
            return _rank_shares(scores)
        shares = _win_shares(winners, len(scores))
        spread = _normalised(scores)
        return [0.5 * w + 0.5 * s for w, s in zip(shares, spread)]


def _check_settings(settings: dict[str, Any]) -> None:
    """Refuse a search setting outside its range, naming what is allowed."""
    if settings.get("c", 0) < 0:
        raise BadOptions(f"ismcts c (exploration) must be 0 or more, not {settings['c']}")
    if settings.get("rollout", "random") not in ROLLOUTS:
        raise BadOptions(f"ismcts rollout={settings['rollout']!r} is unknown; choose {' or '.join(ROLLOUTS)}")
    if settings.get("reward", "mix") not in REWARDS:
        raise BadOptions(f"ismcts reward={settings['reward']!r} is unknown; choose one of {', '.join(REWARDS)}")
    if settings.get("rounds", 0) < 0 or settings.get("depth", 0) < 0:
        raise BadOptions("ismcts rounds and depth must be 0 (no limit) or more")
    if settings.get("prior", 0) < 0:
        raise BadOptions(f"ismcts prior must be 0 or more, not {settings['prior']}")
    if settings.get("others", "search") not in OTHERS:
        raise BadOptions(f"ismcts others={settings['others']!r} is unknown; choose {' or '.join(OTHERS)}")
    if settings.get("z", 0) < 0:
        raise BadOptions(f"ismcts z must be 0 or more, not {settings['z']}")
    if settings.get("paired", 0) not in (0, 1):
        raise BadOptions(f"ismcts paired must be 0 (tree search) or 1 (paired worlds at the root), not {settings['paired']}")
    if settings.get("beliefs", 1) < 1:
        raise BadOptions(f"ismcts beliefs must be 1 (plain sampling) or more, not {settings['beliefs']}")


def _paired_best(results: dict[int, list[float]], guide: int | None, z: float) -> int:
    """The guide, unless a candidate beats it on the same worlds by `z` standard errors; else the best mean."""
    if guide is None:
        return max(results, key=lambda a: sum(results[a]) / len(results[a]))
    base = results[guide]
    best, best_score = guide, z
    for action, values in results.items():
        if action == guide:
            continue
        gains = [v - b for v, b in zip(values, base)]
        mean = sum(gains) / len(gains)
        spread = math.sqrt(sum((g - mean) ** 2 for g in gains) / max(len(gains) - 1, 1) / len(gains))
        score = mean / spread if spread > 0 else (math.inf if mean > 0 else 0.0)
        if mean > 0 and score > best_score:
            best, best_score = action, score
    return best


def _knowledge(view: dict[str, Any], legal: list[int]) -> str:
    """What a seat knows at a decision, as a key for the cycle guard."""
    return repr((view, legal))


def _policy_action(bots: list[Bot] | None, world: State, seat: int, legal: list[int] | None, rng) -> int:
    """The rollout policy's action for a seat: its heuristic bot's, or a uniformly random legal one."""
    if bots is None:
        return rng.choice(legal if legal is not None else world.legal_actions(seat))
    return bots[seat].act(SeatInfo(world, seat))


def _past(world: State, horizon: int | None) -> bool:
    return horizon is not None and len(world.sheet) >= horizon


def _win_shares(winners: list[int], players: int) -> list[float]:
    share = 1.0 / len(winners) if winners else 0.0
    out = [0.0] * players
    for s in winners:
        out[s] = share
    return out


def _normalised(scores: list[int]) -> list[float]:
    low, high = min(scores), max(scores)
    if high == low:
        return [0.5] * len(scores)
    span = float(high - low)
    return [(t - low) / span for t in scores]


def _rank_shares(scores: list[int]) -> list[float]:
    n = len(scores)
    if n < 2:
        return [1.0] * n
    out = []
    for t in scores:
        beaten = sum(1.0 if t > u else 0.5 if t == u else 0.0 for u in scores) - 0.5  # self counted as a tie
        out.append(beaten / (n - 1))
    return out
