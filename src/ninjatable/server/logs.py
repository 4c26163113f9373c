"""How `ninjatable serve` logs: the server's own loggers (`ninjatable.*`) and uvicorn's, to stderr, as plain lines
or as one JSON object a line (`--log-json`) for a log collector.

A JSON line holds `time` (UTC, ISO 8601), `level`, `logger` and `message`, then whatever fields the code logged
with the line (`extra={"table": ...}`), an access line's request, and an error's `exception` (its traceback, in
the same line).
"""

from __future__ import annotations

import datetime
import json
import logging
from typing import Any

LEVELS = ("debug", "info", "warning", "error")
PROBES = ("/healthz", "/readyz", "/metrics")  # asked every few seconds by machines: their access lines are debug

# The attributes every log record has; any other was given by the code that logged it (`extra=`), except uvicorn's
# coloured copy of its message.
STANDARD = (frozenset(vars(logging.LogRecord("", 0, "", 0, "", (), None)))
            | {"message", "asctime", "taskName", "color_message"})
# The arguments of uvicorn's access lines: '%s - "%s %s HTTP/%s" %d'.
ACCESS_FIELDS = ("client", "method", "path", "http_version", "status")


class JsonLines(logging.Formatter):
    """A record as one line of JSON."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.datetime.fromtimestamp(record.created, datetime.UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.name == "uvicorn.access" and isinstance(record.args, tuple) and len(record.args) == 5:
            line.update(zip(ACCESS_FIELDS, record.args, strict=True))
        for name, value in vars(record).items():
            if name not in STANDARD and name not in line:
                line[name] = value
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        if record.stack_info:
            line["stack"] = self.formatStack(record.stack_info)
        return json.dumps(line, default=str, ensure_ascii=False)


class QuietProbes(logging.Filter):
    """Access lines of the probes (health, readiness, metrics) are debug lines, so that a server asked every few
    seconds does not log each time."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args if isinstance(record.args, tuple) else ()
        path = str(args[2]).split("?", 1)[0] if len(args) == 5 else ""
        if path not in PROBES:
            return True
        record.levelno, record.levelname = logging.DEBUG, "DEBUG"
        return logging.getLogger(record.name).isEnabledFor(logging.DEBUG)


def log_config(level: str = "info", json_lines: bool = False, access: bool = False) -> dict[str, Any]:
    """The logging configuration of `serve` (for uvicorn's `log_config`): the server's loggers at `level`;
    uvicorn's at warning, unless `access` asks for its line per request and socket (at `level`); everything else
    (libraries, Python's warnings) at warning; all of it to stderr, plain or as JSON lines."""
    if level not in LEVELS:
        raise ValueError(f"the log level is one of {', '.join(LEVELS)}, not {level!r}")
    named = level.upper()
    uvicorn = named if access else max(named, "WARNING", key=logging.getLevelName)
    formatter = {"()": JsonLines} if json_lines else {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"lines": formatter},
        "filters": {"quiet_probes": {"()": QuietProbes}},
        "handlers": {"stderr": {"class": "logging.StreamHandler", "formatter": "lines", "stream": "ext://sys.stderr"}},
        "root": {"handlers": ["stderr"], "level": "WARNING"},
        "loggers": {
            "ninjatable": {"level": named},
            "uvicorn": {"handlers": [], "level": uvicorn, "propagate": True},
            "uvicorn.error": {"level": uvicorn},
            "uvicorn.access": {"level": named, "filters": ["quiet_probes"]},
        },
    }
