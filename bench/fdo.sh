#!/bin/sh
# Impulse dynamics of ellipsoids (seed 003, SPEC FO4, issue 45): the seed's run like for like.
# bench/fdo_tube.yaml pours 1000 ellipsoids into an inclined tube (800 by step 1000, 1000 by
# 2000, as in the seed's table) for 6000 steps; run here on 1 thread and on 2, each alone, and
# then on the default threads and on 1 while another program keeps one core busy (a shared
# machine). Every step is sampled in thermo.csv. Writes docs/bench/fdo.md: per block of 1000
# steps the objects, the contact points (in the step, and summed over the steps so far: the
# seed's count fits that reading), the seed's "collision computation" (contact detection and
# resolution) and the whole step, in seconds per step, beside the seed's table; the solve's
# passes and residual; docs/bench/fdo-thermo.csv (every 10th step of the 2-thread run) and
# docs/bench/fdo-phases.png.
# Usage: bench/fdo.sh RUBBLE
set -eu
RUBBLE=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
ROOT=$(cd "$(dirname "$0")/.." && pwd)
DOCS=$ROOT/docs/bench
mkdir -p "$DOCS"
work=$(mktemp -d)
hog=""
trap '[ -n "$hog" ] && kill "$hog" 2>/dev/null; rm -rf "$work"' EXIT
scene=$ROOT/bench/fdo_tube.yaml

run() { # name, then rubble's options
    name=$1
    shift
    "$RUBBLE" run "$scene" --output "$work/$name" --quiet "$@" > "$work/$name.txt"
    echo "== $name: $(grep '^speed' "$work/$name.txt")"
}
run t1 --threads 1
run t2 --threads 2
# a shared machine: one core kept busy by another program
sh -c 'while :; do :; done' &
hog=$!
run shared_default
run shared_t1 --threads 1
kill "$hog"
hog=""

