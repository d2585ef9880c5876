#!/usr/bin/env bash
# A real one-node SLURM test of profiles/slurm (issue 53), as root on a Debian machine:
#
#   1. installs slurm-wlm and munge if missing (apt-get);
#   2. writes a one-node slurm.conf (this host, 2 CPUs, partition `debug`, no
#      accounting) and starts munged, slurmctld and slurmd;
#   3. runs two cheap results of the quick profile (Fig. 2.20 and the clustering
#      lecture table, 13 jobs) through the SLURM profile in a fresh clone, every job
#      through sbatch, then the same targets locally (--cores 2) in a second clone;
#   4. checks that SLURM ran every job, and compares the two runs with
#      `harness compare` (exit 0: identical cells and verdicts).
#
# Daemons started here are stopped on exit, whatever happens. Usage, from the
# repository root: `make slurm-test` or `bash scripts/slurm_test.sh` (REPO=path to
# clone another checkout; KEEP=1 keeps the temporary folder).
#
# What a real cluster has and this one-node cluster has not, and how the test makes up
# for it:
#   - slurm.conf is written to /etc/slurm/slurm.conf, its default path: the job-step
#     executor inside each batch job (snakemake-executor-plugin-slurm-jobstep) drops
#     every SLURM_* variable, SLURM_CONF too, before its `srun`, so a slurm.conf
#     elsewhere is not found there ("srun: fatal: Could not establish a configuration
#     source"). An existing /etc/slurm/slurm.conf is put back on exit.
#   - no accounting (no slurmdbd): `sacct` exists but answers "Slurm accounting storage
#     is disabled", and the executor, which picks sacct whenever the binary exists,
#     then never sees a job end and waits forever. The test asks for
#     --slurm-status-command squeue, which is reliable here because MinJobAge (how long
#     slurmctld remembers a finished job) is 600 s.
#   - no accounts: the profile's slurm_account line is deleted in the test's copy of
#     the profile (sbatch is then called without -A), and slurm_partition is `debug`.
set -euo pipefail

REPO=${REPO:-$(cd "$(dirname "$0")/.." && pwd)}
TARGETS=(results/quick/figures/fig_2_20.md results/quick/tables/lecture_clustering.md)
N_JOBS=13        # 5 trials of Fig. 2.20 + 4 data sets x 2 methods of lecture_clustering
CONF=/etc/slurm/slurm.conf
MARK="# written by scripts/slurm_test.sh"

[ "$(id -u)" = 0 ] || { echo "slurm_test.sh: must run as root (it starts slurmd)"; exit 2; }
if pgrep -x slurmctld > /dev/null || pgrep -x slurmd > /dev/null; then
    echo "slurm_test.sh: a slurmctld or slurmd is already running; stop it first"; exit 2
fi

WORK=$(mktemp -d /tmp/slurm-test.XXXXXX)
CTLD_PID= ; SLURMD_PID= ; MUNGED_STARTED= ; CONF_BACKUP=
cleanup() {
    local rc=$?
    set +e
    # scancel whatever is left, then stop the daemons this script started
    [ -n "$CTLD_PID" ] && scancel --user root > /dev/null 2>&1
    for pid in $SLURMD_PID $CTLD_PID; do
        kill "$pid" 2> /dev/null && wait "$pid" 2> /dev/null
    done
    if [ -n "$MUNGED_STARTED" ] && [ -f /run/munge/munged.pid ]; then
        kill "$(cat /run/munge/munged.pid)" 2> /dev/null
    fi
    # put back the slurm.conf that was there before, or remove ours
    if [ -n "$CONF_BACKUP" ]; then mv -f "$CONF_BACKUP" "$CONF"
    elif grep -qF "$MARK" "$CONF" 2> /dev/null; then rm -f "$CONF"; fi
    sleep 1
    if pgrep -x slurmctld > /dev/null || pgrep -x slurmd > /dev/null; then
        echo "slurm_test.sh: WARNING: a SLURM daemon is still running"; rc=1
    fi
    if [ "${KEEP:-}" = 1 ]; then echo "kept: $WORK"; else rm -rf "$WORK"; fi
    exit "$rc"
}
trap cleanup EXIT

# --- 1. packages ---------------------------------------------------------------------
if ! command -v slurmctld > /dev/null || ! command -v munged > /dev/null; then
    echo "== installing slurm-wlm and munge (apt-get)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge > "$WORK/apt.log" 2>&1 \
        || { tail -20 "$WORK/apt.log"; exit 1; }
fi
echo "== $(slurmctld -V), $(munged --version 2>&1 | head -1)"

