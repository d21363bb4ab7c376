#!/bin/sh
# Mesh walls' loads and wear per facet (issue 43) against LIGGGHTS 3.8's mesh/surface/stress
# (dump mesh/vtk stress stresscomponents wear) on the hopper of validation/silo.sh, its STL's
# facets cut in 64 (512 facets of about 5 mm^2), from a flowing state (grains poured by rubble
# and let flow 0.25 s):
#  1. each facet's force and pressure on the same positions: LIGGGHTS's after one elastic,
#     frictionless step, evaluated by rubble; then the whole law (damping, friction) one step
#     from the same state in each program;
#  2. from that state 0.1 s of discharge with Finnie's wear: the worn volume in bands of
#     height along the hopper (each program's own trajectories: a statistical comparison).
# Writes docs/validation/wall-loads.md and wall-loads.png. Usage: validation/wall_loads.sh RUBBLE
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/validation/common.sh"
validation_workspace "$@"
PYPATH=$(cd "$(dirname "$RUBBLE")" && pwd)/python

DT=5e-6; KN=2000; GN=0.0055; GT=0.005; MU=0.5; KF=1e-9; LONG=20000
stl_slice "$ROOT/examples/hopper.stl" > hopper.stl
/usr/bin/python3 "$ROOT/validation/wall_loads.py" refine hopper.stl 3 > fine.stl
start() { # MU
cat <<YAML
domain: {min: [-0.045, 0, -0.004], max: [0.045, 0.01, 0.15], periodic: [y]}
gravity: [0, 0, -9.81]
materials: [{name: glass, density: 2500}]
contact: {normal: linear, tangential: spring, kn: $KN, gamma_n: $GN, gamma_t: $GT, friction: $1}
walls: [{mesh: fine.stl, scale: 0.001, wear: {finnie: $KF}}]
grains:
  - lattice: {min: [-0.039, 0, 0.062], max: [0.039, 0.01, 0.14]}
    radius: {distribution: uniform, min: 0.0009, max: 0.001}
    velocity_spread: 0.05
run: {steps: 1, dt: $DT}
output: {folder: start, final: grains.txt}
YAML
}
start $MU > start.yaml
"$RUBBLE" run start.yaml --quiet > /dev/null
from_start start.yaml 50000 "folder: flow, final: grains.txt" > flow.yaml
echo "== rubble: pouring and 0.25 s of flow"
"$RUBBLE" run flow.yaml --quiet > /dev/null
liggghts_data flow/grains.txt -0.045 0.045 0 0.01 -0.004 0.15 > state.data
lig() { # MU STEPS NAME
    { liggghts_preamble "f p f" state.data
      liggghts_hooke_absolute $KN $GN $GT "$1"; cat <<LIG
fix kf all property/global k_finnie peratomtypepair 1 $KF
timestep $DT
fix hopper all mesh/surface/stress file fine.stl type 1 scale 0.001 wear finnie
fix walls all wall/gran model hooke/stiffness tangential history mesh n_meshes 1 meshes hopper absolute_damping on
fix gravi all gravity 9.81 vector 0.0 0.0 -1.0
fix integr all nve/sphere
dump dm all mesh/vtk $2 $3_*.vtk stress stresscomponents wear area
dump dp all custom $2 $3_pos.dump id x y z vx vy vz
dump_modify dp sort id format "%d %.17g %.17g %.17g %.17g %.17g %.17g"
run $2
LIG
    } > "$3.lig"
    mpirun --allow-run-as-root -np 2 liggghts -log none -in "$3.lig" > "$3.txt" 2>&1 ||
        { tail "$3.txt"; exit 1; }
}
rbl() { # MU STEPS NAME [GRAINS]
    start "$1" | sed "s|  - lattice: .*|  - file: ${4:-flow/grains.txt}|; /^    radius: /d; /^    velocity_spread/d;
        s|run: {steps: 1,|run: {steps: $2,|; s|^output: .*|output: {folder: $3, every: $(awk -v s="$2" -v d=$DT 'BEGIN { print s * d }'), wall_loads: true}|" > "$3.yaml"
    "$RUBBLE" run "$3.yaml" --quiet > /dev/null
}
echo "== the same positions: LIGGGHTS's after one step (elastic, frictionless) read by rubble"
GN=0; GT=0
lig 0 1 lig_el
awk 'NR == FNR { if (!/^#/) r[++n] = $4; next } /^ITEM: ATOMS/ { snap++; next } /^ITEM/ { on = 0 }
     snap == 2 && NF == 7 { printf "%s %s %s %s %s %s %s\n", $2, $3, $4, r[$1], $5, $6, $7 }' \
    flow/grains.txt lig_el_pos.dump > elastic.txt
rbl 0 1 rbl_el elastic.txt
GN=0.0055; GT=0.005
echo "== the same state stepped once, the whole law"
rbl $MU 1 rbl_mu; lig $MU 1 lig_mu
echo "== $LONG steps of discharge with Finnie's wear"
rbl $MU $LONG rbl_long; lig $MU $LONG lig_long
PYTHONPATH=$PYPATH /usr/bin/python3 "$ROOT/validation/wall_loads.py" compare "$DOCS" \
    "$(grep -vc '^#' flow/grains.txt)" $LONG $DT
cat "$DOCS/wall-loads.md"
