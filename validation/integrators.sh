#!/bin/sh
# The seed's mid-step velocity Verlet evaluates forces with half-step velocities; the
# synchronized variant with velocities predicted at t + dt (issue 3). Both settle the same
# polydisperse pile (radii 0.25-1 mm, ratio 4) from the same file of grains, with friction and
# tangential damping, at the same dt (C = 0.05 of the smallest pair's contact). Kinetic energy
# against time shows how each comes to rest; the floor force against the weight shows whether
# the pile is truly static. Appends a section to docs/validation/dem.md.
# Usage: validation/integrators.sh RUBBLE
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/validation/common.sh"
validation_workspace "$@"
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
         s|output: {folder: start, final: grains.txt}|output: {folder: $integ, thermo_every: 0.002, final: settled.txt}|" start.yaml > $integ.yaml
    "$RUBBLE" run $integ.yaml --quiet > $integ.txt
    cp $integ/thermo.csv "$DOCS/dem-pile-$integ.csv"
done

# The sharper test: the settled pile (the mid-step one, for all runs) under gravity tilted by
# theta about y, 0.2 s each, with the tangential spring and with the seed's scalar history D_H.
# Below the pile's friction angle it stays arrested; above it the pile flows. A spurious static
# friction of the mid-step velocities would move its arrest to larger angles than the
# synchronized variant's.
ANGLES="12 14 16 18 20 22 24"
echo "law,integrator,theta_deg,kinetic_0_05,kinetic_0_2,vx_mean_0_2" > "$DOCS/dem-incline.csv"
for law in spring seed; do
    for th in $ANGLES; do
        g=$(awk -v t="$th" 'BEGIN { a = t * 3.141592653589793 / 180; printf "%.9g, 0, %.9g", 9.81 * sin(a), -9.81 * cos(a) }')
        for integ in midstep synchronized; do
            name=tilt_${law}_${integ}_$th
            sed "s|  - random: .*|  - file: midstep/settled.txt|; /^    radius: {distribution/d;
                 s|gravity: .*|gravity: [$g]|; s|tangential: spring|tangential: $law|;
                 s|run: {steps: 1, dt: auto, c: 0.05}|run: {time: 0.2, dt: auto, c: 0.05, integrator: $integ, threads: 1}|;
                 s|output: {folder: start, final: grains.txt}|output: {folder: $name, thermo_every: 0.01, final: end.txt}|" \
                start.yaml > $name.yaml
        done
        # the two integrators side by side, one thread each
        "$RUBBLE" run tilt_${law}_midstep_$th.yaml --quiet > /dev/null &
        "$RUBBLE" run tilt_${law}_synchronized_$th.yaml --quiet > /dev/null
        wait
        for integ in midstep synchronized; do
            name=tilt_${law}_${integ}_$th
            k05=$(awk -F, 'NR > 1 && $1 <= 0.05 + 1e-9 { k = $5 + $6 } END { printf "%.4e", k }' $name/thermo.csv)
            k2=$(awk -F, 'NR > 1 { k = $5 + $6 } END { printf "%.4e", k }' $name/thermo.csv)
            vx=$(awk '!/^#/ && NF >= 7 { s += $5; n++ } END { printf "%.4e", s / n }' $name/end.txt)
            echo "$law,$integ,$th,$k05,$k2,$vx" >> "$DOCS/dem-incline.csv"
        done
    done
done
cat "$DOCS/dem-incline.csv"
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
echo "in dt) leaves slightly more residual motion."
echo
echo "### The sharper test: the pile tilted near its friction angle"
echo
echo "The settled pile (the mid-step one, the same file for every run) under gravity tilted by"
echo "theta about y, 0.2 s per angle, periodic in x and y, with the tangential spring (Coulomb"
echo "limit) and with the seed's scalar history D_H (seed 002 §2.3.2). Below the pile's friction"
echo "angle it stays arrested; above it the pile flows down the floor and its kinetic energy"
echo "grows. A spurious static friction of the mid-step velocities would keep its pile arrested"
echo "at angles where the synchronized one flows."
echo
echo "Kinetic + rotational energy at 0.2 s, J:"
echo
echo "| theta | spring, mid-step | spring, synchronized | D_H, mid-step | D_H, synchronized |"
echo "|---|---|---|---|---|"
for th in $ANGLES; do
    awk -F, -v th="$th" '$3 == th { k[$1 "," $2] = $5 }
        END { printf "| %s° | %s | %s | %s | %s |\n", th, k["spring,midstep"], k["spring,synchronized"], k["seed,midstep"], k["seed,synchronized"] }' "$DOCS/dem-incline.csv"
done
echo
echo "![incline](dem-incline.png)"
echo
first_flow() { awk -F, -v l="$1" -v i="$2" 'NR > 1 && $1 == l && $2 == i && $5 > 1e-6 { if (f == "" || $3 + 0 < f + 0) f = $3 } END { print (f == "" ? "none" : f) }' "$DOCS/dem-incline.csv"; }
for law in spring seed; do
    fm=$(first_flow $law midstep)
    fs=$(first_flow $law synchronized)
    label=$([ $law = spring ] && echo "the tangential spring" || echo "the seed's D_H")
    echo "- With $label the pile first flows (kinetic energy above 1e-6 J at 0.2 s) at ${fm}°"
    echo "  with mid-step velocities and at ${fs}° with synchronized ones."
    if [ "$fm" = "$fs" ]; then
        echo "  The same angle, to the 2° of the scan: no spurious static friction shows."
    elif [ "$fm" != none ] && [ "$fs" != none ] && [ "$fm" -gt "$fs" ]; then
        echo "  The mid-step pile holds up to a larger tilt: a spurious static friction of the"
        echo "  half-step velocities, as the seed warns for size ratios above 3. Use"
        echo "  \`integrator: synchronized\` for polydisperse piles near failure."
    elif [ "$fm" = none ] || [ "$fs" = none ]; then
        echo "  One of them never flows in the scanned range."
    else
        echo "  The synchronized pile holds longer: not a spurious static friction of the"
        echo "  mid-step velocities."
    fi
done
} > integrators.md
cat integrators.md
replace_section "$DOCS/dem.md" "Mid-step vs synchronized" integrators.md
