"""hintline's benchmark suite: ``make bench`` (or ``python -m benchmarks [FILTER]``)."""
