#!/bin/sh
# --change-physics at a restart (issue 69) may do what a stage may: a resting wall set moving
# goes from where it was at the restart's time at its velocity (its wall3_dx in thermo.csv is
# v (t - t_restart), 0 before); a pour added to the scene pours from the restart's time, its
# count at its rate to within one batch. Each changed run's own checkpoint then restarts under
# the same scene (no --change-physics) into the same bits as the changed run went on; a change
# a stage may not make (a wall's place) is still refused, and so is a pour of smaller grains
# under 'dt: auto' (it would shorten dt, which a restart keeps), naming the pour. A stronger
# gravity at a restart (issue 70): the report's energy is since the restart, before the
# change, and its "changes between steps" is what thermo.csv's in_changes books from there
# (the potential energy the change moved; it was 0: the report started after it).
. "$(dirname "$0")/cli_run_common.sh"
fail() { echo "FAIL: $*"; exit 1; }

cat > a.yaml <<'EOF'
domain: {min: [0, 0, 0], max: [0.03, 0.015, 0.06], periodic: [y]}
gravity: [0, 0, -9.81]
materials:
  - {name: glass, density: 2500}
contact: {normal: linear, kn: 2000, restitution: 0.5, friction: 0.5}
walls:
  - {name: floor, point: [0, 0, 0], normal: [0, 0, 1]}
  - {name: left, point: [0, 0, 0], normal: [1, 0, 0]}
  - {name: right, point: [0.03, 0, 0], normal: [-1, 0, 0]}
  - {name: lid, point: [0, 0, 0.058], normal: [0, 0, -1]}
grains:
  - {lattice: {min: [0.002, 0, 0.002], max: [0.028, 0.015, 0.02], count: 100}, radius: 0.001}
run: {dt: auto, time: 0.04}
output: {folder: out, checkpoint_every: 0.02, thermo_every: 0.002}
EOF
# the right wall set moving; the lid made a servo (nothing resists it: full speed down); a
# pour added (its batches of 2000 * 0.002 = 4 grains)
sed -e 's/normal: \[-1, 0, 0\]}/normal: [-1, 0, 0], velocity: [-0.03, 0, 0]}/' \
    -e 's/checkpoint_every: 0.02,/checkpoint_every: 0.01,/' a.yaml > wall.yaml
sed -e 's/^run:/  - {pour: {min: [0.002, 0, 0.03], max: [0.028, 0.015, 0.055], count: 40, rate: 2000, every: 0.002}, radius: 0.001, seed: 3}\nrun:/' \
    -e 's/checkpoint_every: 0.02,/checkpoint_every: 0.01,/' a.yaml > pour.yaml
sed -e 's/normal: \[0, 0, -1\]}/normal: [0, 0, -1], servo: {force: 0.05, max_speed: 0.05}}/' \
    -e 's/checkpoint_every: 0.02,/checkpoint_every: 0.01,/' a.yaml > servo.yaml
grep -q "velocity: \[-0.03" wall.yaml && grep -q "pour:" pour.yaml && grep -q "servo:" servo.yaml ||
    fail "the scenes were not made"

"$RUBBLE" run a.yaml --threads 1 --output A --quiet > /dev/null || fail "the first run failed"
ck=$(ls A/checkpoint_*.bin | head -1)
at=$(echo "$ck" | sed 's/.*checkpoint_0*\([0-9]*\)\.bin/\1/')
# the restart's time: its step times dt (the last row's time over its step)
tc=$(awk -F, -v s="$at" 'NR > 1 && $2 > 0 { dt = $1 / $2 } END { printf "%.15g", s * dt }' A/thermo.csv)

for change in wall servo pour; do
    "$RUBBLE" run $change.yaml --threads 1 --output "B$change" --restart "$ck" --change-physics \
        > out.txt 2> err.txt || fail "$change: the restart with --change-physics failed: $(cat err.txt)"
    grep -q "restart from $ck at step $at changes physics: " out.txt err.txt ||
        fail "$change: the change is not told: $(cat out.txt err.txt)"
    echo "ok: $change: $(grep -h 'changes physics' out.txt err.txt | cut -c1-160)"
