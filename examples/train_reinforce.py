"""Train a small agent on a ninjatable game with REINFORCE, NumPy only, and show that it improves.

The agent is a linear softmax policy over the seat's observation: one weight vector per action, illegal
actions masked out. It plays one seat of the Gymnasium single-agent environment against random bots,
and learns from the final score of each game (REINFORCE with a running baseline and Adam steps).
A progress bar (on stderr) shows the games played, the time left and the running win rate. Before and after
training it plays the same evaluation deals; the untrained policy (all weights zero) is
exactly a uniformly random player, so "before" is the random baseline.

    python examples/train_reinforce.py                        # dragon, 4 players, a few minutes
    python examples/train_reinforce.py --episodes 200 --eval 50   # a quick look
"""

from __future__ import annotations

import argparse
import os
import time
from collections import deque

# The matrices here are small: one BLAS thread is several times faster than a pool that waits on itself.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from ninjatable.research import single_agent_env

RECENT = 200  # training games the running win rate is taken over
PROGRESS = Console(stderr=True)  # the progress bars go to stderr, so the results on stdout stay clean


def progress_bar() -> Progress:
    """Games played, time used and left, and the win rate so far."""
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    TimeRemainingColumn(), TextColumn("{task.fields[wins]}"), console=PROGRESS, transient=True)


class LinearPolicy:
    """Softmax over `weights @ observation + bias`, restricted to the legal actions."""

    def __init__(self, observation_size: int, actions: int) -> None:
        self.weights = np.zeros((actions, observation_size))
        self.bias = np.zeros(actions)

    def probabilities(self, observation: np.ndarray, mask: np.ndarray) -> np.ndarray:
        logits = self.weights @ observation + self.bias
        logits = np.where(mask, logits, -np.inf)
        logits -= logits.max()
        exp = np.exp(logits)
        return exp / exp.sum()

    def act(self, observation: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> tuple[int, np.ndarray]:
        """A sampled action and the probabilities it was drawn from."""
        probs = self.probabilities(observation, mask)
        return int(rng.choice(len(probs), p=probs)), probs


class Adam:
    """Adam steps for a list of arrays (gradient ascent)."""

    def __init__(self, params: list[np.ndarray], lr: float, beta1: float = 0.9, beta2: float = 0.999) -> None:
        self.params, self.lr, self.beta1, self.beta2 = params, lr, beta1, beta2
        self.m = [np.zeros_like(p) for p in params]
        self.v = [np.zeros_like(p) for p in params]
        self.t = 0

    def ascend(self, grads: list[np.ndarray]) -> None:
        self.t += 1
        for p, g, m, v in zip(self.params, grads, self.m, self.v):
            m *= self.beta1
            m += (1 - self.beta1) * g
            v *= self.beta2
            v += (1 - self.beta2) * g * g
            m_hat = m / (1 - self.beta1**self.t)
            v_hat = v / (1 - self.beta2**self.t)
            p += self.lr * m_hat / (np.sqrt(v_hat) + 1e-8)


def play_episode(env, policy: LinearPolicy, rng: np.random.Generator, seed: int | None):
    """One game; returns (final reward, whether the seat won, the decisions as (observation, action, probs))."""
    observation, _ = env.reset(seed=seed)
    decisions = []
    terminated = False
    reward = 0.0
    while not terminated:
        action, probs = policy.act(observation, env.action_masks(), rng)
        decisions.append((observation, action, probs))
        observation, reward, terminated, _, _ = env.step(action)
    won = env.seat in env.game_state.winners()
    return reward, won, decisions


def evaluate(env, policy: LinearPolicy, games: int, seed: int, what: str = "evaluating") -> tuple[float, float]:
    """Mean final score and win rate over `games` fixed deals (seeds seed, seed+1, ...)."""
    rng = np.random.default_rng(seed)
    results = []
    with progress_bar() as bar:
        task = bar.add_task(what, total=games, wins="")
        for i in range(games):
            results.append(play_episode(env, policy, rng, seed + i)[:2])
            bar.update(task, advance=1, wins=f"win rate {np.mean([w for _, w in results]):.1%}")
    return float(np.mean([r for r, _ in results])), float(np.mean([w for _, w in results]))


def train(env, policy: LinearPolicy, episodes: int, batch: int, lr: float, seed: int) -> None:
    rng = np.random.default_rng(seed)
    adam = Adam([policy.weights, policy.bias], lr)
    baseline, spread = 0.0, 1.0
    env.reset(seed=seed)
    recent: deque[bool] = deque(maxlen=RECENT)
    with progress_bar() as bar:
        task = bar.add_task("training", total=episodes, wins="")
        for start in range(0, episodes, batch):
            grad_w = np.zeros_like(policy.weights)
            grad_b = np.zeros_like(policy.bias)
            for _ in range(min(batch, episodes - start)):
                reward, won, decisions = play_episode(env, policy, rng, None)
                recent.append(won)
                advantage = (reward - baseline) / spread
                baseline += 0.02 * (reward - baseline)
                spread += 0.02 * (abs(reward - baseline) - spread)
                observations = np.stack([o for o, _, _ in decisions])
                # d log pi(a|s) / d logits = onehot(a) - pi(.|s), one row per decision
                d_logits = -np.stack([p for _, _, p in decisions])
                d_logits[np.arange(len(decisions)), [a for _, a, _ in decisions]] += 1.0
                grad_w += advantage * (d_logits.T @ observations)
                grad_b += advantage * d_logits.sum(axis=0)
                bar.update(task, advance=1, wins=f"win rate {np.mean(recent):.1%} (last {len(recent)} games)")
            adam.ascend([grad_w / batch, grad_b / batch])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="REINFORCE with a linear policy against random bots.")
    parser.add_argument("--game", default="dragon")
    parser.add_argument("--players", type=int, default=None, help="default: the game's usual count")
    parser.add_argument("--episodes", type=int, default=10000, help="training games")
    parser.add_argument("--eval", type=int, default=400, help="evaluation games before and after")
    parser.add_argument("--batch", type=int, default=64, help="games per update")
    parser.add_argument("--lr", type=float, default=0.03)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    env = single_agent_env(args.game, seat=0, opponents="random", players=args.players, reward="score")
    policy = LinearPolicy(env.observation_space.shape[0], env.action_space.n)
    eval_seed = 10**6  # evaluation deals are never trained on
    started = time.perf_counter()
    before = evaluate(env, policy, args.eval, eval_seed, "before training")
    print(f"{args.game}, {env.players} players, seat 0 against random bots")
    print(f"before training: mean score {before[0]:7.2f}   win rate {before[1]:6.1%}   (a uniformly random player)")
    train(env, policy, args.episodes, args.batch, args.lr, args.seed)
    after = evaluate(env, policy, args.eval, eval_seed, "after training")
    print(f"after {args.episodes} games: mean score {after[0]:7.2f}   win rate {after[1]:6.1%}")
    print(f"improvement: {after[0] - before[0]:+.2f} points per game, {after[1] - before[1]:+.1%} wins "
          f"({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
