#!/bin/sh
# Discharge of a wedge hopper through an STL surface (issue 14): rubble against LIGGGHTS 3.8 on
# the same scene (the same STL, the same file of 5776 grains, the same linear law with absolute
# damping, the same dt), and against Beverloo's law for a slot. The hopper: examples/hopper.stl
# (walls 60 degrees from horizontal above a 12 mm slot, vertical above), here cut to the
# periodic slice y in [0, 10 mm] so that LIGGGHTS takes it inside its box.
# Writes docs/validation/silo.md, silo.png and the counts (silo-*.csv).
# Usage: validation/silo.sh RUBBLE
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/validation/common.sh"
validation_workspace "$@"

DT=5e-6; TIME=1.5; STEPS=300000; KN=2000; GN=0.0055; GT=0.005; MU=0.5
stl_slice "$ROOT/examples/hopper.stl" > hopper.stl
cat > start.yaml <<YAML
domain: {min: [-0.045, 0, -0.004], max: [0.045, 0.01, 0.15], periodic: [y]}
gravity: [0, 0, -9.81]
materials: [{name: glass, density: 2500}]
contact: {normal: linear, tangential: spring, kn: $KN, gamma_n: $GN, gamma_t: $GT, friction: $MU}
walls: [{mesh: hopper.stl, scale: 0.001}]
grains:
  - lattice: {min: [-0.039, 0, 0.062], max: [0.039, 0.01, 0.14]}
    radius: {distribution: uniform, min: 0.0009, max: 0.001}
    velocity_spread: 0.05
run: {steps: 1, dt: $DT}
output: {folder: start, final: grains.txt}
YAML
"$RUBBLE" run start.yaml --quiet > /dev/null
N=$(grep -vc '^#' start/grains.txt)
echo "== $N grains, rubble"
from_start start.yaml $STEPS "folder: out, thermo_every: 0.01" > silo.yaml
"$RUBBLE" run silo.yaml --quiet > silo_rbl.txt
awk -F, -v n=$N 'NR == 1 { for (c = 1; c <= NF; c++) if ($c == "lost") col = c; next }
    { printf "%.4f,%d\n", $1, $col }' out/thermo.csv > rubble.csv

echo "== LIGGGHTS"
liggghts_data start/grains.txt -0.045 0.045 0 0.01 -0.004 0.15 > silo.data
{ liggghts_preamble "f p f" silo.data "* 1 1"
  liggghts_hooke_absolute $KN $GN $GT $MU; cat <<LIG
timestep $DT
fix hopper all mesh/surface file hopper.stl type 1 scale 0.001
fix walls all wall/gran model hooke/stiffness tangential history mesh n_meshes 1 meshes hopper absolute_damping on
fix gravi all gravity 9.81 vector 0.0 0.0 -1.0
fix integr all nve/sphere
thermo_style custom step time atoms
thermo_modify lost ignore norm no
thermo 2000
run $STEPS
LIG
} > silo.lig
mpirun --allow-run-as-root -np 2 liggghts -log none -in silo.lig > silo_lig.txt 2>&1
awk -v n=$N '$1 == "Step" { on = 1; next } /^Loop time/ { on = 0 } on && NF == 3 && $1 ~ /^[0-9]+$/ { printf "%.4f,%d\n", $2, n - $3 }' \
    silo_lig.txt > liggghts.csv
cp rubble.csv "$DOCS/silo-rubble.csv"
cp liggghts.csv "$DOCS/silo-liggghts.csv"

# the steady rate: grains out per second between 20 % and 70 % of the hopper out (least squares)
rate() {
    awk -F, -v n=$N '$2 >= 0.2 * n && $2 <= 0.7 * n { k++; sx += $1; sy += $2; sxx += $1 * $1; sxy += $1 * $2 }
        END { printf "%.1f", (k * sxy - sx * sy) / (k * sxx - sx * sx) }' "$1"
}
r_rbl=$(rate rubble.csv); r_lig=$(rate liggghts.csv)
# Beverloo for a slot of width b and length L (2D flow): W = C rho_b sqrt(g) (b - k d)^(3/2) L,
# with C = 1.03 and k = 1.5, values of the order reported for slot orifices (they vary from one
# study to the next), bulk density 0.6 of the solid, mean d = 1.9 mm
bev=$(awk 'BEGIN { d = 0.0019; b = 0.012; L = 0.01; rho = 0.6 * 2500; m = 2500 * 3.141592653589793 / 6 * d^3;
    printf "%.1f", 1.03 * rho * sqrt(9.81) * (b - 1.5 * d)^1.5 * L / m }')
echo "rate: rubble $r_rbl grains/s, LIGGGHTS $r_lig grains/s, Beverloo $bev grains/s"
gnuplot -e "dir='$DOCS'; n=$N" "$ROOT/validation/silo.gp"
{
echo "# Hopper discharge through an STL surface"
echo
echo "Made by \`validation/silo.sh RUBBLE\` (part of \`make validate\`). The hopper of"
echo "examples/hopper.stl (walls 60 degrees from horizontal above a 12 mm slot, vertical walls"
echo "above, periodic in y over 10 mm: a slice of a long slot hopper) holds $N glass beads of"
echo "0.9-1 mm radius, released from a jittered lattice. rubble and LIGGGHTS 3.8 start from the"
echo "same file of grains with the same STL (scale 0.001), the same linear law with absolute"
echo "damping (k_n = $KN N/m, k_t = 2/7 k_n, gamma_n = $GN N s/m, gamma_t = $GT N s/m, mu = $MU) and"
echo "dt = $DT s; LIGGGHTS on 2 MPI ranks. The rate is the least-squares slope of grains out"
echo "against time while 20-70 % of them are out."
echo
echo "| | grains out per second | relative to rubble |"
echo "|---|---|---|"
awk -v a="$r_rbl" -v b="$r_lig" -v c="$bev" 'BEGIN {
    printf "| rubble | %.0f | |\n", a
    printf "| LIGGGHTS 3.8 | %.0f | %+.1f %% |\n", b, 100 * (b - a) / a
    printf "| Beverloo, slot: C = 1.03, k = 1.5, bulk 0.6 | %.0f | %+.1f %% |\n", c, 100 * (c - a) / a }'
echo
echo "![grains out of the hopper over time](silo.png)"
echo
echo "Beverloo's law is for a flat-bottomed silo; a hopper whose walls are 30 degrees from the"
echo "vertical discharges faster (the walls turn the flow towards the slot), and its constants"
echo "C and k are fitted to experiments and differ between studies by some tens of per cent."
echo "It checks the order of magnitude; the two codes on the same scene check each other."
} > silo.md
cp silo.md "$DOCS/silo.md"
cat silo.md
