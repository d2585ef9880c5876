"""A power-law cost model of a result's jobs, and list scheduling of jobs on cores.

**Sizes.** A job's size features are the positive numbers in its params whose name
is in :data:`SIZE_KEYS` (``n``, ``n_samples``, ``n_train``, ``subsample``, ``n_runs``,
...), by dotted path (``dataset_params.n_samples``). A parameter that is null (e.g.
``n_train: null``, the whole data set) is no feature: its size is not in the params.

**Kinds.** Jobs of one result differ in more than size (the solver table's backends,
Table 2.1's data sets and methods): a job's *kind* is its key without the segments
that name a size or a replicate (letters then digits: ``n1000``, ``trial3``,
``seed0``, ``k7``, ``r25``, ``draw2``), e.g. ``equality/native`` for
``solver_table/equality/native/n1000``.

**The model** (:class:`PowerModel`): ``log y = a_kind + sum_i b_i log x_i``, least
squares over the measured jobs, one intercept per kind and one exponent per size
feature shared by the kinds (fitted on the jobs above ``slope_from``, where the cost
grows with the size rather than being fixed, if they tell it); a kind measured at
:data:`KIND_SLOPE_MIN_SIZES` or more sizes of the one fitted feature above
``slope_from`` gets its own exponent (solvers of one table grow at different rates:
an interior point's dense Schur matrix like m^3, a low-rank method slower). A
feature gets a fitted exponent only if it varies within some kind (else its effect cannot be told
from the kinds'); a feature in ``priors`` that does not (e.g. ``n_runs``: every run
repeats the job's work, so CPU scales with it, exponent 1) scales from the value it
had in the measured jobs. A job is estimated from the measured job of its kind
nearest to it in size, moved to its sizes by the exponents; a job of a kind never
measured has no estimate.
"""

from __future__ import annotations

import dataclasses
import heapq
import math
import re

import numpy as np

__all__ = ["SIZE_KEYS", "LOOP_KEYS", "size_features", "kind_of", "PowerModel", "fit_power",
           "lpt_makespan"]

#: param names that hold a size (samples, points, grid, dimensions of the problem)
#: or a count of repetitions of the job's work
SIZE_KEYS = frozenset({"n", "n_samples", "n_train", "n_test", "subsample", "per_digit",
                       "n_per_circle", "n_frames", "grid_size", "n_ab", "n_c", "n_metrics",
                       "n_runs", "runs", "repeats", "n_splits"})
#: counts of independent repetitions inside a job: CPU proportional to them unless
#: the measured jobs say otherwise
LOOP_KEYS = frozenset({"n_runs", "runs", "repeats"})
_REPLICATE = re.compile(r"^[A-Za-z]+\d+$")
#: sizes (distinct values above ``slope_from``) a kind needs for an exponent of its own:
#: two would give an exact line through two noisy timings
KIND_SLOPE_MIN_SIZES = 3


def size_features(params: dict, prefix: str = "") -> dict[str, float]:
    """The job's size features: ``{dotted path: value}`` of the positive numbers in
    ``params`` whose name is in :data:`SIZE_KEYS`."""
    found = {}
    for key, value in params.items():
        path = f"{prefix}{key}"
        if isinstance(value, dict):
            found.update(size_features(value, path + "."))
        elif (key in SIZE_KEYS and isinstance(value, (int, float))
              and not isinstance(value, bool) and value > 0):
            found[path] = float(value)
    return found


def kind_of(key: str) -> str:
    """A job key without its size and replicate segments (``equality/native/n40`` ->
    ``equality/native``; ``seed0/m1`` -> ``""``)."""
    return "/".join(part for part in key.split("/") if not _REPLICATE.match(part))


