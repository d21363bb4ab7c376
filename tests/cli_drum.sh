#!/bin/sh
# examples/drum.yaml through `rubble run` (issue 14): its STL drum, turning, drags the bed (the
# grains' torque on it opposes its turn: wall1_ty < 0 for a turn about +y), is written each
# frame where it has turned (walls_NNNNNN.vtp, listed in walls.pvd), and its travel columns are
# in thermo.csv. A run restarted from its checkpoint (the mesh, its motion and the grains'
# contacts with its facets saved) writes byte-identical frames, walls and thermo.csv. A lower
# bed than the example's and a faster turn (60 rpm), so that 6000 steps show it.
. "$(dirname "$0")/cli_run_common.sh"
fail() { echo "FAIL: $*"; exit 1; }
EXAMPLES=$(cd "$(dirname "$0")/../examples" && pwd)
cp "$EXAMPLES/drum.stl" drum.stl
sed "s|max: \[0.025, 0.01, 0.004\]|max: [0.025, 0.01, -0.015]|;
     s|rpm: 20|rpm: 60|; s|dt: auto, c: 0.05|dt: 7e-6|;
     s|^  folder: output/drum$|  folder: out|; s|^  every: 0.05$|  every: 0.0105\n  checkpoint_every: 0.021|" \
    "$EXAMPLES/drum.yaml" > drum.yaml
grep -q "rpm: 60" drum.yaml && grep -q "checkpoint_every" drum.yaml || fail "the example's lines were not found"
"$RUBBLE" run drum.yaml --steps 6000 --output A --quiet > out.txt || { cat out.txt; fail "the drum run failed"; }
# the mean over the run's second half (one row's torque swings either way with the bed's
# contacts: -2e-4 N m on average, single rows from -1.4e-3 to +2e-5)
ty=$(awk -F, 'NR == 1 { for (c = 1; c <= NF; c++) if ($c == "wall1_ty") col = c; next }
    { v[NR] = $col } END { for (k = int(NR / 2); k <= NR; k++) { s += v[k]; n++ }; print s / n }' A/thermo.csv)
awk -v t="$ty" 'BEGIN { exit !(t < 0) }' || fail "the bed does not hold the drum back: wall1_ty = $ty"
head -1 A/thermo.csv | grep -q "wall1_dx,wall1_dy,wall1_dz" || fail "thermo.csv lacks the travel columns"
frames=$(ls A/grains_*.vtp | wc -l)
[ "$(ls A/walls_*.vtp | wc -l)" -eq "$frames" ] || fail "not one walls_*.vtp per frame"
[ "$(grep -c DataSet A/walls.pvd)" -eq "$frames" ] || fail "walls.pvd does not list the frames"
cmp -s A/walls_000000.vtp "A/walls_$(printf '%06d' $((frames - 1))).vtp" && fail "the drum did not turn in its frames"
[ -e A/walls.vtp ] && fail "a moving mesh also got the still walls.vtp"
first=$(ls A/checkpoint_*.bin | head -1)
"$RUBBLE" run drum.yaml --steps 6000 --output B --restart "$first" --quiet > /dev/null || fail "restart failed"
for f in thermo.csv $(cd B && ls grains_*.vtp walls_*.vtp checkpoint_*.bin); do
    cmp -s "A/$f" "B/$f" || fail "$f differs after the restart"
done
# the STL changed under the same scene text: the checkpoint (holding the old mesh) is refused
awk 'NR == 1, /vertex/ { if ($1 == "vertex" && !done) { $2 = $2 * 1.01; done = 1 } } { print }' \
    "$EXAMPLES/drum.stl" > drum.stl
"$RUBBLE" run drum.yaml --steps 6000 --output C --restart "$first" --quiet > /dev/null 2> err.txt &&
    fail "a restart after the STL changed was accepted"
grep -q "written for another scene: .*'mesh wall 1: .* hash" err.txt || {
    cat err.txt; fail "the changed STL was not named"; }
echo "ok: the drum turns (wall1_ty $ty N m over its second half), $frames frames of it; restart from $first byte-identical"
