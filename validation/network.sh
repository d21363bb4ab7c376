#!/bin/sh
# The contact network (issue 43) against LIGGGHTS 3.8 on the same state, and a force-chain
# render of a pressed bed:
#  1. a polydisperse bed settled by rubble (1200 grains, r 0.4-0.6 mm, periodic sides, a floor,
#     linear spring-dashpot with a tangential spring and friction) is read by both programs,
#     which evaluate its forces once: rubble's contacts_000000.csv against LIGGGHTS's
#     `compute pair/gran/local` (pairs) and its wall's per-grain force (`store_force`);
#  2. examples/press.yaml run to its end with output.contacts, drawn by pvpython (ParaView's
#     Tube filter scaled by the force) when ParaView is installed.
# Writes docs/validation/network.md and force-chains.png. Usage: validation/network.sh RUBBLE
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/validation/common.sh"
validation_workspace "$@"
PY=/usr/bin/python3
PYPATH=$(cd "$(dirname "$RUBBLE")" && pwd)/python

echo "== the same state in rubble and LIGGGHTS"
LAW="normal: linear, damping: linear, tangential: spring, kn: 2000, gamma_n: 0.005, gamma_t: 0.002, friction: 0.5"
cat > bed.yaml <<YAML
domain: {min: [0, 0, -0.001], max: [0.01, 0.01, 0.04], periodic: [x, y]}
gravity: [0, 0, -9.81]
materials: [{name: glass, density: 2500}]
contact: {$LAW}
walls: [{point: [0, 0, 0], normal: [0, 0, 1]}]
grains:
  - lattice: {min: [0, 0, 0.0001], max: [0.01, 0.01, 0.04], spacing: 0.00125, count: 1200}
    radius: {distribution: uniform, min: 0.0004, max: 0.0006}
    velocity_spread: 0.1
run: {steps: 40000, dt: 2.0e-6}
output: {folder: settled, final: grains.txt}
YAML
"$RUBBLE" run bed.yaml --quiet > /dev/null
sed 's|  - lattice: .*|  - file: settled/grains.txt|; /^    radius: /d; /^    velocity_spread/d;
     s|run: .*|run: {steps: 1, dt: 2.0e-6}|; s|^output: .*|output: {folder: rbl, contacts: csv}|' \
    bed.yaml > state.yaml
"$RUBBLE" run state.yaml --quiet > /dev/null
liggghts_data settled/grains.txt 0 0.01 0 0.01 -0.001 0.04 > bed.data
cols=$(seq 1 22 | sed 's/^/c_pc[/; s/$/]/' | tr '\n' ' ')
fmt=$(printf '%%.17g %.0s' $(seq 1 22))
{
    liggghts_preamble "p p f" bed.data "* * 1"
    liggghts_hooke_absolute 2000 0.005 0.002 0.5
    cat <<LIG
timestep 2.0e-6
fix zwall all wall/gran model hooke/stiffness tangential history primitive type 1 zplane 0.0 store_force yes absolute_damping on
fix gravi all gravity 9.81 vector 0.0 0.0 -1.0
fix integr all nve/sphere
compute pc all pair/gran/local pos id force force_normal force_tangential delta contactPoint
dump dp all local 1 pairs.dump $cols
dump_modify dp format "$fmt"
dump dw all custom 1 walls.dump id f_force_zwall[1] f_force_zwall[2] f_force_zwall[3]
dump_modify dw sort id format "%d %.17g %.17g %.17g"
run 0
LIG
} > state.lig
liggghts -log none -in state.lig > state_lig.txt 2>&1 || { tail state_lig.txt; exit 1; }
PYTHONPATH=$PYPATH $PY - <<'PY' > compare.txt
import numpy as np
from rubble import frames

