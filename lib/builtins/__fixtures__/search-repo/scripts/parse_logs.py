"""Parse access log lines into LogRecord objects."""
import re
from dataclasses import dataclass

LOG_PATTERN = re.compile(r"(?P<ts>\S+) (?P<method>[A-Z]+) (?P<path>\S+) (?P<status>\d{3}) (?P<ms>\d+)ms")


@dataclass
class LogRecord:
    timestamp: str
    method: str
    path: str
    status: int
    duration_ms: int


def parse_log_line(line: str) -> LogRecord | None:
    """Parse one access log line; None when the line does not match the log format."""
    match = LOG_PATTERN.match(line.strip())
    if match is None:
        return None
    return LogRecord(
        timestamp=match["ts"],
        method=match["method"],
        path=match["path"],
        status=int(match["status"]),
        duration_ms=int(match["ms"]),
    )


def parse_log_file(path: str) -> list[LogRecord]:
    with open(path, encoding="utf-8") as handle:
        return [record for record in map(parse_log_line, handle) if record is not None]
