#!/bin/sh
# The seed's mid-step velocity Verlet evaluates forces with half-step velocities; the
# synchronized variant with velocities predicted at t + dt (issue 3). Both settle the same
# polydisperse pile (radii 0.25-1 mm, ratio 4) from the same file of grains, with friction and
# tangential damping, at the same dt (C = 0.05 of the smallest pair's contact). Kinetic energy
# against time shows how each comes to rest; the floor force against the weight shows whether
# the pile is truly static. Appends a section to docs/validation/dem.md.
# Usage: validation/integrators.sh RUBBLE
set -eu
RUBBLE=$1
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/validation/section.sh"
DOCS=$ROOT/docs/validation
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
cat > start.yaml <<'YAML'
domain: {min: [0, 0, -0.001], max: [0.02, 0.02, 0.06], periodic: [x, y]}
gravity: [0, 0, -9.81]
materials: [{name: glass, density: 2500}]
contact: {normal: linear, damping: linear, tangential: spring, kn: 2000, restitution: 0.5,
          gamma_t: 0.002, friction: 0.5}
walls: [{point: [0, 0, 0], normal: [0, 0, 1]}]
grains:
  - random: {min: [0, 0, 0], max: [0.02, 0.02, 0.05], count: 2000}
    radius: {distribution: uniform, min: 0.00025, max: 0.001}
run: {steps: 1, dt: auto, c: 0.05}
output: {folder: start, final: grains.txt}
YAML
"$RUBBLE" run start.yaml --quiet > /dev/null
for integ in midstep synchronized; do
    sed "s|  - random: .*|  - file: start/grains.txt|; /^    radius: {distribution/d;
         s|run: {steps: 1, dt: auto, c: 0.05}|run: {time: 0.5, dt: auto, c: 0.05, integrator: $integ}|;
         s|output: {folder: start, final: grains.txt}|output: {folder: $integ, thermo_every: 0.002}|" start.yaml > $integ.yaml
    "$RUBBLE" run $integ.yaml --quiet > $integ.txt
    cp $integ/thermo.csv "$DOCS/dem-pile-$integ.csv"
done
gnuplot -e "dir='$DOCS'" "$ROOT/validation/integrators.gp"
weight=$(awk '!/^#/ { m += 2500 * 4 / 3 * 3.141592653589793 * $4^3 } END { printf "%.6g", m * 9.81 }' start/grains.txt)
{
echo
echo "## Mid-step vs synchronized velocities on a polydisperse pile (validation/integrators.sh)"
echo
echo "2000 beads, radii uniform in 0.25-1 mm (ratio 4), linear spring-dashpot (e = 0.5 for the mean"
echo "pair), tangential spring with mu = 0.5, dt = 0.05 of the shortest contact, 0.5 s of settling"
echo "from the same file of grains. Weight of the pile: $weight N."
echo
echo "| integrator | kinetic energy at 0.25 s, J | at 0.5 s, J | floor force at 0.5 s / weight |"
echo "|---|---|---|---|"
for integ in midstep synchronized; do
    awk -F, -v w="$weight" -v name=$integ 'NR > 1 { t = $1; if (t <= 0.25 + 1e-9) k5 = $5 + $6; k = $5 + $6; fz = -$15 }
        END { printf "| %s | %.3e | %.3e | %.4f |\n", name, k5, k, fz / w }' "$DOCS/dem-pile-$integ.csv"
done
echo
echo "![pile](dem-pile.png)"
echo
echo "What this shows, measured here: both piles carry their weight on the floor and come to a"
echo "residual kinetic energy of 1e-10 to 1e-9 J (the grains still creep); the curves part only"
echo "where the pile's chaos makes any two runs part. The mid-step velocities do not produce a"
echo "visible spurious static friction on this pile; the synchronized prediction (first order"
echo "in dt) leaves slightly more residual motion. A sharper test, a polydisperse pile tilted"
echo "close to its friction angle, is still to be done."
} > integrators.md
cat integrators.md
replace_section "$DOCS/dem.md" "Mid-step vs synchronized" integrators.md
