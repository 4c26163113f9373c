"""Plain-text rendering of a view, from the same Rich renderable the terminal shows."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from .game import seat_name


def render_text(game: Any, view: dict[str, Any], width: int = 100) -> str:
    """The game's rendering of `view` as plain text (for logs and `render_mode="ansi"`)."""
    console = Console(width=width, record=True, file=_Null(), color_system=None, force_terminal=False)
    console.print(game.render(view))
    return console.export_text()


def score_sheet_table(view: dict[str, Any]) -> Table | None:
    """The kernel's score sheet of a view (a row per labelled line, then the totals), or None while empty."""
    if not view["score_sheet"]:
        return None
    sheet = Table(title="Score sheet", box=None, header_style="bold")
    sheet.add_column("")
    for s in range(view["players"]):
        sheet.add_column(seat_name(s, view["seat"]), justify="right")
    for line in view["score_sheet"]:
        sheet.add_row(line["label"], *map(str, line["points"]))
    sheet.add_row(Text("Total", style="bold"), *(Text(str(t), style="bold") for t in view["scores"]))
    return sheet


class _Null:
    def write(self, _text: str) -> int:
        return 0

    def flush(self) -> None:
        pass
