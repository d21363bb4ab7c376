#!/bin/sh
# Memory over several processes (issue 47): each process's peak resident memory (getrusage,
# through /usr/bin/time) on 1 and P ranks of one thread, for the issue's scenes: a lattice of
# N grains settling (checkpoints and output.final written), its last checkpoint (written by the
# P processes) restarted, the same N poured in one batch, and a self-gravitating cloud of N/2;
# and MPI's own baseline (a scene of 8 grains on P ranks). The
# issue's bar: each rank's peak <= 0.35 x the one-process run + that baseline.
# Usage: bench/parallel_memory.sh RUBBLE [N] [P]   (defaults 4e5, 4)
# Writes docs/bench/parallel-memory.csv and prints the table docs/parallel.md quotes.
set -eu
RUBBLE=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
N=$(awk -v n="${2:-4e5}" 'BEGIN { printf "%d", n }')
P=${3:-4}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CSV=$ROOT/docs/bench/parallel-memory.csv
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
MPI="mpirun --allow-run-as-root --oversubscribe"

# a cube of side L (m) holding n grains of 0.5 mm on a lattice of 1.01 mm
side=$(awk -v n="$N" 'BEGIN { printf "%.6f", 0.00101 * (n ^ (1 / 3)) + 0.0012 }')
half=$(awk -v s="$side" 'BEGIN { printf "%.6f", s / 2 }')
common='materials: [{name: glass, density: 2500}]
contact: {normal: linear, damping: linear, tangential: spring, kn: 2000, restitution: 0.5, friction: 0.5}'
cat > lattice.yaml <<YAML
domain: {min: [0, 0, 0], max: [$side, $side, $side], periodic: [x, y]}
gravity: [0, 0, -9.81]
$common
walls: [{point: [0, 0, 0], normal: [0, 0, 1]}]
grains:
  - lattice: {min: [0, 0, 0], max: [$side, $side, $side], count: $N, spacing: 0.00101}
    radius: 0.0005
run: {steps: 20, dt: auto}
output: {final: end.txt, every: 1, checkpoint_every: 5e-6}
YAML
cat > pour.yaml <<YAML
domain: {min: [0, 0, 0], max: [$side, $side, $(awk -v s="$side" 'BEGIN { print 2 * s }')], periodic: [x, y]}
gravity: [0, 0, -9.81]
$common
walls: [{point: [0, 0, 0], normal: [0, 0, 1]}]
grains:
  - pour: {min: [0, 0, 0], max: [$side, $side, $(awk -v s="$side" 'BEGIN { print 2 * s }')], count: $N, rate: 1e12, every: 1}
    radius: 0.0005
run: {steps: 20, dt: auto}
output: {final: end.txt, every: 1}
YAML
cat > cloud.yaml <<YAML
domain: {open: true}
$common
self_gravity: {G: 6.674e-11, method: tree}
grains:
  - lattice: {min: [-$half, -$half, -$half], max: [$half, $half, $half], count: $((N / 2)), spacing: 0.00101}
    radius: 0.0005
run: {steps: 4, dt: auto}
output: {final: end.txt, every: 1}
YAML
cat > tiny.yaml <<YAML
domain: {min: [0, 0, 0], max: [0.01, 0.01, 0.01]}
$common
grains:
  - lattice: {min: [0, 0, 0], max: [0.01, 0.01, 0.01], count: 8, spacing: 0.004}
    radius: 0.0005
run: {steps: 4, dt: auto}
YAML

# peak MiB of each process: "max mean" over the ranks (a third argument: the checkpoint to
# restart from, on to step 30)
peaks() {
    ranks=$1; scene=$2; restart=${3:+--restart $3 --steps 30}
    rm -rf out rss_*
    if [ "$ranks" = 1 ]; then
        /usr/bin/time -f "%M" -o rss_0 "$RUBBLE" run "$scene" $restart --output out --threads 1 \
            --quiet > /dev/null
    else
        $MPI -np "$ranks" sh -c '/usr/bin/time -f "%M" -o rss_$OMPI_COMM_WORLD_RANK "$0" run "$1" $2 --output out --quiet > /dev/null' "$RUBBLE" "$scene" "$restart"
    fi
    cat rss_* | awk '{ s += $1; if ($1 > m) m = $1 } END { printf "%.1f %.1f", m / 1024, s / NR / 1024 }'
}

base=$(peaks "$P" tiny.yaml | cut -d' ' -f1)
echo "scene,n,ranks,peak_mib_largest,peak_mib_mean,one_process_mib,mpi_baseline_mib,bar_mib,within" > "$CSV"
printf '| scene | N | 1 process | largest of %s | mean of %s | bar (0.35 x 1 process + %s MiB) | within |\n|---|---|---|---|---|---|---|\n' "$P" "$P" "$base"
for scene in lattice restart pour cloud; do
    n=$N
    [ "$scene" = cloud ] && n=$((N / 2))
    yaml=$scene.yaml ck=
    [ "$scene" = restart ] && yaml=lattice.yaml ck=$work/ck.bin
    one=$(peaks 1 $yaml $ck | cut -d' ' -f1)
    set -- $(peaks "$P" $yaml $ck)
    # the lattice's last checkpoint, as the P processes wrote it
    [ "$scene" = lattice ] && cp "$(ls out/checkpoint_*.bin | tail -1)" "$work/ck.bin"
    bar=$(awk -v o="$one" -v b="$base" 'BEGIN { printf "%.1f", 0.35 * o + b }')
    ok=$(awk -v m="$1" -v b="$bar" 'BEGIN { print (m <= b ? "yes" : "no") }')
    echo "$scene,$n,$P,$1,$2,$one,$base,$bar,$ok" >> "$CSV"
    printf '| %s | %s | %s MiB | %s MiB | %s MiB | %s MiB | %s |\n' "$scene" "$n" "$one" "$1" "$2" "$bar" "$ok"
done
