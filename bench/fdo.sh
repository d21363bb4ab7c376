#!/bin/sh
# Impulse dynamics of ellipsoids (seed 003, SPEC FO4): bench/fdo_tube.yaml, the seed's scene of
# 1000 ellipsoids falling into an inclined tube and pouring out onto a plane, 6000 steps, timed
# in the seed's four phases. Writes docs/bench/fdo.md (each block of 1000 steps: objects,
# contacts, mean seconds per step of each phase, beside the seed's own table),
# docs/bench/fdo-thermo.csv (every 10th step) and docs/bench/fdo-phases.png (each phase's
# seconds against the contacts of that step).
# Usage: bench/fdo.sh RUBBLE [threads]
set -eu
RUBBLE=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
THREADS=${2:-0}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
DOCS=$ROOT/docs/bench
mkdir -p "$DOCS"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
opt=""
[ "$THREADS" -gt 0 ] && opt="--threads $THREADS"
# shellcheck disable=SC2086
"$RUBBLE" run "$ROOT/bench/fdo_tube.yaml" --output "$work/out" --quiet $opt > "$work/report.txt"
cat "$work/report.txt"
threads=$(sed -n 's/.* on \([0-9]*\) threads.*/\1/p' "$work/report.txt")
cp "$work/out/thermo.csv" "$DOCS/fdo-thermo.csv"
gnuplot -e "dir='$DOCS'" "$ROOT/bench/fdo.gp"
{
    echo "# Impulse dynamics: the seed's 1000 ellipsoids into an inclined tube"
    echo
    echo "Made by \`bench/fdo.sh $1\` on $(date -u +%Y-%m-%d), $(nproc) cores, $threads threads,"
    echo "load average $(cut -d' ' -f1-3 /proc/loadavg). Scene: bench/fdo_tube.yaml (1000"
    echo "ellipsoids 10 x 6 x 4 mm released at rest above a tube of radius 0.12 m, 0.6 m long, 60"
    echo "degrees below the horizontal, that pours them onto a plane; e = 0.3, mu = 0.5,"
    echo "dt = 0.2 ms). Seconds per step are means over the steps sampled (every 10th) in"
    echo "thermo.csv; contacts are pairs and wall contacts, one point each, within the step's"
    echo "margin; active ones closed within the step."
    echo
    echo "| steps | objects | contacts | active | precompute s | detection s | resolution s | final s | total s/step |"
    echo "|---|---|---|---|---|---|---|---|---|"
    awk -F, 'NR > 2 { b = int(($2 - 1) / 1000); n[b]++; for (k = 12; k <= 15; k++) s[b, k] += $k;
                      obj[b] = $3; con[b] = $7; act[b] = $8; last = b }
             END { for (b = 0; b <= last; b++) {
                     t = 0; for (k = 12; k <= 15; k++) t += s[b, k] / n[b];
                     printf "| %dK | %d | %d | %d | %.2e | %.2e | %.2e | %.2e | %.2e |\n",
                            b + 1, obj[b], con[b], act[b], s[b, 12] / n[b], s[b, 13] / n[b],
                            s[b, 14] / n[b], s[b, 15] / n[b], t } }' "$work/out/thermo.csv" \
        > "$work/rows.md"
    cat "$work/rows.md"
    echo
    echo "Side by side with the seed's table (12-core 2.5 GHz Xeon E5-2678 v3; its tube, sizes"
    echo "and step are not given, and it counts contact points, several per pair):"
    echo
    echo "| | 1K | 2K | 3K | 4K | 5K | 6K |"
    echo "|---|---|---|---|---|---|---|"
    echo "| seed: objects | 800 | 1000 | 1000 | 1000 | 1000 | 1000 |"
    echo "| seed: contact points | 10104 | 51247 | 201467 | 252378 | 312147 | 354245 |"
    echo "| seed: s per step, 12 cores | 0.037 | 0.049 | 0.061 | 0.069 | 0.078 | 0.089 |"
    awk -F'|' '{ o = o " " $3 " |"; c = c " " $4 " |"; t = t " " $10 " |" }
               END { print "| rubble: objects |" o; print "| rubble: contacts |" c;
                     print "| rubble: s per step, '"$threads"' threads |" t }' "$work/rows.md" |
        sed 's/  */ /g'
    echo
    echo "![seconds per step of each phase against contacts](fdo-phases.png)"
    echo
    echo "The run's report:"
    echo
    echo '```'
    sed -n '2,$p' "$work/report.txt"
    echo '```'
} > "$DOCS/fdo.md"
echo "wrote $DOCS/fdo.md"