t = frames.read_table("rbl/contacts_000000.csv")
L = np.loadtxt("pairs.dump", skiprows=9, ndmin=2)
W = np.loadtxt("walls.dump", skiprows=9, ndmin=2)
pair = t["ids"][:, 1] >= 0
# LIGGGHTS columns: pos (6), id (2 + periodic flag), force, force_normal, force_tangential
# (on the first atom), delta, contactPoint; atoms numbered from 1 in the file's order
a, b = L[:, 6].astype(np.int64) - 1, L[:, 7].astype(np.int64) - 1
sign = np.where(a < b, 1.0, -1.0)[:, None]  # rubble gives the force on the smaller id
order = np.argsort(np.minimum(a, b) * 2**32 + np.maximum(a, b))
lkey = (np.minimum(a, b) * 2**32 + np.maximum(a, b))[order]
lfn, lft = (L[:, 12:15] * sign)[order], (L[:, 15:18] * sign)[order]
ldelta, lpoint = L[order, 18], L[order, 19:22]
rkey = t["ids"][pair, 0] * 2**32 + t["ids"][pair, 1]
rfn, rft, rdelta, rpoint = t["fn"][pair], t["ft"][pair], t["overlap"][pair], t["point"][pair]
same = np.array_equal(rkey, lkey)
scale = np.abs(rfn).max()
fn_err = np.abs(rfn - lfn).max() / scale if same else np.nan
delta_err = np.abs(rdelta - ldelta).max() / rdelta.max() if same else np.nan
# LIGGGHTS puts the point of a pair across a periodic side by the other grain
d = rpoint - lpoint
d[:, :2] -= 0.01 * np.round(d[:, :2] / 0.01)
point_err = np.abs(d).max() / 0.0004 if same else np.nan
# tangential: in its set-up evaluation LIGGGHTS does not advance the contacts' history, so a
# new contact's spring is 0 and f_t = -g_t v_t (no Coulomb cap: the spring is below it);
# rubble advances the spring by v_t dt first: f_t = -(k_t dt + g_t) v_t, or, where k_t |v_t| dt
# exceeds mu |F_n|, the spring capped there and no damping, |f_t| = mu |F_n|
kt, dt, gt, mu = 2 * 2000 / 7, 2.0e-6, 0.002, 0.5
ratio = (kt * dt + gt) / gt


def tangential(rft, rfn, lft):
    vt = np.linalg.norm(lft, axis=1) / gt
    fn = np.linalg.norm(rfn, axis=1)
    slide = kt * vt * dt > mu * fn
    stick_err = np.abs(rft[~slide] - ratio * lft[~slide]).max() / np.abs(rft).max()
    cap_err = (np.abs(np.linalg.norm(rft[slide], axis=1) / (mu * fn[slide]) - 1).max()
               if slide.any() else 0.0)
    return int(slide.sum()), stick_err, cap_err


ft_slide, ft_err, ft_cap = tangential(rft, rfn, lft) if same else (0, np.nan, np.nan)
# the wall: LIGGGHTS stores each grain's wall force; its z is the normal part
wall = ~pair
wg = t["ids"][wall, 0]
wn_err = np.abs(t["fn"][wall, 2] - W[wg, 3]).max() / np.abs(W[wg, 3]).max()
lwt = np.column_stack([W[wg, 1], W[wg, 2], np.zeros(len(wg))])
wt_slide, wt_err, wt_cap = tangential(t["ft"][wall], t["fn"][wall], lwt)
print(f"pairs {len(rkey)} {len(lkey)} {int(same)}")
print(f"walls {int(wall.sum())} {int(np.count_nonzero(W[:, 3]))}")
print(f"fn {fn_err:.2e}")
print(f"delta {delta_err:.2e}")
print(f"point {point_err:.2e}")
print(f"ft {ft_err:.2e} {ratio:.6f} {ft_slide} {ft_cap:.2e}")
print(f"wall_fn {wn_err:.2e}")
print(f"wall_ft {wt_err:.2e} {ratio:.6f} {wt_slide} {wt_cap:.2e}")
PY
cat compare.txt
val() { awk -v k="$1" -v c="${2:-2}" '$1 == k { print $c }' compare.txt; }
[ "$(val pairs 4)" = 1 ] || { echo "FAIL: the pair lists differ"; exit 1; }

echo "== force chains of the pressed bed"
sed 's|^output: .*|output: {folder: press, every: 0.3, contacts: vtp, fields: [id, radius, contact_force, contacts, stress]}|' \
    "$ROOT/examples/press.yaml" > press.yaml
