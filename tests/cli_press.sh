#!/bin/sh
# examples/press.yaml through `rubble run` (issue 14): a servo piston comes down on a bed and
# holds the pressure it is given. A lower bed than the example's, the piston just above it (0.85 mm):
# after 0.16 s the grains push it with 2 kPa x 4 cm^2 = 0.8 N (to 1 %), and the floor bears
# that plus the bed's weight (m g summed from the final grains file, to 1 % of the load), and
# the last frame's walls file draws the piston where its travel puts it.
. "$(dirname "$0")/cli_run_common.sh"
fail() { echo "FAIL: $*"; exit 1; }
EXAMPLES=$(cd "$(dirname "$0")/../examples" && pwd)
sed "s|max: \[0.02, 0.02, 0.0145\]|max: [0.02, 0.02, 0.008]|; s|point: \[0, 0, 0.016\]|point: [0, 0, 0.0065]|;
     s|time: 0.3|time: 0.16|; s|output: {folder: output/press, every: 0.01}|output: {folder: out, every: 0.01, final: grains.txt}|" \
    "$EXAMPLES/press.yaml" > press.yaml
grep -q "0.0065" press.yaml && grep -q "final: grains.txt" press.yaml || fail "the example's lines were not found"
"$RUBBLE" run press.yaml --output A --quiet > out.txt || { cat out.txt; fail "the press run failed"; }
last() { awk -F, -v name="$1" 'NR == 1 { for (c = 1; c <= NF; c++) if ($c == name) col = c; next }
    { v = $col } END { print v }' A/thermo.csv; }
piston=$(last wall2_fz); floor=$(last wall1_fz); travel=$(last wall2_dz)
weight=$(awk '!/^#/ { w += 2500 * 4 / 3 * 3.141592653589793 * $4 * $4 * $4 * 9.81 } END { printf "%.8g", w }' A/grains.txt)
awk -v p="$piston" 'BEGIN { d = p - 0.8; exit !(d < 0.008 && d > -0.008) }' || fail "the piston is pushed with $piston N, not 0.8 N"
awk -v f="$floor" -v w="$weight" 'BEGIN { d = -f - 0.8 - w; exit !(d < 0.008 && d > -0.008) }' ||
    fail "the floor bears $floor N, not 0.8 N + the weight $weight N"
awk -v t="$travel" 'BEGIN { exit !(t < 0) }' || fail "the piston did not come down: $travel m"
# ParaView: the piston (wall 2) is drawn each frame where it is: the last walls_NNNNNN.vtp's
# corners 5-8 (after the floor's 4) at z = 0.0065 + its travel
frames=$(grep -c DataSet A/grains.pvd)
[ "$(grep -c DataSet A/walls.pvd)" -eq "$frames" ] || fail "walls.pvd does not list the $frames frames"
walls="A/walls_$(printf '%06d' $((frames - 1))).vtp"
grep -q 'NumberOfPoints="8".*NumberOfPolys="2"' "$walls" || fail "$walls does not hold the 2 planes"
data=$(( $(grep -boa '<AppendedData encoding="raw">' "$walls" | cut -d: -f1) + 34 ))
drawn=$(od -A n -t f8 -v -j $((data + 48)) -N 192 "$walls" | tr -s ' ' '\n' | grep . |
    awk 'NR > 12 && NR % 3 == 0 { print }' | sort -u)
[ "$(echo "$drawn" | wc -l)" -eq 1 ] || fail "the piston is not drawn flat: $drawn"
awk -v z="$drawn" -v t="$travel" 'BEGIN { d = z - 0.0065 - t; exit !(d < 1e-12 && d > -1e-12) }' ||
    fail "the piston is drawn at z = $drawn, not 0.0065 + $travel"
echo "ok: the piston holds $piston N (0.8 N), the floor $floor N (0.8 + $weight N); it came down $travel m, drawn at z = $drawn in the last frame"
