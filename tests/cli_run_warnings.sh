#!/bin/sh
# Warnings for likely mistakes (issue 44, docs/scenes.md "Warnings"): each legal but suspicious
# setting runs (exit 0) and says so once on stderr, with file:line:column (or the output
# folder) and the number; a scene without any says nothing.
EXAMPLES=$(cd "$(dirname "$0")/../examples" && pwd)
. "$(dirname "$0")/cli_run_common.sh"

# scene NAME SED: the valid small scene with one edit
scene() { sed "$2" "$SCENES/small.yaml" > "$1.yaml"; }
# warns NAME PATTERN: one step of NAME.yaml runs, and stderr has PATTERN on one line
warns() {
    "$RUBBLE" run "$1.yaml" --steps 1 --output "out_$1" --quiet > out.txt 2> err.txt || {
        echo "FAIL [$1]: exit $?"; cat err.txt; failures=$((failures+1)); return; }
    if [ "$(grep -c -- "$2" err.txt)" -ne 1 ]; then
        echo "FAIL [$1]: stderr lacks '$2' (once):"; cat err.txt; failures=$((failures+1)); return
    fi
    echo "ok: $(grep -- "$2" err.txt)"
}

cp "$SCENES/small.yaml" clean.yaml
"$RUBBLE" run clean.yaml --steps 1 --output out_clean --quiet > out.txt 2> err.txt \
    || { echo "FAIL: the clean scene"; exit 1; }
[ -s err.txt ] && { echo "FAIL: the clean scene warned:"; cat err.txt; exit 1; }
echo "ok: the clean scene ran without a word"
warns clean "rubble run: warning: out_clean: the output folder holds 5 files of an earlier run"

scene density 's/density: 2500}/density: 2.5}/'
warns density "warning: density.yaml:5:[0-9]*: density 2.5 kg/m^3 is below any solid's (g/cm^3 meant?"
scene friction 's/friction: 0.5}/friction: 50}/'
warns friction "warning: friction.yaml:7:[0-9]*: friction 50 is above 5"
scene soft 's/kn: 2000/kn: 2/'
warns soft "warning: soft.yaml:6:[0-9]*: at [0-9.]* m/s .* would overlap [0-9.]* of their radius"
# grains only poured (none at the start): the pour's largest grain is judged (issue 69,
# setup/soft_pour.yaml: it was not, and the health check stopped the run at step 641)
cat > soft_pour.yaml <<'EOT'
domain: {min: [0, 0, 0], max: [0.02, 0.02, 0.04]}
gravity: [0, 0, -9.81]
materials: [{name: glass, density: 2500}]
contact: {normal: linear, kn: 2, restitution: 0.5, friction: 0.5}
walls: [{point: [0, 0, 0], normal: [0, 0, 1]}]
grains:
  - pour: {min: [0.002, 0.002, 0.02], max: [0.018, 0.018, 0.035], count: 50, rate: 5000}
    radius: 0.001
run: {steps: 10, dt: 1.0e-5}
EOT
warns soft_pour "warning: soft_pour.yaml:4:[0-9]*: at [0-9.]* m/s .* the largest grains poured (r = 0.001 m) would overlap [0-9.]* of their radius"
scene periodic 's/max: \[0.02, 0.02, 0.05\]}/max: [0.02, 0.02, 0.05], periodic: [z]}/'
warns periodic "warning: periodic.yaml:9:[0-9]*: a plane wall across periodic axis z"
sed "s|{mesh: hopper.stl, scale: 0.001}|{mesh: $EXAMPLES/hopper.stl}|" "$EXAMPLES/hopper.yaml" > mm.yaml
warns mm "warning: mm.yaml:[0-9]*:[0-9]*: the mesh spans 140 m in a domain 0.154 m wide: an STL in millimetres needs scale: 0.001"

