"""Build a latency report from an access log."""
import sys

from metrics import HistogramBuckets, compute_percentiles
from parse_logs import parse_log_file, parse_log_line


def render_markdown_report(durations: list[float]) -> str:
    """Render the latency summary as a Markdown table with a histogram."""
    stats = compute_percentiles(durations)
    histogram = HistogramBuckets(width=50, count=10)
    for d in durations:
        histogram.add(d)
    rows = ["| percentile | ms |", "|---|---|"]
    rows += [f"| p{p} | {v:.1f} |" for p, v in stats.items()]
    rows.append("")
    rows += [f"{edge:>6.0f} {count}" for edge, count in zip(histogram.bucket_edges(), histogram.counts)]
    return "\n".join(rows)


def main() -> None:
    # parse each log line, compute percentiles, print the report
    records = parse_log_file(sys.argv[1])
    first = parse_log_line(sys.stdin.readline()) if len(sys.argv) > 2 else None
    durations = [r.duration_ms for r in records] + ([first.duration_ms] if first else [])
    print(render_markdown_report(durations))


if __name__ == "__main__":
    main()
