"""The `ninjatable` command: list games, read their rules, play, simulate, replay and match bots in the arena."""

from __future__ import annotations

import contextlib
import functools
import json
import logging
import logging.config
import signal
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

try:  # recent Typer carries its own copy of Click
    from typer._click.exceptions import NoArgsIsHelpError, UsageError
except ImportError:  # older Typer runs on Click itself
    from click.exceptions import NoArgsIsHelpError, UsageError
from rich import box
from rich.console import Console
from rich.markdown import Markdown
from rich.padding import Padding
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from .bots import available_bots, parse_bot_list
from .core import BadOptions, Game, NinjatableError, Record, all_games, get_game, seat_name, winners_text


class OneLineUsageErrors(TyperGroup):
    """The command-line library's own usage errors (a bad value, a missing argument, an unknown command) as one
    line on stderr and exit code 2, like ninjatable's own errors."""

    def make_context(self, *args: Any, **kwargs: Any) -> typer.Context:
        with _one_line_usage_errors():
            return super().make_context(*args, **kwargs)

    def invoke(self, ctx: typer.Context) -> Any:
        with _one_line_usage_errors():
            return super().invoke(ctx)


@contextlib.contextmanager
def _one_line_usage_errors():
    try:
        yield
    except NoArgsIsHelpError:
        raise  # no command at all: the help is shown
    except UsageError as e:
        where = f"; see {e.ctx.command_path} --help" if e.ctx is not None else ""
        err.print(f"error: {e.format_message().rstrip('.')}{where}", style="red", highlight=False, soft_wrap=True,
                  markup=False)
        raise typer.Exit(2) from None


