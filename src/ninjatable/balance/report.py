"""Write a balance report: report.json (every figure), report.html (one self-contained page, plots embedded as
PNG) and, on request, the plots as PNG files beside it."""

from __future__ import annotations

import base64
import html
import io
import json
from pathlib import Path
from typing import Any

from ..core import BadOptions, seat_name
from . import BalanceResult

COLOURS = ("#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860", "#da8bc3", "#8c8c8c")
TOP_GROUP = 15  # entries drawn of a stat group such as decided_by:<card>, the most frequent first


def _pyplot():
    try:
        import matplotlib
    except ImportError:
        raise BadOptions("the balance report draws with matplotlib: pip install 'ninjatable[balance]'") from None
    matplotlib.use("Agg")  # files only: no display needed
    import matplotlib.pyplot as plt

    return plt


# --- sentences ---------------------------------------------------------------------------------------------
def pct(value: float) -> str:
    return f"{100 * value:.1f}%"


def interval_text(i: dict[str, float], scale: float = 1.0, unit: str = "", digits: int = 1) -> str:
    return (f"{scale * i['value']:+.{digits}f}{unit} [{scale * i['low']:+.{digits}f}, "
            f"{scale * i['high']:+.{digits}f}]")


def findings(pc: dict[str, Any]) -> list[str]:
    """Plain sentences a designer reads off the figures of one player count."""
    out = []
    n = pc["players"]
    for v in pc["variants"]:
        test = v["equal_seats"]
        rates = ", ".join(f"{seat_name(s)} {pct(w['value'])} [{pct(w['low'])}, {pct(w['high'])}]"
                          for s, w in enumerate(v["win_rate"]))
        verdict = ("the seats differ (p < 0.05)" if test["p_value"] < 0.05
                   else "no seat stands out from an even share (p >= 0.05)")
        out.append(f"{v['label']}: win rate by seat {rates} against an even {pct(1 / n)}; chi-square "
                   f"{test['chi_square']:.2f} on {test['df']} df, p = {test['p_value']:.3g}: {verdict}.")
    for d in pc["differences"]:
        for what in ("moves", "rounds"):
            rel = d.get(f"{what}_relative")
            if rel is None:
                continue
            per_game = f"{interval_text(d[what], digits=2)} {what} per game"
            if rel["low"] == rel["high"] == 0:
                out.append(f"{d['label']} does not change the game length in {what} ({per_game}).")
                continue
            if rel["low"] <= 0 <= rel["high"]:
                out.append(f"{d['label']} does not change the game length in {what} measurably: "
                           f"{100 * rel['value']:+.1f}% [{100 * rel['low']:+.1f}, {100 * rel['high']:+.1f}] "
                           f"({per_game}).")
                continue
            word, sign = ("lengthens", 1) if rel["value"] > 0 else ("shortens", -1)
            low, high = sorted((sign * rel["low"], sign * rel["high"]))
            out.append(f"{d['label']} {word} the game in {what} by {100 * sign * rel['value']:.1f}% "
                       f"[{100 * low:.1f}, {100 * high:.1f}] ({per_game}).")
        seats = ", ".join(f"{seat_name(s)} {interval_text(w, 100, ' pts')}" for s, w in enumerate(d["win_rate"]))
        out.append(f"{d['label']} changes the win rate by seat (percentage points): {seats}.")
    return out


# --- plots -------------------------------------------------------------------------------------------------
def _errors(intervals: list[dict[str, float]]) -> list[list[float]]:
    # max(0, ...): an interval computed in floating point may miss its own value by a rounding error
    return [[max(0.0, i["value"] - i["low"]) for i in intervals], [max(0.0, i["high"] - i["value"]) for i in intervals]]


