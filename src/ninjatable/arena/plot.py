"""Draw a match's results: win rate and mean score per bot with their 95% intervals, and the ratings."""

from __future__ import annotations

from pathlib import Path

from ..core import BadOptions
from .match import ArenaResult


def plot_results(result: ArenaResult, path: str | Path) -> Path:
    """Save a three-panel figure (PNG, or any format matplotlib knows from the suffix)."""
    try:
        import matplotlib
    except ImportError:
        raise BadOptions("--plot needs matplotlib: pip install 'ninjatable[arena]'") from None

    matplotlib.use("Agg")  # files only: no display needed
    import matplotlib.pyplot as plt

    names = [s.bot for s in result.summaries]
    x = range(len(names))
    fig, axes = plt.subplots(1, 3, figsize=(4 + 2.2 * len(names), 4.2), constrained_layout=True)
    panels = [
        ("win rate", [s.win_rate for s in result.summaries]),
        ("mean score", [s.mean_score for s in result.summaries]),
    ]
    for ax, (title, intervals) in zip(axes, panels):
        values = [i.value for i in intervals]
        errors = [[i.value - i.low for i in intervals], [i.high - i.value for i in intervals]]
        ax.bar(x, values, yerr=errors, capsize=6, color="#4c72b0")
        ax.set_title(f"{title} (95% CI)")
        ax.set_xticks(list(x), names, rotation=20, ha="right")
    axes[0].axhline(result.even_share, color="grey", linestyle="--", label="even share")
    axes[0].legend(loc="best")
    mus = [s.rating["mu"] for s in result.summaries]
    sigmas = [s.rating["sigma"] for s in result.summaries]
    axes[2].errorbar(list(x), mus, yerr=[2 * s for s in sigmas], fmt="o", capsize=6, color="#dd8452")
    axes[2].set_title("rating (mu ± 2 sigma)")
    axes[2].set_xticks(list(x), names, rotation=20, ha="right")
    fig.suptitle(f"{result.game}, {result.players} players, {len(result.games)} games, seed {result.seed}")
    path = Path(path)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