# --- 2. one-node cluster -------------------------------------------------------------
NODE=$(hostname -s)
# RealMemory: what slurmd sees (MiB) less a 2 GiB margin for the system
MEM_MB=$(awk '/^MemTotal:/ { print int($2 / 1024) - 2048 }' /proc/meminfo)
mkdir -p "$WORK/state" "$WORK/spool" "$WORK/log"
mkdir -p /etc/slurm
if [ -e "$CONF" ]; then CONF_BACKUP="$WORK/slurm.conf.before"; cp -p "$CONF" "$CONF_BACKUP"; fi
cat > "$CONF" <<EOF
$MARK (one node on localhost; removed on exit)
ClusterName=harnesstest
SlurmctldHost=$NODE(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$WORK/state
SlurmdSpoolDir=$WORK/spool
SlurmctldPidFile=$WORK/slurmctld.pid
SlurmdPidFile=$WORK/slurmd.pid
SlurmctldLogFile=$WORK/log/slurmctld.log
SlurmdLogFile=$WORK/log/slurmd.log
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
# finished jobs stay visible to squeue for 10 minutes (the status command used here)
MinJobAge=600
NodeName=$NODE NodeAddr=127.0.0.1 CPUs=2 RealMemory=$MEM_MB State=UNKNOWN
PartitionName=debug Nodes=$NODE Default=YES MaxTime=INFINITE State=UP
EOF

# munged: reuse one that answers, else start one as the munge user (as Debian does)
if munge -n 2> /dev/null | unmunge > /dev/null 2>&1; then
    echo "== munged already running: reused"
else
    mkdir -p /run/munge && chown munge:munge /run/munge && chmod 755 /run/munge
    runuser -u munge -- munged
    MUNGED_STARTED=1
    munge -n | unmunge > /dev/null
fi
# the SLURM daemons in the foreground (-D), put in the background
slurmctld -D -i > "$WORK/log/slurmctld.out" 2>&1 & CTLD_PID=$!
sleep 1
slurmd -D > "$WORK/log/slurmd.out" 2>&1 & SLURMD_PID=$!
for _ in $(seq 60); do
    [ "$(sinfo -h -n "$NODE" -o %t 2> /dev/null)" = idle ] && break
    sleep 1
done
if [ "$(sinfo -h -n "$NODE" -o %t 2> /dev/null)" != idle ]; then
    echo "node $NODE did not become idle:"; sinfo || true
    tail -20 "$WORK"/log/*; exit 1
fi
echo "== SLURM up: node $NODE idle in partition debug (2 CPUs, ${MEM_MB} MB)"

# --- 3. the two runs ------------------------------------------------------------------
setup_clone() {  # a fresh clone of the checkout's HEAD with its own .venv
    git clone -q "$REPO" "$1"
    echo "== $1: clone at $(git -C "$1" rev-parse --short HEAD), installing .venv"
    make -C "$1" --no-print-directory .venv/.installed-test > "$1.make.log" 2>&1 \
        || { tail -20 "$1.make.log"; exit 1; }
}
A=$WORK/slurm-run
B=$WORK/local-run
setup_clone "$A"

# the profile as a user would edit it for this cluster, outside the clone (clean tree)
mkdir -p "$WORK/profile"
sed -e 's/slurm_partition: "CHANGE-ME"/slurm_partition: "debug"/' -e '/slurm_account:/d' \
    "$A/profiles/slurm/config.yaml" > "$WORK/profile/config.yaml"
grep -q 'slurm_partition: "debug"' "$WORK/profile/config.yaml"

echo "== SLURM run: ${TARGETS[*]}"
start=$(date +%s)
(cd "$A" && timeout 1200 .venv/bin/snakemake "${TARGETS[@]}" \
    --workflow-profile "$WORK/profile" --configfile config/quick.yaml \
    --slurm-status-command squeue --slurm-init-seconds-before-status-checks 5 \
    --slurm-keep-successful-logs) \
    > "$WORK/slurm-run.log" 2>&1 || { tail -40 "$WORK/slurm-run.log"; exit 1; }
echo "   done in $(( $(date +%s) - start )) s"

# every job went through sbatch: snakemake's submissions, slurmctld's completions (exit
# 0), one SLURM log per job, and a record per job; nothing left in the queue
submitted=$(grep -c "has been submitted with SLURM jobid" "$WORK/slurm-run.log" || true)
completed=$(grep -c "_job_complete: JobId=[0-9]* WEXITSTATUS 0" "$WORK/log/slurmctld.log" || true)
failed=$(grep -c "_job_complete: JobId=[0-9]* WEXITSTATUS [1-9]" "$WORK/log/slurmctld.log" || true)
logs=$(find "$A/.snakemake/slurm_logs" -name '*.log' | wc -l)
records=$(find "$A/results/quick/records" -name '*.json' | wc -l)
queued=$(squeue -h | wc -l)
echo "   sbatch submissions $submitted, completed by slurmctld $completed (failed $failed)," \
     "SLURM job logs $logs, records $records, still queued $queued"
if [ "$submitted" != "$N_JOBS" ] || [ "$completed" != "$N_JOBS" ] || [ "$failed" != 0 ] \
   || [ "$logs" != "$N_JOBS" ] || [ "$records" != "$N_JOBS" ] || [ "$queued" != 0 ]; then
    echo "FAIL: expected $N_JOBS jobs through SLURM"; exit 1
fi
# the write steps are local rules: run by snakemake on this host, never submitted
grep -q "localrule write_fig_2_20:" "$WORK/slurm-run.log"
grep -q "localrule write_lecture_clustering:" "$WORK/slurm-run.log"

setup_clone "$B"
echo "== local run: ${TARGETS[*]}"
start=$(date +%s)
(cd "$B" && timeout 1200 .venv/bin/snakemake "${TARGETS[@]}" --cores 2 \
    --configfile config/quick.yaml) > "$WORK/local-run.log" 2>&1 \
    || { tail -40 "$WORK/local-run.log"; exit 1; }
echo "   done in $(( $(date +%s) - start )) s"

# --- 4. compare ----------------------------------------------------------------------
echo "== harness compare SLURM-RUN LOCAL-RUN"
if ! (cd "$A" && .venv/bin/harness compare "$A/results/quick" "$B/results/quick") \
        > "$WORK/compare.txt" 2>&1; then
    sed 's/^/   /' "$WORK/compare.txt"; echo "FAIL: the SLURM and local runs differ"; exit 1
fi
sed 's/^/   /' "$WORK/compare.txt"
echo "PASS: $N_JOBS jobs through SLURM (sbatch on node $NODE), the same cells and verdicts as the local run"
