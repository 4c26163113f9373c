"""Interactive play in a terminal: one seat is you, the others are bots."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from rich.console import Console
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from ..bots import make_bot
from ..core import IllegalAction, Record, State, seat_name

QUIT = {"q", "quit", "exit"}


class Quit(Exception):
    """The player asked to leave the game."""


def play_in_terminal(
    state: State,
    seat: int,
    opponents: Sequence[str],
    console: Console | None = None,
    ask: Callable[[str], str] | None = None,
    bot_seed: int = 0,
    record_path: Path | None = None,
) -> State:
    """Play until the game is over or the player types `q`; returns the state reached."""
    console = console or Console()
    ask = ask or console.input
    others = [s for s in range(state.players) if s != seat]
    bots = {s: make_bot(opponents[i % len(opponents)], seed=bot_seed * 101 + s) for i, s in enumerate(others)}
    console.print(Text.assemble((state.game.title, "bold"), f": you are {seat_name(seat)}; ",
                                "type a move's number or its name, ? for help, q to quit."))
    shown = 0
    try:
        while not state.is_over():
            movers = state.to_move()
            # At a step where the bots and the person decide at once, the bots decide first: their choices stay
            # hidden, and where the first call submitted wins (Ninjaaa'Tack's gong_order=arrival) a bot that
            # taps the gong at that step is there before the person has read the table.
            if movers == (seat,):
                shown = _show_news(console, state, seat, shown)
                console.print(Rule())
                console.print(state.game.render(state.view(seat)))
                state.apply(seat, _ask_move(console, state, seat, ask))
            else:
                bot_seat = next(s for s in movers if s != seat)
                state.apply(bot_seat, bots[bot_seat].choose(state, bot_seat))
    except Quit:
        console.print("You left the game.")
        return state
    finally:
        if record_path is not None:
            Record.from_state(state).save(record_path)
            console.print(f"Record saved to {record_path}")
    _show_news(console, state, seat, shown)
    console.print(Rule("Game over"))
    console.print(state.game.render(state.view(seat)))
    winners = state.winners()
    names = ", ".join("you" if w == seat else seat_name(w) for w in winners)
    console.print(Text(f"Winner{'s' if len(winners) > 1 else ''}: {names}", style="bold"))
    return state


def _show_news(console: Console, state: State, seat: int, shown: int) -> int:
    """Print the events this seat has not seen yet; return the new count."""
    events = state.events_for(seat)
    for event in events[shown:]:
        console.print(Text(f"  {event.text}", style="dim" if event.kind in ("play",) else ""))
    return len(events)


def _ask_move(console: Console, state: State, seat: int, ask: Callable[[str], str]) -> int:
    legal = state.legal_actions(seat)
    entries = [f"{i} {state.action_label(a)}" for i, a in enumerate(legal, start=1)]
    # As many columns as the terminal's width allows for the longest entry.
    per_row = max(1, min(8, console.width // (max(map(len, entries)) + 2)))
    menu = Table.grid(padding=(0, 2))
    for start in range(0, len(entries), per_row):
        menu.add_row(*(Text.from_markup(f"[bold]{e.split(' ', 1)[0]}[/] ") + Text(e.split(" ", 1)[1])
                       for e in entries[start:start + per_row]))
    console.print(menu)
    while True:
        try:
            answer = ask("Your move: ").strip()
        except EOFError:
            raise Quit from None
        if answer.lower() in QUIT:
            raise Quit
        if answer in ("?", "help"):
            console.print("Type the number shown beside a move, or the move itself (for example R7 or done); "
                          "q leaves the game.")
            continue
        try:
            action = _read_move(state, seat, answer, legal)
        except IllegalAction as e:
            console.print(Text(str(e), style="red"))
            continue
        return action


def _read_move(state: State, seat: int, answer: str, legal: list[int]) -> int:
    # ASCII digits only (`isdigit` also takes "²"), and few of them (`int` refuses thousands of digits).
    if answer.isascii() and answer.isdigit():
        index = int(answer) if len(answer) <= 6 else 0
        if 1 <= index <= len(legal):
            return legal[index - 1]
        raise IllegalAction(f"{answer} is not on the menu; choose 1 to {len(legal)} or type a move's name")
    action = state.parse_action(answer, seat)
    if action not in legal:
        allowed = ", ".join(state.action_label(a) for a in legal)
        raise IllegalAction(f"{state.action_label(action)} is not allowed now; you may play: {allowed}")
    return action
