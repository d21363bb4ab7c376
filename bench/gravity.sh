#!/bin/sh
# Self-gravity (SPEC SD5, issue 11): accuracy and cost of the tree over theta and of the seed's
# Cells over Nc against direct summation, N = 1e4 and 1e5 grains in a sphere (one core), then
# the time of one evaluation at 1e4 .. 1e6 on 1 and 2 cores (tree theta 0.5, Cells Nc 5).
# Writes docs/bench/gravity.csv, gravity-speed.csv and the plots (gravity.gp).
# Usage: bench/gravity.sh RUBBLE [SIZES]
set -eu
RUBBLE=$1
SIZES=${2:-1e4,1e5}
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
gnuplot -e "dir='$OUT'" "$HERE/gravity.gp"
echo "written: $OUT/gravity.csv, gravity-speed.csv, gravity-error.png, gravity-speed.png"
