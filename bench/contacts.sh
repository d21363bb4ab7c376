#!/bin/sh
# CD7 — the efficiency study of seed 000 §4: every algorithm, 2D and 3D, N = 2e5 .. 1e7 on a
# touching lattice numbered in random order (median of repeated warm runs, plus the cold
# first run), the sparse study (fixed N, growing box) and the size-range study (radius ratio
# 1..30). Writes docs/bench/*.csv and PNGs.
# Usage: bench/contacts.sh RUBBLE [SIZES] [REPEAT]
set -eu
RUBBLE=$1
SIZES=${2:-2e5,5e5,1e6,2e6,5e6,1e7}
REPEAT=${3:-3}
OUT=$(cd "$(dirname "$0")/.." && pwd)/docs/bench
mkdir -p "$OUT"
echo "== machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(free -g | awk '/Mem:/{print $2}') GiB"
echo "== dense lattice, elements in random order, $REPEAT warm runs each"
"$RUBBLE" bench contacts --dims 2,3 --sizes "$SIZES" --repeat "$REPEAT" \
    --algorithms screening,nbs,direct,sorting,tree,cgrid --csv "$OUT/contacts.csv"
echo "== sparse: N = 1e5 random centres, box edge x1..x64"
"$RUBBLE" bench contacts --sparse --repeat "$REPEAT" --algorithms screening,nbs,sorting \
    --csv "$OUT/contacts-sparse.csv"
echo "== size range: N = 1e6 random centres in 3D, radius ratio 1..30"
rm -f "$OUT/contacts-polydisperse.csv.part"
for q in 1 3 10 30; do
    "$RUBBLE" bench contacts --dims 3 --sizes 1e6 --repeat "$REPEAT" --packing random \
        --solid-share 0.3 --radius-ratio "$q" --algorithms screening,nbs,direct,sorting,tree,cgrid \
        --csv "$OUT/contacts-q.csv"
    if [ -f "$OUT/contacts-polydisperse.csv.part" ]; then tail -n +2 "$OUT/contacts-q.csv"; else cat "$OUT/contacts-q.csv"; fi >> "$OUT/contacts-polydisperse.csv.part"
    rm -f "$OUT/contacts-q.csv"
done
mv "$OUT/contacts-polydisperse.csv.part" "$OUT/contacts-polydisperse.csv"
gnuplot -e "dir='$OUT'" "$(dirname "$0")/contacts.gp"
"$(dirname "$0")/contacts_tables.sh" "$OUT" > "$OUT/contacts.md.tmp" && mv "$OUT/contacts.md.tmp" "$OUT/contacts.md"
echo "written: $OUT/contacts.md $OUT/contacts.csv $OUT/contacts-sparse.csv $OUT/contacts-fig12.png $OUT/contacts-ns-per-element.png $OUT/contacts-memory.png $OUT/contacts-sparse-memory.png $OUT/contacts-polydisperse.png"