app = typer.Typer(
    cls=OneLineUsageErrors,
    help="ninjatable: ninja card games to play, simulate and study.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
console = Console()
err = Console(stderr=True)

OptionList = Annotated[
    list[str] | None,
    typer.Option("--option", "-o", help="A game option as NAME=VALUE (repeatable); see `ninjatable games`."),
]
BackendName = Annotated[
    str, typer.Option("--backend", help="Where the games run: local (this machine, --jobs processes) or ray.")
]
RayAddress = Annotated[
    str | None,
    typer.Option("--address", help="With --backend ray: a running Ray cluster (HOST:PORT, ray://HOST:PORT or auto); "
                                   "without it a local Ray is started for the run, with --jobs CPUs if given."),
]


def clear_errors(command):
    """Turn a ninjatable error, or a file the system refuses, into one clear line on stderr and exit code 2."""

    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except NinjatableError as e:
            message = str(e)
        except OSError as e:  # a path checked up front can still fail later (a full disk, a folder removed)
            message = f"cannot use {e.filename or 'a file'}: {e.strerror or e}"
        err.print(f"error: {message}", style="red", highlight=False, soft_wrap=True)
        raise typer.Exit(2) from None

    return wrapper


def parse_options(game: Game, items: list[str] | None) -> dict[str, Any]:
    """`["advanced=true"]` to `{"advanced": True}`, checked against the game's options."""
    options: dict[str, Any] = {}
    declared = {o.name: o for o in game.options}
    for item in items or []:
        name, eq, value = item.partition("=")
        name = name.strip()
        if not eq:
            raise BadOptions(f"option {item!r} should be NAME=VALUE")
        if name not in declared:
            allowed = ", ".join(declared) or "none"
            raise BadOptions(f"{game.id} has no option {name!r}; its options are: {allowed}")
        options[name] = declared[name].parse(value)
    return options


def check_output_file(path: Path) -> Path:
    """A file a record can be written to: its folder exists and it is not itself a folder."""
    folder = path.parent
    if path.is_dir():
        raise BadOptions(f"{path} is a folder; give a file name for the record, such as {path / 'game.json'}")
    if not folder.is_dir():
        what = "is a file, not a folder" if folder.exists() else "does not exist"
        raise BadOptions(f"cannot write the record to {path}: {folder} {what}")
    return path


def check_output_folder(path: Path) -> Path:
    """A folder records can be written into, made if missing."""
    if path.exists() and not path.is_dir():
        raise BadOptions(f"--records {path} is a file; give a folder to write the records into")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise BadOptions(f"cannot make the folder {path} for the records: {e.strerror or e}") from None
    return path


def check_bots(text: str) -> list[str]:
    specs = parse_bot_list(text)
    if not specs:
        raise BadOptions(f"name at least one bot; the bots are: {', '.join(available_bots())}")
    return specs


def default_opponent(game: Game) -> str:
    return "heuristic" if game.heuristic_bot is not None and "heuristic" in available_bots() else "random"


@app.command()
@clear_errors
def games(as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False) -> None:
    """List the games: id, title, player counts and options with their defaults."""
    described = [g.describe() for g in all_games()]
    if as_json:
        print(json.dumps(described, indent=2))
        return
    # A block per game (id, title, players, then its options one a row), so that it reads at 80 columns.
    for g in described:
        counts = ", ".join(map(str, g["players"]))
        console.print(Text.assemble((g["id"], "bold cyan"), "  ", (g["title"], "bold"),
                                    f"   {counts} players (default {g['default_players']})"))
        options = Table.grid(padding=(0, 2), pad_edge=True)
        options.add_column(no_wrap=True)
        options.add_column()
        for o in g["options"]:
            options.add_row(f"{o['name']}={_show(o['default'])}", f"{o['description']} ({o['allowed']})")
        if not g["options"]:
            options.add_row("no options", "")
        console.print(Padding(options, (0, 0, 1, 2)))
    console.print("Options are given as --option NAME=VALUE; the value shown is the default.")


@app.command()
@clear_errors
def rules(game: Annotated[str, typer.Argument(help="A game id, e.g. dragon.")]) -> None:
    """Show a game's rules, as implemented."""
    console.print(Markdown(get_game(game).rules_text()))


@app.command()
@clear_errors
def play(
    game: Annotated[str, typer.Argument(help="A game id, e.g. dragon.")],
    players: Annotated[int | None, typer.Option(help="Number of players (default: the game's usual count).")] = None,
    seat: Annotated[int, typer.Option(help="Your seat, from 1.")] = 1,
    seed: Annotated[int | None, typer.Option(help="Seed for the deal (random if not given).")] = None,
    option: OptionList = None,
    opponents: Annotated[str | None, typer.Option(help="Bots for the other seats, comma-separated.")] = None,
    record: Annotated[Path | None, typer.Option(help="Save the game's record to this file.")] = None,
) -> None:
    """Play a game in the terminal against bots."""
    from .terminal.play import play_in_terminal

    g = get_game(game)
    state = g.new_state(players, seed=seed, **parse_options(g, option))
    if not 1 <= seat <= state.players:
        raise BadOptions(f"seat {seat} does not exist; choose 1 to {state.players}")
    bots = check_bots(opponents or default_opponent(g))
    if record is not None:
        check_output_file(record)
    # Scripted input (not a terminal) that repeats a refused answer would go on for ever: it stops after three.
    repeats = None if sys.stdin.isatty() else 3
    play_in_terminal(state, seat - 1, bots, console=console, bot_seed=state.seed, record_path=record, repeats=repeats)


@app.command()
@clear_errors
def simulate(
    game: Annotated[str, typer.Argument(help="A game id, e.g. dragon.")],
    players: Annotated[int | None, typer.Option(help="Number of players (default: the game's usual count).")] = None,
    games: Annotated[int, typer.Option("--games", "-n", help="How many games to play.", min=1)] = 100,
    seed: Annotated[int, typer.Option(help="Game i uses seed S+i.")] = 0,
    option: OptionList = None,
    bots: Annotated[str, typer.Option(help="Bots, comma-separated, assigned to seats in turn.")] = "random",
    records: Annotated[Path | None, typer.Option(help="Write each game's record into this folder.")] = None,
    jobs: Annotated[int, typer.Option(help="Play the games in this many processes.", min=1)] = 1,
    backend: BackendName = "local",
    address: RayAddress = None,
    as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False,
) -> None:
    """Play many games between bots and report per seat the mean score, its spread and the win rate."""
    from .runner import Backend
    from .simulate import simulate as run

    where = Backend(backend, jobs, address).check()
    g = get_game(game)
    players = g.check_players(players)
    options = parse_options(g, option)
    resolved = g.new_state(players, seed=seed, **options).options  # checked, defaults filled in, before the run
    specs = check_bots(bots)
    if records is not None:
        check_output_folder(records)
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=err, transient=True, disable=as_json or not err.is_terminal) as progress:
        task = progress.add_task(f"{g.id}, {players} players", total=games)
        summary = run(g, players, games, seed=seed, options=resolved, bots=specs, records=records,
                      on_game=lambda _i: progress.advance(task), backend=where)
    result = summary.to_dict()
    if as_json:
        print(json.dumps(result, indent=2))
        return
    table = Table(title=f"{g.title}: {games} games, {players} players", header_style="bold")
    for column in ("seat", "bot", "mean score", "score sd", "win rate"):
        table.add_column(column, justify="right" if column != "bot" else "left")
    for row in result["seats"]:
        table.add_row(seat_name(row["seat"] - 1), row["bot"], f"{row['mean_score']:.2f}", f"{row['score_sd']:.2f}",
                      f"{row['win_rate']:.1%}")
    console.print(table)
    console.print(f"Win rate: a shared win counts as a fraction. Mean game length: {result['mean_moves']:.1f} moves.")
    if records is not None:
        console.print(f"Records written to {records}/")


