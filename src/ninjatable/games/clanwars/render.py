"""Terminal rendering of a Ninja Clan Wars view (built only from what the seat may see)."""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from .cards import CARD_ID, CARDS, NINJA


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


# What the decision of each phase is, in a line, where the action labels alone may not say it.
PHASE_HINTS = {
    "recruit": "Recruit Ninja from your hand for their Cost in markers, or pass to the Spy Phase.",
    "spy": "Play Spy Phase cards or use a SPY Ninja to look at a hand, or pass to the Mission Phase.",
    "mission: choose an attacker": "Choose a Ninja to attack with (or play an extra-attack or mass-combat card), "
                                   "or pass to Recovery.",
    "mission: choose a target": "Attack a player's village (Player N) or one of their Ninja.",
    "spy: choose an opponent": "Choose the opponent your card (or SPY look) acts on.",
    "spy: choose a Ninja": "Choose the opponent's Ninja to take control of.",
    "mission: add attacking Ninja": "Add another of your Ninja to this attack, or pass.",
    "add defending Ninja": "Add another of your Ninja to the defence, or pass.",
    "block": "The defender blocks with one of their Ninja, plays a mass-combat card, or passes (no block).",
    "stealth contest": "Play a card that adds Stealth, or pass; the contest ends when both sides pass in a row. "
                       "The defender wins ties.",
    "fight contest": "Play a card that adds Fight, or pass; the contest ends when both sides pass in a row. "
                     "The defender wins ties; the loser is killed.",
    "attacker's choice": "The attacker won the Stealth contest: fight the original target with Fight +3, or "
                         "withdraw.",
    "target's choice": "The target won the Stealth contest: negate the attack, fight back with Fight +3, or name "
                       "another of its clan to fight in its place with Fight +3.",
    "endurance": "An attacking Ninja was killed: Endurance puts it back in your hand; or pass.",
    "recovery: discard": "Discard down to 7 cards.",
}


# The game ends when a card must be drawn from an empty deck: said where a choice would draw.
EMPTY_DECK_WARNINGS = {
    "spy": "The deck is empty: playing Plan or Plot ends the game at once.",
    "mission: choose an attacker": "The deck is empty: attacking with a Chunin (it draws a card) ends the game at "
                                   "once, before the attack is resolved.",
}


# The rulebook's abbreviations, spelled out where a card line uses them.
ABBREVIATIONS = {
    "LOH": "look at an opponent's hand",
    "TIP": "tokens into play",
    "AYN": "all your other Ninja",
    "ECP": "for each Event card played in its contest",
    "SPY": "looks at an opponent's hand in the Spy Phase",
}


def _spelled_out(notes: str) -> str:
    """A card line with its abbreviations explained: "LOH" -> "LOH: look at an opponent's hand"."""
    if notes in ABBREVIATIONS:
        return f"{notes}: {ABBREVIATIONS[notes]}"
    words = notes.replace("/", " ").split()
    extra = [f"{a}: {meaning}" for a, meaning in ABBREVIATIONS.items() if a in words]
    return f"{notes} [{'; '.join(extra)}]" if extra else notes


def _card_text(name: str) -> str:
    """A card in hand with what it does: its rulebook line, and a Ninja's cost and ratings."""
    card = CARDS[CARD_ID[name]]
    if card.kind != NINJA:
        return f"{name} ({_spelled_out(card.notes)})"
    parts = [f"cost {card.cost}"]
    if card.stealth is not None:
        parts.append(f"{card.stealth}S/{card.fight}F")
    if card.notes != "-":
        parts.append(_spelled_out(card.notes))
    return f"{name} ({', '.join(parts)})"


def _who_decides(view: dict[str, Any]) -> str:
    movers = view.get("to_move") or []
    if not movers:
        return ""
    names = [_player(s) + (" (you)" if s == view["seat"] else "") for s in movers]
    return f" - {', '.join(names)} decides"


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
        f"   {_player(view['current'])}'s turn: {view['phase']}{_who_decides(view)}",
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
        parts.append(Text.assemble(("Your hand: ", "bold"), "; ".join(map(_card_text, hand)) if hand else "-"))
        knowledge = view["knowledge"][me] or {}
        for who, cards in knowledge.get("hands", {}).items():
            parts.append(Text(f"You know {who} holds: {', '.join(cards)}", style="dim"))
        for who, cards in knowledge.get("one_may_be_stolen", {}).items():
            parts.append(Text(f"You know {who} holds all but at most one (stolen) of: {', '.join(cards)}",
                              style="dim"))
        if knowledge.get("deck_top"):
            parts.append(Text(f"Next cards of the deck: {', '.join(knowledge['deck_top'])}", style="dim"))
    hint = PHASE_HINTS.get(view["phase"])
    if hint and view["to_move"]:
        parts.append(Text(hint, style="italic"))
        if view["deck"] == 0 and view["phase"] in EMPTY_DECK_WARNINGS:
            parts.append(Text(EMPTY_DECK_WARNINGS[view["phase"]], style="bold yellow"))
    if view["final"]:
        table = Table(title=f"Final ranking (highest Ninja by {view['final']['ranking']})")
        for col in ("player", "best rank", "Ninja", "markers"):
            table.add_column(col)
        for row in view["final"]["rows"]:
            table.add_row(_player(row["seat"]), str(max(row["best_rank"], 0)), str(row["ninja"]),
                          str(row["markers"]))
        parts.append(table)
    return Group(*parts)
