"""LMNN against its peers on many digits splits, measured by hand (not an asv benchmark).

    python -m benchmarks.compare_lmnn_digits --splits 20 --threads 1 [--csv FILE]

For every split of ``StratifiedShuffleSplit(n_splits, test_size=0.3,
random_state=0)`` of scikit-learn's digits it fits every method of
:data:`benchmarks.bench_lmnn.METHOD_NAMES` (our two solvers and the installed peers,
built by :func:`benchmarks.bench_lmnn.make_estimator`: k = 3, seed 0) with BLAS
pinned to ``--threads`` threads, and records the number of wrong 3-NN test
predictions and the fit's CPU seconds (``time.process_time``). It prints one line per
split, then per method the total errors, the mean CPU seconds and the CPU ratio to
``lmnn_lbfgs``, and the paired difference of errors to ``lmnn_lbfgs``. A peer that
is not installed or fails is listed as skipped. asv's ``LMNNDigits`` tracks one of
these splits; this script gives the spread over splits that one split cannot.
The numbers measured with it are in the docstring of :mod:`benchmarks.bench_lmnn`.
"""

from __future__ import annotations

import argparse

import numpy as np
import pandas as pd
from sklearn.datasets import load_digits
from sklearn.model_selection import StratifiedShuffleSplit
from threadpoolctl import threadpool_limits

from benchmarks.bench_lmnn import METHOD_NAMES, REFERENCE_METHOD, make_estimator, timed_fit, warm_up_jit


def compare(n_splits: int, threads: int) -> tuple[pd.DataFrame, dict]:
    """Errors and CPU seconds per split and method, and the skipped methods."""
    X, y = load_digits(return_X_y=True)
    X = X.astype(np.float64)
    splits = StratifiedShuffleSplit(n_splits=n_splits, test_size=0.3, random_state=0)
    rows, skipped = [], {}
    with threadpool_limits(threads):
        warm_up_jit()
        for split, (train, test) in enumerate(splits.split(X, y)):
            for method in METHOD_NAMES:
                if method in skipped:
                    continue
                try:
                    est = make_estimator(method)
                    cpu = timed_fit(est, X[train], y[train])
                except Exception as exc:  # a missing or failing peer is a skipped row
                    skipped[method] = f"{type(exc).__name__}: {exc}"
                    continue
                wrong = int((est.predict(X[test]) != y[test]).sum())
                rows.append({"split": split, "method": method, "wrong": wrong,
                             "n_test": len(test), "fit_cpu_s": cpu})
            done = [r for r in rows if r["split"] == split]
            print(f"split {split}: " + ", ".join(
                f"{r['method']} {r['wrong']} wrong {r['fit_cpu_s']:.2f} s" for r in done),
                flush=True)
    return pd.DataFrame(rows), skipped


def summarise(df: pd.DataFrame) -> pd.DataFrame:
    """Per method: errors, error rate, mean CPU, CPU ratio and paired difference."""
    wrong = df.pivot(index="split", columns="method", values="wrong")
    cpu = df.pivot(index="split", columns="method", values="fit_cpu_s")
    ref = REFERENCE_METHOD
    out = pd.DataFrame({
        "wrong": wrong.sum(),
        "error_pct": 100 * wrong.sum() / df.groupby("method")["n_test"].sum(),
        "fit_cpu_s": cpu.mean(),
        "cpu_ratio_to_lmnn": cpu.mean() / cpu[ref].mean(),
        "paired_wrong_minus_lmnn": (wrong.sub(wrong[ref], axis=0)).mean(),
        "paired_sd": (wrong.sub(wrong[ref], axis=0)).std(),
        "splits_cheaper_than_lmnn": (cpu.lt(cpu[ref], axis=0)).sum(),
    })
    return out.loc[[m for m in METHOD_NAMES if m in out.index]]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--splits", type=int, default=20)
    parser.add_argument("--threads", type=int, default=1, help="BLAS threads (threadpoolctl)")
    parser.add_argument("--csv", help="write the per-split records to this CSV file")
    args = parser.parse_args(argv)
    df, skipped = compare(args.splits, args.threads)
    if args.csv:
        df.to_csv(args.csv, index=False)
    print(f"\n{args.splits} splits, {args.threads} BLAS thread(s):")
    print(summarise(df).round(3).to_string())
    for method, why in skipped.items():
        print(f"skipped {method}: {why}")


if __name__ == "__main__":
    main()
