#!/bin/sh
# A silo of primitive walls (issue 73): examples/silo_orifice.yaml (a cylinder, a floor disk
# with a round orifice, a gate a stage slides away) at four orifice diameters, its discharge
# rate against Beverloo's law for a round orifice (validation/silo_orifice.py, which reuses the
# guide's silo_rate.py). Writes docs/validation/silo_orifice.md and silo-orifice.png.
# Usage: validation/silo_orifice.sh RUBBLE BUILD_DIR
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/validation/common.sh"
validation_workspace "$@"
SIZES="8 10 12 14"
# each run: 0.51 s of 5175 grains, 72000 steps, about 45 s of one core (measured: 49 s user
# for 0.61 s); the four side by side on two cores
for D in $SIZES; do # the hole's radius D/2, the gate's 2 mm wider (its 20 mm slide clears it)
    sed "s/hole: 0.007/hole: $(echo "$D" | awk '{ print $1 / 2000 }')/;
         s/radius: 0.009}, name: gate/radius: $(echo "$D" | awk '{ print $1 / 2000 + 0.002 }')}, name: gate/;
         s#folder: output/silo_orifice#folder: out_$D#; s/    time: 0.3$/    time: 0.35/;
         s/thermo_every: 0.01/thermo_every: 0.005/" \
        "$ROOT/examples/silo_orifice.yaml" > silo_$D.yaml
    grep -q "time: 0.35" silo_$D.yaml && grep -q "thermo_every: 0.005" silo_$D.yaml ||
        { echo "silo_orifice.yaml's lines were not found"; exit 1; }
    "$RUBBLE" run silo_$D.yaml --threads 1 --quiet > run_$D.txt &
done
wait
status=0
PYTHONPATH=${BUILD:+$BUILD/python} /usr/bin/python3 "$ROOT/validation/silo_orifice.py" . "$DOCS" $SIZES > table.md 2>&1 || status=1
{ cat <<MD
# A silo of primitive walls against Beverloo's law

Made by \`validation/silo_orifice.sh RUBBLE BUILD_DIR\` (part of \`make validate\`; four runs
of about 45 s of one core each, side by side).
examples/silo_orifice.yaml: an open cylinder of radius 24 mm (a \`cylinder\` wall), a flat
floor with a round orifice (a \`disk\` wall with a \`hole\`), under it a gate (a smaller disk)
that the stage \`open\` slides 20 mm aside after 0.12 s of filling (clear of the orifice at
0.152 s); 5175 glass beads of 0.9-1 mm radius (linear law, k_n = 2000 N/m, restitution 0.5,
friction 0.5), a bed about 20 mm deep; an outlet takes them out 15 mm below the floor. The
orifice's diameter D is 8, 10, 12 and 14 mm (4.2 to 7.4 grain diameters; the gate 4 mm wider),
the discharge 0.35 s.

**What is measured.** The rate is the least-squares slope of the grains taken out
(thermo.csv's \`outlet1_grains\`, every 5 ms) against time over 0.21-0.51 s: the gate is clear
at 0.152 s and the flow formed 0.05 s later (the rate in 50 ms windows is flat from there, within
its scatter of about 5 %), and by 0.51 s at most 22 % of the grains are out, the bed about 4 mm
lower (a third of the widest orifice). The ± is the fit's standard error; the rate over other
windows (0.21-0.61 s, 0.26-0.51 s) moves by up to 4 %. rho_b is the bed's bulk density at rest
at 0.12 s, before the gate opens: the grains' volume within 15 mm of the axis and 3-15 mm above
the floor (under the free surface at about 20 mm, above the floor's first layer).

**The bound, and why.** Beverloo's law for a round orifice in a flat floor,
W = C rho_b sqrt(g) (D - k d)^(5/2), with k = 1.5 (Nedderman 1992, glass beads; published
k spans 1.3-2.9): the script fails where C (the geometric mean of the four diameters') lies
outside 0.45-0.71, that is 0.58 ± 22 %, or where one diameter's C is more than 15 % from that
mean (the rates do not follow (D - k d)^(5/2)). The published C spans 0.55-0.65 for
experiments (Beverloo, Leniger & van de Velde 1961; Nedderman 1992); the bound is wider by
what this set-up adds: rho_b is the bed at rest, while the flowing bed near the orifice is
dilated by some 5-10 % (which rho_b's definition leaves open), the bed is shallow (about 1.4 to
2.5 orifices deep, where the law is stated for deep beds), and the orifices are small (4-7
grains, where k d is a third of D and a change of k by 0.1 moves C by 4-8 %). A rate off by a
factor (a wrong outlet, a leaking gate, friction or gravity not applied) moves C out of it;
the (D - k d)^(5/2) check catches a rate that does not grow with the orifice as the law says.

**Found on the way.** Before this version, rho_b was measured 5-25 mm above the floor, over
the bed's free surface at about 20 mm: a packing of 0.42 instead of 0.58, which made the fitted
C 0.89 (the plot of d43e2e0). The rate was taken while 2-10 % of the grains were out, which
for the widest orifice still held the gate's opening transient.

MD
  cat table.md
  cat <<MD

The rates lie 12-23 % below Beverloo's curve with C = 0.58: C = 0.48 at k = 1.5 (or C = 0.56
with k = 1.73 when both are fitted, the two strongly correlated over four small orifices).
Not checked here: a deeper bed in a wider silo, nearer the law's conditions (about four times
the grains), and the rate's dependence on friction.

![discharge rate against the orifice's diameter](silo-orifice.png)
MD
} > "$DOCS/silo_orifice.md"
cat "$DOCS/silo_orifice.md"
exit $status