def plot_win_rates(pc: dict[str, Any], title: str):
    plt = _pyplot()
    n, variants = pc["players"], pc["variants"]
    fig, ax = plt.subplots(figsize=(max(6.5, 1.6 + 1.1 * n * max(1, len(variants) / 2)), 3.8),
                           constrained_layout=True)
    width = 0.8 / len(variants)
    for k, v in enumerate(variants):
        xs = [s - 0.4 + width * (k + 0.5) for s in range(n)]
        rates = v["win_rate"]
        ax.bar(xs, [r["value"] for r in rates], width, yerr=_errors(rates), capsize=4, color=COLOURS[k % 8],
               label=f"{v['label']} (p = {v['equal_seats']['p_value']:.3g})")
    ax.axhline(1 / n, color="grey", linestyle="--", label=f"even share {pct(1 / n)}")
    ax.set_xticks(range(n), [seat_name(s) for s in range(n)])
    ax.set_xlabel("Seat")
    ax.set_ylabel("Win rate (share of games)")
    ax.set_title(f"{title}: win rate by seat\n(95% intervals; p: chi-square test of equal seats)", fontsize="medium")
    ax.legend(fontsize="small", loc="best")
    return fig


def plot_scores(pc: dict[str, Any], title: str):
    plt = _pyplot()
    n, variants = pc["players"], pc["variants"]
    fig, ax = plt.subplots(figsize=(max(6.5, 1.6 + 1.1 * n * max(1, len(variants) / 2)), 3.8),
                           constrained_layout=True)
    width = 0.8 / len(variants)
    for k, v in enumerate(variants):
        xs = [s - 0.4 + width * (k + 0.5) for s in range(n)]
        box = ax.boxplot(v["scores"], positions=xs, widths=width * 0.8, patch_artist=True, showfliers=False)
        for patch in box["boxes"]:
            patch.set(facecolor=COLOURS[k % 8], alpha=0.35)
        means = v["score"]
        ax.errorbar(xs, [m["value"] for m in means], yerr=_errors(means), fmt="o", color=COLOURS[k % 8],
                    capsize=3, label=f"{v['label']}: mean, 95% interval")
    ax.set_xticks(range(n), [seat_name(s) for s in range(n)])
    ax.set_xlabel("Seat")
    ax.set_ylabel("Final score (points)")
    ax.set_title(f"{title}: scores by seat\n(boxes: quartiles, whiskers: range)", fontsize="medium")
    ax.legend(fontsize="small", loc="best")
    return fig


def plot_length(pc: dict[str, Any], title: str):
    plt = _pyplot()
    from matplotlib.ticker import MaxNLocator
    variants = pc["variants"]
    panels = [("moves_per_game", "moves", "Game length (moves)")]
    if variants[0]["rounds_per_game"] is not None:
        panels.append(("rounds_per_game", "rounds", "Game length (rounds)"))
    fig, axes = plt.subplots(1, len(panels), figsize=(4.2 * len(panels) + 0.6, 3.4), constrained_layout=True,
                             squeeze=False)
    for ax, (key, summary, label) in zip(axes[0], panels):
        values = [v[key] for v in variants if v[key] is not None]
        low, high = min(min(x) for x in values), max(max(x) for x in values)
        discrete = key == "rounds_per_game"
        bins = [b - 0.5 for b in range(int(low), int(high) + 2)] if discrete else 20
        for k, v in enumerate(variants):
            if v[key] is None:
                continue
            m = v[summary]
            ax.hist(v[key], bins=bins, histtype="step", linewidth=1.6, color=COLOURS[k % 8],
                    label=f"{v['label']}: mean {m['value']:.1f} [{m['low']:.1f}, {m['high']:.1f}]")
        if discrete:
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel(label)
        ax.set_ylabel("Games")
        ax.legend(fontsize="small", loc="best")
    fig.suptitle(f"{title}: game length")
    return fig


def stat_groups(names: list[str]) -> dict[str, list[str]]:
    """Stats grouped by the prefix before ':' (decided_by:<card>); those without one form the first group."""
    groups: dict[str, list[str]] = {"": []}
    for name in names:
        prefix, sep, _ = name.partition(":")
        groups.setdefault(prefix if sep else "", []).append(name)
    return {k: v for k, v in groups.items() if v}


