"""Plain-text rendering of a view, from the same Rich renderable the terminal shows."""

from __future__ import annotations

from typing import Any

from rich.console import Console


def render_text(game: Any, view: dict[str, Any], width: int = 100) -> str:
    """The game's rendering of `view` as plain text (for logs and `render_mode="ansi"`)."""
    console = Console(width=width, record=True, file=_Null(), color_system=None, force_terminal=False)
    console.print(game.render(view))
    return console.export_text()


class _Null:
    def write(self, _text: str) -> int:
        return 0

    def flush(self) -> None:
        pass
