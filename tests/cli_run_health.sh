#!/bin/sh
# Issue 41: the run's health check. A run whose physics breaks down stops with exit status 3
# and a message naming the step, the grains or wall, the number and the likely cause; off, the
# same runs end with exit 0 and the report gives the run's deepest overlap (step, ids), not
# the last step's. Limits are settable in the scene, refused at their line when absurd, and a
# restart may change them.
. "$(dirname "$0")/cli_run_common.sh"
HEALTH="$SCENES/health"

# stops NAME PATTERN: `rubble run health/NAME.yaml` stops with status 3 saying PATTERN
stops() {
    "$RUBBLE" run "$HEALTH/$1.yaml" --output "out_$1" > out.txt 2> err.txt
    got=$?
    if [ "$got" -ne 3 ] || ! grep -q -- "$2" err.txt; then
        echo "FAIL [$1]: exit $got (expected 3), stderr:"; cat err.txt; failures=$((failures+1))
        return
    fi
    echo "ok: $(cat err.txt)"
}
# the check off: the same scene with health: {check: false} runs to its end
unchecked() {
    sed 's/^run:/health: {check: false}\nrun:/' "$HEALTH/$1.yaml" > "$1_off.yaml"
    cp "$HEALTH/sheet.stl" . 2> /dev/null
    "$RUBBLE" run "$1_off.yaml" --output "off_$1" > "off_$1.txt" 2> err.txt || {
        echo "FAIL [$1 off]: exit $?"; cat err.txt; failures=$((failures+1)); return; }
    grep -q -- "$2" "off_$1.txt" || {
        echo "FAIL [$1 off]: the report lacks '$2':"; cat "off_$1.txt"; failures=$((failures+1)); }
}

# runs NAME [walk]: legitimate physics the health check lets run to its end (issue 70: these
# were stopped when the check compared the energy with its start within a tolerance), its
# balance within the examples' bound, 1e-2 of the energy scale or of what went through
# (tests/CMakeLists.txt, docs/dem.md "The energy account"); walk: a scene whose contacts last
# a few steps, whose integration errors walk beyond it (documented there)
runs() {
    "$RUBBLE" run "$HEALTH/$1.yaml" --output "out_$1" > out.txt 2> err.txt || {
        echo "FAIL [$1]: exit $? (a legitimate run stopped):"; cat err.txt; failures=$((failures+1))
        return; }
    if [ "${2:-}" != walk ] &&
       grep -Eq "unaccounted, (0\.0[1-9][0-9]*|0\.[1-9][0-9]*|[1-9][0-9]*(\.[0-9]+)?) of the" out.txt; then
        echo "FAIL [$1]: the balance beyond 1e-2: $(grep "^  balance" out.txt)"
        failures=$((failures+1))
        return
    fi
    echo "ok: $1 ran to its end: $(grep "^  balance" out.txt)"
}
# the energy account (issue 70): a floor vibrating at 10 steps a period puts in what its
# displacement over each step gives (its velocity times dt was 1-22 % short); a stage that
# doubles kn or weakens JKR puts in what it changes in the contacts' energy; a gas moving as a
# whole at 20 m/s, or falling along a periodic axis, moves nothing relative to itself
runs vibrated_floor walk # (contacts 4 steps long: 0.2 of its energy after 60 000 steps)
# the same grain's contacts damped (found from outside): the account closes to 1e-3 of the
# energy the floor put in and the contacts dissipated (the floor's velocity is its displacement
# over the step, as the grains'; the step a contact parts books the floor's work; 1.3e-4
# measured, 0.27 before)
runs vibrated_floor_damped
grep -q "^  balance .* J unaccounted, \(0\.000[0-9]*\|[0-9.]*e-0[4-9]\) of the .* J put in and dissipated" out.txt || {
    echo "FAIL [vibrated_floor_damped]: the account does not close to 1e-3 of what went through:"
    grep "^  balance" out.txt; failures=$((failures+1)); }
runs stage_stiffer
runs stage_weaker_jkr
runs boosted_gas
runs fall_periodic
# an outlet opened over half a cohesive bed takes its grains with their contacts' elastic and
# (negative) JKR energy: the balance at the drain step moves by the time step's own error, not
# by that energy (5.7e-8 J, a quarter of the energy scale, before it was booked)
runs outlet_cohesive
# the account from outside (issue 70): a cohesive bed with the tangential spring and epsd2 on
# a floor turning about an axis in its plane, an outlet taking grains out of it mid-contact,
# collision statistics on (measured: 2.2e-4 of the energy scale)
runs cohesive_rolling_turning
grep -q "^output .*out_cohesive_rolling_turning/collisions.csv$" out.txt &&
    grep -q "taken out by the outlets" out.txt &&
    [ "$(grep -c ',glass,glass,1,' out_cohesive_rolling_turning/collisions.csv)" -gt 0 ] || {
    echo "FAIL [cohesive_rolling_turning]: no outlet or no wall events:"; cat out.txt
    failures=$((failures+1)); }
