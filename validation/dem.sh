#!/bin/sh
# Validation of the soft-sphere engine (SPEC SD11a, issue 3): restitution and the seed's C
# iteration (seed 002 Fig. 6), the (k_n, gamma) map (Fig. 7), the 1e5-step elastic gas, and the
# C tests' physics checks (Hertz, rolling, momentum, threads, restart). Writes CSVs, PNGs and
# docs/validation/dem.md. Usage: validation/dem.sh RUBBLE BUILD_DIR
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/validation/common.sh"
validation_workspace "$@"
: "${BUILD:?usage: $0 RUBBLE BUILD_DIR}"

echo "== Fig. 6: the C iteration (drop and head-on pair, seed parameters)"
# every C from 0.1 down to 0.1/2^9 (a tolerance no C meets, so the iteration never stops)
"$RUBBLE" calibrate --case drop --tol 1e-12 --halvings 9 --csv "$DOCS/dem-c-drop.csv" > drop.txt || true
"$RUBBLE" calibrate --case pair --tol 1e-12 --halvings 9 --csv "$DOCS/dem-c-pair.csv" > pair.txt || true
"$RUBBLE" calibrate --case drop > drop-seed.txt
"$RUBBLE" calibrate --case pair > pair-seed.txt
cat drop-seed.txt pair-seed.txt

echo "== Fig. 7: e over (k_n, gamma), head-on pairs, v0 = 0.01 m/s"
"$RUBBLE" calibrate --map --kn-range 1e4:1e6:41 --gamma-range 0:2000:41 --csv "$DOCS/dem-map-seed.csv"
"$RUBBLE" calibrate --map --c 0.01 --kn-range 1e4:1e6:41 --gamma-range 0:2000:41 --csv "$DOCS/dem-map-c001.csv"

echo "== elastic gas: 1000 grains, gamma = 0, mu = 0, periodic, 1e5 steps"
cat > gas.yaml <<'YAML'
domain: {min: [0, 0, 0], max: [0.05, 0.05, 0.05], periodic: [x, y, z]}
materials: [{name: glass, density: 2500}]
contact: {normal: linear, damping: linear, tangential: none, kn: 2000, gamma_n: 0}
grains:
  - random: {min: [0, 0, 0], max: [0.05, 0.05, 0.05], count: 1000}
    radius: {distribution: uniform, min: 0.0009, max: 0.0011}
    velocity_spread: 0.5
run: {steps: 100000, dt: auto, c: 0.01}
output: {folder: gas, thermo_every: 0.001}
YAML
gas_rows=""
for c in 0.02 0.01 0.005; do
    sed "s/c: 0.01}/c: $c}/" gas.yaml > gas_$c.yaml
    "$RUBBLE" run gas_$c.yaml --quiet --output gas_$c > gas_$c.txt
    cp gas_$c/thermo.csv "$DOCS/dem-gas-thermo-$c.csv"
    row=$(awk -F, -v c=$c 'NR == 2 { e0 = $9 } NR > 1 { d = ($9 - e0) / e0; if (d < 0) d = -d;
          if (d > m) m = d; t = $1; k += $10 } END { printf "| %s | %.0f | %.4f | %.2e | %d |", c, 1 / c, t, m, k }' gas_$c/thermo.csv)
    gas_rows="$gas_rows$row
"
done
cat gas_0.01.txt

echo "== physics tests (their printed numbers)"
"$BUILD/tests/test_dem_restitution" > restitution.txt
"$BUILD/tests/test_dem_conservation" > conservation.txt
"$BUILD/tests/test_dem_friction" > friction.txt
"$BUILD/tests/test_dem_checkpoint" > checkpoint.txt

echo "== plots"
gnuplot -e "dir='$DOCS'" "$ROOT/validation/dem.gp"