@app.command()
@clear_errors
def arena(
    game: Annotated[str, typer.Argument(help="A game id, e.g. dragon.")],
    players: Annotated[int | None, typer.Option(help="Number of players (default: the game's usual count).")] = None,
    bots: Annotated[str, typer.Option(help="Bots to match, comma-separated; a bot listed twice takes twice the seats.")]
    = "heuristic,ismcts,random",
    games: Annotated[int, typer.Option("--games", "-n", help="Games to play (rounded up to whole balanced blocks).")]
    = 60,
    seed: Annotated[int, typer.Option(help="Seed of the match: the same seed replays the same results.")] = 0,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Games played in parallel processes.")] = 1,
    option: OptionList = None,
    backend: BackendName = "local",
    address: RayAddress = None,
    as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False,
    plot: Annotated[Path | None, typer.Option(help="Draw the results into this image file (e.g. arena.png).")] = None,
) -> None:
    """Match bots in seat-rotated games: win rate, mean score (95% intervals) and rating per bot."""
    from .arena import lineups, run_arena
    from .runner import Backend

    g = get_game(game)
    players = g.check_players(players)
    options = parse_options(g, option)
    specs = check_bots(bots)
    if games < 1 or jobs < 1:
        raise BadOptions("--games and --jobs must be at least 1")
    if plot is not None and plot.suffix.lower() not in {".png", ".svg", ".pdf"}:
        raise BadOptions(f"--plot {plot} should end in .png, .svg or .pdf")
    where = Backend(backend, jobs, address).check()
    block = len(lineups(specs, players))
    total = -(-games // block) * block
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=err, transient=True, disable=as_json or not err.is_terminal) as progress:
        task = progress.add_task(f"{g.id}, {players} players", total=total)
        result = run_arena(g.id, players, specs, games=games, seed=seed, jobs=jobs, options=options,
                           on_game=lambda _r, _n: progress.advance(task), backend=where)
    if plot is not None:
        from .arena.plot import plot_results

        plot_results(result, plot)
    if as_json:
        print(json.dumps(result.to_dict(), indent=2))
        return
    title = f"{g.title}: {total} games, {players} players, seed {seed}"
    # Narrow columns that never wrap, so that the table reads at 80 columns.
    table = Table(title=title, header_style="bold", box=box.SIMPLE_HEAD, pad_edge=False)
    for column in ("bot", "seat-\ngames", "win rate\n(95% CI)", "mean score\n(95% CI)", "rating\n(± 2σ)",
                   "ms per\nmove"):
        if column == "bot":
            table.add_column(column, overflow="fold", min_width=9)
        else:
            table.add_column(column, justify="right", no_wrap=True)
    for s in result.summaries:
        w, m = s.win_rate, s.mean_score
        table.add_row(s.bot, str(s.games), f"{w.value:.1%} ({w.low:.0%}-{w.high:.0%})",
                      f"{m.value:.1f} ({m.low:.1f}, {m.high:.1f})",
                      f"{s.rating['mu']:.1f} ± {2 * s.rating['sigma']:.1f}", f"{s.ms_per_decision:.1f}")
    console.print(table)
    console.print("In brackets: 95% intervals; rating: openskill's mu ± 2 sigma.", style="dim")
    note = f"Even share: {result.even_share:.1%} per seat. Every bot sits in every seat equally often"
    if total != games:
        note += f" ({games} games rounded up to {total}: whole blocks of {block} seat assignments)"
    console.print(note + ".")
    if plot is not None:
        console.print(f"Plot written to {plot}")


