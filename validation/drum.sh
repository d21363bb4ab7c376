#!/bin/sh
# A rotating drum's dynamic angle of repose (issue 14): rubble against LIGGGHTS 3.8 on the same
# scene. The drum of examples/drum.stl (radius 40 mm about y, 72 facets round), cut to the
# periodic slice y in [0, 10 mm] so that LIGGGHTS takes it inside its box, turns at 20 rpm;
# both start from the same file of grains with the same linear law (absolute damping) and dt.
# Every 0.05 s from t = 1.0 to 2.5 s (the first second brings the bed to its steady rolling) each
# program's grains give the surface's angle over the middle of the drum and the bed's centre
# of mass (drum_angle.awk); rubble's are read from its final file after runs that restart
# from each other's checkpoints (bit for bit one run). rubble's torque on the drum is checked
# against the bed's weight times its centre's lever: in a steady state they balance.
# Writes docs/validation/drum.md, drum.png and the samples (drum-*.csv).
# Usage: validation/drum.sh RUBBLE
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/validation/common.sh"
validation_workspace "$@"

DT=5e-6; RPM=20; KN=2000; GN=0.0055; GT=0.005; MU=0.5
SAMPLE=10000          # steps between samples: 0.05 s
FIRST=20; LAST=50     # samples 20 .. 50: t = 1.0 .. 2.5 s
stl_slice "$ROOT/examples/drum.stl" > drum.stl
cat > start.yaml <<YAML
domain: {min: [-0.045, 0, -0.045], max: [0.045, 0.01, 0.045], periodic: [y]}
gravity: [0, 0, -9.81]
materials: [{name: glass, density: 2500}]
contact: {normal: linear, tangential: spring, kn: $KN, gamma_n: $GN, gamma_t: $GT, friction: $MU}
walls: [{mesh: drum.stl, scale: 0.001, rotate: {axis: [0, 1, 0], point: [0, 0, 0], rpm: $RPM}}]
grains:
  - lattice: {min: [-0.025, 0, -0.028], max: [0.025, 0.01, 0.004]}
    radius: {distribution: uniform, min: 0.0009, max: 0.001}
    velocity_spread: 0.05
run: {steps: 1, dt: $DT}
output: {folder: start, final: grains.txt}
YAML
"$RUBBLE" run start.yaml --quiet > /dev/null
N=$(grep -vc '^#' start/grains.txt)
echo "== $N grains, rubble"
from_start start.yaml $((LAST * SAMPLE)) \
    "folder: out, final: grains.txt, thermo_every: 0.01, checkpoint_every: 0.05" > drum.yaml
: > rubble.csv
k=1; previous=
while [ $k -le $LAST ]; do
    steps=$((k * SAMPLE))
    "$RUBBLE" run drum.yaml --quiet --steps $steps $previous > /dev/null
    previous="--restart out/$(printf 'checkpoint_%09d.bin' $steps)"
    [ $k -lt $FIRST ] || awk -v t="$(awk -v s=$steps -v dt=$DT 'BEGIN { print s * dt }')" \
        '{ printf "%.2f,%s,%s,%s\n", t, $1, $2, $3 }' <<EOT >> rubble.csv
$(awk -f "$ROOT/validation/drum_angle.awk" out/grains.txt)
EOT
    k=$((k + 1))
