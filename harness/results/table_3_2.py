"""Table 3.2 (thesis 3.1.9): local continuity, trust and intersection of manifold learners.

One job per cell (data set x method [x solver]) runs the embedding task
(:mod:`harness.tasks.embedding`): the method's embedding of the data set and the three
metrics of eqs. (3.27)-(3.29) on it. The table shows thesis / ours / delta per cell,
our average over the thesis' four data sets, and the thesis' claims of 3.1.9 with
verdicts.
"""

from __future__ import annotations

from harness.results.common import grid
from harness.results.common.table_claims import Check, compare_pairs, SHORT, TableClaim
from harness.results.common.table_result import TableResult
from harness.results.common.table_spec import TableSpec
from harness.results.common.tables import AVERAGE

__all__ = ["NAME", "TITLE", "THESIS_SECTION", "KIND", "SCHEMA", "SPEC", "CLAIMS"]

SPEC = TableSpec(
    name="table_3_2",
    task="embedding",
    title=(
        "Table 3.2: local continuity, local trust and neighbourhood intersection "
        "(thesis 3.1.9, eqs. 3.27-3.29) of manifold learning embeddings"
    ),
    reference_file="thesis_table_3_2.csv",
    measures=(
        ("local_continuity", "local_continuity_l{eval_neighbors}", "local continuity"),
        ("local_trust", "local_trust_l{eval_neighbors}", "local trust"),
        (
            "neighborhood_intersection",
            "local_intersection_l{eval_neighbors}",
            "local intersection",
        ),
    ),
    thesis_datasets=("olivetti", "teapot", "swiss_roll", "frey"),
    tolerance=0.05,
    heading=" (l = {eval_neighbors})",
    notes=(
        "Metrics as eqs. (3.27)-(3.29) with the optimal scale s in closed form "
        "(s* = <a,b>/<a,a>, so C = <a,b>^2/(<a,a><b,b>)); (3.29) normalises by "
        "'nk', read as n*l.",
        "l = 15 as in the table's header (the text of 3.1.9 mentions l = 5 or 10); "
        "set eval_neighbors to change it (thesis values exist only for l = 15).",
        "Neighbourhood size k of the graph methods: the text of 3.1.9 says 'all "
        "algorithms were run with k = 15 except MVU (k = 5)', the table's k row says "
        "olivetti 15, teapot 5, swiss roll 15, frey 20. We follow the text: hLLE "
        "with r = 2 needs k > 5, yet the thesis reports hLLE on the teapot, so k = 5 "
        "cannot be what its non-MVU methods used there. Switch with "
        "neighbors_from: table (or set n_neighbors per data set).",
        "Output dimension r: the table's output-dim row (2 for teapot and Swiss "
        "roll, 3 otherwise), as the text says.",
        "Our average is computed like the thesis': the mean over its four data sets "
        "(real data only, no stand-ins); it is a gap until all four are present.",
        "MVU on olivetti: its k = 5 graph is disconnected under every reading of 'We "
        "downsampled the images to 38x31 pixels' (2.1.8) measured (components of the "
        "clique graph = those of the symmetric k-NN graph; the mutual k-NN graph has "
        "25-53): pixels/255 with linear, nearest or cubic zoom, or the raw 112x92: 390 + "
        "10 (all of person 6) at k = 5 and 6; 3x3 block means: 375 + 15 + 10 (k = 5), "
        "390 + 10 (k = 6); PIL bilinear/bicubic/box: 375 + 15 + 10 at k = 5. Only a "
        "per-image normalisation the thesis never names connects it (centred and "
        "unit-norm images: 400 with zoom, 385 + 15 with block means). So the data stay "
        "as read (linear zoom, /255; olivetti's resample and normalise parameters give "
        "the others) and MVU adds the thesis' artificial link (3.1.12: 'add artificial "
        "links between the connected components ... picking a random point in connected "
        "component x in C_1. Let x' in C_2 be the closest point to x in C_2. And let x'' "
        "in C_1 be the closest point to x' in C_1. We add an edge between x' and x''.'); "
        "the edge is in the record (linked_edges); connect_components = shortest is the "
        "deterministic alternative.",
    ),
)

NAME = SPEC.name
TITLE = SPEC.title
THESIS_SECTION = "3.1.9"
KIND = "table"
SIDECAR = True
SCHEMA = {"$ref": "#/$defs/embedding_table"}

