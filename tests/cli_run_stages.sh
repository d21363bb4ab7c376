#!/bin/sh
# dt: auto in a staged scene (issue 69): dt is fixed for the run, from the shortest contact
# under every stage's physics, so a later stage's stiffer kn (linear) or larger Young's modulus
# (Hertz-Mindlin) neither stops the run at that stage ("dt ... is above the stability limit")
# nor is missed: the staged run's dt is the one its stiffest stage alone would get, to the
# last digit of thermo.csv's time; and a restart at an odd step inside the first stage ends in
# the same bits.
. "$(dirname "$0")/cli_run_common.sh"
fail() { echo "FAIL: $*"; exit 1; }

# NAME CONTACT MATERIAL STAGES: a lattice of 100 beads on a floor (0.0003 s without stages)
bed() {
    cat > "$1.yaml" <<YAML
domain: {min: [0, 0, 0], max: [0.02, 0.02, 0.04]}
gravity: [0, 0, -9.81]
materials:
  - {name: glass, density: 2500$3}
contact: {$2}
walls:
  - {point: [0, 0, 0], normal: [0, 0, 1]}
grains:
  - {lattice: {min: [0.002, 0.002, 0.002], max: [0.018, 0.018, 0.02], count: 100}, radius: 0.001}
run: {dt: auto$([ -n "$4" ] || echo ", time: 0.0003")}
output: {folder: out, final: final.txt}
$4
YAML
}
# the time of the run's last row at --steps 3000 (3000 dt, to 10 digits)
steps3000() { "$RUBBLE" run "$1.yaml" --threads 1 --steps 3000 --output "$1" --quiet > /dev/null 2> "$1.err" ||
                  fail "$1 failed: $(cat "$1.err")"; }
time_at() { tail -1 "$1/thermo.csv" | cut -d, -f1; }

STAGES='stages:
  - {name: soft, time: 0.0002}
  - {name: stiff, time: 0.0001, STIFF}'
bed linear_staged "normal: linear, kn: 2000, restitution: 0.5, friction: 0.5" "" "$(echo "$STAGES" | sed 's/STIFF/contact: {kn: 2.0e6}/')"
bed linear_stiff "normal: linear, kn: 2.0e6, restitution: 0.5, friction: 0.5" "" ""
bed hertz_staged "normal: hertz-mindlin" ", youngs_modulus: 5.0e6, poisson_ratio: 0.3, restitution: 0.5, friction: 0.5" \
    "$(echo "$STAGES" | sed 's/STIFF/materials: [{name: glass, youngs_modulus: 5.0e9}]/')"
bed hertz_stiff "normal: hertz-mindlin" ", youngs_modulus: 5.0e9, poisson_ratio: 0.3, restitution: 0.5, friction: 0.5" ""
for law in linear hertz; do
    steps3000 ${law}_staged
    steps3000 ${law}_stiff
    staged=$(time_at ${law}_staged) stiff=$(time_at ${law}_stiff)
    [ "$staged" = "$stiff" ] || fail "$law: 3000 steps of the staged run end at t = $staged s, of its stiff stage alone at $stiff s"
    # the whole staged run, through its stiff stage
    "$RUBBLE" run ${law}_staged.yaml --threads 1 --output ${law}_whole > out.txt 2> err.txt ||
        fail "$law: the staged run failed: $(cat err.txt)"
    grep -q "the run ended in stage 2 ('stiff')" out.txt || fail "$law: the run did not end in stage 2"
    echo "ok: $law: dt is the stiff stage's (3000 steps end at t = $staged s) and the run goes through it"
done

# a restart at an odd step inside the soft stage (a checkpoint every 0.000123 s, rounded to
# steps of dt = 1.04e-7 s: 1181) ends in the same final.txt and thermo.csv, on 2 threads too
sed 's/output: {folder: out, final: final.txt}/output: {folder: out, final: final.txt, checkpoint_every: 0.000123}/' \
    linear_staged.yaml > ck.yaml
"$RUBBLE" run ck.yaml --threads 1 --output A --quiet > /dev/null || fail "the staged run with checkpoints failed"
first=$(ls A/checkpoint_*.bin | head -1)
case $first in *[13579].bin) ;; *) fail "$first is not at an odd step";; esac
"$RUBBLE" run ck.yaml --threads 2 --output B --restart "$first" --quiet > /dev/null || fail "the restart failed"
for f in final.txt thermo.csv; do
    cmp -s A/$f B/$f || fail "$f differs after the restart from $first"
done
cmp -s A/final.txt linear_whole/final.txt || fail "checkpoints changed final.txt"
echo "ok: a restart from $first (inside stage 1) ends in the same bits on 2 threads"

# a mesh wall named in the scene (it was refused: only planes took a name) set moving by name
# in a stage: wall1_dz = 0.01 m/s x the time since the stage began
EXAMPLES=$(cd "$SCENES/../../examples" && pwd)
cat > mesh_named.yaml <<EOT
domain: {min: [-0.045, 0, -0.004], max: [0.045, 0.01, 0.08], periodic: [y]}
gravity: [0, 0, -9.81]
materials: [{name: glass, density: 2500}]
contact: {normal: linear, tangential: spring, kn: 2000, restitution: 0.5, friction: 0.5}
walls:
  - {name: hopper, mesh: $EXAMPLES/hopper.stl, scale: 0.001}
grains:
  - lattice: {min: [-0.02, 0, 0.03], max: [0.02, 0.01, 0.05]}
    radius: 0.0009
run: {dt: 2.0e-5}
stages:
  - {name: still, steps: 200}
  - name: lift
    steps: 200
    walls: [{name: hopper, velocity: [0, 0, 0.01]}]
output: {folder: out, every: 0.002}
EOT
"$RUBBLE" run mesh_named.yaml --threads 1 --output M --quiet > /dev/null 2> err.txt ||
    { cat err.txt; fail "a named mesh wall moved by a stage"; }
col=$(head -1 M/thermo.csv | tr ',' '\n' | grep -n '^wall1_dz$' | cut -d: -f1)
awk -F, -v c="$col" 'NR > 1 { want = $1 > 0.004 ? 0.01 * ($1 - 0.004) : 0
    if ($c - want > 1e-12 || want - $c > 1e-12) bad++ } END { exit bad > 0 }' M/thermo.csv ||
    fail "the named mesh's wall1_dz is not 0.01 (t - 0.004)"
echo "ok: a mesh wall moved by its name in a stage"

# a stage's stiffer kn under a dt given (issue 70, st07: "dt ... is above the stability limit
# ... (dt: auto picks one)" without a file or line, the same to a scene under dt: auto): at
# the stage's kn, with the dt's line and what fits
sed -e 's/run: {dt: auto}/run: {dt: 5.0e-6}/' linear_staged.yaml > fixed_dt.yaml
grep -q "dt: 5.0e-6" fixed_dt.yaml || fail "fixed_dt.yaml was not made"
"$RUBBLE" run fixed_dt.yaml --threads 1 --output F > out.txt 2> err.txt && fail "a stage's kn too stiff for dt ran"
grep -q "error: stage 2 ('stiff') at step [0-9]*: fixed_dt.yaml:14:[0-9]*: contact.kn = 2e+06 N/m is too stiff for the run's dt: dt = 5e-06 s is above the stability limit.* so dt <= [0-9.e-]* s; give a 'dt' (line 10) that fits, or dt: auto, which fits every stage" err.txt ||
    fail "message: $(cat err.txt)"
echo "ok: $(cat err.txt)"
exit $failures