@app.command()
@clear_errors
def balance(
    game: Annotated[str, typer.Argument(help="A game id, e.g. oboro.")],
    players: Annotated[str | None, typer.Option(help="Player counts, comma-separated (default: the game's usual "
                                                     "count), e.g. 3,4,5.")] = None,
    bots: Annotated[str | None, typer.Option(help="Bots, comma-separated, given to the seats in turn (default: the "
                                                  "game's heuristic).")] = None,
    games: Annotated[int, typer.Option("--games", "-n", help="Games per player count and variant.", min=1)] = 200,
    vary: Annotated[list[str] | None, typer.Option(help="Compare option values with the default: OPTION=V1,V2 "
                                                        "(repeatable; each value is one variant).")] = None,
    seed: Annotated[int, typer.Option(help="Game i of every variant uses deal seed S+i.")] = 0,
    option: OptionList = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Games played in parallel processes.", min=1)] = 1,
    backend: BackendName = "local",
    address: RayAddress = None,
    out: Annotated[Path, typer.Option(help="Folder for report.html and report.json.")] = Path("balance-report"),
    png: Annotated[Path | None, typer.Option(help="Also save each plot as a PNG file into this folder.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print report.json instead of the summary.")] = False,
) -> None:
    """Balance report: win rate by seat (with a test of equal seats), scores, game length, the game's own
    figures, and option variants side by side, in report.html and report.json."""
    from .balance import parse_vary, run_balance
    from .balance.report import findings, write_report
    from .runner import Backend

    g = get_game(game)
    counts = [g.check_players(_count(text)) for text in players.split(",")] if players else [g.default_players]
    counts = list(dict.fromkeys(counts))
    options = parse_options(g, option)
    specs = check_bots(bots or default_opponent(g))
    variants = parse_vary(g, vary, options)
    where = Backend(backend, jobs, address).check()
    total = len(counts) * len(variants) * games
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=err, transient=True, disable=as_json or not err.is_terminal) as progress:
        task = progress.add_task(f"{g.id} balance", total=total)
        result = run_balance(g.id, counts, specs, games=games, vary=vary, seed=seed, options=options, backend=where,
                             on_game=lambda: progress.advance(task))
    data = write_report(result, out, png_dir=png)
    if as_json:
        print(json.dumps(data, indent=2))
        return
    for pc in data["player_counts"]:
        console.print(Text(f"{g.title}, {pc['players']} players, {games} games per variant", style="bold"))
        for line in findings(pc):
            console.print(f"- {line}", highlight=False)
    console.print(f"Report written to {out / 'report.html'} and {out / 'report.json'}")


def _count(text: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise BadOptions(f"--players takes whole numbers separated by commas, not {text!r}") from None


@app.command()
@clear_errors
def analyse(
    file: Annotated[Path, typer.Argument(help="The record of a finished game (saved by play, simulate or a table).")],
    seat: Annotated[list[int] | None, typer.Option(help="A seat to analyse (from 1), repeatable; all by default.")]
    = None,
    worlds: Annotated[int, typer.Option(help="Worlds sampled per decision; each option is played in every one.",
                                        min=1)] = 12,
    rounds: Annotated[int | None, typer.Option(help="Rollouts stop after this many rounds (0: at the end of the "
                                                    "game); the game's search setting by default.", min=0)] = None,
    seed: Annotated[int, typer.Option(help="The analysis's seed: the same record and seed give the same analysis.")]
    = 0,
    jobs: Annotated[int, typer.Option(help="Weigh the decisions in this many processes.", min=1)] = 1,
    backend: BackendName = "local",
    address: RayAddress = None,
    all_moves: Annotated[bool, typer.Option("--all", help="List every decision, not only the mistakes.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output: every decision and option.")]
    = False,
) -> None:
    """Weigh every decision of a finished game by a search that knows only what the deciding seat knew: the
    options, the chance of winning and the score each promised, what the move played cost, and the mistakes."""
    from .analysis import analyse as run
    from .analysis import describe
    from .runner import Backend

    where = Backend(backend, jobs, address).check()
    rec = Record.load(file)
    seats = None if not seat else [s - 1 for s in seat]
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=err, transient=True, disable=as_json or not err.is_terminal) as progress:
        task = progress.add_task(f"analysing {rec.game}", total=None)
        analysis = run(rec, seats, worlds=worlds, rounds=rounds, seed=seed, backend=where,
                       on_decision=lambda _i, total: progress.update(task, total=total, advance=1))
    if as_json:
        print(json.dumps(analysis.to_dict(), indent=2))
        return
    shown = [d for d in analysis.decisions if all_moves or d.mistake]
    table = Table(title=f"{get_game(rec.game).title}: {'decisions' if all_moves else 'mistakes'}", header_style="bold")
    for column in ("move", "player", "played", "chance", "best", "chance ", "cost"):
        table.add_column(column.strip(), justify="left" if column in ("player", "played", "best") else "right")
    for d in shown:
        best, played = d.options[0], next(o for o in d.options if o.action == d.played)
        table.add_row(str(d.move + 1), seat_name(d.seat), d.label + (" (mistake)" if all_moves and d.mistake else ""),
                      f"{played.win:.0%}", best.label, f"{best.win:.0%}", f"{d.cost:.0%}")
    if shown:
        console.print(table)
    else:
        console.print("No mistakes found." if not all_moves else "No decision to analyse.")
    for line in describe(analysis):
        console.print(line)
    console.print(f"Chances of winning as the deciding seat saw them, over {analysis.worlds} sampled worlds a "
                  "decision; a mistake cost at least 10% of a win, beyond the sampling's noise.", style="dim")


