"""Terminal rendering of a dragon view (built only from what the seat may see)."""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from ...core import seat_name
from ...core.text import score_sheet_table

STYLE = {"P": "magenta", "R": "red", "B": "blue", "G": "green"}
COLOUR_ORDER = "PRBG"


def card_text(label: str) -> Text:
    return Text(label, style=f"bold {STYLE[label[0]]}")


def cards_text(labels: list[str], grouped: bool = False) -> Text:
    """Cards in a row; `grouped` puts each colour apart, as a hand is held."""
    text = Text()
    if grouped:
        for colour in COLOUR_ORDER:
            group = [lab for lab in labels if lab[0] == colour]
            if group:
                if text:
                    text.append("   ")
                text.append_text(Text(" ").join(card_text(lab) for lab in group))
        return text
    return Text(" ").join(card_text(lab) for lab in labels) if labels else Text("-", style="dim")


STAGES = {
    "summoning: pick": "Summoning Jutsu: cards are taken from the Inverted Scale, unseen",
    "summoning: return": "Summoning Jutsu: cards are returned to the Inverted Scale",
    "bodily division": "Bodily Division Jutsu: its practitioner sets aside a 2nd-half pile",
    "soul-sucking: give": "Soul-Sucking Jutsu: everyone gives its practitioner a card",
    "soul-sucking: return": "Soul-Sucking Jutsu: its practitioner gives a card back to each player",
    "over": "The game is over",
}


def _stage(view: dict[str, Any]) -> str:
    """What is happening now, in words: the trick being played or the jutsu before the first trick."""
    if view["phase"] == "tricks":
        return f"Trick {min(view['tricks_played'] + 1, view['tricks_in_round'])} of {view['tricks_in_round']}"
    return STAGES[view["phase"]]


def render(view: dict[str, Any]) -> Group:
    me = view["seat"]
    n = view["players"]
    trump = view["trump"]
    header = Text.assemble(
        ("Slaughter the Dragon, Ha", "bold"),
        f"   round {view['round']} of {view['rounds']}   trump ",
        (trump, f"bold {STYLE[trump[0].upper()]}"),
        "\n", _stage(view),
    )
    if view["phase"] == "tricks":
        header.append("   purple may be led" if view["purple_broken"] else "   purple may not be led yet", "dim")
    table = Table(box=None, pad_edge=False, header_style="bold")
    for column in ("", "score", "hand", "2nd pile", "tokens", "purples", "jutsu"):
        table.add_column(column)
    for s in range(n):
        seat = view["seats"][s]
        name = seat_name(s, me)
        marks = []
        if view["practitioner"] == s:
            marks.append(f"{view['jutsu']} ({trump} {view['countdown']})")
        if view["summoner"] == s:
            marks.append("summoning")
        # `dragon_tokens` counts the head too; show the body tokens beside it.
        tokens = f"{seat['dragon_tokens'] - 1} + head" if seat["dragon_head"] else str(seat["dragon_tokens"])
        table.add_row(
            Text(name, style="bold" if s in view["to_move"] else ""),
            str(view["scores"][s]),
            str(seat["hand_size"]),
            str(seat["pile_size"]) if seat["pile_size"] else "",
            tokens,
            cards_text(seat["purples"]),
            ", ".join(marks),
        )
    trick = Text("Trick: ")
    if view["trick"]:
        trick.append_text(Text("  ").join(
            Text.assemble(seat_name(s, me) + ": ", card_text(lab)) for s, lab in view["trick"]
        ))
    else:
        trick.append("-", style="dim")
    parts: list[Any] = [header, table, trick]
    # The last round's Inverted Scale is not shown while cards are taken blind from the new one.
    if view["revealed_scale"] and not view["phase"].startswith("summoning"):
        ended = view["round"] if view["over"] else view["round"] - 1
        parts.append(Text.assemble(f"Inverted Scale revealed at the end of round {ended}: ",
                                   cards_text(view["revealed_scale"])))
    if me is not None:
        seat = view["seats"][me]
        parts.append(Text.assemble("Your hand: ", cards_text(seat["hand"] or [], grouped=True)))
        if seat["pile"]:
            parts.append(Text.assemble("Your 2nd-half pile: ", cards_text(seat["pile"], grouped=True)))
        if seat["known_elsewhere"]:
            known = Text("You know where these lie: ")
            for lab, where in seat["known_elsewhere"]:
                place = f"Player {where + 1}" if isinstance(where, int) else where
                known.append_text(Text.assemble(card_text(lab), f" ({place})  "))
            parts.append(known)
    sheet = score_sheet_table(view)
    if sheet is not None:
        parts.append(sheet)
    return Group(*parts)
