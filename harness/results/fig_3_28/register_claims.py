"""The claims-register entries Fig. 3.28's sweep over k decides (issue 51; thesis 3.1.6,
Fig. 3.14, and 3.1.12, Fig. 3.28).

Each entry is decided per reading of the data (``results.fig_3_28.readings``: the
noise-free roll, the roll of 3.1.5 with noise dimensions), one
:class:`harness.claims.Reading` per (register reading, data reading), combined by
:func:`harness.claims.readings_claim` as the result's own claims are. Only counted rows
(``counted``: the solve certified optimal, or the reading's ``as_returned``) are read;
a thesis statement about the noise-free roll (Fig. 3.14) reads the noise-free readings
only. The spectra are the rows' normalised eigenvalues ``ev1``, ``ev2``, ...; the input's
PCA spectrum ``input_pca_ev1..3``. A register tolerance written beside a threshold
("0.01") is read as the band around the threshold inside which a value decides nothing
(:func:`harness.claims.beyond_noise`).

Not decided here: the Procrustes reading of "the output will be identical to the input"
(the records keep no embedding), and 3.2.2's "eigenvalues indicate the dimensionality"
(about the teapot and the roll: Figs. 3.32-3.35's result holds its data).
"""

from __future__ import annotations

import pandas as pd

from harness.claims import Reading, beyond_noise, make_claim, readings_claim

__all__ = ["LOCK", "register_claims"]

NAME = "fig_3_28"
#: the register's lock-up threshold of 3.1.12 (third normalised eigenvalue) and its band
LOCK, LOCK_BAND = 0.1, 0.01
#: Fig. 3.14's threshold ("not unfolded") of 3.1.6
LOCK_3_14 = 0.05
#: Fig. 3.14's number of points (3.1.6): the sweep's roll has its own n
FIG_3_14_N = 800


def _counted(rows: pd.DataFrame) -> pd.DataFrame:
    ok = rows[(rows["status"] == "ok") & rows["counted"].astype(bool)]
    return ok.sort_values("k")


def _noise_free(config: dict, reading: str) -> bool:
    params = config["results"][NAME]["readings"][reading].get("dataset_params") or {}
    return not params.get("extra_noise_dims") and not params.get("noise")


def _ev(row, i: int) -> float:
    return float(row[f"ev{i}"])


def _list(rows, what) -> str:
    return ", ".join(f"k = {int(r['k'])}: {what(r)}" for _, r in rows.iterrows()) or "none"


def _per_reading(config: dict, frame: pd.DataFrame, readings: list[tuple], text: str,
                 register: str, only_noise_free: bool = False) -> dict:
    """One claim: per data reading (noise-free only when ``only_noise_free``) and per
    register reading ``(name, decide)``, ``decide(counted rows) -> (checks, evidence,
    quantifier or None)``."""
    out = []
    for reading in config["results"][NAME]["readings"]:
        if only_noise_free and not _noise_free(config, reading):
            continue
        rows = _counted(frame[frame["reading"] == reading])
        n = rows["n_samples"].dropna()
        size = f", n = {int(n.iloc[0])}" if len(n) else ""
        if only_noise_free:  # Fig. 3.14's roll (3.1.6)
            size += f" (Fig. 3.14: n = {FIG_3_14_N})"
        for name, decide in readings:
            checks, evidence, quantifier = decide(rows)
            out.append(Reading(f"{reading}, {name}" if len(readings) > 1 else reading,
                               checks, f"{evidence}{size}", quantifier))
    if len(out) == 1:
        return make_claim(NAME, text, out[0].checks, f"{out[0].name}: {out[0].evidence}",
                          out[0].quantifier, register=register)
    return readings_claim(NAME, text, out, register=register)


def _at_k(rows, k: int):
    return rows[rows["k"] == k]


def _locks_at_6(threshold: float):
    def decide(rows):
        at = _at_k(rows, 6)
        checks = [bool(_ev(r, 3) >= threshold) for _, r in at.iterrows()]
        return checks, (f"k = 6: third normalised eigenvalue {_ev(at.iloc[0], 3):.3g}, "
                        f"locked means >= {threshold:g}" if len(at)
                        else "k = 6 not counted or not measured"), None
    return decide


