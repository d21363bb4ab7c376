#!/bin/sh
# The dense source `pack` (issue 73 item 4, docs/scenes.md "How a dense packing is made") from
# a scene: a log-normal by mass at 0.6 of a periodic box above a lattice it must keep clear of,
# the final grains read back apart from the library (an awk pass over every pair, periodic
# images by the nearest one): the volume fraction asked, no overlap, none across a wall, no
# warning; and the impossible refused with file:line and the value. (The sizes kept:
# test_dem_dense_packing.)
. "$(dirname "$0")/cli_run_common.sh"

cat > pack.yaml <<'EOT'
domain: {min: [0, 0, 0], max: [0.02, 0.02, 0.02], periodic: [x, y]}
materials: [{name: glass, density: 2500}]
contact: {normal: linear, kn: 2000, gamma_n: 0, friction: 0.5}
walls: [{point: [0, 0, 0], normal: [0, 0, 1]}, {point: [0, 0, 0.02], normal: [0, 0, -1]}]
grains:
  - lattice: {min: [0, 0, 0], max: [0.02, 0.02, 0.003], spacing: 0.0021}
    radius: 0.001
  - pack: {min: [0, 0, 0], max: [0.02, 0.02, 0.02], volume_fraction: 0.55}
    radius: {distribution: lognormal, median: 0.001, sigma: 0.4, min: 0.0004, max: 0.002, by: mass}
    seed: 3
run: {steps: 1}
output: {final: end.txt}
EOT
"$RUBBLE" run pack.yaml --output out_pack --quiet > out.txt 2> err.txt \
    || { echo "FAIL: pack.yaml: exit $?"; cat err.txt; exit 1; }
[ -s err.txt ] && { echo "FAIL: pack.yaml warned:"; cat err.txt; failures=$((failures+1)); }
# the lattice's grains (in id order first, radius 0.001) and the pack's; every pair
awk -v L=0.02 '
!/^#/ && NF >= 4 { n++; x[n] = $1; y[n] = $2; z[n] = $3; r[n] = $4; if (n == lattice + 1 && $4 == 0.001) lattice++ }
END {
    v = 0
    for (i = lattice + 1; i <= n; i++) { w = 4 / 3 * 3.141592653589793 * r[i] ^ 3; v += w }
    deepest = -1
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) {
        dx = x[j] - x[i]; dx -= L * int(dx / L + (dx >= 0 ? 0.5 : -0.5))
        dy = y[j] - y[i]; dy -= L * int(dy / L + (dy >= 0 ? 0.5 : -0.5))
        dz = z[j] - z[i]
        d = sqrt(dx * dx + dy * dy + dz * dz); m = r[i] < r[j] ? r[i] : r[j]
        o = (r[i] + r[j] - d) / m; if (o > deepest) deepest = o
    }
    low = 1
    for (i = 1; i <= n; i++) { if (z[i] - r[i] < 0 || z[i] + r[i] > L) low = 0 }
    printf "%d %d %.5f %.3g %d\n", lattice, n - lattice, v / (L * L * L), deepest, low
}' out_pack/end.txt > got.txt
read -r lattice grains phi deepest inside < got.txt
echo "pack: $grains grains at $phi of the box by volume (asked 0.55) above $lattice of a lattice, deepest overlap $deepest of the smaller radius, all between the walls: $inside"
awk -v p="$phi" 'BEGIN { exit !(p > 0.549 && p < 0.551) }' || { echo "FAIL: volume fraction $phi"; failures=$((failures+1)); }
awk -v d="$deepest" 'BEGIN { exit !(d < 0) }' || { echo "FAIL: overlap $deepest"; failures=$((failures+1)); }
[ "$inside" = 1 ] || { echo "FAIL: a grain across a wall"; failures=$((failures+1)); }
[ "$lattice" = 81 ] || { echo "FAIL: $lattice grains of the lattice, not 81"; failures=$((failures+1)); }

# the impossible: above the limit, a region narrower than its largest grain, a packing that
# cannot be freed of its overlaps (equal spheres at 0.64 between walls)
sed 's/volume_fraction: 0.55}/volume_fraction: 0.66}/' pack.yaml > too_dense.yaml
expect too_dense "too_dense.yaml:8:[0-9]*: 'volume_fraction' must be > 0 and <= 0.64: '0.66'"
sed 's/max: \[0.02, 0.02, 0.02\], volume_fraction/max: [0.02, 0.02, 0.003], volume_fraction/' pack.yaml > narrow.yaml
expect narrow "narrow.yaml:8:[0-9]*: the region is narrower than the largest grain (diameter 0.004)"
cat > jammed.yaml <<'EOT'
domain: {min: [0, 0, 0], max: [0.006, 0.006, 0.006]}
materials: [{name: glass, density: 2500}]
contact: {normal: linear, kn: 2000, gamma_n: 0, friction: 0.5}
grains:
  - pack: {min: [0, 0, 0], max: [0.006, 0.006, 0.006], volume_fraction: 0.64}
    radius: 0.0005
run: {steps: 1}
EOT
expect jammed "jammed.yaml:5:[0-9]*: a dense packing of 264 grains at a volume fraction of 0.64 still overlaps by [0-9.e-]* of a radius after [0-9]* iterations: too dense"


[ "$failures" -eq 0 ] || { echo "$failures failures"; exit 1; }
echo "the dense source packs as asked and refuses the impossible with file:line"