def plot_stats(pc: dict[str, Any], title: str, group: str, names: list[str]):
    plt = _pyplot()
    variants = pc["variants"]
    base = variants[0]["stats"]
    if group:  # the most frequent entries of a group, by the default's mean
        names = sorted(names, key=lambda n: -base.get(n, {"per_game": {"value": 0}})["per_game"]["value"])
        names = names[:TOP_GROUP]
    names = list(reversed(names))
    height = 0.8 / len(variants)
    fig, ax = plt.subplots(figsize=(7.5, 1.2 + 0.32 * len(names) * max(1, len(variants) * 0.6)),
                           constrained_layout=True)
    for k, v in enumerate(variants):
        intervals = [v["stats"].get(n, {"per_game": {"value": 0, "low": 0, "high": 0}})["per_game"] for n in names]
        ys = [i - 0.4 + height * (k + 0.5) for i in range(len(names))]
        ax.barh(ys, [x["value"] for x in intervals], height, xerr=_errors(intervals), capsize=3,
                color=COLOURS[k % 8], label=v["label"])
    ax.set_yticks(range(len(names)), [n.partition(":")[2] if group else n for n in names], fontsize="small")
    ax.set_xlabel("Mean per game (a count, or points where named so), 95% interval")
    what = f"{group.replace('_', ' ')} (top {TOP_GROUP})" if group else "game figures"
    ax.set_title(f"{title}: {what}")
    if len(variants) > 1:
        ax.legend(fontsize="small", loc="best")
    return fig


def plot_differences(pc: dict[str, Any], title: str):
    plt = _pyplot()
    diffs, n = pc["differences"], pc["players"]
    fig, axes = plt.subplots(1, 2, figsize=(10, 1.4 + 0.5 * max(len(diffs), n) * 1.4), constrained_layout=True)
    rows = []
    for d in diffs:
        for what in ("moves", "rounds"):
            if d.get(f"{what}_relative"):
                rows.append((f"{d['label']}: {what}", d[f"{what}_relative"]))
    ys = list(range(len(rows)))
    axes[0].errorbar([100 * r["value"] for _, r in rows], ys, xerr=_errors([{k: 100 * x for k, x in r.items()}
                                                                            for _, r in rows]),
                     fmt="o", capsize=4, color=COLOURS[0])
    axes[0].set_yticks(ys, [label for label, _ in rows], fontsize="small")
    axes[0].axvline(0, color="grey", linestyle="--")
    axes[0].set_xlabel("Change in mean length (%)")
    axes[0].set_title("Game length, 95% intervals")
    labels, ys, values, lows, highs = [], [], [], [], []
    for k, d in enumerate(diffs):
        for s, w in enumerate(d["win_rate"]):
            labels.append(f"{d['label']}: {seat_name(s)}")
            ys.append(len(ys))
            values.append(100 * w["value"])
            lows.append(100 * (w["value"] - w["low"]))
            highs.append(100 * (w["high"] - w["value"]))
    axes[1].errorbar(values, ys, xerr=[lows, highs], fmt="o", capsize=4, color=COLOURS[1])
    axes[1].set_yticks(ys, labels, fontsize="small")
    axes[1].axvline(0, color="grey", linestyle="--")
    axes[1].set_xlabel("Change in win rate (percentage points)")
    axes[1].set_title("Win rate by seat, 95% intervals")
    fig.suptitle(f"{title}: variants against the default, game by game from the same seeds")
    return fig


def figures(result: BalanceResult, data: dict[str, Any]) -> list[tuple[int, str, Any]]:
    """Every plot of the report: (players, file stem, figure)."""
    out = []
    for pc in data["player_counts"]:
        p = pc["players"]
        title = f"{result.title}, {p} players"
        out.append((p, f"win-rate-{p}p", plot_win_rates(pc, title)))
        out.append((p, f"scores-{p}p", plot_scores(pc, title)))
        out.append((p, f"length-{p}p", plot_length(pc, title)))
        for group, names in stat_groups(list(pc["variants"][0]["stats"])).items():
            stem = f"{group.replace('_', '-') or 'figures'}-{p}p"
            out.append((p, stem, plot_stats(pc, title, group, names)))
        if pc["differences"]:
            out.append((p, f"variants-{p}p", plot_differences(pc, title)))
    return out


def _png(fig) -> bytes:
    plt = _pyplot()
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=90)
    plt.close(fig)
    return buffer.getvalue()


