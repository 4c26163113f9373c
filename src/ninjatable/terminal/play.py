"""Interactive play in a terminal: one seat is you, the others are bots."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from ..bots import make_bot
from ..core import Decision, IllegalAction, Record, State, seat_name, winners_text

QUIT = {"q", "quit", "exit"}
UNDO = "undo"


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
    repeats: int | None = None,
) -> State:
    """Play until the game is over or the player types `q`; returns the state reached.

    `repeats`: leave the game once the same refused answer came this many times in a row (for scripted input,
    which would otherwise repeat it for ever); None never leaves on its own.
    """
    console = console or Console()
    turn = _Turn(console, ask or console.input, repeats)
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
                for action in turn.decide(state, seat):
                    state.apply(seat, action)
            else:
                bot_seat = next(s for s in movers if s != seat)
                state.apply(bot_seat, bots[bot_seat].choose(state, bot_seat))
    except Quit as e:
        console.print(Text(f"{e} " if str(e) else "") + Text("You left the game."))
        return state
    finally:
        if record_path is not None:
            Record.from_state(state).save(record_path)
            console.print(f"Record saved to {record_path}")
    _show_news(console, state, seat, shown)
    console.print(Rule("Game over"))
    console.print(state.game.render(state.view(seat)))
    console.print(Text(winners_text(state.winners(), seat) + ".", style="bold"))
    return state


def _show_news(console: Console, state: State, seat: int, shown: int) -> int:
    """Print the events this seat has not seen yet; return the new count."""
    events = state.events_for(seat)
    for event in events[shown:]:
        console.print(Text(f"  {event.text}", style="dim" if event.kind in ("play",) else ""))
    return len(events)


class _Turn:
    """Reads the player's decisions: one move, or the steps of a multi-step choice held as a draft until confirmed."""

    def __init__(self, console: Console, ask: Callable[[str], str], repeats: int | None) -> None:
        self.console = console
        self.ask = ask
        self.repeats = repeats
        self.refused: list[str] = []  # the answers refused in a row
        # The seat's views since anyone else last moved: a move leading back to one of them only undoes moves
        # (the split of Shinobi no Gakko moves a card back and forth), so it is refused and play cannot go round.
        self.seen: list[Any] = []
        self.seen_at = -1

    def decide(self, state: State, seat: int) -> list[int]:
        """The actions the player chose for the seat's decision now (several for a confirmed multi-step choice)."""
        decision = state.decision(seat) or Decision("Choose your move")
        if self.seen_at != len(state.history):
            self.seen = [state.view(seat)]
        if decision.multi and decision.confirm is not None:
            actions = self._draft(state, seat, decision)
        else:
            actions = [self._single(state, seat, decision)]
        trial = state.clone()
        for action in actions:
            trial.apply(seat, action)
        self.seen.append(trial.view(seat))
        self.seen_at = len(state.history) + len(actions)
        return actions

    # --- one move ---------------------------------------------------------------------------------
    def _single(self, state: State, seat: int, decision: Decision) -> int:
        legal = state.legal_actions(seat)
        self.console.print(Text(decision.prompt, style="bold"))
        self._menu(state, legal)
        while True:
            answer = self._answer(state, seat, legal, None, "Your move: ")
            if answer is None:
                continue
            try:
                actions = _read_moves(state, seat, answer, legal)
                if len(actions) != 1:
                    raise IllegalAction("one move at a time here")
                if actions[0] not in legal:
                    raise IllegalAction(_why_not(state, seat, actions[0], []))
                trial = state.clone()
                trial.apply(seat, actions[0])
                if any(trial.view(seat) == seen for seen in self.seen):
                    raise IllegalAction(f"{state.action_label(actions[0])} would only take back what you just did; "
                                        "choose another move")
            except IllegalAction as e:
                self._refuse(answer, str(e))
                continue
            self.refused.clear()
            return actions[0]

    # --- a multi-step choice ---------------------------------------------------------------------------
    def _draft(self, state: State, seat: int, decision: Decision) -> list[int]:
        """Steps taken on a copy (the game promises they draw no chance) until the player confirms them."""
        confirm = decision.confirm
        # The menu stays as it was at the start, so its numbers keep their meaning while the draft grows.
        menu = [a for a in state.legal_actions(seat) if a != confirm] + [confirm]
        self.console.print(Text(decision.prompt, style="bold"))
        self._menu(state, menu)
        self.console.print(Text(f"Several at once (for example {_example(state, menu, confirm)}); "
                                f"{UNDO} takes back the last, {UNDO} NAME a chosen one; "
                                f"{state.action_label(confirm)} confirms.", style="dim"))
        steps: list[int] = []
        while True:
            answer = self._answer(state, seat, menu, confirm, "Your choice: ")
            if answer is None:
                continue
            try:
                if answer.lower().split()[0] == UNDO:
                    steps = self._undo(state, seat, steps, answer.split()[1:], menu)
                else:
                    steps, done = self._add(state, seat, steps, _read_moves(state, seat, answer, menu), confirm)
                    if done:
                        self.refused.clear()
                        return steps + [confirm]
            except IllegalAction as e:
                self._refuse(answer, str(e))
                continue
            self.refused.clear()
            chosen = " ".join(state.action_label(a) for a in steps) or "nothing yet"
            self.console.print(Text.assemble(("Chosen: ", "bold"), chosen))

    def _add(self, state: State, seat: int, steps: list[int], actions: list[int], confirm: int) -> tuple[list[int],
                                                                                                          bool]:
        """The draft with `actions` added (all or none), and whether they end with the confirmation."""
        draft = list(steps)
        trial = _replay(state, seat, draft)
        for i, action in enumerate(actions):
            if action == confirm and i != len(actions) - 1:
                raise IllegalAction(f"{state.action_label(confirm)} comes last, after the cards it confirms")
            if action not in trial.legal_actions(seat):
                raise IllegalAction(_why_not(trial, seat, action, draft))
            trial.apply(seat, action)
            if action == confirm:
                return draft, True
            cancelled = _cancel(state, seat, draft, trial.view(seat))
            draft = cancelled if cancelled is not None else [*draft, action]
        return draft, False

    def _undo(self, state: State, seat: int, steps: list[int], names: list[str], menu: list[int]) -> list[int]:
        """The draft without its last step, or without the named steps (if the rest still stands)."""
        if not steps:
            raise IllegalAction("nothing chosen yet to take back")
        if not names:
            return steps[:-1]
        draft = list(steps)
        for action in _read_moves(state, seat, " ".join(names), menu):
            if action not in draft:
                raise IllegalAction(f"{state.action_label(action)} is not chosen")
            # The latest choice of it goes: later steps may depend on earlier ones, never the other way round.
            del draft[len(draft) - 1 - draft[::-1].index(action)]
        try:
            _replay(state, seat, draft)
        except IllegalAction:
            raise IllegalAction("the other choices do not stand without it; undo the later ones first") from None
        return draft

    # --- reading answers ------------------------------------------------------------------------------
    def _menu(self, state: State, actions: list[int]) -> None:
        entries = [f"{i} {state.action_label(a)}" for i, a in enumerate(actions, start=1)]
        # As many columns as the terminal's width allows for the longest entry.
        per_row = max(1, min(8, self.console.width // (max(map(len, entries)) + 2)))
        menu = Table.grid(padding=(0, 2))
        for start in range(0, len(entries), per_row):
            menu.add_row(*(Text.from_markup(f"[bold]{e.split(' ', 1)[0]}[/] ") + Text(e.split(" ", 1)[1])
                           for e in entries[start:start + per_row]))
        self.console.print(menu)

    def _answer(self, state: State, seat: int, menu: list[int], confirm: int | None, prompt: str) -> str | None:
        """The next answer, or None after `?`; raises Quit for q or the end of the input."""
        try:
            answer = self.ask(prompt).strip()
        except EOFError:
            raise Quit from None
        if answer.lower() in QUIT:
            raise Quit
        if answer in ("?", "help"):
            self.console.print(_help(state, menu, confirm))
            return None
        if not answer:
            return None
        return answer

    def _refuse(self, answer: str, reason: str) -> None:
        self.console.print(Text(reason, style="red"))
        self.refused = [*self.refused, answer] if self.refused and self.refused[-1] == answer else [answer]
        if self.repeats is not None and len(self.refused) >= self.repeats:
            raise Quit(f"{answer!r} was refused {len(self.refused)} times in a row.")


def _read_moves(state: State, seat: int, answer: str, menu: list[int]) -> list[int]:
    """The moves named in one line: menu numbers or move names, separated by spaces or commas."""
    words = answer.replace(",", " ").split()
    labels = state.game.labels(state.players)
    moves: list[int] = []
    i = 0
    while i < len(words):
        # The longest run of words that names a move (names may hold spaces: `7 to Earth`), else a number.
        for j in range(len(words), i, -1):
            name = " ".join(words[i:j]).lower()
            if name in labels:
                moves.append(labels[name])
                i = j
                break
        else:
            word = words[i]
            # ASCII digits only (`isdigit` also takes "²"), and few of them (`int` refuses thousands of digits).
            if not (word.isascii() and word.isdigit()):
                state.parse_action(word, seat)  # raises with the moves allowed now
            index = int(word) if len(word) <= 6 else 0
            if not 1 <= index <= len(menu):
                raise IllegalAction(f"{word} is not on the menu; choose 1 to {len(menu)} or type a move's name")
            moves.append(menu[index - 1])
            i += 1
    return moves


def _why_not(state: State, seat: int, action: int, chosen: list[int]) -> str:
    """Why `action` may not be taken now, in the seat's terms."""
    label = state.action_label(action)
    if action in chosen:
        return f"{label} is already chosen; {UNDO} {label} takes it back"
    reason = state.refusals(seat).get(action)
    if reason:
        return f"{label} is not allowed: {reason}"
    allowed = ", ".join(state.action_label(a) for a in state.legal_actions(seat))
    return f"{label} is not allowed now; allowed: {allowed}"


def _cancel(state: State, seat: int, draft: list[int], view: dict[str, Any]) -> list[int] | None:
    """The draft without the one earlier step that the step just taken cancels (a card moved out and back again,
    seen as the same view without both), or None."""
    for k in range(len(draft) - 1, -1, -1):
        rest = draft[:k] + draft[k + 1:]
        try:
            if _replay(state, seat, rest).view(seat) == view:
                return rest
        except IllegalAction:
            continue
    return None


def _replay(state: State, seat: int, steps: list[int]) -> State:
    trial = state.clone()
    for action in steps:
        trial.apply(seat, action)
    return trial


def _example(state: State, menu: list[int], confirm: int | None) -> str:
    """A sample answer taken from the moves on offer."""
    picks = [a for a in menu if a != confirm][:2]
    names = " ".join(state.action_label(a) for a in picks)
    numbers = " ".join(str(menu.index(a) + 1) for a in picks)
    return f"{names} or {numbers}" if picks else state.action_label(menu[0])


def _help(state: State, menu: list[int], confirm: int | None) -> str:
    if confirm is None:
        return (f"Type the number shown beside a move, or the move itself (for example {state.action_label(menu[0])}"
                f" or {len(menu) if len(menu) > 1 else 1}); q leaves the game.")
    return (f"Type the numbers or names of your choices, several in one line (for example "
            f"{_example(state, menu, confirm)}); {UNDO} takes back the last choice and {UNDO} NAME a given one; "
            f"{state.action_label(confirm)} confirms them; q leaves the game.")
