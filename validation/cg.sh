#!/bin/sh
# Coarse-graining (issue 43, docs/cg.md) validated on two static beds, with output.cg as a
# user sets it in a scene:
#  1. a settled bed (periodic sides, a floor): sigma_zz(z) against the momentum balance at
#     rest, -g times the CG density integrated from z up, and against the weight of the grains
#     above per area; the density integrated over the grid against the grains' mass, at three
#     resolutions and both kernels;
#  2. a square silo (four frictional plane walls and a floor, validation/cg_silo.py through
#     rubble.CoarseGrain): sigma_zz(depth) against the exact force balance with the walls and
#     against Janssen's law with the stress ratio K measured at the walls and the wall
#     friction, given and mobilized; no fitted parameter; next to its walls and floor, the
#     stress balance with the wall force density t (issue 74);
#  3. a settled bed between two side walls (validation/cg_wall.py): the stress balance with t
#     through the walls' and the floor's boundary layers, sigma . n next to a wall against
#     its load.
# Writes docs/validation/cg.md, cg-bed.png, cg-silo.png, cg-silo-wall.png, cg-wall.png. Usage: validation/cg.sh RUBBLE
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/validation/common.sh"
validation_workspace "$@"
PYPATH=$(cd "$(dirname "$RUBBLE")" && pwd)/python

echo "== a settled bed"
cat > bed.yaml <<YAML
domain: {min: [0, 0, -0.001], max: [0.01, 0.01, 0.05], periodic: [x, y]}
gravity: [0, 0, -9.81]
materials: [{name: glass, density: 2500}]
contact: {normal: linear, tangential: spring, kn: 2000, restitution: 0.2, friction: 0.5}
walls: [{point: [0, 0, 0], normal: [0, 0, 1]}]
grains:
  - lattice: {min: [0, 0, 0.0001], max: [0.01, 0.01, 0.045], spacing: 0.00105}
    radius: {distribution: uniform, min: 0.0004, max: 0.0005}
    velocity_spread: 0.05
run: {time: 0.3, dt: 2.0e-6}
output:
  folder: bed
  every: 0.1
  final: grains.txt
  cg: {cells: [40, 40, 100], width: 0.001, every: 0.1, samples: 5,
       min: [0, 0, -0.001], max: [0.01, 0.01, 0.024]}
YAML
"$RUBBLE" run bed.yaml --quiet > bed.txt

PYTHONPATH=$PYPATH /usr/bin/python3 "$ROOT/validation/cg_plots.py" "$DOCS" bed > /dev/null
echo "== a square silo"
PYTHONPATH=$PYPATH /usr/bin/python3 "$ROOT/validation/cg_silo.py" "$DOCS" > silo.md
cat silo.md >> "$DOCS/cg.md"
echo >> "$DOCS/cg.md"
echo "== a settled bed against side walls"
PYTHONPATH=$PYPATH /usr/bin/python3 "$ROOT/validation/cg_wall.py" "$DOCS" > wall.md
cat wall.md >> "$DOCS/cg.md"
cat "$DOCS/cg.md"
