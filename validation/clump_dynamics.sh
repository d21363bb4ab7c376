#!/bin/sh
# Validation of clumps in motion (SPEC KL6, issue 4): a torque-free asymmetric clump (energy,
# angular momentum, the intermediate-axis instability), a clump dropped on a plane, and the
# angle of repose of a heap of clumps against one of spheres with the same friction.
# Writes CSVs, PNGs and docs/validation/clump-dynamics.md; about 8 minutes on 2 cores.
# Usage: validation/clump_dynamics.sh RUBBLE BUILD_DIR
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/validation/common.sh"
validation_workspace "$@"
: "${BUILD:?usage: $0 RUBBLE BUILD_DIR}"

echo "== torque-free clump, drop, threads and restart (tests/test_dem_clumps.c)"
"$BUILD/tests/test_dem_clumps" "$DOCS/clump-torque-free.csv" > dynamics.txt
cat dynamics.txt

echo "== angle of repose: 1000 spheres and 1000 clumps poured into a periodic slab"
# the grain: an ellipsoid of semi-axes 1.5 x 1.0 x 0.75 mm (volume of a 1.04 mm sphere) as 10
# spheres; the spheres: radius 1 mm. Same material, law and friction.
"$RUBBLE" clump --shape ellipsoid:0.0015,0.001,0.00075 --voxel 0.00005 --P 10 --R 0.85 \
    --output grain > grain.txt
cp grain/clump.txt grain_clump.txt
cat > heap.yaml <<'YAML'
domain:
  min: [0, 0, -0.001]
  max: [0.12, 0.012, 0.1]
  periodic: [y]
gravity: [0, 0, -9.81]
materials:
  - {name: sand, density: 2650}
contact:
  normal: linear
  damping: linear
  tangential: spring
  kn: 2000
  restitution: 0.3
  gamma_t: 0.005
  friction: 0.5
walls:
  - {point: [0, 0, 0], normal: [0, 0, 1]}
  - {point: [0, 0, 0], normal: [1, 0, 0]}
  - {point: [0.12, 0, 0], normal: [-1, 0, 0]}
grains:
  - pour:
      min: [0.055, 0, 0.04]
      max: [0.065, 0.012, 0.08]
      count: 1000
      rate: 2500
      every: 0.02
    SOURCE
    velocity: [0, 0, -0.3]
run:
  time: 1.1
  dt: auto
  c: 0.05
  skin: 0.0004
output:
  folder: out
  every: 0.1
  final: final.txt
YAML
sed 's|    SOURCE|    radius: 0.001|' heap.yaml > spheres.yaml
sed 's|    SOURCE|    clump: grain_clump.txt|' heap.yaml > clumps.yaml
"$RUBBLE" run spheres.yaml --output spheres --quiet > spheres.txt
"$RUBBLE" run clumps.yaml --output clumps --quiet > clumps.txt
for kind in spheres clumps; do
    cp "$kind/final.txt" "$DOCS/clump-heap-$kind.txt"
    awk -v bin=0.002 -v profile="$DOCS/clump-heap-profile-$kind.csv" \
        -f "$ROOT/validation/repose_angle.awk" "$kind/final.txt" > "$kind.angle"
done
read -r s_left s_right s_mean s_h < spheres.angle
read -r c_left c_right c_mean c_h < clumps.angle
echo "spheres: $s_left / $s_right deg (mean $s_mean), clumps: $c_left / $c_right deg (mean $c_mean)"

echo "== plots"
gnuplot -e "dir='$DOCS'" "$ROOT/validation/clump_dynamics.gp"

{
echo "# Clumps in motion: validation"
echo
echo "Made by \`make validate\` (validation/clump_dynamics.sh) on $(date -u +%Y-%m-%d), $(nproc) cores."
echo "How clumps move: [docs/clumps.md](../clumps.md#clumps-in-motion)."
echo
echo "## A torque-free asymmetric clump"
echo
echo "An ellipsoid (semi-axes 10, 6, 3.5 mm) as 60 spheres, spinning at 50 rad/s about one"
echo "principal axis with 0.1% of that about the two others. No gravity, no contact: 1e5 steps"
echo "of 10 us. The free rotation is split into exact turns about the principal axes, so L in"
echo "the space frame never changes and the energy error stays bounded. About the smallest and"
echo "the largest axis the spin is stable; about the intermediate axis the small components"
echo "grow, and the clump turns over (the tennis-racket theorem):"
echo
echo "![torque-free](clump-torque-free.png)"
echo
echo '```'
grep -E '^(clump|spin)' dynamics.txt
echo '```'
echo
echo "## A clump dropped on a plane"
echo
echo "The same clump dropped with spin from 13 mm onto a floor (linear law, e about 0.5,"
echo "friction 0.5) comes to rest on its flat side, and the floor carries its weight:"
echo
echo '```'
grep -E '^(drop|6 clumps)' dynamics.txt
echo '```'
echo
echo "It ends rocking on one bottom sphere of the clump. Rolling dissipates nothing without a"
echo "rolling resistance, so the last 1e-5 of the energy goes slowly, at each switch of bottom"
echo "sphere. The same run gives bit-identical states on 1 and 2 threads and across a"
echo "checkpoint."
echo
echo "## Angle of repose: clumps against spheres"
echo
echo "1000 grains poured from a 10 mm wide stream into a slab 12 mm deep (periodic) and"
echo "120 mm wide, on a floor between two walls. The same material (2650 kg/m^3), linear law"
echo "(k_n = 2000 N/m, e = 0.3), tangential spring and friction 0.5, no rolling resistance."
echo
echo "- Spheres: radius 1 mm."
echo "- Clumps: the ellipsoid of semi-axes 1.5, 1.0 and 0.75 mm, the volume of a 1.04 mm"
echo "  sphere, as 10 spheres (\`rubble clump ... --P 10 --R 0.85\`)."
echo
echo "Angle: a straight line fitted by least squares to each flank of the surface profile"
echo "(the highest grain top in 2 mm bins), between 20% and 80% of the heap's height"
echo "(validation/repose_angle.awk)."
echo
echo "| grains | left flank | right flank | mean | height |"
echo "|---|---|---|---|---|"
echo "| spheres | $s_left° | $s_right° | **$s_mean°** | $(awk -v h=$s_h 'BEGIN { printf "%.1f mm", 1000 * h }') |"
echo "| clumps | $c_left° | $c_right° | **$c_mean°** | $(awk -v h=$c_h 'BEGIN { printf "%.1f mm", 1000 * h }') |"
echo
echo "The clumps interlock and cannot roll freely, so their heap stands steeper than the"
echo "spheres'. Spheres without rolling resistance have no angle of repose of their own: they"
echo "roll out into a layer, and the angle measured depends on how much is poured. A"
echo "development run of the same slab with 2000 grains each gave 22.8° for spheres and 31.5°"
echo "for clumps, so the clumps stand steeper at both sizes."
echo
echo "A pour is chaotic: a change of round-off alone (a new build of the contact law) moved"
echo "the clump heap's flanks from 29.3° / 29.6° to 22.5° / 28.6° and the spheres' from"
echo "9.6° / 9.3° to 9.6° / 8.7°. Read the angles to a few degrees; the ordering is what the"
echo "run shows."
echo
echo "![heaps](clump-heaps.png)"
echo
echo '```'
cat spheres.txt clumps.txt
echo '```'
} > "$DOCS/clump-dynamics.md.tmp"
mv "$DOCS/clump-dynamics.md.tmp" "$DOCS/clump-dynamics.md"
echo "written: $DOCS/clump-dynamics.md"
