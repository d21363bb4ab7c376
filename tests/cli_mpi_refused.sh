#!/bin/sh
# `mpirun -np 2 rubble run` (issue 13): until runs over several processes are distributed, the
# program refuses to start as several, rather than run the whole job twice into the same
# files: the message once (rank 0), every process exits non-zero, no output folder.
. "$(dirname "$0")/cli_run_common.sh"
MPIEXEC=$2
fail() { echo "FAIL: $*"; exit 1; }
"$MPIEXEC" --allow-run-as-root --oversubscribe -np 2 "$RUBBLE" run "$SCENES/small.yaml" \
    --output out > out.txt 2> err.txt && fail "mpirun -np 2 rubble run succeeded"
[ "$(grep -c 'started as 2 processes' err.txt)" -eq 1 ] || { cat err.txt; fail "the message is not there once"; }
[ -e out ] && fail "an output folder was made"
"$RUBBLE" run "$SCENES/small.yaml" --steps 10 --output one --quiet > /dev/null || fail "one process was refused"
echo "ok: refused under mpirun -np 2 with one message: $(grep 'started as' err.txt | cut -c1-60)..."