# --- files -------------------------------------------------------------------------------------------------
def write_report(result: BalanceResult, out: Path, png_dir: Path | None = None) -> dict[str, Any]:
    """Write out/report.json and out/report.html (and each plot as PNG into `png_dir` if given)."""
    data = result.to_dict()
    out.mkdir(parents=True, exist_ok=True)
    (out / "report.json").write_text(json.dumps(data, indent=1), encoding="utf-8")
    images: dict[int, list[tuple[str, bytes]]] = {}
    for p, stem, fig in figures(result, data):
        png = _png(fig)
        images.setdefault(p, []).append((stem, png))
        if png_dir is not None:
            png_dir.mkdir(parents=True, exist_ok=True)
            (png_dir / f"{result.game}-{stem}.png").write_bytes(png)
    (out / "report.html").write_text(render_html(data, images), encoding="utf-8")
    return data


def _cell(i: dict[str, float] | None, fmt: str = "{:.2f}") -> str:
    if i is None:
        return "-"
    return f"{fmt.format(i['value'])} [{fmt.format(i['low'])}, {fmt.format(i['high'])}]"


def _table(headers: list[str], rows: list[list[str]]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


STYLE = """body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:.6em 0 1.2em}td,th{border:1px solid #ccc;padding:.25em .6em;text-align:right}
th{background:#f3f3f3}td:first-child{text-align:left}img{max-width:100%;display:block;margin:.8em 0}
li{margin:.3em 0}"""


def render_html(data: dict[str, Any], images: dict[int, list[tuple[str, bytes]]]) -> str:
    """One self-contained page: settings, findings, tables and the plots embedded as PNG."""
    esc = html.escape
    parts = [f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>Balance report: "
             f"{esc(data['title'])}</title><style>{STYLE}</style></head><body>",
             f"<h1>Balance report: {esc(data['title'])}</h1>",
             f"<p>{data['games']} games per player count and variant between bots "
             f"<code>{esc(','.join(data['bots']))}</code> (given to the seats in turn), seed {data['seed']}: "
             "game <i>i</i> of every variant uses deal seed seed+<i>i</i>, so variants are compared game by game. "
             "Intervals are 95%: Wilson for win rates, normal for means, bootstrap for relative changes. A shared "
             "win counts as a fraction.</p>"]
    for pc in data["player_counts"]:
        p = pc["players"]
        parts.append(f"<h2>{p} players</h2><h3>What the figures say</h3><ul>")
        parts += [f"<li>{esc(line)}</li>" for line in findings(pc)]
        parts.append("</ul>")
        for v in pc["variants"]:
            parts.append(f"<h3>{esc(v['label'])}</h3>")
            rows = [[seat_name(s), pc["seat_bots"][s], _cell(v["win_rate"][s], "{:.3f}"), _cell(v["score"][s])]
                    for s in range(p)]
            parts.append(_table(["seat", "bot", "win rate", "mean score"], rows))
            length = [["moves", _cell(v["moves"], "{:.1f}")]]
            if v["rounds"] is not None:
                length.append(["rounds", _cell(v["rounds"], "{:.2f}")])
            parts.append(_table(["game length", "mean per game"], length))
            rows = [[name, _cell(s["per_game"]), f"{s['games_with']} of {v['games']}", _cell(s["where_present"])]
                    for name, s in v["stats"].items()]
            if rows:
                parts.append(_table(["game figure", "mean per game", "games where it is not 0",
                                     "mean where the game reports it"], rows))
        for d in pc["differences"]:
            parts.append(f"<h3>{esc(d['label'])} against the default (paired by seed)</h3>")
            rows = [[f"win rate, {seat_name(s)}", _cell(w, "{:+.3f}")] for s, w in enumerate(d["win_rate"])]
            rows += [[f"score, {seat_name(s)}", _cell(w, "{:+.2f}")] for s, w in enumerate(d["score"])]
            rows.append(["moves", _cell(d["moves"], "{:+.1f}")])
            rows.append(["moves, relative", _cell(d["moves_relative"], "{:+.1%}")])
            if "rounds" in d:
                rows.append(["rounds", _cell(d["rounds"], "{:+.2f}")])
                rows.append(["rounds, relative", _cell(d["rounds_relative"], "{:+.1%}")])
            rows += [[name, _cell(x, "{:+.2f}")] for name, x in d["stats"].items()]
            parts.append(_table(["figure", "variant - default"], rows))
        for stem, png in images.get(p, []):
            encoded = base64.b64encode(png).decode("ascii")
            parts.append(f"<img alt='{esc(stem)}' src='data:image/png;base64,{encoded}'>")
    parts.append("</body></html>")
    return "\n".join(parts)
