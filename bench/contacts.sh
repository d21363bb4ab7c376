#!/bin/sh
# CD7 — the efficiency study of seed 000 §4. Three studies, all written to docs/bench/:
#   dense   every algorithm, 2D and 3D, N = 2e5 .. 1e7 on a touching lattice numbered in random
#           order (median of repeated warm runs, plus the cold first run) -> contacts.csv
#   sparse  N = 1e5 in a box of growing edge: screening's array vs NBS -> contacts-sparse.csv
#   sizes   a few large grains among many small ones (1% at r, 99% at r/Q, Q = 1..30)
#           -> contacts-polydisperse.csv
# then the plots (contacts.gp) and the tables (contacts.md).
# Usage: bench/contacts.sh RUBBLE [SIZES] [REPEAT] [STUDIES]
set -eu
RUBBLE=$1
SIZES=${2:-2e5,5e5,1e6,2e6,5e6,1e7}
REPEAT=${3:-3}
STUDIES=${4:-dense sparse sizes}
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=$(cd "$HERE/.." && pwd)/docs/bench
mkdir -p "$OUT"
echo "== machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(free -g | awk '/Mem:/{print $2}') GiB"
for study in $STUDIES; do
    case $study in
    dense)
        echo "== dense lattice, elements in random order, $REPEAT warm runs each"
        "$RUBBLE" bench contacts --dims 2,3 --sizes "$SIZES" --repeat "$REPEAT" \
            --algorithms screening,nbs,direct,sorting,tree,cgrid --csv "$OUT/contacts.csv" ;;
    sparse)
        echo "== sparse: N = 1e5 random centres, box edge x1..x64"
        "$RUBBLE" bench contacts --sparse --repeat "$REPEAT" --algorithms screening,nbs,sorting \
            --csv "$OUT/contacts-sparse.csv" ;;
    sizes)
        echo "== size range: N = 1e6 in 3D, 1% of the elements at r, 99% at r/Q, Q = 1..30"
        part="$OUT/contacts-polydisperse.csv.part"
        rm -f "$part"
        for q in 1 3 10 30; do
            "$RUBBLE" bench contacts --dims 3 --sizes 1e6 --repeat "$REPEAT" --packing random \
                --solid-share 0.3 --radius-ratio "$q" --large-share 0.01 \
                --algorithms screening,nbs,direct,sorting,tree,cgrid --csv "$OUT/contacts-q.csv"
            if [ -f "$part" ]; then
                tail -n +2 "$OUT/contacts-q.csv" >> "$part"
            else
                cp "$OUT/contacts-q.csv" "$part"
            fi
            rm -f "$OUT/contacts-q.csv"
        done
        mv "$part" "$OUT/contacts-polydisperse.csv" ;;
    *)
        echo "unknown study '$study' (dense, sparse, sizes)" >&2; exit 2 ;;
    esac
done
gnuplot -e "dir='$OUT'" "$HERE/contacts.gp"
"$HERE/contacts_tables.sh" "$OUT" > "$OUT/contacts.md.tmp" && mv "$OUT/contacts.md.tmp" "$OUT/contacts.md"
echo "written: $OUT/contacts.md, $OUT/*.csv, $OUT/*.png"
