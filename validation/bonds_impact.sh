#!/bin/sh
# An agglomerate striking a wall (issue 72, docs/validation/bonds.md "An agglomerate striking a
# wall"): examples/agglomerate_impact.yaml's bonded ball (1900 grains, Potyondy & Cundall's
# parallel bonds) thrown at a rigid plane from 0.2 to 8 m/s, two packings and strength draws a
# speed: the fraction of bonds broken, the largest fragment's share of the mass and the
# fragments' sizes against the speed (Thornton, Yin & Adams 1996; Moreno, Ghadiri & Antony
# 2003). Appends its section to docs/validation/bonds.md (after validation/bonds.sh), writes
# bonds-impact.png and bonds-impact.csv, and draws the example's fragments into
# docs/examples/agglomerate_impact.png; exits 1 when a bound is missed.
# Usage: validation/bonds_impact.sh RUBBLE   (about 7 minutes of CPU: 22 runs of 10000 steps)
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/validation/common.sh"
RUBBLE=$(cd "$(dirname "${1:?usage: $0 RUBBLE}")" && pwd)/$(basename "$1")
validation_workspace "$RUBBLE"
PY=/usr/bin/python3
SPEEDS="0.2 0.3 0.5 0.7 1 1.4 2 3 4 6 8"
for seed in 1 2; do
    for v in $SPEEDS; do
        # the ball starts 10 um above the plane; 3 ms after it touches (breakage over by
        # then: under 1 % of the bonds break in the last quarter)
        t=$($PY -c "print('%.6g' % (1e-5 / $v + 3e-3))")
        sed "s/velocity: \[0, 0, -2\]/velocity: [0, 0, -$v]/
             s/seed: 1$/seed: $seed/; s/seed: 1}/seed: $seed}/
             s/run: {time: 0.003,/run: {time: $t,/
             s|output: {folder: output/agglomerate_impact, every: 0.0005,|output: {folder: v${v}_s$seed, every: $t,|" \
            "$ROOT/examples/agglomerate_impact.yaml" > v${v}_s$seed.yaml
        grep -q "seed: $seed}" v${v}_s$seed.yaml && grep -q -- "-$v\]" v${v}_s$seed.yaml &&
            grep -q "folder: v${v}_s$seed, every: $t," v${v}_s$seed.yaml ||
            { echo "bonds_impact.sh: the example's keys changed: $v $seed"; exit 1; }
        "$RUBBLE" run v${v}_s$seed.yaml --threads 1 --quiet > v${v}_s$seed.log 2>&1 ||
            { cat v${v}_s$seed.log; exit 1; }
        echo "== $v m/s, seed $seed: $(tail -1 v${v}_s$seed/thermo.csv | cut -c1-40)"
    done
done
export PYTHONPATH="$(dirname "$RUBBLE")/python${PYTHONPATH:+:$PYTHONPATH}"
$PY "$ROOT/validation/bonds_impact.py" "$DOCS" . "$ROOT/examples/agglomerate_impact.yaml" $SPEEDS > impact.md
replace_section "$DOCS/bonds.md" "An agglomerate striking a wall" impact.md
