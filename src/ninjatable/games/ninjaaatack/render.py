"""The terminal table of Ninjaaa'Tack, drawn from one seat's view only."""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ...core import winners_text
from .cards import FAMILIES, FAMILY_COLOURS, SIGNALS


def render(view: dict[str, Any]) -> Panel:
    """Your hand by family, the teams with scores and penalties, the round's signals and the last call."""
    seat = view.get("seat")
    parts: list[Any] = [_status(view), _teams(view)]
    if seat is not None:
        parts.append(_hand(view))
        parts.append(_passes(view))
    parts.append(_signals(view))
    if seat is not None and not view["over"]:
        parts.append(_bot_convention(view))
    if view.get("last_call"):
        parts.append(_last_call(view["last_call"]))
    title = "Ninjaaa'Tack" + ("" if seat is None else f": you are Player {seat + 1}")
    return Panel(Group(*parts), title=title, expand=False)


def _family(name: str, count: int | None = None) -> Text:
    colour = FAMILY_COLOURS[FAMILIES.index(name)] if name in FAMILIES else "white"
    label = name if count is None else f"{name} x{count}"
    return Text(label, style=f"bold {colour}")


def _status(view: dict[str, Any]) -> Text:
    text = Text()
    text.append(f"Round {view['round']}", style="bold")
    text.append(f"   pass {view['passes']} of at most {view['max_passes']}")
    if view["over"]:
        text.append(f"   game over: {winners_text(view['winners'], view['seat'])}", style="bold green")
        return text
    step = view["step"]
    text.append("   now: " + ("choose a card to pass" if step == "pass" else "make a signal (or stay silent)"))
    waiting = ", ".join(f"Player {s + 1}" for s in view["to_move"])
    text.append(f"\nWaiting for: {waiting}")
    if view.get("my_choice"):
        text.append(f"   your choice: {view['my_choice']} (hidden from the others)", style="italic")
    attack = "'attack Player N' (one team)" if view.get("attack") == "team" else "'attack' (every other team)"
    text.append(f"\nThe gong: 'ninjaaa' or {attack} at any prompt", style="dim")
    return text


def _teams(view: dict[str, Any]) -> Table:
    individual = view["individual_scores"]
    table = Table(title="Teams" + (" (points are individual)" if individual else ""), title_justify="left")
    table.add_column("team")
    table.add_column("points")
    table.add_column("penalty")
    scores = view["scores"]
    for team in view["teams"]:
        seats = team["seats"]
        name = team["name"] + (" (you)" if view.get("seat") in seats else "")
        if individual:
            points = ", ".join(f"P{s + 1}: {scores[s]}" for s in seats)
        else:
            points = str(team["score"])
        penalty = "; ".join(
            _penalty_text(view, seats, key, when)
            for key, when in (("penalised", "this round"), ("penalised_next_round", "next round"))
            if any(s in view[key] for s in seats)
        )
        table.add_row(name, points, penalty)
    table.caption = f"first to {view['points_to_win']} points wins"
    return table


def _penalty_text(view: dict[str, Any], seats: list[int], key: str, when: str) -> str:
    """`Penalty this round` for a team; with individual scores, who exactly is penalised."""
    if not view["individual_scores"]:
        return f"Penalty {when}"
    who = ", ".join(f"Player {s + 1}" for s in seats if s in view[key])
    return f"{who}: Penalty {when}"


def _hand(view: dict[str, Any]) -> Text:
    text = Text("Your hand: ", style="bold")
    hand = view.get("hand") or {}
    for i, (name, count) in enumerate(sorted(hand.items(), key=lambda kv: (-kv[1], FAMILIES.index(kv[0])))):
        if i:
            text.append("  ")
        text.append_text(_family(name, count))
    lone = view.get("lone_wolf")
    need = 3 if lone is not None and lone == view.get("seat") else 4
    if view.get("seat") in view["penalised"]:
        who = "you alone hold" if view["individual_scores"] else "one of you alone holds"
        text.append(f"   (Penalty: Ninjaaa! counts only if {who} {need} of a family)", style="red")
    elif need == 3:
        text.append("   (lone wolf: you need 3 of one family in your hand)", style="dim")
    else:
        text.append(f"   (your team needs {need} of one family)", style="dim")
    return text


def _passes(view: dict[str, Any]) -> Text:
    text = Text("Your passes this round: ", style="bold")
    log = view.get("my_passes") or []
    if not log:
        text.append("none yet", style="dim")
    for k, entry in enumerate(log, start=1):
        text.append(f"{k}. gave ")
        text.append_text(_family(entry["passed"]))
        text.append(", got ")
        text.append_text(_family(entry["received"]))
        text.append("  ")
    return text


def _signals(view: dict[str, Any]) -> Text:
    text = Text("Signals this round:", style="bold")
    if not view["signals"]:
        text.append(" none yet", style="dim")
        return text
    by_pass: dict[int, list[str]] = {}
    for s in view["signals"]:
        by_pass.setdefault(s["pass"], []).append(f"{s['player']} {s['signal']}")
    for k, made in by_pass.items():
        text.append(f"\n  after pass {k}: " + ", ".join(made))
    return text


def _bot_convention(view: dict[str, Any]) -> Text:
    """How the heuristic bots talk, so a person can read (and answer) a bot teammate."""
    code = view.get("codebook")
    if code is None and view.get("codebooks_private"):
        return Text("You are the lone wolf: nobody to signal to this round.", style="dim")
    if code is None:
        code = {SIGNALS[i]: family for i, family in enumerate(view["families"])}
    names = ", ".join(f"{gesture} = {family}" for gesture, family in code.items())
    whose = "your partnership's code" if view.get("codebooks_private") else "the public code"
    return Text(
        f"Heuristic bots signal the family they collect, once they hold 2 of it, by {whose}: {names}", style="dim"
    )


def _last_call(call: dict[str, Any]) -> Text:
    text = Text("Last gong: ", style="bold")
    if call["call"] == "ninjaaa":
        said = f"Ninjaaa! ({call['target']})"
    else:
        said = f"Attack! on {call['target']}"
    text.append(f"Player {call['caller'] + 1} called {said}: ")
    if call["correct"]:
        text.append(f"right, {call['points']} point(s)", style="bold green")
    else:
        text.append("wrong", style="bold red")
    for player, cards in call["revealed"].items():
        text.append(f"\n  {player} showed {cards}")
    return text