done
# the torque on the drum about its axis, averaged over the samples' span, against the bed's
# weight W times its centre's mean lever (the torque of gravity about the axis: W x_com)
W=$(awk '!/^#/ { w += 2500 * 4 / 3 * 3.141592653589793 * $4 * $4 * $4 * 9.81 } END { printf "%.10g", w }' start/grains.txt)
torque=$(awk -F, -v t0=1.0 'NR == 1 { for (c = 1; c <= NF; c++) if ($c == "wall1_ty") col = c; next }
    $1 >= t0 { s += $col; n++ } END { printf "%.6g", s / n }' out/thermo.csv)

echo "== LIGGGHTS"
liggghts_data start/grains.txt -0.045 0.045 0 0.01 -0.045 0.045 > drum.data
PERIOD=$(awk -v r=$RPM 'BEGIN { printf "%.15g", 60 / r }')
{ liggghts_preamble "f p f" drum.data "* 1 1"
  liggghts_hooke_absolute $KN $GN $GT $MU; cat <<LIG
timestep $DT
fix drum all mesh/surface file drum.stl type 1 scale 0.001
fix turn all move/mesh mesh drum rotate origin 0. 0. 0. axis 0. 1. 0. period $PERIOD
fix walls all wall/gran model hooke/stiffness tangential history mesh n_meshes 1 meshes drum absolute_damping on
fix gravi all gravity 9.81 vector 0.0 0.0 -1.0
fix integr all nve/sphere
thermo_style custom step time atoms
thermo 10000
dump d all custom $SAMPLE dump.*.txt x y z radius
dump_modify d sort id
run $((LAST * SAMPLE))
LIG
} > drum.lig
mpirun --allow-run-as-root -np 2 liggghts -log none -in drum.lig > drum_lig.txt 2>&1
: > liggghts.csv
k=$FIRST
while [ $k -le $LAST ]; do
    steps=$((k * SAMPLE))
    awk 'f { print } /^ITEM: ATOMS/ { f = 1 }' dump.$steps.txt > grains_$k.txt
    awk -v t="$(awk -v s=$steps -v dt=$DT 'BEGIN { print s * dt }')" \
        '{ printf "%.2f,%s,%s,%s\n", t, $1, $2, $3 }' <<EOT >> liggghts.csv
$(awk -f "$ROOT/validation/drum_angle.awk" grains_$k.txt)
EOT
    k=$((k + 1))
done
cp rubble.csv "$DOCS/drum-rubble.csv"
cp liggghts.csv "$DOCS/drum-liggghts.csv"

mean() { awk -F, -v c="$2" '{ s += $c; n++ } END { printf "%.4g", s / n }' "$1"; }
spread() { awk -F, -v c="$2" '{ s += $c; q += $c * $c; n++ } END { v = q / n - (s / n)^2; printf "%.2g", sqrt(v > 0 ? v : 0) }' "$1"; }
a_rbl=$(mean rubble.csv 2); a_lig=$(mean liggghts.csv 2)
s_rbl=$(spread rubble.csv 2); s_lig=$(spread liggghts.csv 2)
x_rbl=$(mean rubble.csv 3); x_lig=$(mean liggghts.csv 3)
lever=$(awk -v w="$W" -v x="$x_rbl" 'BEGIN { printf "%.6g", w * x }')
echo "angle: rubble $a_rbl ($s_rbl) LIGGGHTS $a_lig ($s_lig) degrees; x_com $x_rbl / $x_lig m; torque $torque vs W x_com $lever N m"
gnuplot -e "dir='$DOCS'; n=$N; rpm=$RPM" "$ROOT/validation/drum.gp"
{
echo "# Rotating drum: the dynamic angle of repose"
echo
echo "Made by \`validation/drum.sh RUBBLE\` (part of \`make validate\`). The drum of"
echo "examples/drum.stl (a cylinder of radius 40 mm about y, 72 facets round; periodic in y"
echo "over 10 mm: a slice of a long drum) holds $N glass beads of 0.9-1 mm radius and turns at"
echo "$RPM rpm (Froude number w^2 R / g = $(awk -v r=$RPM 'BEGIN { w = r * 2 * 3.141592653589793 / 60; printf "%.3f", w * w * 0.04 / 9.81 }'): the rolling regime). rubble"
echo "and LIGGGHTS 3.8 (\`move/mesh rotate\`) start from the same file of grains with the same"
echo "STL, the same linear law with absolute damping (k_n = $KN N/m, k_t = 2/7 k_n, gamma_n ="
echo "$GN N s/m, gamma_t = $GT N s/m, mu = $MU, grains and drum alike) and dt = $DT s;"
echo "LIGGGHTS on 2 MPI ranks. Every 0.05 s from t = 1.0 to 2.5 s the free surface's height over the"
echo "middle 40 mm of the drum (bins of 3 mm, the highest grain's top) is fitted by a line"
echo "(validation/drum_angle.awk); the table gives the mean over these $((LAST - FIRST + 1)) samples and their"
echo "spread (the surface moves as grains avalanche)."
echo
echo "| | dynamic angle of repose | spread | bed's centre of mass x |"
echo "|---|---|---|---|"
echo "| rubble | $a_rbl deg | $s_rbl deg | $x_rbl m |"
echo "| LIGGGHTS 3.8 | $a_lig deg | $s_lig deg | $x_lig m |"
echo
awk -v a="$a_rbl" -v b="$a_lig" -v sa="$s_rbl" -v sb="$s_lig" -v n=$((LAST - FIRST + 1)) 'BEGIN { d = b - a; if (d < 0) d = -d
    printf "The two programs are %.1f degrees apart; the samples of each spread by %s and %s degrees\n", d, sa, sb
    printf "about their mean (a standard error of %.1f and %.1f over %d samples, a lower bound: samples\n", sa / sqrt(n), sb / sqrt(n), n
    printf "0.05 s apart are not independent, an avalanche lasts longer). How far the mean itself\n"
    printf "moves: a change of rubble that altered only the round-off of its sums (the partners summed\n"
    printf "in id order) moved its mean over 7 samples 0.25 s apart from 18.1 to 17.3 degrees.\n" }'
echo
echo "![angle and centre of mass over time](drum.png)"
echo
echo "The drum's torque about its axis (rubble's thermo.csv, wall1_ty, mean over t >= 1 s):"
echo "$torque N m; the bed's weight times its centre's mean lever, W x_com: $lever N m. In a"
echo "steady state the drum holds the bed where gravity would turn it back, so the two balance;"
echo "they are sampled differently (every 0.01 s against the samples every 0.05 s), so they agree to the"
echo "bed's fluctuation, not to round-off."
} > drum.md
cp drum.md "$DOCS/drum.md"
cat drum.md