done

# the wall (the lid): from where it was, at its velocity (its servo's top speed, which it
# reaches one step late: the speed is set from a step's push, for the next), from the
# restart's time
travels() { # COLUMN SPEED FOLDER LAG_STEPS
    awk -F, -v tc="$tc" -v at="$at" -v col="$1" -v v="$2" -v lag="$4" '
    NR == 1 { for (k = 1; k <= NF; k++) if ($k == col) c = k; if (!c) { print "no " col " column"; bad = 1; exit } next }
    $2 > 0 { dt = $1 / $2 }
    { want = $2 < at ? 0 : v * ($1 - tc - lag * dt); d = $c - want; if (d < 0) d = -d
      if (d > 1e-11) { printf "t = %s: %s %s, closed form %.10g\n", $1, col, $c, want; bad = 1 }
      if (d > worst) worst = d; n++ }
    END { if (bad) exit 1; printf "ok: %s = %s (t - %s) on %d rows, within %.2g m\n", col, v, tc, n, worst }' "$3/thermo.csv"
}
travels wall3_dx -0.03 Bwall 0 || fail "the wall set moving at the restart does not go from where it was"
travels wall4_dz -0.05 Bservo 1 || fail "the servo set at the restart does not go from where the lid was"

# the pour: 100 grains until the restart, then 4 more every 0.002 s from it, 40 in all
awk -F, -v tc="$tc" -v at="$at" '
    NR == 1 { next }
    { want = $2 < at ? 100 : 100 + 2000 * ($1 - tc); if (want > 140) want = 140; d = $3 - want
      if ($2 < at ? $3 != 100 : (d < -1e-6 || d > 4 + 1e-6)) { printf "t = %s: %s grains, the rate gives %.6g\n", $1, $3, want; bad = 1 }
      last = $3 }
    END { if (bad) exit 1; if (last != 140) { printf "%s grains at the end, not 140\n", last; exit 1 }
          printf "ok: the pour added from t = %s at its rate, to within one batch: %s grains at the end\n", tc, last }' \
    Bpour/thermo.csv || fail "the pour added at the restart does not pour from the restart's time at its rate"

# each changed run restarts from its own checkpoint, under the same scene and without the
# option, into the same bits as it went on
for change in wall servo pour; do
    ck2=$(ls B$change/checkpoint_*.bin | head -1)
    [ "$ck2" != "$(ls B$change/checkpoint_*.bin | tail -1)" ] || fail "$change: one checkpoint only"
    "$RUBBLE" run $change.yaml --threads 1 --output "C$change" --restart "$ck2" --quiet \
        > /dev/null 2> err.txt || fail "$change: the changed run's checkpoint does not restart: $(cat err.txt)"
    for f in thermo.csv $(cd "C$change" && ls grains_*.vtp checkpoint_*.bin); do
        cmp -s "B$change/$f" "C$change/$f" || fail "$change: $f differs after the second restart"
    done
    echo "ok: $change: the changed run restarts from $ck2 bit for bit ($(ls C$change | wc -l) files)"
done

# what a stage may not change is refused even so: a wall's place
sed 's/point: \[0.03, 0, 0\], normal: \[-1, 0, 0\]}/point: [0.029, 0, 0], normal: [-1, 0, 0]}/' a.yaml > moved.yaml
"$RUBBLE" run moved.yaml --output D --restart "$ck" --change-physics > out.txt 2> err.txt &&
    fail "a wall's place changed at a restart was accepted"
grep -q "walls\[2\].point\[0\]" err.txt || fail "message: $(cat err.txt)"
echo "ok: $(head -c 200 err.txt)"

