#!/bin/sh
# The cost of bonds (issue 72's bar): a bonded sample of 1e5 grains steps within 1.5x the same
# packing unbonded. A dense packing (the `pack` source, 0.6 of 12,500 grains of 0.5 mm in a
# periodic cube) tiled 2 x 2 x 2 into a periodic box of 100,000 grains at rest; the same file
# run without and with bonds (Potyondy & Cundall's parallel bond between grains closer than
# 10 um, docs/bonds.md), one thread, STEPS steps and 1 step, REPEAT times interleaved; rate =
# (STEPS - 1) N / (CPU time of STEPS - CPU time of 1) (user + sys: what a shared machine
# leaves less noisy than the wall clock), the median; peak resident memory of the STEPS run.
# Beside them, for a fair reading, the unbonded packing carrying load: its radii 2 % larger
# (compressed: every grain in contact, the contact law's forces each step), not bonded.
# Usage: bench/bonds.sh RUBBLE [STEPS] [REPEAT]   (defaults 300, 3)
# Writes docs/bench/bonds.csv; exits 1 when bonded / unbonded (at rest) time passes 1.5.
set -eu
RUBBLE=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
STEPS=${2:-300}
REPEAT=${3:-3}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CSV=${CSV:-$ROOT/docs/bench/bonds.csv}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

L=0.02218  # 12,500 grains of 0.5 mm at 0.6
law='materials: [{name: rock, density: 2500}]
contact: {normal: linear, damping: linear, tangential: spring, kn: 2000, restitution: 0.5, friction: 0.5}'
cat > pack.yaml <<YAML
domain: {min: [0, 0, 0], max: [$L, $L, $L], periodic: [x, y, z]}
$law
grains:
  - pack: {min: [0, 0, 0], max: [$L, $L, $L], count: 12500}
    seed: 7
    radius: 0.0005
run: {steps: 1, dt: 2.0e-6}
output: {folder: pack, final: packed.txt}
YAML
echo "== the packing: 12,500 grains, tiled 2 x 2 x 2"
"$RUBBLE" run pack.yaml --quiet --threads 2 > pack.log 2>&1 || { cat pack.log; exit 1; }
awk -v L=$L '!/^#/ && NF >= 4 { for (i = 0; i < 2; i++) for (j = 0; j < 2; j++) for (k = 0; k < 2; k++)
    printf "%.9g %.9g %.9g %s\n", $1 + i * L, $2 + j * L, $3 + k * L, $4 }' pack/packed.txt > tiled.txt
awk '{ printf "%s %s %s %.9g\n", $1, $2, $3, 1.02 * $4 }' tiled.txt > loaded.txt
N=$(wc -l < tiled.txt)
echo "$N grains"

scene() { # STEPS BONDED
    cat <<YAML
domain: {min: [0, 0, 0], max: [$(awk -v L=$L 'BEGIN { print 2 * L }'), $(awk -v L=$L 'BEGIN { print 2 * L }'), $(awk -v L=$L 'BEGIN { print 2 * L }')], periodic: [x, y, z]}
$law
grains:
  - file: $([ "$2" = loaded ] && echo loaded.txt || echo tiled.txt)
run: {steps: $1, dt: 2.0e-6}
output: {folder: out}
YAML
    # E_b: the bond's k_n A = E_b pi R / 2 about the contact's kn
    [ "$2" = yes ] && cat <<YAML
bonds: {youngs_modulus: 2.5e6, stiffness_ratio: 2, tensile_strength: 1e6, shear_strength: 1e6, damping: 0.1, gap: 1.0e-5}
YAML
    return 0
}
for b in no loaded yes; do
    scene "$STEPS" $b > long_$b.yaml
    scene 1 $b > short_$b.yaml
done

# CPU seconds (user + sys) and peak KiB of a run
measure() {
    /usr/bin/time -f "%U %S %M" -o t.txt "$RUBBLE" run "$1" --quiet --threads 1 > run.log 2>&1 || { cat run.log; exit 1; }
    awk '{ printf "%.3f %d\n", $1 + $2, $3 }' t.txt
}
"$RUBBLE" run short_yes.yaml --quiet --threads 1 > run.log 2>&1 || { cat run.log; exit 1; }
bonds=$(awk -F, 'NR == 1 { for (c = 1; c <= NF; c++) if ($c == "bonds_intact") k = c; next } { v = $k } END { print v }' out/thermo.csv)
echo "repeat,bonded,cpu_steps_s,cpu_1_s,peak_kib,particle_steps_per_s" > rows.csv
for r in $(seq 1 "$REPEAT"); do
    for b in no loaded yes; do
        set -- $(measure long_$b.yaml); tl=$1 mem=$2
        set -- $(measure short_$b.yaml); ts=$1
        rate=$(awk -v n="$N" -v s="$STEPS" -v a="$tl" -v b="$ts" 'BEGIN { printf "%.4g", (s - 1) * n / (a - b) }')
        echo "$r,$b,$tl,$ts,$mem,$rate" | tee -a rows.csv
    done
done
load=$(cut -d' ' -f1-3 /proc/loadavg)
{
    echo "# bench/bonds.sh: $N grains (a tiled dense packing, periodic), $STEPS steps, one thread; $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, load average $load"
    cat rows.csv
} > "$CSV"
awk -F, -v bonds="${bonds:-?}" 'NR > 1 { r[$2] = r[$2] " " $6; m[$2] = $5 }
    END {
        for (b in r) { n = split(r[b], v, " "); asort_(v, n); med[b] = v[int((n + 1) / 2)] }
        ratio = med["no"] / med["yes"]
        printf "unbonded %.4g particle-steps/s, bonded (%s bonds) %.4g: time ratio %.3f (bar 1.5); peak %d and %d KiB\n",
            med["no"], bonds, med["yes"], ratio, m["no"], m["yes"]
        printf "unbonded carrying load (radii 2 %% larger) %.4g particle-steps/s: bonded / loaded time ratio %.3f\n",
            med["loaded"], med["loaded"] / med["yes"]
        exit ratio > 1.5
    }
    function asort_(v, n,   i, j, t) { for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t } }' rows.csv
