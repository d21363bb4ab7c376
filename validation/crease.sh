#!/bin/sh
# A grain across a nearly flat concave crease of a mesh wall (issue 41, item 13): two facets
# meeting at 178 degrees (a drum of 180 facets), a glass grain of 1 mm released on one side, which
# slides (no friction) down into the valley and across the crease, up the other side and back.
# The same scene in rubble and LIGGGHTS (linear law, k_n = 100 N/m, absolute damping 0.02975
# N s/m: restitution 0.2 against a wall; dt 2e-5 s): the wall's vertical force every 10 steps.
# Crossing the crease the grain meets the second facet at v sin 2 degrees, a small impact; a
# contact model that counts the crease's overlap twice, or brings the second facet's whole
# overlap at once, jumps by about mg more. Writes docs/validation/crease.{csv,png,md}; seconds.
# Usage: validation/crease.sh RUBBLE
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/validation/common.sh"
validation_workspace "$@"
command -v liggghts > /dev/null || { echo "crease.sh: liggghts is missing (make deps-bench)" >&2; exit 1; }

# the valley: z = |x| tan(1 degree), x and y within 20 and 10 mm, two triangles a side
awk 'BEGIN { z = sin(3.14159265358979 / 180) / cos(3.14159265358979 / 180) * 0.02
    split("-0.02 -0.01 " z " -0.02 0.01 " z " 0 -0.01 0 0 0.01 0 0.02 -0.01 " z " 0.02 0.01 " z, v, " ")
    split("1 3 4 1 4 2 3 5 6 3 6 4", t, " ")
    print "solid valley"
    for (f = 0; f < 4; f++) {
        print " facet normal 0 0 1\n  outer loop"
        for (c = 1; c <= 3; c++) { i = t[3 * f + c] - 1
            printf "   vertex %.9g %.9g %.9g\n", v[3 * i + 1], v[3 * i + 2], v[3 * i + 3] }
        print "  endloop\n endfacet"
    }
    print "endsolid valley" }' > valley.stl
# the grain touching the left facet at x = -12 mm, at rest
x0=-0.012 z0=0.001209626
echo "$x0 0 $z0 0.001 0 0 0" > grains.txt
cat > crease.yaml <<YAML
domain: {min: [-0.02, -0.01, -0.005], max: [0.02, 0.01, 0.01]}
gravity: [0, 0, -9.81]
materials: [{name: glass, density: 2500}]
contact: {normal: linear, damping: linear, tangential: spring, kn: 100, gamma_n: 0.02975,
          friction: 0.0}
walls: [{mesh: valley.stl}]
grains: [{file: grains.txt}]
run: {steps: 60000, dt: 2e-5}
output: {folder: rubble, every: 1, thermo_every: 0.0002}
YAML
echo "== rubble"
"$RUBBLE" run crease.yaml --threads 1 --quiet > /dev/null
liggghts_data grains.txt -0.02 0.02 -0.01 0.01 -0.005 0.01 > grains.data
{ liggghts_preamble "f f f" grains.data
  liggghts_hooke_absolute 100 0.02975 0 0
  cat <<LIG
timestep 2e-5
fix gravi all gravity 9.81 vector 0.0 0.0 -1.0
fix cad all mesh/surface/stress file valley.stl type 1
fix walls all wall/gran model hooke/stiffness tangential history mesh n_meshes 1 meshes cad absolute_damping on
fix integr all nve/sphere
thermo_style custom step time f_cad[1] f_cad[3]
thermo_modify format float %.10g
thermo 10
run 60000
LIG
} > in.crease
echo "== LIGGGHTS"
liggghts -in in.crease -log none > liggghts.out
# time, wall force z in mg: rubble's (the force on the wall, so minus), LIGGGHTS' (the same)
mg=$(awk 'BEGIN { printf "%.12g", 2500 * 4 / 3 * 3.14159265358979 * 1e-9 * 9.81 }')
awk -F, -v mg="$mg" 'NR == 1 { for (k = 1; k <= NF; k++) c[$k] = k; next }
    { printf "%s %.6f\n", $c["time"], -$c["wall1_fz"] / mg }' rubble/thermo.csv > r.txt