@app.command()
@clear_errors
def replay(
    file: Annotated[Path, typer.Argument(help="A record saved by play or simulate.")],
    check: Annotated[bool, typer.Option("--check", help="Only verify that the record reproduces its result.")] = False,
    seat: Annotated[int | None, typer.Option(help="Also show what this seat (from 1) saw privately.")] = None,
) -> None:
    """Replay a record move by move, or check that it reproduces its stored result."""
    rec = Record.load(file)
    if check:
        state = rec.verify()
        console.print(f"ok: {len(rec.moves)} moves of {state.game.id} replay to the stored result")
        return
    state = rec.start()
    viewer = None if seat is None else seat - 1
    if viewer is not None and not 0 <= viewer < state.players:
        raise BadOptions(f"seat {seat} does not exist; choose 1 to {state.players}")
    shown = _print_events(state, viewer, 0)
    for number, (who, action) in enumerate(rec.moves, start=1):
        label = state.action_label(action) if 0 <= action < state.game.num_actions(state.players) else str(action)
        try:
            state.apply(who, action)
        except NinjatableError as e:
            raise type(e)(f"move {number} ({seat_name(who)}: {label}) does not apply: {e}") from None
        console.print(Text(f"{number:4d}. {seat_name(who)}: {label}", style="bold"))
        shown = _print_events(state, viewer, shown)
    console.print(state.game.render(state.view(viewer)))
    if state.is_over():
        console.print(Text(winners_text(state.winners(), viewer) + ".", style="bold"))
    if rec.result is not None:
        rec.check_result(state)


