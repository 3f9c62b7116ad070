"""How much a busy neighbour process slows a CPU-bound Python loop on this machine.

    python -m bench.probe_vcpu_neighbour

Times a pure-Python loop alone, then while another process spins on the other CPU, then
alone again. On a machine whose CPUs are independent cores the three are equal; where
two vCPUs share a physical core (or the host is oversubscribed) the middle one is
slower. It explains why a batch with one worker pays for the CPU of its client and
scheduler process in wall time here (bench/RESULTS.md, "Batch on Dask").
"""

from __future__ import annotations

import multiprocessing as mp
import time
from multiprocessing.synchronize import Event


def work(n: int = 3_000_000) -> float:
    """Seconds for a fixed pure-Python loop."""
    t = time.perf_counter()
    s = 0
    for i in range(n):
        s += i * i % 7
    return time.perf_counter() - t


def spin(stop: Event) -> None:
    """Keep one CPU busy until ``stop`` is set."""
    while not stop.is_set():
        s = 0
        for i in range(10_000):
            s += i


def main() -> int:
    """Print the loop's time alone, beside a spinning process, and alone again."""
    alone = min(work(), work())
    stop = mp.Event()
    proc = mp.Process(target=spin, args=(stop,))
    proc.start()
    time.sleep(0.2)
    busy = min(work(), work())
    stop.set()
    proc.join()
    again = work()
    print(f"alone {alone:.3f} s; beside a busy process {busy:.3f} s "
          f"({busy / alone:.2f}x); alone again {again:.3f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
