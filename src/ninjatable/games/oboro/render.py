"""Terminal rendering of an oboro view, built only from what the seat may see."""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from ...core import seat_name
from ...core.text import score_sheet_table

STYLE = {"R": "red", "B": "blue", "G": "green"}
COLOURS = ("red", "blue", "green")


def card_text(label: str | None, arrows: list[str] = ()) -> Text:
    """A card in its colour; Arrow cards get a mark, Shuriken cards (the 6s) a star."""
    if label is None:
        return Text("-", style="dim")
    mark = "^" if label in arrows else "*" if label[1:] == "6" else ""
    return Text(label + mark, style=f"bold {STYLE[label[0]]}")


def render(view: dict[str, Any]) -> Group:
    me = view["seat"]
    arrows = view["arrows"]
    stock = view["shuriken_stock"]
    header = Text.assemble(
        ("Oboro Ninja Star Trick", "bold"),
        f"   round {view['round']}, trick {view['trick_number']} of {view['tricks_per_round']}",
        ("   final round" if view["final_round"] else "", "bold magenta"),
    )
    status = Text.assemble(
        "Mission Value ", (str(view["mission_value"]), "bold yellow"),
        "   Shuriken stock ", (f"{'*' * stock}{'.' * (5 - stock)} {stock}", "bold"),
        f"   Shuriken scorings done: {view['shuriken_scorings']} of 2",
    )
    table = Table(box=None, pad_edge=False, header_style="bold")
    for column in ("", "score", "hand", *COLOURS, "colours", "power", "shuriken", "void"):
        table.add_column(column, no_wrap=True)
    for s, seat in enumerate(view["seats"]):
        stacks = []
        for colour in COLOURS:
            stack = seat["card_area"][colour]
            cell = card_text(stack["top"], arrows)
            if stack["height"] > 1:
                cell.append(f" ({stack['height']})", style="dim")  # stack height: cards beneath stay unseen
            stacks.append(cell)
        power = seat["ninja_power"]
        power_text = Text(str(power), style="bold red" if power > view["mission_value"] else "bold")
        table.add_row(
            Text(seat_name(s, me), style="bold underline" if s in view["to_move"] else ""),
            str(view["scores"][s]),
            str(seat["hand_size"]),
            *stacks,
            str(seat["colours"]),
            power_text,
            str(seat["shuriken"]),
            " ".join(colour[0].upper() for colour in seat["void"]),  # initials: the row fits 80 columns
        )
    trick = Text(f"Trick, led by {seat_name(view['leader'], me)}:   ")
    if view["trick"]:
        trick.append(f"{view['led']} led   ", style="dim")
        trick.append_text(Text("  ").join(
            Text.assemble(seat_name(s, me) + " ", card_text(lab, arrows)) for s, lab in view["trick"]
        ))
        if view["arrow"] is not None:
            trick.append(f"   Arrow: {seat_name(view['arrow'], me)} leads next", style="italic")
    else:
        trick.append("no card yet", style="dim")
    parts: list[Any] = [header, status, table]
    if not view["over"]:
        parts.append(trick)
    if me is not None and not view["over"]:
        hand = view["seats"][me]["hand"] or []
        parts.append(Text.assemble("Your hand: ", Text(" ").join(card_text(lab, arrows) for lab in hand)))
    parts.append(Text(f"^ Arrow ({' '.join(arrows)})  * Shuriken  (n) stack height  power = Ninja Power  "
                      "void = colours known to be missing", style="dim"))
    sheet = score_sheet_table(view)
    if sheet is not None:
        parts.append(sheet)
    return Group(*parts)
