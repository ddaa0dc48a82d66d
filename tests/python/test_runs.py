"""Many simulations from one process: in a thread pool as in sequence,
memory that does not grow with the number of runs, and Ctrl-C
(KeyboardInterrupt) ending a run and its child process."""

import os
import signal
import subprocess
import sys
import textwrap
from concurrent.futures import ThreadPoolExecutor

from conftest import without_host

SETTINGS = [{"dram.gbps_per_tops": g} for g in (0.25, 0.5, 1.0, 2.0)]


def test_thread_pool_equals_sequence(gemini, data):
    jobs = [(data / name, s) for name in ("set_minimal.json", "spec_minimal.json") for s in SETTINGS]
    assert len(jobs) == 8
    sequential = [without_host(gemini.simulate(f, set=s)) for f, s in jobs]
    with ThreadPoolExecutor(max_workers=8) as pool:
        threaded = [without_host(r) for r in pool.map(lambda j: gemini.simulate(j[0], set=j[1]), jobs)]
    assert threaded == sequential
    assert len({r["total_cycles"] for r in sequential}) > 2  # the settings matter


def rss_kb():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise AssertionError("no VmRSS")


def test_memory_does_not_grow(gemini, data):
    f = data / "set_minimal.json"
    for _ in range(10):
        gemini.simulate(f)
    after_10 = rss_kb()
    for _ in range(90):
        gemini.simulate(f)
    after_100 = rss_kb()
    assert after_100 <= after_10 * 1.10, (after_10, after_100)


def test_keyboard_interrupt_kills_the_child(gemini, tmp_path):
    # A stand-in gemini that runs until it is killed, and says it started.
    fake = tmp_path / "gemini"
    started = tmp_path / "started"
    fake.write_text(f"#!/bin/sh\necho $$ > {started}.tmp && mv {started}.tmp {started}\n"
                    "exec sleep 600\n")
    fake.chmod(0o755)
    script = textwrap.dedent(f"""
        import os, signal, sys, threading, time
        import gemini
        def interrupt():
            while not os.path.exists({str(started)!r}):
                time.sleep(0.01)
            os.kill(os.getpid(), signal.SIGINT)
        threading.Thread(target=interrupt, daemon=True).start()
        try:
            gemini.simulate({str(tmp_path / 'x.json')!r}, hw=None)
        except KeyboardInterrupt:
            pid = int(open({str(started)!r}).read())
            try:
                os.kill(pid, 0)
                print("child alive")
            except ProcessLookupError:
                print("interrupted, child gone")
        """)
    env = dict(os.environ, GEMINI_EXE=str(fake))
    # (timeout: a guard against a hang, not a measurement)
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True,
                         timeout=300)
    assert "interrupted, child gone" in out.stdout, out.stdout + out.stderr


def test_checks_from_threads(gemini, data):
    # The in-process calls (validation, configuration checks) from 8 threads.
    files = sorted((data / "checks").glob("*.json"))[:16]
    sequential = [gemini.validate(f) for f in files]
    with ThreadPoolExecutor(max_workers=8) as pool:
        threaded = list(pool.map(gemini.validate, files))
        bad = list(pool.map(lambda g: _bad_hw_pointer(gemini, g), [-1, 0.5, "x", -2] * 4))
    assert threaded == sequential
    assert bad == [_bad_hw_pointer(gemini, g) for g in [-1, 0.5, "x", -2] * 4]


def _bad_hw_pointer(gemini, gbps):
    try:
        gemini.validate(os.devnull, hw={"dram": {"gbps_per_tops": gbps}})
        return None
    except gemini.InputError as e:
        return e.pointer