@app.command()
@clear_errors
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on (0.0.0.0 for every network interface).")]
    = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.", min=1, max=65535)] = 8000,
    db: Annotated[str | None, typer.Option(help="Database URL: sqlite:///path/file.db or postgresql://user@host/db "
                                                "(default: an SQLite file in your data directory).")] = None,
    bot_workers: Annotated[int, typer.Option(help="Processes in which bots think.", min=1)] = 2,
    max_bot_ms: Annotated[int | None, typer.Option(help="The longest a bot at a table may think a decision, in ms "
                                                        "(default 10000).", min=1)] = None,
    limit: Annotated[list[str] | None, typer.Option(help="A limit as NAME=VALUE, repeatable: tables_per_minute, "
                                                         "waiting_minutes, finished_kept, spectators_per_table, "
                                                         "sockets_per_address, body_bytes, ... (docs/server.md).",
                                                    metavar="NAME=VALUE")] = None,
    forwarded_allow_ips: Annotated[str, typer.Option(help="Reverse proxies whose X-Forwarded-For and "
                                                          "X-Forwarded-Proto headers are trusted (comma-separated "
                                                          "addresses, or * behind a proxy that is the only way "
                                                          "in).")] = "127.0.0.1",
    metrics: Annotated[bool, typer.Option(help="Serve /metrics for Prometheus: counts only, no table id, name or "
                                               "token.")] = True,
    metrics_from: Annotated[str | None, typer.Option(help="Only these may read /metrics: comma-separated addresses "
                                                          "or networks (127.0.0.1,10.0.0.0/8); default: anyone.",
                                                     metavar="ADDRESSES")] = None,
    abandoned: Annotated[str, typer.Option(help="A game nobody has been connected to for abandoned_minutes (a "
                                                "--limit, default 60): finish (its bots play every person's seat to "
                                                "the end) or close (stopped; whoever comes back is told; a rated "
                                                "game is finished by its bots either way).",
                                           metavar="finish|close")] = "finish",
    redis: Annotated[str | None, typer.Option(help="Run as one of several processes sharing the tables through "
                                                   "this Redis (redis://host:6379/0) and a PostgreSQL --db "
                                                   "(docs/server.md, Running a cluster).")] = None,
    lease_seconds: Annotated[float, typer.Option(help="With --redis: a table whose process stops answering is taken "
                                                      "over by another within about this long.")] = 10.0,
    log_json: Annotated[bool, typer.Option("--log-json", help="Log one JSON object a line (time, level, logger, "
                                                              "message and fields) to stderr.")] = False,
    log_level: Annotated[str, typer.Option(help="The lowest level the server logs: debug, info, warning or "
                                                "error.")] = "info",
    access_log: Annotated[bool, typer.Option("--access-log", help="Log a line for every HTTP request and socket "
                                                                  "(health probes and scrapes: at debug).")] = False,
) -> None:
    """Host online tables: create a table, invite friends, play live in the browser or over the API."""
    try:
        import uvicorn
        from sqlalchemy.engine import make_url

        from .server import UVICORN_SETTINGS, create_app, default_database_url
        from .server.app import CLUSTER_NEEDS_POSTGRESQL
        from .server.config import Operation, limits_from
        from .server.logs import log_config
        from .server.store import database_url, is_sqlite
    except ImportError as e:
        raise BadOptions(f"the server needs the web extra ({e.name} is missing): pip install 'ninjatable[web]'") \
            from None
    check_port_free(host, port)
    url = db or default_database_url()
    try:
        database_url(url)
        limits = limits_from(limit or [], bot_ms=max_bot_ms)
        allowed = tuple(a for a in (metrics_from or "").split(",") if a.strip())
        operation = Operation(metrics=metrics, metrics_from=allowed, abandoned=abandoned, redis=redis,
                              lease_seconds=lease_seconds).check()
        if redis and is_sqlite(url):
            raise ValueError(CLUSTER_NEEDS_POSTGRESQL)
        logging_config = log_config(log_level, json_lines=log_json, access=access_log)
    except ValueError as e:
        raise BadOptions(str(e)) from None
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0") else host
    address = f"http://{shown}:{port}/"
    stored = make_url(url).render_as_string(hide_password=True)  # a password in the URL stays out of the log
    logging.config.dictConfig(logging_config)
    logging.captureWarnings(True)  # Python's warnings go through the log too (as JSON lines with --log-json)
    if log_json:
        logging.getLogger("ninjatable.server").info("ninjatable tables at %s, stored in %s", address, stored,
                                                    extra={"url": address, "db": stored})
    else:
        err.print(f"ninjatable tables at {address} (API docs at /docs), stored in {stored}; Ctrl+C stops.",
                  highlight=False, soft_wrap=True)
    tables = create_app(url, bot_workers=bot_workers, limits=limits, operation=operation)
    # Logging is configured above; uvicorn sets no level of its own and drops its access lines unless asked.
    # On SIGTERM (a restart) uvicorn closes every socket with 1012 at once and waits for the requests still running;
    # after 5 s it cancels them (a hint from a searching bot, a client sending slowly), so a restart is never held up.
    settings = {**UVICORN_SETTINGS, "log_config": None, "log_level": None, "access_log": access_log,
                "timeout_graceful_shutdown": 5}
    # Once it has stopped, uvicorn raises the signal again with the handler found before it ran; SIGTERM's default
    # would end this clean stop as killed (status 143, no exit handlers run): it ends with status 0, as Ctrl+C does.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    uvicorn.run(tables, host=host, port=port, forwarded_allow_ips=forwarded_allow_ips, **settings)


def check_port_free(host: str, port: int) -> None:
    """Refuse, in one line and before anything else, a port that another program already listens on."""
    import socket

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server binds it
        try:
            probe.bind((host, port))
        except OSError as e:
            raise BadOptions(f"cannot listen on {host}:{port}: {e.strerror or e} (another server on that port? "
                             "choose another with --port)") from None


def _print_events(state, viewer, shown: int) -> int:
    events = state.events_for(viewer)
    for event in events[shown:]:
        if event.kind != "play":
            console.print(f"      {event.text}", highlight=False)
    return len(events)


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def main() -> None:
    try:
        app()
    except KeyboardInterrupt:
        sys.exit(130)


if __name__ == "__main__":
    main()
