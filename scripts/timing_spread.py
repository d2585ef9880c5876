"""How reproducible a CPU-time speed-up of Figs. 2.13 / 2.16 is across processes.

Runs Fig. 2.13's and Fig. 2.16's jobs (the profile's own work functions, the same
parameters as ``make reproduce``) ``--runs`` times, each in a fresh process, and prints
per speed-up the values and their largest / smallest - 1. The results' ``timing_band``
(two CPU-time speed-ups differ only beyond it) is set from this spread, measured under
load, because a verdict must not depend on what else the machine runs.

Run from the repository root (MNIST in the data cache)::

    .venv/bin/python scripts/timing_spread.py --config config/quick.yaml \
        --jobs fig_2_16/r5 fig_2_16/r15 fig_2_13/r5 fig_2_13/r25 --runs 5

Measured 2026-11-26 (quick profile, 10000 training / 1000 test digits, 1 BLAS thread,
load 5-9 on 2 cores from other work): largest / smallest of a speed-up over 5 runs at
most 1.65 (Fig. 2.16's r = 15 3-NN gain, 1.36x-2.24x), median 1.17.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys


def speedups(config: str, job: str) -> dict[str, float]:
    """The speed-ups one job's record body yields (in this process)."""
    from harness.config import load_config
    from harness.result_registry import get_result, hook

    name, key = job.split("/", 1)
    result = get_result(name)
    body = hook(result, "work")(result.params(load_config(config), key))
    if name == "fig_2_16":
        out = {f"hinge scale {s['scale']:g}": s["speedup"] for s in body["searches"]}
        out.update({"3-NN tree / naive": body["knn_tree_gain"],
                    "3-NN tree / brute": body["knn_tree_speedup"]})
    else:
        reduced, base = body["reduced"], body["baseline"]
        out = {"tree / naive r": reduced["naive"]["seconds"] / reduced["balltree"]["seconds"],
               "tree / naive 784": base["naive"]["seconds"] / reduced["balltree"]["seconds"]}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--config", default="config/quick.yaml")
    parser.add_argument("--jobs", nargs="+",
                        default=["fig_2_16/r5", "fig_2_16/r15", "fig_2_13/r5", "fig_2_13/r25"])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--one", help=argparse.SUPPRESS)  # the child: one job, JSON out
    args = parser.parse_args()
    if args.one:
        print(json.dumps(speedups(args.config, args.one)))
        return
    values: dict[str, list[float]] = {}
    for _ in range(args.runs):
        for job in args.jobs:
            out = subprocess.run([sys.executable, __file__, "--config", args.config,
                                  "--one", job], check=True, capture_output=True, text=True)
            for name, value in json.loads(out.stdout.splitlines()[-1]).items():
                values.setdefault(f"{job} {name}", []).append(value)
    spreads = []
    for name, runs in values.items():
        spread = max(runs) / min(runs) - 1.0
        spreads.append(spread)
        print(f"{name:40s} " + " ".join(f"{v:7.3f}" for v in runs) + f"   spread {spread:.1%}")
    print(f"largest spread {max(spreads):.1%}, median {statistics.median(spreads):.1%}")


if __name__ == "__main__":
    main()