awk -F, 'NR == 1 { for (c = 1; c <= NF; c++) col[$c] = c; next }
         { g = $col["grains"]; b = $col["balance"]; e = $col["elastic"] }
         NR > 2 && g < was { jump = b - bal; carried = e_was - e }
         { was = g; bal = b; e_was = e }
         END { d = jump < 0 ? -jump : jump; c = carried < 0 ? -carried : carried
               printf "outlet_cohesive: the balance moved %.3g J at the drain, the energy of the contacts by %.3g J\n", jump, carried
               exit !(c > 0 && d < 1e-3 * c) }' out_outlet_cohesive/thermo.csv || {
    echo "FAIL: the balance jumped at the drain"; failures=$((failures+1)); }
# a mesh sheet at 1000 m/s would pass through a grain unseen: a wall's step is checked as a
# grain's (3.2 mm against the grain's 1 mm radius)
stops sheet_jump "step 1: wall 1 moved 0.0032 m in one step, 3.2 of the smallest grain's radius 0.001 m (health.move 0.5)"

# (b) a grain through a mesh sheet of soft contacts: 0.6 of its radius at step 14
stops sheet "step 14: grain 0 (.* m/s) is in wall 1 by 0.6[0-9]* of its radius (health.overlap 0.5)"
unchecked sheet "largest overlap [0-9.]* of the radius over the run, at step [0-9]* (grain 0 on wall 1)"
# (c) two grains closing at 2000 m/s move 3.3 radii a step: unchecked they pass through each
# other, the deepest overlap 1.2 radii
stops bullets "step 1: grain [01] moved 3.29 of its radius in one step (1e+03 m/s"
unchecked bullets "largest overlap 1.[0-9]* of the smaller radius over the run, at step [0-9]* (grains 0 and 1)"
# (a) an elastic gas at 5 steps per contact gains energy
stops gas_coarse_dt "energy was made: the energy account's balance .* rose by .* J since step [0-9]* with nothing booked putting it in, 0.0[5-9][0-9]* of the energy scale .*(health.energy 0.05).*5 steps per contact"
# the thermo rows up to the one that found it are on disk (found from outside: thermo.csv had
# only the rows of the last frame, here none but the first)
stopped=$(grep -o "step [0-9]* (t" err.txt | head -1 | cut -d' ' -f2)
last=$(tail -1 "out_gas_coarse_dt/thermo.csv" | cut -d, -f2)
[ -n "$stopped" ] && [ "$last" = "$stopped" ] || {
    echo "FAIL [gas_coarse_dt]: thermo.csv ends at step $last, the check stopped at $stopped"
    failures=$((failures+1)); }
# at 50 steps per contact it runs; the energy line gives the balance
sed 's/c: 0.2/c: 0.02/; s/time: 0.5/time: 0.1/' "$HEALTH/gas_coarse_dt.yaml" > gas_fine.yaml
"$RUBBLE" run gas_fine.yaml --output fine > fine.txt || { echo "FAIL: the fine gas stopped"; exit 1; }
grep -q "balance .* J unaccounted, .* of the .* J energy scale" fine.txt || {
    echo "FAIL: no energy balance:"; cat fine.txt; exit 1; }
# a looser limit lets the coarse gas run further: it stops later, at 10 %
sed 's/^run:/health: {energy: 0.1}\nrun:/' "$HEALTH/gas_coarse_dt.yaml" > loose.yaml
"$RUBBLE" run loose.yaml --output loose > /dev/null 2> loose.txt
[ $? -eq 3 ] && grep -q "0.1[0-9]* of the energy scale .*(health.energy 0.1)" loose.txt || {
    echo "FAIL: health.energy 0.1 was not taken:"; cat loose.txt; failures=$((failures+1)); }

# an impulse scene at dt 10 s: once stopped by its energy check (at 1e10 s, refused as no
# real scene's, the energy reached 1.2e27 J unchecked), now refused at its line before it
# runs: gravity would move an object 981 m in a step (issue 45)
sed 's/dt: 2e-4/dt: 10/' "$SCENES/impulse.yaml" > impulse_huge_dt.yaml
expect impulse_huge_dt "impulse_huge_dt.yaml:[0-9]*:[0-9]*: dt = 10 s: in one step gravity (9.81 m/s^2) moves an object 981 m"
# ... and its intervals in steps are refused beyond what a count holds (was SIGFPE)
sed 's/dt: 2e-4/dt: 1e-300/; s/steps: 500/steps: 30/; s/every: 0.02/every: 0.002/' \
    "$SCENES/impulse.yaml" > impulse_tiny_dt.yaml
