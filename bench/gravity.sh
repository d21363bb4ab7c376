#!/bin/sh
# Self-gravity (SPEC SD5, issue 11): accuracy and cost of the tree over theta and of the seed's
# Cells over Nc against direct summation, N = 1e4 and 1e5 grains in a sphere (one core), then
# the time of one evaluation at 1e4 .. 1e6 on 1 and 2 cores (tree theta 0.5, Cells Nc 5), and
# whole steps of contact + gravity (`rubble run`) on a self-gravitating sphere of 1e4 .. 1e6
# grains per method (no peer on the same scene: pkdgrav is not packaged here; docs/gravity.md).
# Writes docs/bench/gravity.csv, gravity-speed.csv, gravity-step.csv and the plots (gravity.gp).
# Usage: bench/gravity.sh RUBBLE [SIZES] [STEP_SIZES]
set -eu
RUBBLE=$1
SIZES=${2:-1e4,1e5}
STEP_SIZES=${3:-1e4,1e5,1e6}
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=$(cd "$HERE/.." && pwd)/docs/bench
mkdir -p "$OUT"
echo "== machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
echo "== accuracy against direct summation, one core"
"$RUBBLE" bench gravity --sizes "$SIZES" --thetas 0.2,0.3,0.4,0.5,0.7,1 --cells 1,2,3,5,8 \
    --threads 1 --csv "$OUT/gravity.csv"
cat "$OUT/gravity.csv"
echo "== one evaluation, 1 and 2 cores"
tmp=$(mktemp)
trap 'rm -f "$tmp" "$tmp.1"' EXIT
first=1
for t in 1 2; do
    "$RUBBLE" bench gravity --sizes 1e4,1e5,1e6 --thetas 0.5 --cells 5 --threads $t \
        --no-reference --csv "$tmp.1"
    if [ $first -eq 1 ]; then cat "$tmp.1" > "$tmp"; first=0; else tail -n +2 "$tmp.1" >> "$tmp"; fi
done
mv "$tmp" "$OUT/gravity-speed.csv"
cat "$OUT/gravity-speed.csv"

echo "== whole steps: contact + gravity on a self-gravitating sphere, 1 and 2 cores"
# Boulders r = 1 m on a cubic lattice of spacing 2 m (touching) cut to a sphere of N grains,
# the seed's contact law (§3.3), the field every step. The rate is rubble's loop time (the
# first evaluation, made before step 1, is not in it); gravity_share is the field's part of it.
work=$(mktemp -d)
trap 'rm -rf "$tmp" "$tmp.1" "$work"' EXIT
echo "n,threads,method,steps,seconds,particle_steps_per_s,per_core,gravity_share,interactions_per_grain,contacts_per_grain,peak_mib" \
    > "$work/step.csv"
for n_text in $(echo "$STEP_SIZES" | tr ',' ' '); do
    n=$(awk "BEGIN { printf \"%d\", $n_text }")
    R=$(awk -v n=$n 'BEGIN { printf "%.6g", (6 * n / 3.141592653589793) ^ (1 / 3) }')
    box=$(awk -v R=$R 'BEGIN { printf "%.6g", R + 1.5 }')
    for method in tree cells direct; do
        case $method in
            tree) grav="self_gravity: {method: tree, theta: 0.5}"
                  steps=$(awk -v n=$n 'BEGIN { s = 2e6 / n; printf "%d", s < 3 ? 3 : s }') ;;
            cells) grav="self_gravity: {method: cells, cells: 5}"
                   steps=$(awk -v n=$n 'BEGIN { s = 2e6 / n; printf "%d", s < 2 ? 2 : s }') ;;
            direct) [ "$n" -le 20000 ] || continue
                    grav="self_gravity: {method: direct}"; steps=10 ;;
        esac
        cat > "$work/step.yaml" <<YAML
domain: {open: true}
$grav
materials: [{name: rock, density: 3000}]
contact: {normal: linear, damping: linear, tangential: seed, kn: 1.8e5, gamma_n: 3.0e4, friction: 0.5}
grains:
  - lattice: {min: [-$box, -$box, -$box], max: [$box, $box, $box], spacing: 2.0}
    radius: 1.0
select: {within: $R}
run: {steps: $steps, dt: auto, c: 0.04}
output: {folder: $work/out}
YAML
        for t in 1 2; do
            /usr/bin/time -f "%M" -o "$work/mem" "$RUBBLE" run "$work/step.yaml" --quiet \
                --threads $t > "$work/report" 2>&1 || { cat "$work/report"; exit 1; }
            awk -v method=$method -v t=$t -v steps=$steps -v mem="$(tail -1 "$work/mem")" '
                /^grains/ { n = $2 }
                /^speed/ { rate = $2 }
                /^self-gravity/ { grav = $2; evals = $4; inter = $6 }
                /^contacts/ { match($0, /\(([0-9.]+) and/); cpg = substr($0, RSTART + 1, RLENGTH - 5) }
                END { sec = n * steps / rate;
                      share = grav * steps / evals / sec;
                      printf "%d,%d,%s,%d,%.4g,%.4g,%.4g,%.3f,%s,%s,%.1f\n", n, t, method, steps,
                             sec, rate, rate / t, share, inter, cpg,
                             mem / 1024 }' "$work/report" >> "$work/step.csv"
            tail -1 "$work/step.csv"
        done
    done
done
mv "$work/step.csv" "$OUT/gravity-step.csv"
gnuplot -e "dir='$OUT'" "$HERE/gravity.gp"
echo "written: $OUT/gravity.csv, gravity-speed.csv, gravity-step.csv and the plots gravity-error.png, gravity-speed.png, gravity-step.png"
