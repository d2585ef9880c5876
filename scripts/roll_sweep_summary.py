"""Tables of ``scripts/roll_sweep_results.csv`` (see ``scripts/roll_sweep.py``) as
markdown: lock k at n = 1000 per generator x noise x formulation x solver, every
n = 1000 cell, and the n = 2000 cells. Run: ``python scripts/roll_sweep_summary.py
[CSV]``; prints to stdout."""

from __future__ import annotations

import sys

import pandas as pd


def _f(x, fmt=".3f"):
    return "" if pd.isna(x) else format(float(x), fmt)


def lock_table(df: pd.DataFrame) -> pd.DataFrame:
    rows = []
    a = df[df.n == 1000]
    for (g, z, f, s), grp in a.groupby(["generator", "noise", "formulation", "solver"],
                                       sort=False):
        measured = grp[grp.locked.notna()].sort_values("k")
        locked = measured[measured.locked.astype(str) == "True"]
        other = grp[grp.locked.isna()].sort_values("k")
        rows.append({
            "generator": g, "noise": z, "formulation": f, "solver": s,
            "lock k": int(locked.k.iloc[0]) if len(locked) else "none",
            "k measured": " ".join(map(str, measured.k)),
            "k unlocked": " ".join(map(str, measured[measured.locked.astype(str) != "True"].k)),
            "not measured": " ".join(f"{int(r.k)} ({r.status})" for r in other.itertuples()),
            "not optimal": " ".join(f"{int(r.k)} ({r.status})" for r in measured.itertuples()
                                    if r.status != "optimal"),
        })
    return pd.DataFrame(rows)


def cell_table(df: pd.DataFrame) -> pd.DataFrame:
    out = df[["n", "k", "generator", "noise", "formulation", "solver", "status",
              "solver_status", "csdp_iterations"]].copy()
    out["gap"] = df.gap.map(lambda x: _f(x, ".1e"))
    out["viol"] = df.violation.map(lambda x: _f(x, ".1e"))
    out["cpu s"] = df.cpu_seconds.map(lambda x: _f(x, ".0f"))
    out["ev1-3"] = [" ".join(_f(r[c]) for c in ("ev1", "ev2", "ev3"))
                    for _, r in df.iterrows()]
    out["locked"] = df.locked
    out["face"] = [("" if pd.isna(r.face_dim) else
                    f"{int(r.face_dim)}{' (1 pt)' if str(r.face_single_point) == 'True' else ''}")
                   for r in df.itertuples()]
    out["C/T/N"] = [" ".join(_f(r[c]) for c in ("continuity", "trust", "intersection"))
                    for _, r in df.iterrows()]
    out["csdp_iterations"] = df.csdp_iterations.map(lambda x: "" if pd.isna(x) else int(x))
    if "csdp_primal_infeas" in df:
        out["CSDP pinf"] = df.csdp_primal_infeas.map(lambda x: _f(x, ".1e"))
    return out.rename(columns={"csdp_iterations": "CSDP it"})


def main(path="scripts/roll_sweep_results.csv"):
    df = pd.read_csv(path)
    print("## Lock k at n = 1000 (smallest measured k with ev3 > 0.1)\n")
    print(lock_table(df).to_markdown(index=False))
    print("\n## Cells, n = 1000\n")
    print(cell_table(df[df.n == 1000]).to_markdown(index=False))
    print("\n## Cells, n = 2000, k = 5\n")
    print(cell_table(df[df.n == 2000]).to_markdown(index=False))
    other = df[~df.n.isin([1000, 2000])]
    if len(other):
        print("\n## Cells at other n (probes)\n")
        print(cell_table(other).to_markdown(index=False))


if __name__ == "__main__":
    main(*sys.argv[1:])