"$RUBBLE" run press.yaml --quiet > press.txt
last=$(ls press/contacts_*.vtp | tail -1)
grains=press/grains_${last##*_}
rendered=no
if command -v pvpython > /dev/null && command -v xvfb-run > /dev/null; then
    if xvfb-run -a pvpython "$ROOT/validation/force_chains.py" "$grains" "$last" \
        "$DOCS/force-chains.png" > render.txt 2>&1; then
        rendered=yes
    else
        tail -5 render.txt
    fi
fi
echo "render: $rendered"
chains=$(PYTHONPATH=$PYPATH $PY -c "
from rubble import frames
import numpy as np
c = frames.read('$last'); f = c.point_data['force'][::2]
print(len(f), f'{np.mean(f):.3g}', f'{np.max(f) / np.mean(f):.1f}', f'{np.mean(f > np.mean(f)):.2f}')")
set -- $chains
{
echo "# The contact network (validation/network.sh)"
echo
echo "## Against LIGGGHTS 3.8 on the same state"
echo
echo "A polydisperse bed (1200 grains, r from 0.4 to 0.6 mm, periodic sides, a floor; linear"
echo "spring-dashpot k_n = 2000 N/m, gamma_n = 0.005 N s/m, tangential spring k_t = 2/7 k_n with"
echo "gamma_t = 0.002 N s/m, mu = 0.5) settled by rubble for 0.08 s is read by both programs from"
echo "the same file (positions and velocities to 17 digits), which evaluate its forces once:"
echo "rubble's \`contacts_000000.csv\` (\`output.contacts: csv\`) against LIGGGHTS's"
echo "\`compute pair/gran/local\` and the floor's per-grain force (\`fix wall/gran ... store_force yes\`)."
echo
echo "| quantity | result |"
echo "|---|---|"
echo "| touching pairs | rubble $(val pairs 2), LIGGGHTS $(val pairs 3): the same pairs |"
echo "| grain-floor contacts | rubble $(val walls 2), LIGGGHTS $(val walls 3) grains with a floor force |"
echo "| normal force on the first grain, largest difference / largest force | $(val fn) |"
echo "| overlap, largest difference / largest overlap | $(val delta) |"
echo "| contact point, largest difference / smallest radius | $(val point) (LIGGGHTS puts it at r_i - delta/2 from grain i, rubble on the seed's radical plane) |"
echo "| tangential force, contacts sticking: rubble against LIGGGHTS x $(val ft 3) | $(val ft) of the largest |"
echo "| tangential force, the $(val ft 4) contacts whose spring slides at once in rubble: \|f_t\| / (mu \|F_n\|) - 1 | $(val ft 5) |"
echo "| floor, normal force per grain | $(val wall_fn) |"
echo "| floor, tangential force, sticking: rubble against LIGGGHTS x $(val wall_ft 3); sliding ($(val wall_ft 4)): \|f_t\| / (mu \|F_n\|) - 1 | $(val wall_ft); $(val wall_ft 5) |"
echo
echo "The tangential forces differ by one convention, and only by it: in its set-up evaluation"
echo "(\`run 0\`) LIGGGHTS does not advance the contacts' history, so a new contact's spring is"
echo "still 0 and f_t = -gamma_t v_t, uncapped (the spring is below the Coulomb limit); rubble"
echo "advances the spring by v_t dt first, f_t = -(k_t dt + gamma_t) v_t, so the two differ by the"
echo "factor (k_t dt + gamma_t)/gamma_t = $(val ft 3) on every sticking contact, to round-off. Where"
echo "k_t \|v_t\| dt already exceeds mu \|F_n\|, rubble's spring slides at once (capped at"
echo "mu \|F_n\|, F_n with its damping, and no tangential damping, as LIGGGHTS does from its first"
echo "step on). The normal forces and the list of contacts are the same to round-off."
echo
echo "## Force chains of a pressed bed"
echo
echo "examples/press.yaml (a servo piston pressing a periodic bed) run to its end with"
echo "\`output.contacts: vtp\`: $1 contacts, mean |f| $2 N, the largest $3 times the mean; $4 of"
echo "the contacts carry more than the mean (the strong network of Radjai et al. 1998 is about 40 %)."
if [ "$rendered" = yes ]; then
echo
echo "![force chains](force-chains.png)"
echo
echo "Drawn by \`validation/force_chains.py\` (pvpython, ParaView 5.11): the network's lines through"
echo "a Tube filter whose radius varies with \`force\`, coloured by it, over the grains as spheres."
fi
echo
echo "### The recipe in ParaView"
echo
echo "1. Open \`contacts.pvd\` (and \`grains.pvd\`: *Glyph*, sphere, scale by \`radius\`, factor 2,"
echo "   opacity 0.3)."
echo "2. On the contacts: *Tube*; *Vary Radius*: By Scalar, scalars \`force\`; radius about a tenth"
echo "   of a grain's; *Radius Factor* 10 (the strongest contact's tube is ten times the weakest's)."
echo "3. Colour by \`force\` (or \`normal_force\` Magnitude). *Threshold* on \`wall\` = -1 keeps the"
echo "   grain pairs only; on \`force\` above the mean, the strong network."
echo "4. The same lines as a table for numpy: \`output.contacts: [vtp, csv]\`, then"
echo "   \`rubble.frames.read_table\` (docs/python.md)."
} > network.md
cp network.md "$DOCS/network.md"
cat network.md