# ---- Table 3.2 (3.1.9) ------------------------------------------------------------------
QUALITY = ("local_continuity", "local_trust", "neighborhood_intersection")
REAL_3_2 = ("olivetti", "teapot", "swiss_roll", "frey")
NON_MVU = ("PCA", "LLE", "hLLE", "Lap")
ALMOST_PERFECT = 0.95


def _mvu_ranks_best(values, datasets):
    """Per measure: mean rank (1 = best) over the data sets where every row that has a
    number on all of them is measured; MVU's must be the best (ties count as best)."""
    checks = []
    for measure in ("local_trust", "neighborhood_intersection"):
        used = [d for d in datasets if "MVU" in values.labels(measure, d)]
        if not used:
            continue
        rows = set.intersection(*(set(values.labels(measure, d)) for d in used))
        ranks = {r: 0.0 for r in rows}
        for d in used:
            scores = {r: values.get(measure, r, d) for r in rows}
            for r in rows:  # 1 + the number of rows strictly better
                ranks[r] += (1 + sum(s > scores[r] for s in scores.values())) / len(used)
        best = min(ranks.values())
        leader = min(ranks, key=ranks.get)
        checks.append(Check(tuple(used), ranks["MVU"] <= best,
                            f"{SHORT[measure]}: MVU mean rank {ranks['MVU']:.1f} of "
                            f"{len(rows)} (best {leader} {best:.1f}) on {', '.join(used)}"))
    return checks


def _mvu_continuity_below(values, datasets):
    return compare_pairs(values, datasets, [(("local_continuity", r), ("local_continuity", "MVU"))
                                     for r in ("Isomap", "var.MVU(CG)(Lap)",
                                               "var.MVU(CG)(LLE)")], higher=True)


def _cg_improves_continuity(values, datasets):
    return compare_pairs(values, datasets, [(("local_continuity", f"var.MVU(CG)({b})"),
                                      ("local_continuity", f"var.MVU({b})"))
                                     for b in ("Lap", "LLE")], higher=True)


def _mvu_almost_perfect(values, datasets):
    checks = []
    for d in datasets:
        for measure in QUALITY:
            v = values.get(measure, "MVU", d)
            if v is not None:
                checks.append(Check((d,), v >= ALMOST_PERFECT,
                                    f"{d} {SHORT[measure]} {values.fmt(v)}"))
    return checks


def _isomap_best_non_mvu(values, datasets):
    checks = []
    for d in datasets:
        for measure in QUALITY:
            iso = values.get(measure, "Isomap", d)
            others = {r: values.get(measure, r, d) for r in NON_MVU}
            others = {r: v for r, v in others.items() if v is not None}
            if iso is None or not others:
                continue
            rival = max(others, key=others.get)
            checks.append(Check((d,), iso > others[rival], f"{d} {SHORT[measure]}: Isomap "
                                f"{values.fmt(iso)} vs best other {rival} "
                                f"{values.fmt(others[rival])}"))
    return checks



CLAIMS: tuple[TableClaim, ...] = (
    TableClaim("MVU has the highest average ranking according to local trust "
               "and local intersection: the best mean rank over the data sets (3.1.9)",
               _mvu_ranks_best, REAL_3_2),
    TableClaim("According to local continuity, MVU is outperformed on average "
               "by Isomap and both variational MVU (CG) variants (3.1.9)",
               _mvu_continuity_below, (AVERAGE,)),
    TableClaim("The conjugate-gradient step improves local continuity "
               "significantly: variational MVU (CG) is above variational MVU after "
               "Laplacian eigenmaps and after LLE (3.1.9)", _cg_improves_continuity, REAL_3_2),
    TableClaim("MVU obtains almost perfect scores on the Swiss roll and the "
               f"teapot; we read 'almost perfect' as at least {ALMOST_PERFECT:g} under all "
               "three metrics (3.1.9)", _mvu_almost_perfect, ("swiss_roll", "teapot")),
    TableClaim("Of all non-MVU algorithms (PCA, Isomap, LLE, hLLE, Laplacian "
               "eigenmaps), Isomap performs best on average according to all three metrics "
               "(3.1.9)", _isomap_best_non_mvu, (AVERAGE,)),
)


check, keys, params, write, inputs, claims, section = TableResult(SPEC, CLAIMS).functions()
work, finish, sources = grid.work, grid.finish, grid.sources