# a contact model (any family's, from the law's table: it sets the contacts' history) is
# refused at a restart: a twisting model added (issue 71)
sed 's/friction: 0.5}/friction: 0.5, twisting: {model: marshall}}/' a.yaml > twist.yaml
grep -q "twisting: {model: marshall}" twist.yaml || fail "the twisting scene was not made"
"$RUBBLE" run twist.yaml --output T --restart "$ck" --change-physics > out.txt 2> err.txt &&
    fail "a twisting model added at a restart was accepted"
grep -q "contact.twisting.model" err.txt || fail "message: $(cat err.txt)"
echo "ok: $(head -c 200 err.txt)"

# a pour of smaller grains under 'dt: auto' would shorten dt, which a restart keeps: refused,
# naming both dt values and the pour's line, and nothing written (the same pour of the run's
# radius was taken above)
sed 's/radius: 0.001, seed: 3}/radius: 0.0008, seed: 3}/' pour.yaml > small.yaml
grep -q "radius: 0.0008, seed: 3" small.yaml || fail "the small pour's scene was not made"
"$RUBBLE" run small.yaml --output E --restart "$ck" --change-physics > out.txt 2> err.txt &&
    fail "a pour of smaller grains under dt: auto was accepted at a restart"
grep -q "'dt: auto' makes .* is grains\[1\]'s at small.yaml:13) where the run's dt, the checkpoint's, is .*a restart keeps the run's dt" err.txt ||
    fail "message: $(cat err.txt)"
[ ! -e E ] || fail "the refused restart made its folder"
echo "ok: $(head -c 300 err.txt)"

# a stiffer kn than the run's dt can take (issue 70, st07): at the new scene's kn, saying that a
# restart keeps dt (not "dt: auto picks one" to a scene that has it)
sed 's/kn: 2000,/kn: 2.0e9,/' a.yaml > stiff.yaml
"$RUBBLE" run stiff.yaml --output G --restart "$ck" --change-physics > out.txt 2> err.txt &&
    fail "a kn too stiff for the run's dt was accepted at a restart"
grep -q "$ck: --change-physics: stiff.yaml:5:[0-9]*: contact.kn = 2e+09 N/m is too stiff for the run's dt: dt = [0-9.e-]* s is above the stability limit.*; a restart keeps the run's dt: give a stiffness it can take, or run the changed scene from its start" err.txt ||
    fail "message: $(cat err.txt)"
grep -q "dt <= [0-9.e-]* s (dt: auto picks one)" err.txt && fail "dt: auto advised to a scene that has it: $(cat err.txt)"
[ ! -e G ] || fail "the refused restart made its folder"
sed 's/gravity: \[0, 0, -9.81\]/gravity: [0, 0, -12]/' a.yaml > kn.yaml
grep -q -- '-12]' kn.yaml || fail "kn.yaml was not made"
"$RUBBLE" run kn.yaml --threads 1 --output K --restart "$ck" --change-physics > out.txt 2> err.txt ||
    fail "gravity: the restart failed: $(cat err.txt)"
at=$(echo "$ck" | sed 's/.*checkpoint_0*\([0-9][0-9]*\)\.bin/\1/')
grep -q "^energy .* since the restart at step $at, before its change of physics; from t = 0: thermo.csv" out.txt ||
    fail "gravity: the report does not say what it covers: $(grep '^energy' out.txt)"
said=$(sed -n 's/.*changes between steps \([-0-9.e+]*\)$/\1/p' out.txt)
booked=$(awk -F, 'NR == 1 { for (c = 1; c <= NF; c++) k[$c] = c; next }
                  $k["step"] == '"$at"' { s = $k["in_changes"] } { e = $k["in_changes"] }
                  END { printf "%.4g", e - s }' K/thermo.csv)
awk -v a="$said" -v b="$booked" 'BEGIN { exit !(b != 0 && a == b) }' ||
    fail "gravity: the report put in $said J of changes, thermo.csv $booked J"
echo "ok: a stronger gravity at a restart puts in $said J, as thermo.csv books"

