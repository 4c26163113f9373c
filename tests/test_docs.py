"""Every command and code snippet in the README and docs/ runs as written (long runs shortened, servers not run).

Commands of `sh` blocks (and of unlabelled blocks made only of `ninjatable` commands) run one by one: `ninjatable`
in-process, scripts with this Python. Python blocks run as they are. The lists below say what is never run and
what is shortened, and how.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ninjatable.cli import app

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]

# Never run: they build a virtual environment, install packages, start a server (or a browser) or talk to one.
NOT_RUN = (
    "make run", "make serve", "make test", "make soak", "make bench",  # create .venv from the package index
    "pip install",  # installs packages
    "ninjatable serve",  # starts the table server
    "curl ",  # talks to a running server
    ".venv/bin/python benchmarks/server_load.py",  # starts servers for its load figures
)

# Shortened: the same command with a smaller run, so that the suite stays quick. (pattern, replacement)
SHORTEN = (
    (r"(--games|-n) \d+", r"\1 2"),  # a couple of games instead of hundreds
    (r"ismcts:ms=\d+", "ismcts:ms=20"),  # a short search budget
    (r"ismcts:iterations=\d+", "ismcts:iterations=5"),
    (r"\bismcts\b(?![:=])", "ismcts:iterations=5"),  # the default budget too
    (r"--episodes \d+", "--episodes 4"),  # training examples: a few games
    (r"--eval \d+", "--eval 2"),
)
TRAINING_DEFAULTS = " --episodes 4 --eval 2 --batch 2"  # the training example run without arguments


def blocks() -> list[tuple[str, str, str]]:
    """(where, language, text) of every fenced block of the docs."""
    found = []
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        for match in re.finditer(r"^```(\w*)\n(.*?)^```", text, re.S | re.M):
            line = text[: match.start()].count("\n") + 1
            found.append((f"{doc.relative_to(ROOT)}:{line}", match.group(1), match.group(2)))
    return found


def commands() -> list[tuple[str, str]]:
    """(where, command) of every shell command in the docs, comments dropped, continued lines joined."""
    found = []
    for where, language, text in blocks():
        lines = []
        for line in text.replace("\\\n", " ").splitlines():
            line = line.split("  #")[0].strip()
            if lines and _open_quote(lines[-1]):
                lines[-1] += " " + line  # a quoted argument that goes on to the next line
            elif line:
                lines.append(line)
        if language == "sh" or (language == "" and lines and all(line.startswith("ninjatable ") for line in lines)):
            found += [(where, line) for line in lines]
    return found


def _open_quote(command: str) -> bool:
    try:
        shlex.split(command)
    except ValueError:
        return True
    return False


def snippets() -> list[tuple[str, str]]:
    return [(where, text) for where, language, text in blocks() if language == "python"]


def shortened(command: str) -> str:
    for pattern, replacement in SHORTEN:
        command = re.sub(pattern, replacement, command)
    if command.endswith("examples/train_reinforce.py"):
        command += TRAINING_DEFAULTS
    return command


COMMANDS = commands()
RUN = [(w, c) for w, c in COMMANDS if not c.startswith(NOT_RUN)]


def test_the_docs_have_commands_and_every_one_not_run_is_listed():
    assert len(RUN) >= 10 and snippets()
    skipped = {c for _, c in COMMANDS if c.startswith(NOT_RUN)}
    assert {"make run", "make serve", "make test"} <= skipped
    assert all(c.split()[0] in ("ninjatable", "python", ".venv/bin/python") for _, c in RUN), RUN


@pytest.mark.parametrize(("where", "command"), RUN, ids=[f"{w} {c[:40]}" for w, c in RUN])
def test_every_command_in_the_docs_runs(where, command, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    args = shlex.split(shortened(command))
    if args[0] == "ninjatable":
        if args[1:3] in (["replay", "runs/dragon-0.json"], ["replay", "--check"], ["analyse", "runs/dragon-0.json"]):
            # the record the simulate line before it writes
            CliRunner().invoke(app, ["simulate", "dragon", "--games", "1", "--records", "runs/"])
        result = CliRunner().invoke(app, args[1:], input="q\n")
        assert result.exit_code == 0, (where, command, result.output)
        return
    script = ROOT / args[1]
    done = subprocess.run([sys.executable, str(script), *args[2:]], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, (where, command, done.stderr[-2000:])


@pytest.mark.parametrize(("where", "code"), snippets(), ids=[w for w, _ in snippets()])
def test_every_python_snippet_in_the_docs_runs(where, code, tmp_path, monkeypatch):
    if "import pyspiel" in code:
        pytest.importorskip("pyspiel")
    monkeypatch.chdir(tmp_path)
    exec(compile(shortened(code), where, "exec"), {"__name__": "__docs__"})


def test_no_line_of_prose_runs_on_into_the_bullet_above():
    """Markdown joins an unindented line to the list item above it unless a blank line comes between."""
    merged = []
    for doc in DOCS:
        in_list = in_fence = False
        for number, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), start=1):
            if line.startswith("```"):
                in_fence = not in_fence
            if in_fence:
                continue
            if re.match(r"^\s*([-*]|\d+\.)\s", line):
                in_list = True
            elif not line.strip():
                in_list = False
            elif in_list and not line.startswith(" "):
                merged.append(f"{doc.relative_to(ROOT)}:{number}: {line[:60]}")
    assert not merged, merged