expect impulse_tiny_dt "impulse_tiny_dt.yaml:[0-9]*:[0-9]*: output.every = 0.002 s is 2e+297 steps"

# 64 overlapping spheres at rest, no gravity, e = 1: the push takes them apart, nothing
# moves, the energy stays 0 to round-off. Once stopped at step 170 for a growth of 2.5e-67 J,
# "1 of its scale 2.5e-67 J": the scale has a floor now (each object moving 1e-4 of its
# smallest semi-axis a step), so the run goes to its end
awk 'BEGIN { for (i = 0; i < 4; i++) for (j = 0; j < 4; j++) for (k = 0; k < 4; k++)
                 printf "%.3f %.3f %.3f 1 0 0 0\n", i * 0.016, j * 0.016, 0.02 + k * 0.016 }' \
    > relax.txt
cat > relax.yaml << 'EOF'
gravity: [0, 0, 0]
impulse: {restitution: 1, friction: 0}
walls:
  - {point: [0, 0, 0], normal: [0, 0, 1]}
objects:
  - file: relax.txt
    ellipsoid: [0.01, 0.01, 0.01]
run: {dt: 1e-4, steps: 200}
output: {folder: out_relax, every: 0.005}
EOF
"$RUBBLE" run relax.yaml --threads 1 > relax_report.txt 2> err.txt || {
    echo "FAIL: 64 spheres at rest, overlapping, were stopped (exit $?):"; cat err.txt
    failures=$((failures+1)); }
# ... while energy made from nothing is still stopped: a sphere deep in another that rests on
# the floor is pushed up against gravity with no speed to pay for the lift
printf '0 0 0.01 1 0 0 0\n0 0 0.012 1 0 0 0\n' > lift.txt
sed 's/relax.txt/lift.txt/; s/gravity: \[0, 0, 0\]/gravity: [0, 0, -9.81]/' relax.yaml > lift.yaml
"$RUBBLE" run lift.yaml --threads 1 --output out_lift > /dev/null 2> err.txt
[ $? -eq 3 ] && grep -q "step 5 .*: the energy grew by 0.001[0-9]* J .* of its scale 1.0[0-9]*e-06 J" \
    err.txt || { echo "FAIL: the lift was not stopped at step 5:"; cat err.txt
                 failures=$((failures+1)); }
echo "ok: spheres at rest run on; energy made by the push is stopped"

# absurd limits are refused at their line
sed 's/^run:/health: {overlap: -1}\nrun:/' "$SCENES/small.yaml" > negative.yaml
expect negative "negative.yaml:[0-9]*:[0-9]*: 'overlap' must be > 0 and <= 100: '-1'"
sed 's/^run:/health: {check: maybe}\nrun:/' "$SCENES/small.yaml" > notflag.yaml
expect notflag "notflag.yaml:[0-9]*:[0-9]*:.*'check'"
sed 's/^run:/health: {tolerance: 1}\nrun:/' "$SCENES/small.yaml" > unknown.yaml
expect unknown "unknown.yaml:[0-9]*:[0-9]*: unknown key in 'health'"

# a restart may loosen the check (it is not part of the physics): the stopped gas goes on
# from its last checkpoint with the check off
sed 's/^output: {folder: out_gs}/output: {folder: out_gs, checkpoint_every: 0.03}/' \
    "$HEALTH/gas_coarse_dt.yaml" > ckpt.yaml
"$RUBBLE" run ckpt.yaml --output ck > /dev/null 2>&1
status=$?
last=$(ls ck/checkpoint_*.bin 2> /dev/null | tail -1)
[ "$status" -eq 3 ] && [ -n "$last" ] || {
    echo "FAIL: the gas did not stop after a checkpoint (exit $status)"; ls ck; exit 1; }
sed 's/^run:/health: {check: false}\nrun:/' ckpt.yaml > ckpt_off.yaml
"$RUBBLE" run ckpt_off.yaml --output ck --restart "$last" --steps 5000 \
    > resumed.txt || { echo "FAIL: the restart with the check off was refused"; exit 1; }
echo "ok: the restart with the check off ran on"

[ "$failures" -eq 0 ] || exit 1
echo "all health checks behaved"
