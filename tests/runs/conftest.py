"""A small finished run built by hand: records (one with a certificate, one MVU point
with a solve, one failed), two tables and a figure with their CSV, Markdown, sidecar
(with claims), LaTeX or PNG, a report, a certificate array and an HTML page."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness.records import write_json_atomic

PROVENANCE = {"git": {"commit": "abcdef0123456789", "dirty": False}, "python": "3.11.7",
              "packages": {"numpy": "2.4.6"},
              "machine": {"node": "box", "processor": "x86_64", "cpu_count": 2,
                          "platform": "Linux"}}

TABLE_2_1 = """measure,method,thesis_label,dataset,thesis_dataset,stand_in,thesis,ours,ours_std,delta,within_tolerance,deviation_note,n_runs,status,reason,solver_note
train_knn_loo_error,pca_knn,PCA,iris,iris,False,4.2,3.90476,1.92842,-0.295238,True,,10,ok,,
test_knn_error,pca_knn,PCA,iris,iris,False,4.87,4.22222,2.66049,-0.647778,True,,10,ok,,
fit_cpu_seconds,pca_knn,PCA,iris,iris,False,,0.0123,0.001,,,,10,ok,,
test_knn_error,svm,SVM,wine,wine,False,2.2,,,,,,0,failed,solver error,
"""
TABLE_3_2 = """measure,method,thesis_label,dataset,thesis_dataset,stand_in,thesis,ours,ours_std,delta,within_tolerance,deviation_note,n_runs,status,reason,solver_note
local_continuity,mvu/native,MVU,swiss_roll,swiss_roll,False,0.9,0.5,0,-0.4,False,,1,ok,,
local_trust,mvu/native,MVU,swiss_roll,swiss_roll,False,0.9,0.8,0,-0.1,False,,1,ok,,
local_continuity,pca,PCA,swiss_roll,swiss_roll,False,0.7,0.71,0,0.01,True,,1,ok,,
"""
FIG_3_28 = """reading,k,dataset,n_samples,solver,status,reason,harmonic_mean,ev3,wall_seconds,verdict
noise_free,5,swiss_roll,1000,native,ok,,0.569,0.3,12.5,locks at k = 5
noise_free,6,swiss_roll,1000,native,ok,,0.570,0.31,15.25,locks at k = 5
"""


def claim(source, text, verdict, evidence="numbers"):
    return {"source": source, "claim": text, "verdict": verdict, "evidence": evidence}


CLAIMS = {
    "table_2_1": [claim("table_2_1", "LMNN improves kNN over the Euclidean metric (2.1.6)",
                        "holds", "3 of 3 data sets")],
    "table_3_2": [claim("table_3_2", "MVU has the highest average ranking (3.1.9)",
                        "does not hold", "rank 2"),
                  claim("table_3_2", "Isomap performs best on average (3.1.9)",
                        "not measured", "no average")],
    "fig_3_28": [claim("fig_3_28", "The Swiss roll locks up at k = 7 (3.1.12)",
                       "does not hold", "locks at k = 5")],
}


def _sidecar(path: Path, title: str, claims: list[dict]) -> None:
    from harness.claims import structured_claims

    path.write_text(json.dumps({"title": title, "markdown": f"# {title}",
                                "claims": structured_claims(claims)}, indent=1))


def _record(root: Path, job: str, status: str = "ok", reason: str = "", **body) -> None:
    result, _, key = job.partition("/")
    write_json_atomic(root / "records" / f"{job}.json", {
        "job": job, "result": result, "key": key, "profile": "mini", "status": status,
        "reason": reason, "params": {"seed": 0, "time_limit_seconds": 60},
        "provenance": PROVENANCE,
        "timing": {"cpu_seconds": 2.5, "wall_seconds": 3.0, "peak_memory_mb": 200.0,
                   "cpu_budget_seconds": 60.0}, **body})


def make_run(root: Path) -> Path:
    """Write the hand-made run into ``root`` (``results/<profile>``); return it."""
    _record(root, "table_2_1/iris/pca_knn", summary={"test_knn_error": {"mean": 4.2}})
    _record(root, "table_2_1/wine/svm", status="failed", reason="solver error")
    _record(root, "solver_table/equality/native/n40",
            certificate={"gap": 2.5e-4, "violation": 3e-11, "value": 5221.2},
            solver_reported={"gap": 1.0, "violation": 1.0},
            certificate_file="n40.certificate.npz")
    (root / "records/solver_table/equality/native/n40.certificate.npz").write_bytes(b"PK\x03\x04")
    _record(root, "fig_3_28/noise_free/k5",
            solve={"status": "optimal", "gap": 1e-5, "violation": 5e-9},
            mvu_solves={"A": {"gap": 3e-4, "violation": 1e-12}})
    tables, figures = root / "tables", root / "figures"
    tables.mkdir(parents=True)
    figures.mkdir(parents=True)
    for name, text, folder in (("table_2_1", TABLE_2_1, tables), ("table_3_2", TABLE_3_2, tables),
                               ("fig_3_28", FIG_3_28, figures)):
        (folder / f"{name}.csv").write_text(text)
        (folder / f"{name}.md").write_text(f"# {name}\n\nthe table\n")
        _sidecar(folder / f"{name}.json", name, CLAIMS[name])
    (tables / "table_2_1.tex").write_text("% tex\n")
    (figures / "fig_3_28.png").write_bytes(b"\x89PNG\r\n")
    (root / "report.md").write_text("# Reproduction report\n")
    (root / "report.html").write_text("<html></html>\n")
    return root


@pytest.fixture
def run_dir(tmp_path) -> Path:
    return make_run(tmp_path / "results" / "mini")
