"""The claims-register entry s3-1-9-hlle-noise-weakness (thesis 3.1.9, line 1843),
decided under its two readings (``harness/claims_register/chapter_3.yaml``) from this
result's records, passed as ``{key: record}``.

Each sample is one seeded Swiss roll, fitted noise-free and with Table 3.2's noise (the
same 3-D points); a method's score is the mean of its three Table 3.2 metrics (local
continuity, trust, intersection at Table 3.2's l), its *drop* the noise-free score minus
the noisy one. The paired statistics are over the samples: the mean of the per-sample
differences and its standard error (sample standard deviation / sqrt(count)).

Choices where a reading leaves room (fixed before the numbers were seen):

* "noise hurts hLLE" (drop >= 0.1, paired over 5 samples, difference beyond 2 standard
  errors): it holds when hLLE's mean drop is at least ``EFFECT`` = 0.1 and above twice
  its standard error; it does not hold when the mean drop plus twice its standard error
  is below 0.1 (a drop of 0.1 is excluded); between the two it is within noise.
* "more than Isomap": the per-sample difference hLLE's drop minus Isomap's, positive
  beyond twice its standard error (:func:`harness.claims.beyond_noise`); below minus
  twice it does not hold.
* Every sample must have a measured record (a missing or failed job leaves both
  readings not measured); at least two samples are needed for a standard error.
"""

from __future__ import annotations

import math

from harness.claims import WITHIN_NOISE, Reading, beyond_noise, make_claim, readings_claim
from harness.results.hlle_noise_3_1_9 import NAME, PREFIX

__all__ = ["ENTRY", "EFFECT", "drops", "paired", "noise_hurts", "register_claims"]

ENTRY = "s3-1-9-hlle-noise-weakness"
#: the first reading's effect size (mean of the three metrics)
EFFECT = 0.1
#: the paired series: (name, per-sample function of a record's drops)
SERIES = ("hlle_drop", "isomap_drop", "hlle_minus_isomap")


def drops(record: dict) -> dict:
    """One sample's drops: ``hlle_drop``, ``isomap_drop`` (noise-free minus noisy mean
    of the three metrics) and ``hlle_minus_isomap``."""
    fits = record["fits"]
    hlle = fits["hlle"]["clean"]["mean"] - fits["hlle"]["noisy"]["mean"]
    iso = fits["isomap"]["clean"]["mean"] - fits["isomap"]["noisy"]["mean"]
    return {"hlle_drop": hlle, "isomap_drop": iso, "hlle_minus_isomap": hlle - iso}


def _stats(values: list[float]) -> dict:
    n = len(values)
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else math.nan
    se = sd / math.sqrt(n)
    return {"mean": mean, "se": se, "two_se": 2 * se, "samples": n}


def paired(records: dict) -> dict | None:
    """``{series: {mean, se, two_se, samples}}`` over the samples of ``records``, or
    ``None`` when one is not measured or fewer than two are."""
    recs = {k: r for k, r in records.items() if k.startswith(PREFIX)}
    if len(recs) < 2 or any(r is None or r.get("status") != "ok" for r in recs.values()):
        return None
    per = [drops(r) for r in recs.values()]
    return {s: _stats([d[s] for d in per]) for s in SERIES}


def noise_hurts(mean: float, two_se: float):
    """The first reading's check: a drop of at least ``EFFECT`` beyond twice its standard
    error (see the module's docstring)."""
    if not (mean == mean and two_se == two_se):
        return WITHIN_NOISE
    if mean >= EFFECT and mean > two_se:
        return True
    if mean + two_se < EFFECT:
        return False
    return WITHIN_NOISE


def _unmeasured(records: dict) -> str:
    gone = [f"{NAME}/{k} ({(r or {}).get('status', 'no record')}: "
            f"{(r or {}).get('reason', '')[:120]})"
            for k, r in records.items() if k.startswith(PREFIX) and (r or {}).get("status") != "ok"]
    return ("not measured: " + ", ".join(gone) + f"; run `harness run --result {NAME}`"
            if gone else "fewer than two samples measured")


def _sizes(records: dict) -> str:
    first = next(r for k, r in records.items() if k.startswith(PREFIX))["fits"]["hlle"]
    return (f"n = {first['clean']['n_samples']}, p = {first['clean']['n_features']} "
            f"noise-free and {first['noisy']['n_features']} noisy")


def hlle_noise_weakness(records: dict) -> dict:
    """s3-1-9-hlle-noise-weakness (line 1843): two readings."""
    claim = ("hLLE's relatively bad Table 3.2 scores are most likely due to its known "
             "weakness on noisy data (3.1.9)")
    stats = paired(records)
    if stats is None:
        return make_claim(NAME, claim, [], _unmeasured(records), register=ENTRY)
    h, d, i = stats["hlle_drop"], stats["hlle_minus_isomap"], stats["isomap_drop"]
    samples = [k for k in records if k.startswith(PREFIX)]
    per = {k: drops(records[k]) for k in samples}
    first = (f"mean of the three metrics, noise-free minus noisy Swiss roll ({_sizes(records)}"
             f"), over {h['samples']} paired samples: hLLE per sample "
             + ", ".join(f"{per[k]['hlle_drop']:.3g}" for k in samples)
             + f"; mean drop {h['mean']:.3g}, twice its standard error {h['two_se']:.3g} "
             f"(at least {EFFECT:g} and beyond twice the standard error needed)")
    second = ("Isomap's drop per sample "
              + ", ".join(f"{per[k]['isomap_drop']:.3g}" for k in samples)
              + f", mean {i['mean']:.3g}; hLLE's minus Isomap's per sample "
              + ", ".join(f"{per[k]['hlle_minus_isomap']:.3g}" for k in samples)
              + f", mean {d['mean']:.3g}, twice its standard error {d['two_se']:.3g} "
              f"(positive beyond it needed)")
    readings = [Reading("noise hurts hLLE", [noise_hurts(h["mean"], h["two_se"])], first),
                Reading("more than Isomap", [beyond_noise(d["mean"], d["two_se"])], second)]
    return readings_claim(NAME, claim, readings, register=ENTRY)


def register_claims(records: dict) -> list[dict]:
    """Every register entry this result decides, from ``{key: record}``."""
    return [hlle_noise_weakness(records)]