awk -v mg="$mg" '/^ *Step/ { on = 1; next } /^Loop/ { on = 0 }
    on && NF == 4 && $1 ~ /^[0-9]+$/ { z = $4 < 0 ? -$4 : $4; printf "%s %.6f\n", $2, z / mg }' \
    liggghts.out > l.txt
join_rows() { awk 'NR == FNR { l[NR] = $2; next } { print $1, $2, l[FNR] }' l.txt r.txt; }
{ echo "time,rubble_fz_mg,liggghts_fz_mg"; join_rows | tr ' ' ','; } > "$DOCS/crease.csv"
# the crossings: where the grain passes x = 0 (rubble's wall force along x changes sign)
crossings=$(awk -F, 'NR == 1 { for (k = 1; k <= NF; k++) c[$k] = k; next }
    { f = $c["wall1_fx"]; if (NR > 2 && f * last < 0 && $c["time"] > 0.05) printf "%s ", $c["time"]; last = f }' \
    rubble/thermo.csv)
echo "crossings at: $crossings"
{
    echo "# A grain across a crease of 178° (issue 41)"
    echo
    echo "\`validation/crease.sh\` ($(date -u +%Y-%m-%d)): a glass grain of 1 mm slides without"
    echo "friction down a 1° facet into a valley of two facets meeting at 178°, across the crease,"
    echo "up the other side and back; linear law, k_n = 100 N/m, damping 0.02975 N s/m, dt 2e-5 s;"
    echo "the wall's vertical force every 10 steps, in units of the grain's weight mg. At rest it"
    echo "is 1 mg. Crossing, the grain meets the second facet at v sin 2° (about 2.2 mm/s of"
    echo "0.064 m/s): a small impact, the same in both programs; a force counted twice shows as a"
    echo "jump of about 1 mg on top."
    echo
    echo "| crossing | rubble: largest change between rows | LIGGGHTS | rubble: range | LIGGGHTS: range |"
    echo "|---|---|---|---|---|"
    for tc in $crossings; do
        awk -F, -v tc="$tc" 'NR > 1 && $1 > tc - 0.003 && $1 < tc + 0.003 {
                if (n++) { dr = $2 - pr; dl = $3 - pl; dr = dr < 0 ? -dr : dr; dl = dl < 0 ? -dl : dl
                           if (dr > jr) jr = dr; if (dl > jl) jl = dl }
                if (!n1++ || $2 < rl) rl = $2; if ($2 > rh) rh = $2
                if (n1 == 1 || $3 < ll) ll = $3; if ($3 > lh) lh = $3
                pr = $2; pl = $3 }
            END { printf "| %.4f s | %.3f mg | %.3f mg | %.3f–%.3f mg | %.3f–%.3f mg |\n", tc, jr, jl, rl, rh, ll, lh }' \
            "$DOCS/crease.csv"
    done
    echo
    echo "The impulse the crossing takes beyond the weight, the integral of F - mg over 3 ms before"
    echo "to 6 ms after it, must turn the grain's velocity from 1° down to 1° up: 2 m v sin 1°,"
    echo "v = sqrt(2 g h) from the drop h = 12 mm tan 1° (damping takes a little):"
    echo
    echo "| crossing | expected | rubble | LIGGGHTS |"
    echo "|---|---|---|---|"
    for tc in $crossings; do
        awk -F, -v tc="$tc" 'BEGIN { d = 3.14159265358979 / 180; v = sqrt(2 * 9.81 * 0.012 * sin(d) / cos(d))
                                     want = 2 * v * sin(d) / 9.81 * 1000 }
            NR > 1 && $1 > tc - 0.003 && $1 < tc + 0.006 { r += ($2 - 1) * 0.0002; l += ($3 - 1) * 0.0002 }
            END { printf "| %.4f s | %.3f mg ms | %.3f mg ms (%+.0f %%) | %.3f mg ms (%+.0f %%) |\n", tc, want,
                  r * 1000, (r * 1000 / want - 1) * 100, l * 1000, (l * 1000 / want - 1) * 100 }' "$DOCS/crease.csv"
    done
    echo
    echo "![the wall's force across the crease](crease.png)"
} > section.md
cp section.md "$DOCS/crease.md"
cat section.md
set -- $crossings
gnuplot -e "dir='$DOCS'; t1=$1; t2=${2:-$1}" "$ROOT/validation/crease.gp"