def _locks_some_small_k(rows):
    small = rows[rows["k"].between(4, 6)]
    return ([bool(_ev(r, 3) >= LOCK_3_14) for _, r in small.iterrows()],
            f"k = 4..6 counted: {_list(small, lambda r: f'{_ev(r, 3):.3g}')}, locked means "
            f">= {LOCK_3_14:g} at some k", "some")


def _fig_3_14(config, frame, text, register, readings):
    return _per_reading(config, frame, readings, text, register, only_noise_free=True)


def _locks_from_some_k(rows):
    """From some k on the roll is locked (third eigenvalue >= 0.1 beyond the band) and
    stays so for every larger k of 3..10."""
    sweep = rows[rows["k"].between(3, 10)]
    beyond = [beyond_noise(_ev(r, 3) - LOCK, LOCK_BAND) for _, r in sweep.iterrows()]
    first = next((i for i, c in enumerate(beyond) if c is True), None)
    listing = _list(sweep, lambda r: f"{_ev(r, 3):.3g}")
    if first is None:
        top = int(sweep["k"].max()) if len(sweep) else 0
        return ([False] if top >= 10 else [],
                f"third normalised eigenvalue ({listing}) never >= {LOCK:g} beyond "
                f"{LOCK_BAND:g}" + ("" if top >= 10 else "; k up to 10 not all counted"), None)
    return (beyond[first:], f"third normalised eigenvalue {listing}: locked from k = "
            f"{int(sweep['k'].iloc[first])}, must stay >= {LOCK:g} (band {LOCK_BAND:g})", None)


def _locked(rows):
    return rows[rows["ev3"] > LOCK]


def _spectrum_is_input(rows):
    locked = _locked(rows)
    checks = [bool(max(abs(_ev(r, i) - float(r[f"input_pca_ev{i}"])) for i in (1, 2, 3)) <= 0.03)
              for _, r in locked.iterrows()]
    return checks, (f"locked k (third eigenvalue > {LOCK:g}): {_list(locked, _spectrum)}; "
                    f"input PCA {_input(rows)}; equal within 0.03 per eigenvalue"
                    if len(locked) else "no counted k locked"), None


def _spectrum(r) -> str:
    return "/".join(f"{_ev(r, i):.3f}" for i in (1, 2, 3))


def _input(rows) -> str:
    if rows.empty:
        return "none"
    r = rows.iloc[0]
    return "/".join(f"{float(r[f'input_pca_ev{i}']):.3f}" for i in (1, 2, 3))


def _pairs_differ(rows):
    locked, unlocked = _locked(rows), rows[rows["ev3"] <= LOCK]
    checks = [bool(_ev(a, 3) - _ev(b, 3) >= 0.1) for _, a in locked.iterrows()
              for _, b in unlocked.iterrows()]
    return checks, (f"{len(checks)} (locked, unlocked) pairs of k; locked: "
                    f"{_list(locked, lambda r: f'{_ev(r, 3):.3g}')}, unlocked: "
                    f"{_list(unlocked, lambda r: f'{_ev(r, 3):.3g}')}; third eigenvalue apart by "
                    f">= 0.1"), None


def _k_at_least_7(rows):
    return rows[rows["k"] >= 7]


def _three_dims(rows):
    big = _k_at_least_7(rows)
    checks = [beyond_noise(_ev(r, i) - 0.2, 0.01) for _, r in big.iterrows() for i in (1, 2, 3)]
    return checks, (f"k >= 7: top three {_list(big, _spectrum)}; each needs >= 0.2 (band 0.01)"
                    if len(big) else "no counted k >= 7"), None


def _almost_equal(rows):
    big = _k_at_least_7(rows)
    checks = [beyond_noise(2 - _ev(r, 1) / _ev(r, 3), 0.05) if _ev(r, 3) > 0 else False
              for _, r in big.iterrows()]
    return checks, ("k >= 7: lambda_1 / lambda_3 needs <= 2 (band 0.05)" if len(big)
                    else "no counted k >= 7"), None


