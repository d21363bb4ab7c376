#!/bin/sh
# The guide's studies (docs/guide/), each in a short form (seconds), run as the guide runs them
# and their number checked to lie in a plausible range, so that the guide never rots: the first
# scene settles, the drum's surface tilts and its bed turns with it, the silo discharges at a
# rate of Beverloo's order, the heap swept from Python stands, the asteroid gathers.
# Usage: tests/guide_studies.sh RUBBLE PYTHON (PYTHONPATH: the built package)
. "$(dirname "$0")/cli_run_common.sh"
PYTHON=$2
GUIDE=$(cd "$(dirname "$0")/../docs/guide" && pwd)
EXAMPLES=$(cd "$(dirname "$0")/../examples" && pwd)
fail() { echo "FAIL: $*"; exit 1; }
# in RANGE LO HI VALUE WHAT: LO <= VALUE <= HI
in_range() {
    awk -v v="$3" -v lo="$1" -v hi="$2" 'BEGIN { exit !(v >= lo && v <= hi) }' ||
        fail "$4 = $3, outside [$1, $2]"
    echo "ok: $4 = $3 in [$1, $2]"
}

# the first scene: two layers of its lattice settle on the floor, none lost
sed 's|max: \[0.019, 0.019, 0.04\]|max: [0.019, 0.019, 0.01]|' "$GUIDE/first.yaml" > first.yaml
grep -q "0.019, 0.019, 0.01\]" first.yaml || fail "first.yaml's lattice line was not found"
"$RUBBLE" run first.yaml --output first --quiet > first.txt || { cat first.txt; fail "first.yaml"; }
grep -q "0 lost" first.txt || fail "the first scene lost grains"
"$PYTHON" "$GUIDE/picture.py" first/grains_000015.vtp first.png || fail "picture.py"
[ -s first.png ] || fail "picture.py wrote no picture"
in_range 0.001 0.003 "$(awk '!/^#/ { z += $3; n++ } END { print z / n }' first/bed.txt)" \
    "the settled layers' mean height (m)"
in_range 0 1e-6 "$(awk -F, 'END { print $5 }' first/thermo.csv)" "the kinetic energy at the end (J)"

# the drum: a thinner bed, 0.6 s; its angle, and the wall layer's v_theta (its coarse-grained
# output, cylindrical) over the drum's omega r (it slips:
# 0.46 in the guide's full run, 0.21 in this thin bed), from the output after 0.3 s
cp "$EXAMPLES/drum.stl" .
sed 's|max: \[0.025, 0.01, 0.004\]|max: [0.025, 0.01, -0.015]|; s|run: {time: 3,|run: {time: 0.6,|' \
    "$EXAMPLES/drum.yaml" > drum.yaml
grep -q "time: 0.6" drum.yaml && grep -q -- "-0.015\]" drum.yaml || fail "drum.yaml's lines were not found"
"$RUBBLE" run drum.yaml --output drum --quiet > drum.txt || { cat drum.txt; fail "drum.yaml"; }
"$PYTHON" "$GUIDE/drum_analysis.py" drum 0.3 20 > drum_angle.txt || fail "drum_analysis.py"
cat drum_angle.txt
in_range 5 40 "$(awk '/dynamic angle/ { print $(NF - 4) }' drum_angle.txt)" "the drum's angle (deg)"
in_range 0.05 1.5 "$(awk '/turn/ { print $8 }' drum_angle.txt)" "the bed's turn, v / (omega r)"

# the silo: a lower fill, two slot widths, 0.25 s; the rates of Beverloo's order
cp "$GUIDE/plate.stl" .
for W in 13 19; do
    sed -e "s/\[-0.046,/[$(awk "BEGIN { print -($W / 2 + 40) / 1000 }"),/" \
        -e "s/\[0.006,/[$(awk "BEGIN { print $W / 2000 }"),/" \
        -e 's|max: \[0.029, 0.01, 0.055\]|max: [0.029, 0.01, 0.025]|; s|time: 0.6,|time: 0.25,|' \
        "$GUIDE/silo.yaml" > silo_$W.yaml
    grep -q "time: 0.25" silo_$W.yaml || fail "silo.yaml's lines were not found"
    "$RUBBLE" run silo_$W.yaml --output out_$W --quiet > silo.txt || { cat silo.txt; fail "silo_$W.yaml"; }
done
"$PYTHON" - "$GUIDE" <<'PY' > silo_rate.txt || fail "silo_rate.py"
import sys
sys.path.insert(0, sys.argv[1])
import silo_rate
for w in (13, 19):
    print(w, silo_rate.rate("out_%d" % w)[0])
PY
cat silo_rate.txt
in_range 1500 6000 "$(awk '$1 == 13 { print $2 }' silo_rate.txt)" "the 13 mm slot's rate (grains/s)"
in_range 1.3 3 "$(awk '$1 == 13 { a = $2 } $1 == 19 { b = $2 } END { print b / a }' silo_rate.txt)" \
    "the 19 mm slot's rate over the 13 mm one's (Beverloo: 2.0)"

# the heap: a small column, two frictions, swept from Python
"$PYTHON" - "$GUIDE" <<'PY' > heap.txt || fail "heap_sweep.py"
import sys
sys.path.insert(0, sys.argv[1])
import heap_sweep
for mu, angle, t in heap_sweep.main("heap", values=(0.1, 0.8), column=(0.014, 0.028), most=100000):
    print(mu, angle)
PY
cat heap.txt
in_range 0 20 "$(awk '$1 == 0.1 { print $2 }' heap.txt)" "the heap's angle at friction 0.1 (deg)"
in_range 1 35 "$(awk '$1 == 0.8 { print $2 }' heap.txt)" "the heap's angle at friction 0.8 (deg)"
awk '$1 == 0.1 { a = $2 } $1 == 0.8 { b = $2 } END { exit !(b > a) }' heap.txt ||
    fail "the heap is no steeper at friction 0.8 than at 0.1"
[ -s heap/heap.png ] || fail "heap_sweep.py wrote no picture"

# the asteroid: 100 boulders in a 12 m cube gather within 3000 s
sed 's|random: {min: \[-25, -25, -25\], max: \[25, 25, 25\], count: 1000}|random: {min: [-6, -6, -6], max: [6, 6, 6], count: 100}|;
     s|run: {time: 20000,|run: {time: 3000,|; s|every: 500,|every: 1000,|' \
    "$EXAMPLES/asteroid.yaml" > asteroid.yaml
grep -q "count: 100}" asteroid.yaml && grep -q "time: 3000" asteroid.yaml || fail "asteroid.yaml's lines were not found"
"$RUBBLE" run asteroid.yaml --output asteroid --quiet > asteroid.txt || { cat asteroid.txt; fail "asteroid.yaml"; }
"$PYTHON" "$GUIDE/asteroid_analysis.py" asteroid > asteroid_body.txt || fail "asteroid_analysis.py"
cat asteroid_body.txt
in_range 90 100 "$(awk '/in the body/ { print $6 }' asteroid_body.txt | tr -d ,)" "grains in the body"
in_range 2 8 "$(awk '/body radius/ { print $8 }' asteroid_body.txt)" "the body's radius (m)"
echo "ok: the guide's studies run"
