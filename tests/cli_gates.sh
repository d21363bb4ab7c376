#!/bin/sh
# Gates (issue 73, docs/scenes.md "Stages"): walls a stage takes away or puts in (`present`),
# through the CLI. Refused by file and line: `present` not true or false; a stage that names a
# wall the scene lacks (the message says how to add one); a wall put in where grains touch it
# (at the stage's start: the run stops naming the wall's line, its number as thermo.csv's
# wallK columns count them, and the grain). --change-physics
# takes a wall away as a stage does: the energy its contacts held is booked (in_changes < 0)
# and the grains run out. The silo of tests/scenes/invariance/gate.yaml throughout.
# usage: cli_gates.sh RUBBLE
. "$(dirname "$0")/cli_run_common.sh"

sed "s|@OUTPUT@|{folder: o, every: 0.01, checkpoint_every: 0.03}|" \
    "$SCENES/invariance/gate.yaml" > gate.yaml
grep -q "name: gate}" gate.yaml && grep -q "present: false}" gate.yaml ||
    { echo "FAIL: gate.yaml's lines were not found"; exit 1; }

sed 's/normal: \[0, 0, -1\], present: false}/normal: [0, 0, -1], present: maybe}/' gate.yaml \
    > bad_present.yaml
expect bad_present "bad_present.yaml:1[0-9]:.*present"

sed 's/walls: \[{name: lid, present: true}\]/walls: [{name: hatch, point: [0, 0, 0.02], normal: [0, 0, -1]}]/' \
    gate.yaml > new_wall.yaml
expect new_wall "no wall named 'hatch'.*present: false"

# a wall put in under the resting grains (2 mm above the floor): refused at the stage's start
sed -e 's/  - {name: lid, point: \[0, 0, 0.026\]/  - {name: lid, point: [0, 0, 0.002]/' \
    -e 's/normal: \[0, 0, -1\], present: false}/normal: [0, 0, 1], present: false}/' \
    gate.yaml > onto.yaml
"$RUBBLE" run onto.yaml --output out_onto --quiet > out.txt 2> err.txt
got=$?
line=$(grep -n "^  - {name: lid" onto.yaml | cut -d: -f1)
if [ "$got" -ne 1 ] || ! grep -q "onto.yaml:$line:.*wall 1 cannot be put back where grain" err.txt
then
    echo "FAIL [onto]: exit $got, expected 1 naming line $line and a grain:"; cat err.txt
    failures=$((failures+1))
else
    echo "ok: a wall put in onto grains refused: $(head -c 200 err.txt)"
fi

# --change-physics: the fill's checkpoint at 0.06 s (grains on the gate), the gate taken away
# at the restart
sed -e '/^stages:/,/^output:/{/^output:/!d}' -e 's/^run: {dt: auto, c: 0.05}/run: {dt: auto, c: 0.05, time: 0.065}/' \
    gate.yaml > fill.yaml
"$RUBBLE" run fill.yaml --output fill --quiet > /dev/null 2> err.txt ||
    { echo "FAIL [fill]: $(cat err.txt)"; exit 1; }
set -- fill/checkpoint_*.bin
shift
sed -e 's/time: 0.065}/time: 0.1}/' -e 's/radius: 0.0035}, name: gate}/radius: 0.0035}, name: gate, present: false}/' \
    fill.yaml > opened.yaml
if "$RUBBLE" run opened.yaml --output opened --restart "$1" --change-physics --quiet \
    > /dev/null 2> err.txt; then
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
             { out = $c["outlet1_grains"]; ch = $c["in_changes"] }
             END { if (!(out > 0 && ch < 0)) { print "FAIL [change-physics]: " out " out, in_changes " ch; exit 1 }
                   print "ok: the gate taken away at a restart: " out " grains out, " ch " J booked" }' \
        opened/thermo.csv || failures=$((failures+1))
else
    echo "FAIL [change-physics]: $(cat err.txt)"; failures=$((failures+1))
fi

# The stage `open` and the same change by --change-physics from a checkpoint at the stage's
# first step give the same bits: every frame and thermo row after it, all but thermo.csv's
# `stage` column (the one intended difference). A checkpoint every 0.03 s falls every
# round(0.03/dt) steps, at 10226, while a stage of 0.06 s begins at ceil(0.06/dt), 10227: a
# change one step earlier, 1e-5 apart at the end (issue 73's "not traced").
sed -e '/name: close/d' -e 's/checkpoint_every: 0.03/checkpoint_every: 1/' gate.yaml > staged.yaml
"$RUBBLE" run staged.yaml --output staged --quiet > notes.txt 2>&1 ||
    { echo "FAIL [staged]: $(cat notes.txt)"; exit 1; }
S=$(sed -n "s/.*stage 2 of 2 ('open') from step \([0-9]*\),.*/\1/p" notes.txt)
E=$(tail -n 1 staged/thermo.csv | cut -d, -f2)
T=$(awk -F, -v s="$S" '$2 == s { print $1 }' staged/thermo.csv) # a checkpoint at step S
sed -e "s/time: 0.065}/steps: $S}/" -e "s/checkpoint_every: 0.03/checkpoint_every: $T/" \
    fill.yaml > fill_s.yaml
sed -e "s/steps: $S}/steps: $E}/" \
    -e 's/radius: 0.0035}, name: gate}/radius: 0.0035}, name: gate, present: false}/' \
    fill_s.yaml > opened_s.yaml
if [ -n "$S" ] && "$RUBBLE" run fill_s.yaml --output fill_s --quiet > /dev/null 2> err.txt &&
   "$RUBBLE" run opened_s.yaml --output opened_s --restart "fill_s/checkpoint_$(printf %09d "$S").bin" \
       --change-physics --quiet > /dev/null 2>> err.txt; then
    rows_after staged opened_s "$S"
    last=$(ls staged/grains_*.vtp | tail -n 1)
    if [ -s a.csv ] && cmp -s a.csv b.csv && cmp -s "$last" "opened_s/${last#staged/}"; then
        echo "ok: the gate opened by a stage at step $S and by --change-physics there: the same bits ($(wc -l < a.csv) rows to step $E, ${last#staged/})"
    else
        echo "FAIL [same-step]: the staged and the changed run differ after step $S:"
        diff a.csv b.csv | head -n 4 | cut -c 1-200; failures=$((failures+1))
    fi
else
    echo "FAIL [same-step]: stage step '$S': $(cat err.txt)"; failures=$((failures+1))
fi

[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "cli_gates: all passed"
