"""The browser client's page and the data its replay view steps through."""

from __future__ import annotations

import base64
import functools
import hashlib
import re
from pathlib import Path
from typing import Any

from ..core import Record, seat_name
from .protocol import PROTOCOL

STATIC = Path(__file__).with_name("static")


@functools.cache
def page_html() -> str:
    """The page, told the protocol version it speaks (protocol.py holds the one number)."""
    return (STATIC / "app.html").read_text(encoding="utf-8").replace("{{protocol}}", str(PROTOCOL))


@functools.cache
def _import_map_hash() -> str:
    found = re.search(r'<script type="importmap">(.*?)</script>', page_html(), re.DOTALL)
    return base64.b64encode(hashlib.sha256(found.group(1).encode()).digest()).decode()


def _headers() -> dict[str, str]:
    policy = ("default-src 'self'; script-src 'self' 'sha256-" + _import_map_hash() + "'; "
              "style-src 'self' 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; "
              "frame-ancestors 'none'; base-uri 'none'; form-action 'self'")
    return {"Content-Security-Policy": policy, "X-Content-Type-Options": "nosniff", "Referrer-Policy": "same-origin"}


class _Headers(dict):
    """The page's security headers, computed on first use (the import map's hash is part of them)."""

    def items(self):  # type: ignore[override]
        if not self:
            self.update(_headers())
        return super().items()


PAGE_HEADERS = _Headers()


@functools.cache
def rules_html(markdown: str) -> str:
    """A game's rules page (Markdown, the project's own text) as HTML, with any raw HTML in it shown as text."""
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark", {"html": False}).enable("table").render(markdown)


def replay_frames(record: Record, seat: int | None) -> list[dict[str, Any]]:
    """Each step of a finished game as `seat` saw it (None: the spectator): the move, the view and new events."""
    state = record.start()
    seen = 0

    def frame(move: str | None) -> dict[str, Any]:
        nonlocal seen
        events = state.events_for(seat)
        new = [{"kind": e.kind, "text": e.text} for e in events[seen:]]
        seen = len(events)
        return {"version": len(state.history), "move": move, "view": state.view(seat), "events": new}

    frames = [frame(None)]
    for who, action in record.moves:
        label = state.action_label(action)
        state.apply(who, action)
        # A seat's own moves are named to it; of another seat's, the events tell what was public.
        frames.append(frame(f"You: {label}" if who == seat else f"{seat_name(who)} moves"))
    return frames
