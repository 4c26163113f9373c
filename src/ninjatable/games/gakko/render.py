"""Terminal rendering of a gakko view (built only from what the seat may see)."""

from __future__ import annotations

from itertools import groupby
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from ...core import seat_name
from ...core.text import score_sheet_table


def cards_text(ranks: list[int] | None, style: str = "bold") -> Text:
    """Cards grouped by rank, as they lie face up: `4 4 4  11`."""
    if not ranks:
        return Text("-", style="dim")
    groups = [" ".join(str(r) for r in group) for _, group in groupby(ranks)]
    return Text("  ".join(groups), style=style)


def table_text(view: dict[str, Any]) -> Table:
    """The table as a column of tiers, highest on top, with the lock on its end."""
    grid = Table(box=None, show_header=False, pad_edge=False)
    grid.add_column(justify="right")
    grid.add_column()
    grid.add_column()
    tiers = view["table"]
    if not tiers:
        grid.add_row("", Text("(empty table: any set may be played)", style="dim"), "")
        return grid
    last = len(tiers) - 1
    for i in range(last, -1, -1):
        rank, count = tiers[i]
        mark = Text()
        end = "high" if i == last else "low" if i == 0 else None
        if end and view["lock"] == end:
            mark.append("LOCKED", style="bold red")
        elif end and last > 0:
            mark.append(f"{end} end", style="dim")
        elif last == 0:
            mark.append("both ends", style="dim")
        grid.add_row(Text(f"{rank:>2}", style="bold"), Text(" ".join(["[" + str(rank) + "]"] * count)), mark)
    return grid


def count_text(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def _earth_cell(seat: dict[str, Any], phase: str) -> Text:
    """An Earth hand in the players' table: its cards once revealed, else that it lies face down."""
    if phase != "split":
        return cards_text(seat["earth"])
    if seat["earth"] is None:
        return Text("face down", style="dim")
    return Text(f"{count_text(len(seat['earth']))} face down" if seat["earth"] else "none yet", style="dim")


def render(view: dict[str, Any]) -> Group:
    me = view["seat"]
    n = view["players"]
    phase = view["phase"]
    header = Text.assemble(
        ("Shinobi no Gakko", "bold"),
        f"   round {view['round']} of {view['rounds']}   {phase}",
    )
    if phase == "play":
        header.append(f"   turn {view['turn']} (limit {view['max_turns']})")
        if view["hands_used"]:
            header.append(f"   already acted: {', '.join(view['hands_used'])}", style="dim")
        if view["must_lead"]:
            header.append("   must lead onto the cleaned table", style="bold yellow")
    players = Table(box=None, pad_edge=False, header_style="bold")
    # During the split every Earth is still face down, the seat's own included.
    for column in ("", "score", "Earth" if phase == "split" else "Earth (public)", "Heaven", "known in Heaven", ""):
        players.add_column(column)
    for s in range(n):
        seat = view["seats"][s]
        marks = []
        if view["shuriken"] == s:
            marks.append("shuriken")
        if view["starter"] == s:
            marks.append("started")
        if phase == "split":
            marks.append("split done" if seat["split_done"] else "splitting")
            hidden = seat["heaven_count"] is None
            heaven = f"{count_text(seat['cards'])} in hand" if hidden else count_text(seat["heaven_count"])
        else:
            heaven = count_text(seat["heaven_count"])
        players.add_row(
            Text(seat_name(s, me), style="bold" if s in view["to_move"] else ""),
            str(view["scores"][s]),
            _earth_cell(seat, phase),
            heaven,
            cards_text(seat["known_heaven"], style="") if seat["known_heaven"] else Text(""),
            ", ".join(marks),
        )
    parts: list[Any] = [header, players]
    if phase != "split":
        parts.append(Text("Table:", style="bold"))
        parts.append(table_text(view))
        if view["cleared"]:
            parts.append(Text.assemble("Cleaned away this round: ", cards_text(view["cleared"], style="dim")))
    if phase == "over":  # the last round's hands were shown for scoring
        for s in range(n):
            owner = "Your" if s == me else f"{seat_name(s)}'s"
            parts.append(Text.assemble(f"{owner} Heaven: ", cards_text(view["seats"][s]["heaven"])))
    elif me is not None:
        seat = view["seats"][me]
        parts.append(Text.assemble("Your Heaven: ", cards_text(seat["heaven"])))
        if phase == "split":
            parts.append(Text.assemble("Your Earth (face down until all have split): ", cards_text(seat["earth"])))
    sheet = score_sheet_table(view)
    if sheet is not None:
        parts.append(sheet)
    return Group(*parts)