def _same_as_pca(rows):
    big = _k_at_least_7(rows)
    checks = [bool(max(abs(_ev(r, i) - float(r[f"input_pca_ev{i}"])) for i in (1, 2, 3)) <= 0.03)
              for _, r in big.iterrows()]
    return checks, (f"k >= 7: {_list(big, _spectrum)}; input PCA {_input(rows)}; equal within "
                    f"0.03 per eigenvalue" if len(big) else "no counted k >= 7"), None


def _not_unfolded(rows):
    big = _k_at_least_7(rows)
    return ([beyond_noise(_ev(r, 3) - LOCK, LOCK_BAND) for _, r in big.iterrows()],
            f"k >= 7: third eigenvalue {_list(big, lambda r: f'{_ev(r, 3):.3g}')}; needs >= "
            f"{LOCK:g} (band {LOCK_BAND:g})" if len(big) else "no counted k >= 7", None)


def _top2_at_4(share: float):
    def decide(rows):
        at = _at_k(rows, 4)
        return ([bool(_ev(r, 1) + _ev(r, 2) >= share) for _, r in at.iterrows()],
                (f"k = 4: top two {_ev(at.iloc[0], 1):.4f} + {_ev(at.iloc[0], 2):.4f}, need a sum "
                 f">= {share:g}" if len(at) else "k = 4 not counted (not certified) or not "
                                                  "measured"), None)
    return decide


def _some_k_locks(rows):
    return ([beyond_noise(_ev(r, 3) - LOCK, LOCK_BAND) for _, r in rows.iterrows()],
            f"third eigenvalue {_list(rows, lambda r: f'{_ev(r, 3):.3g}')}; locked means >= "
            f"{LOCK:g} (band {LOCK_BAND:g}) at some k", "some")


def _procrustes(rows):
    return [], "not measured: the records keep no embedding to align with the input", None


def register_claims(config: dict, frame: pd.DataFrame) -> list[dict]:
    """The claims of the register entries Fig. 3.28's records decide (one per entry),
    from :func:`harness.results.fig_3_28.write.build`'s frame."""
    c = lambda text, register, readings, **kw: _per_reading(config, frame, readings, text,  # noqa: E731
                                                             register, **kw)
    return [
        c("Strict MVU at k = 6 locks up before the roll is unfolded (3.1.6, Fig. 3.14)",
          "s3-1-6-fig-3-14-strict-locks-up",
          [("k = 6", _locks_at_6(LOCK_3_14)), ("some small k", _locks_some_small_k)],
          only_noise_free=True),
        c("Fig. 3.14's caption: strictly preserving k = 6 distances locks the outputs up "
          "(3.1.6)", "s3-1-6-fig-3-14-caption-lock-up", [("k = 6", _locks_at_6(LOCK_3_14))],
          only_noise_free=True),
        c("Too many local links lock MVU up: locked from some k on (3.1.12)",
          "s3-1-12-too-many-links-lock-up", [("locks at large k", _locks_from_some_k)]),
        c("A locked MVU's output is identical to the input (3.1.12)",
          "s3-1-12-lock-up-output-identical",
          [("Procrustes", _procrustes), ("spectrum", _spectrum_is_input)]),
        c("A k too large can easily cause MVU to lock up (3.1.12)",
          "s3-1-12-too-large-k-locking", [("example", _some_k_locks)]),
        c("A locked-up spectrum differs significantly from those of lower k (3.1.12)",
          "s3-1-12-lockup-spectrum-differs", [("third eigenvalue", _pairs_differ)]),
        c("For k >= 7 three dimensions with almost equal variance are required (3.1.12)",
          "s3-1-12-k-ge-7-three-dims", [("three dims", _three_dims),
                                        ("almost equal", _almost_equal)]),
        c("The k >= 7 spectrum is that of PCA on the input (3.1.12)",
          "s3-1-12-same-as-pca-spectrum", [("equal", _same_as_pca)]),
        c("Fig. 3.28's caption: the data did not unfold with k >= 7 (3.1.12)",
          "s3-1-12-caption-did-not-unfold", [("not unfolded", _not_unfolded)]),
        c("At k = 4 all variance is kept in the first two dimensions (3.1.12)",
          "s3-1-12-k-4-two-dims", [("99 %", _top2_at_4(0.99)), ("95 %", _top2_at_4(0.95))]),
    ]
