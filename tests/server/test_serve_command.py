"""`ninjatable serve` as a user starts it: a wrong database is one clear line and exit code 2."""

from __future__ import annotations

from live import free_port
from typer.testing import CliRunner

from ninjatable.cli import app

runner = CliRunner()


def test_serve_has_help():
    result = runner.invoke(app, ["serve", "--help"])
    assert result.exit_code == 0 and "--db" in result.output and "--port" in result.output


def test_an_unsupported_database_is_one_clear_line():
    result = runner.invoke(app, ["serve", "--db", "mysql://root@localhost/tables"])
    assert result.exit_code == 2
    assert "unsupported database" in result.output and "sqlite:///path" in result.output
    assert "Traceback" not in result.output


def test_the_default_database_is_a_file_in_the_users_data_directory(monkeypatch, tmp_path):
    from ninjatable.server import default_database_url

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_database_url() == f"sqlite:///{tmp_path / 'ninjatable' / 'tables.db'}"


def test_a_port_in_use_is_one_clear_line_before_anything_else():
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = runner.invoke(app, ["serve", "--port", str(port), "--db", "mysql://wrong/too"])
    assert result.exit_code == 2
    assert result.output.strip().count("\n") == 0 and f"127.0.0.1:{port}" in result.output
    assert "--port" in result.output and "Traceback" not in result.output


def serve(*options: str):
    return runner.invoke(app, ["serve", "--port", str(free_port()), *options])


def test_several_processes_on_an_sqlite_file_are_refused_in_one_line(tmp_path):
    result = serve("--db", f"sqlite:///{tmp_path / 't.db'}", "--redis", "redis://127.0.0.1:6379/0")
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert result.output.strip().count("\n") == 0 and "postgresql://" in result.output and "--redis" in result.output


def test_a_wrong_redis_url_or_lease_time_is_one_clear_line():
    wrong_url = serve("--db", "postgresql://x@127.0.0.1/y", "--redis", "127.0.0.1:6379")
    assert wrong_url.exit_code == 2 and "redis://" in wrong_url.output
    too_short = serve("--db", "postgresql://x@127.0.0.1/y", "--redis", "redis://127.0.0.1:6379/0", "--lease-seconds",
                      "0.1")
    assert too_short.exit_code == 2 and "--lease-seconds is 1 to 300" in too_short.output
