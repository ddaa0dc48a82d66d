#!/usr/bin/env python3
"""What gemini.simulate costs over the CLI it runs: the median wall time of
N runs of `gemini sim FILE --hw HW --report R -q` (a subprocess from
Python, as a shell would start it) against N calls of
gemini.simulate(FILE, hw=HW), alternating, and N/8 batches of 8 calls
in a thread pool of 8 (docs/python.md quotes the figures).
    PYTHONPATH=build/python python3 bench/python_overhead.py [FILE] [N] [HW]"""

import os
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

import gemini


def main() -> None:
    path = sys.argv[1] if len(sys.argv) > 1 else "tests/data/set_minimal.json"
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 50
    hw = sys.argv[3] if len(sys.argv) > 3 else "set-polar"
    exe = gemini.executable()
    cli, py = [], []
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "r.json")
        for _ in range(n):
            t = time.perf_counter()
            subprocess.run([exe, "sim", path, "--hw", hw, "--report", report, "-q"], check=True)
            cli.append(time.perf_counter() - t)
            t = time.perf_counter()
            gemini.simulate(path, hw=hw)
            py.append(time.perf_counter() - t)
    batches = []
    with ThreadPoolExecutor(max_workers=8) as pool:
        for _ in range(max(1, n // 8)):
            t = time.perf_counter()
            list(pool.map(lambda _: gemini.simulate(path, hw=hw), range(8)))
            batches.append((time.perf_counter() - t) / 8)
    c, p, b = (statistics.median(x) * 1e3 for x in (cli, py, batches))
    print(f"{path} on {hw}, {n} runs each, medians on {os.cpu_count()} cores:")
    print(f"  gemini sim (CLI)          {c:7.1f} ms")
    print(f"  gemini.simulate           {p:7.1f} ms  (+{p - c:.1f} ms, {p / c:.2f}x)")
    print(f"  8 at once, per run        {b:7.1f} ms")


if __name__ == "__main__":
    main()
