#!/bin/sh
# The dense source's time (docs/scenes.md "How a dense packing is made"): equal spheres of
# 0.5 mm at 0.6 in a periodic box and at 0.58 in a closed one, and a log-normal (sigma 0.4,
# 0.4 to 2 mm, by mass) at 0.6 in a periodic box, of about 10^4 and 10^5 grains; each placed
# and one step run, on THREADS threads (default 1). Usage: bench/pack.sh RUBBLE [THREADS]
RUBBLE=$1 THREADS=${2:-1}
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT; cd "$work"
run() { # NAME L PERIODIC PHI RADIUS
    cat > $1.yaml <<EOT
domain: {min: [0, 0, 0], max: [$2, $2, $2]$3}
materials: [{name: glass, density: 2500}]
contact: {normal: linear, kn: 2000, gamma_n: 0, friction: 0.5}
grains:
  - pack: {min: [0, 0, 0], max: [$2, $2, $2], volume_fraction: $4}
    radius: $5
run: {steps: 1}
EOT
    t0=$(date +%s.%N)
    "$RUBBLE" run $1.yaml --output out_$1 --quiet --threads "$THREADS" > out.txt 2>&1 || { cat out.txt; return; }
    t1=$(date +%s.%N)
    printf "%-28s %s, %.1f s\n" "$1" "$(grep '^grains' out.txt | cut -c16-40)" "$(echo "$t1 - $t0" | bc)"
}
LN='{distribution: lognormal, median: 0.001, sigma: 0.4, min: 0.0004, max: 0.002, by: mass}'
for size in 1e4 1e5; do
    [ $size = 1e4 ] && L=0.0206 || L=0.0443
    [ $size = 1e4 ] && LL=0.0325 || LL=0.070
    run mono_periodic_$size $L ", periodic: [x, y, z]" 0.6 0.0005
    run mono_closed_$size $L "" 0.58 0.0005
    run lognormal_periodic_$size $LL ", periodic: [x, y, z]" 0.6 "$LN"
done
