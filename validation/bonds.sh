#!/bin/sh
# Validation of the bonded-particle model (issue 72, docs/bonds.md): the cantilever of bonded
# spheres against Euler-Bernoulli and against Yade's CohFrictMat on the same beam (tip
# deflection, first bending frequency), and a Brazilian disc and a uniaxial compression of a
# bonded dense packing (strengths against the bonds', their ratio against Potyondy & Cundall
# 2004; the disc flattened at its platens, Wang et al. 2004, and round beside it). Writes
# docs/validation/bonds.md and bonds-*.png/csv; exits 1 when a bound is missed.
# Usage: validation/bonds.sh RUBBLE   (about 10 minutes on one free core; Yade: apt-get install
# yade, which scripts/install-deps.sh bench does)
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/validation/common.sh"
RUBBLE=$(cd "$(dirname "${1:?usage: $0 RUBBLE}")" && pwd)/$(basename "$1")
validation_workspace "$RUBBLE"
command -v yade > /dev/null || { echo "validation/bonds.sh: Yade is missing: scripts/install-deps.sh bench (or apt-get install yade)"; exit 1; }
export PYTHONPATH="$(dirname "$RUBBLE")/python:$ROOT/validation${PYTHONPATH:+:$PYTHONPATH}"
PY=/usr/bin/python3

echo "== the cantilever: 21 spheres (20 bonds), kappa = 2, rubble and Yade"
$PY -W ignore "$ROOT/validation/bonds_beam.py" 20 1e6 2 beam-rubble | tail -1 > "$DOCS/bonds-beam-rubble.json"
yade -j1 -n -x "$ROOT/validation/bonds_beam_yade.py" 20 1e6 2 beam-yade 2> yade.log | tail -1 > "$DOCS/bonds-beam-yade.json"
cat "$DOCS/bonds-beam-rubble.json" "$DOCS/bonds-beam-yade.json"

# A bonded sample: grains of 0.3 to 0.5 mm (P&C's ratio of sizes 1.66) packed densely, bonds
# between those closer than 20 um, P&C's granite ratios (E_b / sigma_b ~ 350, kappa = 2.5,
# lambda = 1, strengths' CV 0.23); platens (planes) pressing at 5 mm/s (UCS) and 10 mm/s
# (Brazilian) each: ~100 wave transits of the sample before the peak (docs/validation/bonds.md)
law='materials: [{name: rock, density: 2500}]
contact: {normal: linear, kn: 6.0e4, kt: 2.4e4, restitution: 0.3, friction: 0.5, tangential: spring}'
bonds='bonds:
  youngs_modulus: 1.0e8
  stiffness_ratio: 2.5
  radius_multiplier: 1
  tensile_strength: 3.0e5
  shear_strength: 3.0e5
  damping: 0.1
  gap: 2.0e-5
  spread: {normal: 0.23, seed: 1}'
sizes='radius: {distribution: uniform, min: 0.0003, max: 0.0005}'
cat > pack_ucs.yaml <<YAML
domain: {min: [-0.001, -0.001, -0.001], max: [0.007, 0.007, 0.013]}
$law
walls: [{point: [0, 0, 0], normal: [0, 0, 1]}, {point: [0, 0, 0.012], normal: [0, 0, -1]}]
grains:
  - pack: {min: [0, 0, 0], max: [0.006, 0.006, 0.012], volume_fraction: 0.58}
    seed: 1
    $sizes
run: {steps: 1, dt: 3.0e-7}
output: {folder: pack_ucs, final: grains.txt}
YAML
# The disc: the flattened Brazilian disc (Wang, Jia, Kou et al. 2004): two loading flats of
# 2 alpha = 20 deg, at y = +-R cos 10 deg, packed against as walls so that the grains lie flush
# with them; and the round disc of the same density, loaded on its rim, beside it
YF=0.00590884652
cat > pack_braz.yaml <<YAML
domain: {min: [-0.007, -0.007, -0.001], max: [0.007, 0.007, 0.005]}
$law
walls: [{point: [0, -$YF, 0], normal: [0, 1, 0]}, {point: [0, $YF, 0], normal: [0, -1, 0]}]
grains:
  - pack: {cylinder: {from: [0, 0, 0], to: [0, 0, 0.004], radius: 0.006}, volume_fraction: 0.58}
    seed: 2
    $sizes
run: {steps: 1, dt: 3.0e-7}
output: {folder: pack_braz, final: grains.txt}
YAML
sed '/^walls:/d; s/folder: pack_braz,/folder: pack_round,/' pack_braz.yaml > pack_round.yaml
cat > ucs.yaml <<YAML
domain: {min: [-0.004, -0.004, -0.001], max: [0.010, 0.010, 0.013]}
$law
walls:
  - {name: bottom, point: [0, 0, 0], normal: [0, 0, 1], velocity: [0, 0, 0.005]}
  - {name: top, point: [0, 0, 0.012], normal: [0, 0, -1], velocity: [0, 0, -0.005]}
grains:
  - file: pack_ucs/grains.txt
$bonds
run: {time: 0.01, dt: 3.0e-7}
output: {folder: ucs, every: 0.0025, thermo_every: 0.00005}
YAML
cat > braz.yaml <<YAML
domain: {min: [-0.008, -0.008, -0.002], max: [0.008, 0.008, 0.006]}
$law
walls:
  - {name: bottom, point: [0, -$YF, 0], normal: [0, 1, 0], velocity: [0, 0.01, 0]}
  - {name: top, point: [0, $YF, 0], normal: [0, -1, 0], velocity: [0, -0.01, 0]}
grains:
  - file: pack_braz/grains.txt
$bonds
run: {time: 0.008, dt: 3.0e-7}
output: {folder: braz, every: 0.002, thermo_every: 0.00005}
YAML
sed "s/$YF/0.006/g; s|pack_braz/|pack_round/|; s/folder: braz,/folder: braz_round,/" braz.yaml > braz_round.yaml
# the same test at half the platens' speed: the peak must not move (quasi-static)
sed 's/0.005\]}/0.0025]}/; s/time: 0.01,/time: 0.02,/; s/folder: ucs,/folder: ucs_slow,/' ucs.yaml > ucs_slow.yaml
for s in pack_ucs pack_braz pack_round ucs ucs_slow braz braz_round; do
    echo "== $s"
    "$RUBBLE" run $s.yaml --threads 2 > $s.log 2>&1 || { cat $s.log; exit 1; }
    grep '^grains\|^speed' $s.log
done
cp ucs/thermo.csv "$DOCS/bonds-ucs-thermo.csv"
cp ucs_slow/thermo.csv "$DOCS/bonds-ucs-slow-thermo.csv"
cp braz/thermo.csv "$DOCS/bonds-brazilian-thermo.csv"
cp braz_round/thermo.csv "$DOCS/bonds-brazilian-round-thermo.csv"
cp braz_round/breaks.csv "$DOCS/bonds-brazilian-round-breaks.csv"
cp ucs/breaks.csv "$DOCS/bonds-ucs-breaks.csv"
cp braz/breaks.csv "$DOCS/bonds-brazilian-breaks.csv"
for p in rubble yade; do # every 50th step of the traces (every 10th measured the frequency)
    awk 'NR == 1 || NR % 5 == 2' beam-$p-trace.csv > "$DOCS/bonds-beam-$p-trace.csv"
done
$PY "$ROOT/validation/bonds_plots.py" "$DOCS"
