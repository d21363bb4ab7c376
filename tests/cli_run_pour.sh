#!/bin/sh
# Pours (issue 69): a batch falls at the first step whose time reaches its own (its time over
# dt, rounded up), never where the run happens to stop for its output, so output.thermo_every
# and output.every leave final.txt the same bytes (as does the thread count); and the grains
# placed by a time are the rate times that time, to within one batch, however short `every`
# is (every below 200 steps placed 42 % of the rate, every below dt far less), or what has no
# room is reported as waiting. The restart at an odd step inside a pour: cli_run_restart.sh.
. "$(dirname "$0")/cli_run_common.sh"
fail() { echo "FAIL: $*"; exit 1; }

# the first step whose time reaches t at dt (as the run computes it: step * dt >= t)
step_of() { awk -v t="$1" -v dt="$2" 'BEGIN { k = int(t / dt); while (k > 0 && (k - 1) * dt >= t) k--;
                                              while (k * dt < t) k++; print k }'; }

# 1. the batches' steps do not depend on the output: the default rows (every 76 steps), rows
#    every 0.005 s, frames every 0.003 s, and 2 threads, all give the same final.txt
sed 's/output: {folder: out, final: final.txt}/output: {folder: out, final: final.txt, thermo_every: 0.005}/' \
    "$SCENES/pour.yaml" > rows.yaml
sed 's/output: {folder: out, final: final.txt}/output: {folder: out, final: final.txt, every: 0.003}/' \
    "$SCENES/pour.yaml" > frames.yaml
"$RUBBLE" run "$SCENES/pour.yaml" --threads 1 --output A --quiet > report.txt || fail "the pour failed"
grep -q "^pour           360 of 600 grains placed$" report.txt || fail "not 3 batches: $(grep pour report.txt)"
for run in "rows.yaml --threads 1 --output B" "frames.yaml --threads 1 --output C" \
           "$SCENES/pour.yaml --threads 2 --output D"; do
    # shellcheck disable=SC2086
    "$RUBBLE" run $run --quiet > /dev/null || fail "rubble run $run failed"
done
for d in B C D; do
    cmp -s A/final.txt $d/final.txt || fail "final.txt differs between A and $d (output or threads changed the pour)"
done
echo "ok: thermo_every, every and 2 threads leave final.txt the same bytes"

# 2. where each batch falls: a row every step (the row at a step is written before that
#    step's pour, so a batch placed at step S shows from row S + 1; step 0's pour comes first)
sed 's/output: {folder: out, final: final.txt}/output: {folder: out, thermo_every: 3.3e-6}/' \
    "$SCENES/pour.yaml" > each.yaml
"$RUBBLE" run each.yaml --threads 1 --steps 6100 --output E --quiet > /dev/null || fail "rows every step failed"
s2=$(step_of 0.01 3.3e-6); s3=$(step_of 0.02 3.3e-6)
got=$(awk -F, 'NR > 1 && $3 != n { printf "%s%d:%d", sep, NR == 2 ? 0 : $2 - 1, $3; sep = " "; n = $3 }' \
    E/thermo.csv)
[ "$got" = "0:120 $s2:240 $s3:360" ] || fail "batches at (step:grains) '$got', expected '0:120 $s2:240 $s3:360'"
echo "ok: the batches fall at steps 0, $s2 and $s3 (0.01 s and 0.02 s over dt, rounded up)"

# 3. the rate placed is the rate asked: at every row, the grains placed (before the row's own
#    step's pour) are rate x t to within one batch (rate x every grains)
rate_check() { # NAME EVERY BATCH: a pour of 20000/s every EVERY s in a box, rows every 0.0005 s
    cat > "$1.yaml" <<YAML
domain: {min: [0, 0, 0], max: [0.04, 0.04, 0.1]}
gravity: [0, 0, -9.81]
materials: [{name: glass, density: 2500}]
contact: {normal: linear, kn: 2000, restitution: 0.5, friction: 0.5}
walls: [{point: [0, 0, 0], normal: [0, 0, 1]}]
grains:
  - pour: {min: [0.002, 0.002, 0.02], max: [0.038, 0.038, 0.09], count: 10000, rate: 20000, every: $2}
    radius: 0.001
run: {dt: 3.3e-6, time: 0.01}
output: {folder: out, thermo_every: 0.0005}
YAML
    "$RUBBLE" run "$1.yaml" --threads 1 --output "$1" > "$1.txt" || fail "the $1 pour failed"
    awk -F, -v batch="$3" 'NR > 1 { d = $3 - 20000 * $1; if (d > batch || d < -batch) {
            printf "t = %s s: %d grains placed, rate x t = %g\n", $1, $3, 20000 * $1; bad = 1 } }
        END { exit bad }' "$1/thermo.csv" || fail "$1: the grains placed are not the rate asked"
    last=$(sed -n 's/^pour           \([0-9]*\) of 10000 grains placed$/\1/p' "$1.txt")
    [ -n "$last" ] && awk -v n="$last" -v b="$3" 'BEGIN { exit !(n - 200 <= b && 200 - n <= b) }' ||
        fail "$1: $(grep pour "$1.txt") by 0.01 s, asked 200 (+- $3)"
    echo "ok: every $2 s: the grains placed follow rate x t to within $3 ($last by 0.01 s)"
}
rate_check batches 0.0002 4 # 61 steps a batch of 4 (before: 84 placed of 200 by 0.01 s)
# every below dt: the 3.3 batches of 0.02 grain that fall in a step come as one (a row, one
# step behind its time's pour, lags rate x dt = 0.066 more, besides the fraction carried)
rate_check each_step 1e-6 1.07 # (before: 1 in 0.01 s)

# 4. what has no room waits, and the report says so: placed + waiting = rate x time, to one
#    batch (a region one grain high on the floor holds at most about 300 grains of the 2000
#    asked in 0.1 s)
sed 's/min: \[0.002, 0.002, 0.02\], max: \[0.038, 0.038, 0.09\]/min: [0.002, 0.002, 0], max: [0.038, 0.038, 0.0024]/
     s/every: 0.0002/every: 0.001/; s/time: 0.01/time: 0.1/' batches.yaml > crowded.yaml
grep -q "0.0024.*every: 0.001" crowded.yaml || fail "sed did not write crowded.yaml"
"$RUBBLE" run crowded.yaml --threads 1 --output F > crowded.txt || fail "the crowded pour failed"
line=$(grep "^pour " crowded.txt)
set -- $(echo "$line" | sed -n 's/^pour *\([0-9]*\) of 10000 grains placed; \([0-9]*\) more were due by now and wait.*/\1 \2/p')
[ $# -eq 2 ] || fail "the report does not say what waits: '$line'"
[ $(($1 + $2)) -ge 1980 ] && [ $(($1 + $2)) -le 2020 ] ||
    fail "placed $1 + waiting $2 is not rate x time = 2000 (to one batch of 20)"
echo "ok: $line"
exit $failures