# values that read as other units (issue 70; tests/python/test_unit_warnings.py has each, its
# silencing and every example and test scene): lb/ft^3, gravity up over a floor, omega as rpm
scene lb 's/density: 2500}/density: 156}/'
warns lb "warning: lb.yaml:5:[0-9]*: density 156 kg/m^3 for 'glass' is glass's in lb/ft^3: 156 lb/ft^3 is 2499 kg/m^3"
scene up 's/gravity: \[0, 0, -9.81\]/gravity: [0, 0, 9.81]/'
warns up "warning: up.yaml:3:10: gravity \[0, 0, 9.81\] points away from every wall .* \[0, 0, -9.81\] meant?"
sed "s|mesh: drum.stl|mesh: $EXAMPLES/drum.stl|; s|rpm: 20|omega: 20|" "$EXAMPLES/drum.yaml" > rad.yaml
warns rad "warning: rad.yaml:$(grep -n 'rpm: 20' "$EXAMPLES/drum.yaml" | cut -d: -f1):[0-9]*: omega 20 rad/s .* Froude number w^2 R / g of 1.63.* 20 rpm would be 2.094 rad/s"
{ echo "warnings: {off: [omega]}"; cat rad.yaml; } > rad_meant.yaml
"$RUBBLE" run rad_meant.yaml --steps 1 --output out_rad_meant --quiet > out.txt 2> err.txt || echo "FAIL [rad_meant]: exit $?"
if [ -s err.txt ]; then echo "FAIL [rad_meant]: warned:"; cat err.txt; failures=$((failures+1)); else echo "ok: warnings: {off: [omega]} silences it"; fi

# a random source too crowded to keep its sizes (issue 69, setup/psd_crowded.yaml): a wide
# log-normal by mass at a volume fraction of 0.2 loses 9 % of its volume from the large
# grains to smaller ones (11 % while the region kept a radius from the periodic sides it
# spans; issue 73: it wraps); at 0.05, nothing
cat > crowded.yaml <<'EOT'
domain: {min: [0, 0, 0], max: [0.05, 0.05, 0.05], periodic: [x, y, z]}
materials: [{name: glass, density: 2500}]
contact: {normal: linear, kn: 2000, gamma_n: 0, friction: 0.5}
grains:
  - random: {min: [0, 0, 0], max: [0.05, 0.05, 0.05], volume_fraction: 0.2}
    radius: {distribution: lognormal, median: 0.001, sigma: 0.5, min: 0.0003, max: 0.003, by: mass}
    seed: 3
run: {steps: 1}
EOT
warns crowded "warning: crowded.yaml:5:5: the region is too crowded to keep the size distribution: [0-9]* radii drawn found no room and were drawn again, so [89].[0-9] % of the volume asked"
sed 's/volume_fraction: 0.2}/volume_fraction: 0.05}/' crowded.yaml > loose.yaml
"$RUBBLE" run loose.yaml --steps 1 --output out_loose --quiet > out.txt 2> err.txt || echo "FAIL [loose]: exit $?"
if [ -s err.txt ]; then echo "FAIL [loose]: warned:"; cat err.txt; failures=$((failures+1)); else echo "ok: a loose random source says nothing"; fi

# output.cg's kernel narrower than the grid can sample (issue 70, cg08: width 1e-12 gave fields
# of zeros without a word); a width of 2 node spacings says nothing
cg='s/output: {folder: out, every: 0.005}/output: {folder: out, every: 0.005, cg: {CG}}/'
scene cg_tiny "$(echo "$cg" | sed 's/CG/cells: [2, 2, 4], width: 1e-12/')"
warns cg_tiny "warning: cg_tiny.yaml:16:[0-9]*: cg: the kernel reaches 1e-12 m, not even half a cell's diagonal (0.0095[0-9]* m; nodes 0.01275 m apart along z): a grain between nodes reaches none"
scene cg_narrow "$(echo "$cg" | sed 's/CG/cells: [2, 2, 4], width: 0.01, kernel: lucy/')"
warns cg_narrow "warning: cg_narrow.yaml:16:[0-9]*: cg: the kernel reaches 0.01 m, less than 2 node spacings (0.01275 m along z)"
scene cg_gauss "$(echo "$cg" | sed 's/CG/cells: [2, 2, 4], width: 0.004, kernel: gaussian/')"
warns cg_gauss "warning: cg_gauss.yaml:16:[0-9]*: cg: the kernel reaches 0.012 m (3 standard deviations), less than 2 node spacings"
scene cg_fine "$(echo "$cg" | sed 's/CG/cells: [2, 2, 4], width: 0.026/')"
"$RUBBLE" run cg_fine.yaml --steps 1 --output out_cg_fine --quiet > out.txt 2> err.txt || echo "FAIL [cg_fine]: exit $?"
if [ -s err.txt ]; then echo "FAIL [cg_fine]: warned:"; cat err.txt; failures=$((failures+1)); else echo "ok: a kernel of 2 node spacings says nothing"; fi

[ "$failures" -eq 0 ] || { echo "$failures failures"; exit 1; }
echo "every likely mistake warned about, where and with its number"