# per block of 1000 steps of a run: objects at its end, contact points in its last step, their
# mean over its steps, their sum over all steps so far, collision (detection + resolution) and
# whole step (four phases) in seconds per step, passes per step, share of steps unconverged,
# mean residual (m/s)
blocks() {
    awk -F, 'NR > 1 && $2 > 0 { b = int(($2 - 1) / 1000); n[b]++; cum += $7; sum[b] += $7;
                                 col[b] += $19 + $20; all[b] += $18 + $19 + $20 + $21;
                                 pas[b] += $9; unc[b] += $15; res[b] += $12;
                                 obj[b] = $3; last_c[b] = $7; cums[b] = cum; if (b > top) top = b }
             END { for (b = 0; b <= top; b++)
                     printf "%d %d %d %.0f %.0f %.4g %.4g %.1f %.2f %.2g\n", b + 1, obj[b],
                            last_c[b], sum[b] / n[b], cums[b], col[b] / n[b], all[b] / n[b],
                            pas[b] / n[b], unc[b] / n[b], res[b] / n[b] }' "$1"
}
blocks "$work/t1/thermo.csv" > "$work/b1"
blocks "$work/t2/thermo.csv" > "$work/b2"
blocks "$work/shared_default/thermo.csv" > "$work/bsd"
blocks "$work/shared_t1/thermo.csv" > "$work/bs1"
awk -F, 'NR == 1 || NR % 10 == 2' "$work/t2/thermo.csv" > "$DOCS/fdo-thermo.csv"
gnuplot -e "dir='$DOCS'" "$ROOT/bench/fdo.gp"
mean() { sed -n 's/.* \([0-9.e+-]*\) s per step.*/\1/p' "$work/$1.txt"; }
{
    echo "# Impulse dynamics: the seed's 1000 ellipsoids into an inclined tube, like for like"
    echo
    echo "Made by \`bench/fdo.sh $1\` (\`make bench-fdo\`) on $(date -u +%Y-%m-%d), $(nproc) cores"
    echo "($(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1)), load average before"
    echo "the runs $(cut -d' ' -f1-3 /proc/loadavg). Scene: bench/fdo_tube.yaml: 1000"
    echo "ellipsoids 10 x 6 x 4 mm poured, 40 every 10 ms at 1.5 m/s, above a tube of radius"
    echo "0.12 m, 0.6 m long, 60 degrees below the horizontal, that pours them onto a plane; e ="
    echo "0.3, mu = 0.5, dt = 0.2 ms, 6000 steps, the default solver (Gauss-Seidel, 50 passes a"
    echo "phase). As in the seed: 800 objects by step 1000, 1000 by step 2000. Every step is in"
    echo "thermo.csv; the numbers below are per block of 1000 steps."
    echo
    echo "The seed's \"collision computation time\" is read as contact detection plus contact"
    echo "resolution (its phases 2 and 3); the whole step adds precomputation and the final"
    echo "computation. Contact points: rubble keeps one per contact (pairs and wall contacts"
    echo "within the step's margin), given at the block's last step, as a mean over its steps,"
    echo "and summed over every step so far. The seed's count grows by 10 000 to 150 000 a"
    echo "block and keeps growing after the objects settle (its text: \"the number of contacts"
    echo "keeps increasing ... as the settling objects gather\"): a sum over steps fits it; 354"
    echo "points per object in one step would not."
    echo
    echo "| | 1K | 2K | 3K | 4K | 5K | 6K |"
    echo "|---|---|---|---|---|---|---|"
    echo "| seed: objects | 800 | 1000 | 1000 | 1000 | 1000 | 1000 |"
    echo "| seed: contact points | 10104 | 51247 | 201467 | 252378 | 312147 | 354245 |"
    echo "| seed: collision s per step, 12 cores | 0.037 | 0.049 | 0.061 | 0.069 | 0.078 | 0.089 |"
    row() { # file, column, label, printf format
        awk -v c="$2" -v l="$3" -v f="$4" '{ o = o sprintf(" " f " |", $c) } END { print "| " l " |" o }' "$1"
    }
    row "$work/b2" 2 "rubble: objects" "%d"
    row "$work/b2" 3 "rubble: contact points, last step" "%d"
    row "$work/b2" 4 "rubble: contact points, mean per step" "%d"
    row "$work/b2" 5 "rubble: contact points, summed over steps" "%d"
    row "$work/b1" 6 "rubble: collision s per step, 1 thread" "%.4f"
    row "$work/b1" 7 "rubble: whole step s, 1 thread" "%.4f"
    row "$work/b2" 6 "rubble: collision s per step, 2 threads" "%.4f"
    row "$work/b2" 7 "rubble: whole step s, 2 threads" "%.4f"
    row "$work/b2" 8 "rubble: passes per step (both phases)" "%.1f"
    row "$work/b2" 9 "rubble: share of steps out of budget" "%.2f"
    row "$work/b2" 10 "rubble: mean residual, m/s" "%.2g"
    echo
    echo "Mean seconds per step over the run: 1 thread $(mean t1), 2 threads $(mean t2)."
    echo
    echo "On a shared machine (a shell loop keeping one of the cores busy all along): the"
    echo "default threads (2, giving way while the cores are shared: src/run/core_share.c)"
    echo "$(mean shared_default) s per step, --threads 1 $(mean shared_t1) s per step."
    echo "$(grep '^speed' "$work/shared_default.txt")"
    echo
    echo "| | 1K | 2K | 3K | 4K | 5K | 6K |"
    echo "|---|---|---|---|---|---|---|"
    row "$work/bsd" 7 "shared: whole step s, default threads" "%.4f"
    row "$work/bs1" 7 "shared: whole step s, 1 thread" "%.4f"
    echo
    echo "![seconds per step of each phase against contacts](fdo-phases.png)"
    echo
    echo "The 2-thread run's report:"
    echo
    echo '```'
    sed -n '2,$p' "$work/t2.txt" | sed "s|$work/t2|OUT|g"
    echo '```'
} > "$DOCS/fdo.md"
echo "wrote $DOCS/fdo.md"
