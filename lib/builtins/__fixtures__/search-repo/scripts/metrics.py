"""Latency statistics."""
import math


def compute_percentiles(values: list[float], percentiles=(50, 90, 99)) -> dict[int, float]:
    """Compute the requested percentiles of the values by nearest rank."""
    if not values:
        return {p: math.nan for p in percentiles}
    ordered = sorted(values)
    result = {}
    for p in percentiles:
        rank = max(1, math.ceil(p / 100 * len(ordered)))
        result[p] = ordered[rank - 1]
    return result


class HistogramBuckets:
    """Counts values into fixed-width histogram buckets."""

    def __init__(self, width: float, count: int):
        self.width = width
        self.counts = [0] * count

    def add(self, value: float) -> None:
        index = min(int(value // self.width), len(self.counts) - 1)
        self.counts[index] += 1

    def bucket_edges(self) -> list[float]:
        return [i * self.width for i in range(len(self.counts) + 1)]