@dataclasses.dataclass
class PowerModel:
    """``log y = intercepts[kind] + sum exponents[f] log x_f``, and the prior
    exponents of features that did not vary, relative to their measured value.

    Attributes
    ----------
    intercepts : dict
        Kind -> intercept (natural log): what the fit says of the kind (shown by
        :meth:`describe`); a job is estimated from the measured ones nearest to it
        (:meth:`predict`).
    exponents : dict
        Fitted feature -> exponent.
    priors : dict
        Feature -> (exponent, the value all measured jobs had).
    points : int
        Measured jobs the model was fitted on.
    rms : float
        Root mean square residual in log space (0 for an exact fit).
    anchors : dict
        Kind -> its measured jobs as ``(size features, value)``.
    kind_exponents : dict
        Kind -> {feature: exponent} for the kinds measured at enough sizes
        (:data:`KIND_SLOPE_MIN_SIZES`); used for those kinds instead of ``exponents``.
    """

    intercepts: dict[str, float]
    exponents: dict[str, float]
    priors: dict[str, tuple[float, float]]
    points: int
    rms: float
    anchors: dict[str, list[tuple[dict[str, float], float]]] = dataclasses.field(
        default_factory=dict)
    kind_exponents: dict[str, dict[str, float]] = dataclasses.field(default_factory=dict)

    def predict(self, kind: str, features: dict[str, float], unscaled: bool = False
                ) -> tuple[float | None, str]:
        """A job's value (None if the model cannot say) and a note (why not, what it
        left out): the measured job of its kind nearest in size (the smallest sum of
        ``|log(x / x_measured)|`` over the sizes), moved to the job's sizes by
        :meth:`scale`."""
        if not self.anchors.get(kind):
            return None, f"no measured job of its kind ({kind or 'the only kind'})"

        def distance(anchor):
            old = anchor[0]
            return sum(abs(math.log(features[f] / old[f])) if f in features and f in old
                       else math.inf for f in set(old) | set(features))

        old, value = min(self.anchors[kind], key=distance)
        return self.scale(value, old, features, unscaled, kind)

    def scale(self, value: float, old: dict[str, float], new: dict[str, float],
              unscaled: bool = False, kind: str | None = None) -> tuple[float | None, str]:
        """A measured ``value`` at sizes ``old`` moved to sizes ``new`` by the model's
        exponents (``kind``'s own where it has one, else fitted or prior); None where a
        size of ``old`` is unknown in ``new`` or a size changed and has no exponent
        (moving it unscaled would be a guess; with ``unscaled`` it is carried unscaled
        and named in the note, e.g. a peak memory, a lower bound for a larger job). The
        note names sizes ``old`` did not know (a null size there, e.g. the whole data
        set), left unscaled."""
        factor, ignored = 1.0, []
        for f in sorted(set(old) | set(new)):
            if old.get(f) == new.get(f):
                continue
            if f not in new:
                return None, f"{f}: {old[f]:g} -> not in its params (size unknown)"
            if f not in old:
                ignored.append(f"{f} -> {new[f]:g}")
                continue
            b = self.kind_exponents.get(kind, {}).get(
                f, self.exponents.get(f, self.priors.get(f, (None,))[0]))
            if b is None and not unscaled:
                return None, (f"{f}: {old[f]:g} -> {new[f]:g} has no exponent (no measured "
                              f"job of this result at two of its sizes)")
            if b is None:
                ignored.append(f"{f} {old[f]:g} -> {new[f]:g}")
            else:
                factor *= (new[f] / old[f]) ** b
        note = f"not in the model: {', '.join(ignored)}" if ignored else ""
        return value * factor, note

    def describe(self) -> str:
        """``n^1.52 (3 kinds, 13 jobs, rms x1.3)`` (``const`` without exponents)."""
        terms = [f"{f.rsplit('.', 1)[-1]}^{b:.2f}" for f, b in self.exponents.items()]
        terms += [f"{f.rsplit('.', 1)[-1]}^{b:g}*" for f, (b, _) in self.priors.items()]
        own = [f"{kind or 'the only kind'} {f.rsplit('.', 1)[-1]}^{b:.2f}"
               for kind, fs in self.kind_exponents.items() for f, b in fs.items()]
        return (f"{' '.join(terms) or 'const'}"
                + (f"; per kind: {', '.join(own)}" if own else "")
                + f" ({len(self.intercepts)} kinds, {self.points} jobs, "
                  f"rms x{math.exp(self.rms):.2g})")


def _varies_within_a_kind(kinds: list[str], values: list[float]) -> bool:
    seen: dict[str, set] = {}
    for kind, value in zip(kinds, values):
        seen.setdefault(kind, set()).add(value)
    return any(len(v) > 1 for v in seen.values())


def _slopes(kinds, columns, y, fitted):
    """Least squares of ``y`` on one intercept per kind and the ``fitted`` columns;
    the columns kept (collinear ones dropped from the end) and their exponents."""
    order = sorted(set(kinds))
    fitted = list(fitted)
    while True:
        design = np.zeros((len(y), len(order) + len(fitted)))
        for i, kind in enumerate(kinds):
            design[i, order.index(kind)] = 1.0
            for j, name in enumerate(fitted):
                design[i, len(order) + j] = columns[name][i]
        if np.linalg.matrix_rank(design) == design.shape[1] or not fitted:
            break
        fitted.pop()  # collinear sizes (e.g. n and subsample moving together): keep fewer
    coef, *_ = np.linalg.lstsq(design, y, rcond=None)
    return dict(zip(fitted, map(float, coef[len(order):])))


