#!/bin/sh
# The order the sweep ran in: priorities under a 120-minute wall budget shared by all
# runs (STOP, unix time), on 2 cores shared with other work at nice 19 (load 10-13:
# this process got ~10% of a core). The CSV lets each run resume. From the repository
# root:
#   OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 PYTHONPATH=. nice -n 19 sh scripts/roll_sweep_run.sh
PY=${PY:-python}
CSV=scripts/roll_sweep_results.csv
STOP=${STOP:-$(( $(date +%s) + 120 * 60 ))}
run() { $PY scripts/roll_sweep.py --csv $CSV --stop-at $STOP "$@"; }
# 1. native, noise-free roweis roll, cliques, k = 5-7 (facial reduction: fast)
run --stages A --only noise=none,formulation=cliques,generator=roweis,k="5|6|7"
# 2. (ran second, stopped by hand after 3 of 50 iterations in 25 min wall, ~35 CPU-s
#    per iteration: not affordable here) CSDP stopped at 50 on the same roll, k = 5:
# run --stages Acsdp --only generator=roweis,noise=none,k=5,solver=csdp50
# 3. the hypothesis on a smaller noise-free roll (n = 300): native, CSDP at 50, CSDP
#    at its defaults, CSDP at 10-40 iterations
run --stages P --only n=300
run --stages Piter
# 4. the other noise-free clique cells but k = 4 (k = 4 keeps every edge on its face:
#    a full interior-point solve, the slowest noise-free one)
run --stages A --only noise=none,formulation=cliques,k="3|5|6|7|8|9|10"
# 5. 3-D noise (clique Grams still singular: an exact face) and n = 2000 native
#    (k = 4 last: like the noise-free k = 4, a full interior-point solve)
run --stages A --only formulation=cliques,noise=gauss3d,k="3|5|6|7|8|9|10"
run --stages B --only solver=native,noise="none|gauss3d"
run --stages A --only formulation=cliques,noise="none|gauss3d",generator=roweis,k=4
run --stages P --only n=500,solver="native|csdp50"
# 6. the rest, in the stages' own order
run --stages A --only noise=none,formulation=cliques
run --stages Acsdp --only generator=roweis,noise=none,solver=csdp50
run --stages A --only formulation=cliques
run --stages Acsdp
run --stages B --only solver=native
run --stages A
run --stages P
run --stages B Bextra
