"""Terminal rendering of a Ninja Clan Wars view (built only from what the seat may see)."""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text


def _player(seat: int) -> str:
    return f"Player {seat + 1}"


def _ninja_text(ninja: list[dict[str, Any]]) -> Text:
    if not ninja:
        return Text("-", style="dim")
    parts = []
    for n in ninja:
        t = Text(n["name"], style="bold")
        t.append(f" {n['stealth']}S/{n['fight']}F", style="cyan")
        if n["cost"]:
            t.append(f" c{n['cost']}", style="dim")
        parts.append(t)
    return Text(", ").join(parts)


def _clans_table(view: dict[str, Any]) -> Table:
    table = Table(title="Clans", expand=False, show_lines=False)
    table.add_column("player")
    table.add_column("village", justify="right")
    table.add_column("hand", justify="right")
    table.add_column("Ninja in play (current Stealth/Fight, cost)")
    me, current = view["seat"], view["current"]
    for clan in view["clans"]:
        s = clan["seat"]
        name = Text(_player(s), style="bold yellow" if s == current else "")
        if s == me:
            name.append(" (you)")
        if clan["defeated"]:
            name.append(" defeated", style="red")
        elif clan["first_turn"]:
            name.append(" first turn", style="dim")
        table.add_row(name, f"{clan['markers']} markers", str(clan["hand_count"]), _ninja_text(clan["ninja"]))
    return table


def _combat(combat: dict[str, Any]) -> Group:
    lines = []
    title = Text("Combat: ", style="bold red")
    title.append(f"{_player(combat['attacker'])} attacks {_player(combat['defender'])}'s {combat['target']}")
    if combat["blocker"]:
        title.append(f", blocked by {combat['blocker']}")
    lines.append(title)
    lines.append(Text.assemble("  attacking: ", _ninja_text(combat["attacking"])))
    defending = _ninja_text(combat["defending"]) if combat["defending"] else Text("")
    if combat["village"]:
        defending = Text.assemble("the village 0S/0F", ", " if combat["defending"] else "", defending)
    lines.append(Text.assemble("  defending: ", defending))
    att, dfn = combat["totals"]
    contest = combat["contest"].capitalize()
    total = Text(f"  {contest}: attacker {att} against defender {dfn}", style="bold")
    bonus = combat["bonus"]
    if combat["contest"] == "fight" and any(bonus):
        total.append(f"   (Fight bonus +{bonus[0]} / +{bonus[1]})", style="dim")
    lines.append(total)
    for play in combat["plays"]:
        letter = "F" if combat["contest"] == "fight" else "S"
        t = Text(f"    {play['side']} plays {play['card']} +{play['bonus']}{letter}")
        if play["negated"]:
            t.stylize("strike")
            t.append(" negated", style="red")
        lines.append(t)
    if combat["log"]:
        lines.append(Text("  " + "; ".join(combat["log"]), style="dim"))
    return Group(*lines)


def render(view: dict[str, Any]) -> Group:
    me = view["seat"]
    header = Text.assemble(
        (view["title"], "bold"),
        f"   {_player(view['current'])}'s turn: {view['phase']}",
        f"   deck {view['deck']}   discard {len(view['discard'])}",
        f"   attacks left {view['attacks_left']}",
    )
    parts: list[Any] = [header, _clans_table(view)]
    if view["mass"]:
        which = "This" if view["combat"] else "Next"
        parts.append(Text(f"{which} attack: each side may add up to {view['mass']} Ninja"))
    if view["pending"]:
        parts.append(Text(f"Choosing the target of {view['pending']}"))
    if view["combat"]:
        parts.append(_combat(view["combat"]))
    if me is not None:
        clan = view["clans"][me]
        hand = clan["hand"] or []
        parts.append(Text.assemble(("Your hand: ", "bold"), ", ".join(hand) if hand else "-"))
        knowledge = view["knowledge"][me] or {}
        for who, cards in knowledge.get("hands", {}).items():
            parts.append(Text(f"You know {who} holds: {', '.join(cards)}", style="dim"))
        if knowledge.get("deck_top"):
            parts.append(Text(f"Next cards of the deck: {', '.join(knowledge['deck_top'])}", style="dim"))
    if view["final"]:
        table = Table(title=f"Final ranking (highest Ninja by {view['final']['ranking']})")
        for col in ("player", "best rank", "Ninja", "markers"):
            table.add_column(col)
        for row in view["final"]["rows"]:
            table.add_row(_player(row["seat"]), str(max(row["best_rank"], 0)), str(row["ninja"]),
                          str(row["markers"]))
        parts.append(table)
        parts.append(Text("Winner: " + ", ".join(_player(w) for w in view["winners"]), style="bold green"))
    return Group(*parts)