def fit_power(kinds: list[str], features: list[dict[str, float]], values: list[float],
              priors: dict[str, float] | None = None, slope_from: float = 0.0
              ) -> PowerModel | None:
    """Fit a :class:`PowerModel` to measured jobs (their kinds, size features and
    positive values); None without a positive value.

    Parameters
    ----------
    kinds, features, values : list
        One entry per measured job; values that are not positive are left out.
    priors : dict, optional
        Feature -> exponent to use when the feature does not vary within a kind
        (e.g. ``{"n_runs": 1.0}`` for CPU).
    slope_from : float
        The exponents are fitted on the jobs whose value is at least this (e.g. 1 CPU
        second: below it a job's cost is mostly fixed, a process start, a data set
        generated, and would flatten the exponent that the large jobs of a bigger
        profile follow), if a feature varies within a kind among them; the
        intercepts then on every job, given the exponents.

    Examples
    --------
    >>> model = fit_power(["a"] * 3, [{"n": 10.0}, {"n": 20.0}, {"n": 40.0}],
    ...                   [1.0, 8.0, 64.0])
    >>> round(model.exponents["n"], 6)
    3.0
    """
    rows = [(k, f, v) for k, f, v in zip(kinds, features, values) if v and v > 0]
    if not rows:
        return None
    kinds = [k for k, _, _ in rows]
    names = sorted(set.intersection(*(set(f) for _, f, _ in rows)))
    prior = {}
    for name, b in (priors or {}).items():
        if name in names and len({f[name] for _, f, _ in rows}) == 1:
            prior[name] = (b, rows[0][1][name])
    y = np.log([v for _, _, v in rows])
    for name, (b, ref) in prior.items():  # all equal: log(x / ref) = 0, kept for clarity
        y = y - b * np.log([f[name] / ref for _, f, _ in rows])
    columns = {n: [math.log(f[n]) for _, f, _ in rows] for n in names}

    def varying(index):
        return [n for n in names if n not in prior and _varies_within_a_kind(
            [kinds[i] for i in index], [columns[n][i] for i in index])]

    large = [i for i, (_, _, v) in enumerate(rows) if v >= slope_from]
    index = large if varying(large) else list(range(len(rows)))
    exponents = _slopes([kinds[i] for i in index], {n: [columns[n][i] for i in index]
                                                    for n in names},
                        y[index], varying(index)) if varying(index) else {}
    rest = y - sum(b * np.asarray(columns[n]) for n, b in exponents.items())
    intercepts = {k: float(np.mean([r for r, kk in zip(rest, kinds) if kk == k]))
                  for k in sorted(set(kinds))}
    fitted = np.array([intercepts[k] for k in kinds])
    rms = float(np.sqrt(np.mean((rest - fitted) ** 2)))
    anchors: dict[str, list] = {}
    for kind, f, v in rows:
        anchors.setdefault(kind, []).append((f, v))
    return PowerModel(intercepts=intercepts, exponents=exponents, priors=prior,
                      points=len(rows), rms=rms, anchors=anchors,
                      kind_exponents=_kind_slopes(kinds, columns, y, large, exponents))


def _kind_slopes(kinds, columns, y, large, exponents) -> dict[str, dict[str, float]]:
    """The kinds' own exponents of the one fitted feature: a least-squares line through
    a kind's jobs in ``large`` where they hold :data:`KIND_SLOPE_MIN_SIZES` sizes of it."""
    if len(exponents) != 1:
        return {}
    [name] = exponents
    own = {}
    for kind in sorted(set(kinds)):
        index = [i for i in large if kinds[i] == kind]
        x = np.array([columns[name][i] for i in index])
        if len(set(x.tolist())) >= KIND_SLOPE_MIN_SIZES:
            own[kind] = {name: float(np.polyfit(x, y[index], 1)[0])}
    return own


def lpt_makespan(durations: list[float], cores: int) -> float:
    """Wall time of running independent jobs of the given durations on ``cores``
    cores by longest-processing-time-first list scheduling (each job, longest first,
    goes to the core that frees first); dependencies are ignored.

    Raises
    ------
    ValueError
        ``cores`` below 1.

    Examples
    --------
    >>> lpt_makespan([3, 3, 2, 2, 2], 2)  # {3, 2, 2} and {3, 2}
    7.0
    """
    if cores < 1:
        raise ValueError(f"cores must be at least 1, got {cores}")
    loads = [0.0] * cores
    for d in sorted(durations, reverse=True):
        heapq.heapreplace(loads, loads[0] + d)
    return max(loads)