{
echo "# Soft-sphere engine: validation"
echo
echo "Made by \`make validate\` (validation/dem.sh) on $(date -u +%Y-%m-%d), $(nproc) cores."
echo "Seed 002 (\"AstroDEM\") §3.1 parameters unless said: k_n = 1e5 N/m, gamma = 100 N s/m,"
echo "rho = 2000 kg/m^3, r = 0.1 m, linear spring-dashpot, mid-step velocity Verlet."
echo
echo "## Which reference"
echo
echo "- **Head-on pair, no gravity**: the closed form e = exp(-pi gamma / sqrt(4 m_eff k_n - gamma^2)),"
echo "  m_eff = m/2: e = 0.7839."
echo "- **Drop on a plane**: the weight keeps pressing during the contact, so the closed form"
echo "  (g = 0, m_eff = m: e = 0.8421, the seed's 'e ~ 0.84') is *not* the reference. We compare"
echo "  with the exact solution of m xi'' + gamma xi' + k_n xi = m g from xi = 0, xi' = sqrt(2 g h0)"
echo "  to its return to xi = 0 (closed form plus a root search): e = 0.8284 for h0 = 0.1 m."
echo "  The simulated v/v0 and sqrt(h/h0) agree with each other to 1e-6."
echo
echo "## The C iteration (seed Fig. 6)"
echo
echo "dt = C pi / omega; C halves from 0.1 until |e_sim - e_ref| < 0.005 (\`rubble calibrate\`):"
echo
echo '```'
cat drop-seed.txt
echo
cat pair-seed.txt
echo '```'
echo
echo "![C iteration](dem-c-iteration.png)"
echo
echo "Convergence is first order in C: the damping force jumps to gamma v0 when a contact"
echo "begins, and where in a step that happens (the onset phase) moves e by up to"
echo "~gamma dt / m_eff. Over 8 onset phases the head-on error is at most 0.32 C"
echo "(tests/test_dem_restitution.c):"
echo
echo '```'
grep '^C = ' restitution.txt
echo '```'
echo
echo "So the 0.005 of SD11a holds for every phase from C <= 0.0125 (80 steps per contact); at"
echo "the seed's C = 0.05 it holds only for lucky phases."
echo
echo "## The (k_n, gamma) map (seed Fig. 7)"
echo
echo "Head-on pairs with v0 = 0.01 m/s, 41 x 41 grid, k_n from 1e4 to 1e6, gamma from 0 to 2000;"
echo "overdamped points (gamma^2 >= 4 m_eff k_n) left white as in the seed. Left: the seed's"
echo "strategy (C from the iteration at gamma = 0, the same dt for every gamma of that k_n)."
echo "Right: C = 0.01 everywhere."
echo
echo "![e map](dem-map.png)"
echo
awk -F, 'NR > 1 && NF > 1 { if ($6 > m) m = $6; s += $6; n++ } END {
    printf "- seed strategy: max |e_sim - e_theory| = %.3f, mean %.4f over %d points\n", m, s / n, n }' "$DOCS/dem-map-seed.csv"
awk -F, 'NR > 1 && NF > 1 { if ($6 > m) m = $6; s += $6; n++ } END {
    printf "- C = 0.01: max |e_sim - e_theory| = %.4f, mean %.5f over %d points\n", m, s / n, n }' "$DOCS/dem-map-c001.csv"
echo
echo "The seed's strategy picks C = 0.1 wherever gamma = 0 already matches (an undamped spring"
echo "is integrated well at 20 steps per contact); with damping that step is too coarse, by up"
echo "to the maximum above. Choose C from the damped case, or C <= 0.0125."
echo
echo "## Hertz"
echo
echo "Two spheres, F = k_H xi^(3/2), no damping, v0 = 0.5 m/s, C = 0.005: contact duration"
echo "2 xi_max / v0 * (2/5) B(2/5, 1/2) and xi_max = (5 m_eff v0^2 / (4 k_H))^(2/5)."
echo
echo '```'
grep '^hertz' restitution.txt
echo '```'
echo
echo "## Energy, momentum, rolling, threads, restart"
echo
echo "- Elastic gas: 1000 grains (r 0.9-1.1 mm, 3.4 % solid), periodic box, gamma = 0, mu = 0,"
echo "  velocities uniform in +-0.5 m/s, 1e5 steps at three step sizes. SD11a asks |dE|/E < 1e-5"
echo "  over 1e5 steps: $(printf "%s" "$gas_rows" | awk -F'|' '
    { c = $2 + 0; e = $5 + 0; if (e < 1e-5) met = met (met ? ", " : "") c; else missed = missed (missed ? ", " : "") c }
    END { printf "met at C = %s, missed at C = %s", met ? met : "none", missed ? missed : "none" }')"
echo "  in this run (the table). Where it is missed, the velocity Verlet's error at contact"
echo "  onsets (the force's slope jumps there) adds up to a slow drift; \`dt: auto\` takes"
echo "  C = 0.02 unless \`run.c\` says otherwise (docs/scenes.md):"
echo
echo "| C | steps per contact | simulated time, s | max \\|E(t) - E(0)\\| / E(0) | contacts at samples |"
echo "|---|---|---|---|---|"
printf "%s" "$gas_rows"
echo
echo "![energy](dem-gas-energy.png)"
echo
echo '```'
cat conservation.txt friction.txt checkpoint.txt
echo '```'
echo
echo "- Momentum without walls: conserved to 1e-13 of sum m|v| (asserted every 500 steps)."
echo "- Rolling: the seed's lever arm l1 = r - xi makes the final speed v0 / (1 + 0.4 (r/l1)^2),"
echo "  a little below 5/7 v0 (the line 'seed' above; within the 1 % asked)."
echo
echo "## Runs"
echo
echo '```'
cat gas_0.01.txt
echo '```'
} > "$DOCS/dem.md.tmp"
mv "$DOCS/dem.md.tmp" "$DOCS/dem.md"
echo "written: $DOCS/dem.md"
