#!/bin/sh
# output.cg over several processes (issue 74): each sample's grains and contacts gathered on
# rank 0 in one process's order, so 3 processes write one process's bytes (cg_*.vti and the
# profiles); a checkpoint inside a window, written by 3, restarts on 3 and on 1 into the same
# bytes again, as one written by 1 restarts on 3; `rubble cg` on the 3 processes' frames
# (.pvtp) gives what it gives on one process's; clumps are refused by name.
. "$(dirname "$0")/cli_run_common.sh"
MPIEXEC=$2
fail() { echo "FAIL: $*"; exit 1; }
mpi() { "$MPIEXEC" --allow-run-as-root --oversubscribe -np "$@"; }
cat > cg.yaml <<'YAML'
domain: {min: [0, 0, -0.001], max: [0.008, 0.008, 0.016], periodic: [x, y]}
gravity: [0, 0, -9.81]
materials: [{name: glass, density: 2500}]
contact: {normal: linear, damping: linear, tangential: spring, kn: 2000, restitution: 0.5,
          gamma_t: 0.005, friction: 0.5}
walls: [{point: [0, 0, 0], normal: [0, 0, 1]}]
grains:
  - lattice: {min: [0, 0, 0.0005], max: [0.008, 0.008, 0.012], spacing: 0.0022}
    radius: {distribution: uniform, min: 0.00095, max: 0.00105}
    velocity_spread: 0.05
run: {time: 0.06, dt: 1.0e-5}
output: {every: 0.02, checkpoint_every: 0.01, checkpoint_keep: 9, contacts: [vtp, csv],
         cg: {cells: [8, 8, 17], width: 0.002, every: 0.02, samples: 2, min: [0, 0, -0.001],
              max: [0.008, 0.008, 0.016]}}
YAML
"$RUBBLE" run cg.yaml --output one --quiet > out.txt 2>&1 || { cat out.txt; fail "one process"; }
mpi 3 "$RUBBLE" run cg.yaml --output three --quiet > out.txt 2>&1 || { cat out.txt; fail "3 processes"; }
[ "$(grep -c '<Piece Source=' three/grains_000003.pvtp)" -eq 3 ] || fail "not 3 pieces"
same() { # same A B K: output K of folders A and B, byte for byte
    for f in "cg_$3.vti" "cg_profile_$3.csv"; do
        cmp -s "$1/$f" "$2/$f" || fail "$2/$f differs from $1/$f"
    done
}
for k in 000000 000001 000002 000003; do same one three $k; done
# the bed touches: some contact stress
sed -n 2p one/cg_profile_000003.csv | cut -d, -f24 | grep -qx contact_stress_zz || fail "column 24 is not contact_stress_zz"
awk -F, 'NR > 2 && $24 + 0 < -1 { found = 1 } END { exit !found }' one/cg_profile_000003.csv ||
    fail "no compressive contact_stress_zz (column 24) in the profile (the test would not see the contacts)"
# a window holds 2 samples, 1000 steps apart: checkpoints at 3000 and 5000 are inside one
mpi 3 "$RUBBLE" run cg.yaml --restart three/checkpoint_000003000.bin --output r33 --quiet \
    > out.txt 2>&1 || { cat out.txt; fail "a restart on 3"; }
"$RUBBLE" run cg.yaml --restart three/checkpoint_000005000.bin --output r31 --quiet \
    > out.txt 2>&1 || { cat out.txt; fail "3's checkpoint on 1"; }
mpi 3 "$RUBBLE" run cg.yaml --restart one/checkpoint_000005000.bin --output r13 --quiet \
    > out.txt 2>&1 || { cat out.txt; fail "1's checkpoint on 3"; }
same one r33 000002; same one r33 000003; same one r31 000003; same one r13 000003
# rubble cg on the 3 processes' frames (.pvtp: pieces joined in one process's order), with
# their contact .vtp pieces or their .csv pieces alone: one process's frames' bytes
GRID='{cells: [8, 8, 17], width: 0.002, min: [0, 0, -0.001], max: [0.008, 0.008, 0.016]}'
"$RUBBLE" cg cg.yaml one/grains_00000[0-3].vtp --cg "$GRID" --output post1 > out.txt 2>&1 ||
    { cat out.txt; fail "rubble cg on one process's frames"; }
"$RUBBLE" cg cg.yaml three/grains_00000[0-3].pvtp --cg "$GRID" --output post3 > out.txt 2>&1 ||
    { cat out.txt; fail "rubble cg on 3 processes' frames"; }
mkdir csv3 && cp three/grains_* three/grains.pvd three/contacts_*.csv csv3/
"$RUBBLE" cg cg.yaml csv3/grains_000003.pvtp --cg "$GRID" --output post3c > out.txt 2>&1 ||
    { cat out.txt; fail "rubble cg on 3 processes' frames with .csv pieces"; }
for k in 000000 000001 000002 000003; do same post1 post3 $k; done
same post1 post3c 000003
# averaged over y (one node across it), likewise
GRID='{cells: [8, 1, 17], width: 0.002, min: [0, 0, -0.001], max: [0.008, 0.008, 0.016], average: [y]}'
"$RUBBLE" cg cg.yaml one/grains_00000[0-3].vtp --cg "$GRID" --output avg1 > out.txt 2>&1 ||
    { cat out.txt; fail "rubble cg averaged over y on one process's frames"; }
"$RUBBLE" cg cg.yaml three/grains_00000[0-3].pvtp --cg "$GRID" --output avg3 > out.txt 2>&1 ||
    { cat out.txt; fail "rubble cg averaged over y on 3 processes' frames"; }
for k in 000000 000001 000002 000003; do same avg1 avg3 $k; done
# clumps: refused, on every rank, before a step
EXAMPLES=$(cd "$(dirname "$0")/../examples" && pwd)
sed "s|^run:|  - {lattice: {min: [0, 0, 0.006], max: [0.008, 0.008, 0.016]}, clump: $EXAMPLES/clumps/ellipsoid.txt}\nrun:|" \
    cg.yaml > clumps.yaml
mpi 3 "$RUBBLE" run clumps.yaml --output clumps --quiet > out.txt 2> err.txt && fail "clumps ran"
grep -q "output.cg (coarse-graining) of clumps cannot yet run over several processes" err.txt ||
    { cat err.txt; fail "the clumps' refusal"; }
echo "ok: output.cg over 3 processes writes one process's bytes, restarts inside a window too"
