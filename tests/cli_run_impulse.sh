#!/bin/sh
# `rubble run` of an impulse scene (seed 003, SPEC FO): the run writes its frames, series and
# thermo.csv, the ellipsoids come out as a 9-component shape tensor, the energy never grows
# from row to row (e = 0.3, no driving), and bad scenes get file:line:column, the value, exit
# status 1 and no output folder.
. "$(dirname "$0")/cli_run_common.sh"

scene() { sed "$2" "$SCENES/impulse.yaml" > "$1.yaml"; }

"$RUBBLE" run "$SCENES/impulse.yaml" --output good --quiet > report.txt || {
    echo "FAIL: the valid scene was refused"; exit 1; }
cat report.txt
grep -q "^objects        20$" report.txt || { echo "FAIL: not 20 objects"; exit 1; }
for f in good/objects.pvd good/thermo.csv good/objects_000000.vtp good/objects_000005.vtp; do
    [ -s "$f" ] || { echo "FAIL: $f missing"; exit 1; }
done
# the walls for ParaView: 5 planes and the tube (48 quads about its axis, 2 x 48 corners)
[ -s good/walls.vtp ] && grep -q 'NumberOfPoints="' good/walls.vtp || {
    echo "FAIL: no walls.vtp"; exit 1; }
cells=$(grep -a -o 'NumberOfPolys="[0-9]*"' good/walls.vtp | tr -dc '0-9')
[ "$cells" -eq 53 ] || { echo "FAIL: walls.vtp holds $cells polygons, not 5 + 48"; exit 1; }
grep -q "good/walls.vtp" report.txt || { echo "FAIL: the report does not name walls.vtp"; exit 1; }
grep -q 'Name="shape" NumberOfComponents="9"' good/objects_000000.vtp || {
    echo "FAIL: the frame lacks the 9-component shape tensor"; exit 1; }
for a in velocity angular_velocity id; do
    grep -q "Name=\"$a\"" good/objects_000000.vtp || { echo "FAIL: the frame lacks '$a'"; exit 1; }
done
# total energy (column 6) never grows from one row to the next, beyond rounding
awk -F, 'NR > 2 && $6 > prev + 1e-12 * (prev < 0 ? -prev : prev) + 1e-15 {
             print "FAIL: energy grew at t = " $1 ": " prev " -> " $6; bad = 1 }
         NR > 1 { prev = $6 } END { exit bad }' good/thermo.csv || exit 1
echo "ok: the energy never grows over $(($(wc -l < good/thermo.csv) - 1)) rows"

# output.final: one line of 17 numbers per object, each top (z + half_height) above its centre
scene final 's/  every: 0.02/  every: 0.02\n  final: final.txt/'
"$RUBBLE" run final.yaml --output final_out --quiet > /dev/null || { echo "FAIL: final run"; exit 1; }
awk '!/^#/ { n++; if (NF != 17 || !($4 > 0)) bad = 1 } END { exit bad || n != 20 }' \
    final_out/final.txt || { echo "FAIL: final.txt is not 20 lines of 17 numbers"; exit 1; }
echo "ok: output.final lists the 20 objects"
# a file source reads output.final back (tests/python/test_impulse_io.py: to the last bit)
scene again 's|  - random: {min: \[0, 0, 0\], max: \[0.1, 0.1, 0.1\], count: 20}|  - file: final_out/final.txt|; s/  steps: 500/  steps: 10/'
"$RUBBLE" run again.yaml --output again_out > report.txt 2>&1 || {
    echo "FAIL: the file source was refused"; cat report.txt; exit 1; }
grep -q "^objects        20$" report.txt || { echo "FAIL: not 20 objects from final.txt"; exit 1; }
echo "ok: a file source reads output.final's 20 objects"
printf '0.05 0.05 0.05 1 0 0 0\n0.05 0.05 0.062 1 0 0 0 0 0 -1\n' > two.txt
scene touching 's|  - random: {min: \[0, 0, 0\], max: \[0.1, 0.1, 0.1\], count: 20}|  - file: two.txt|; /tube:/d; s/    seed: 7/    spin: [0, 0, 30]/'
"$RUBBLE" run touching.yaml --output touching_out --quiet > report.txt 2>&1 || {
    echo "FAIL: two objects starting in touch were refused"; cat report.txt; exit 1; }
grep -q "^objects        2$" report.txt || { echo "FAIL: not 2 objects from two.txt"; exit 1; }
echo "ok: a file source's objects may start touching"
for bad in "0.05 0.05 0.05 1 0 0|expected 'x y z qw qx qy qz'" \
           "0.05 0.05 0.05 2 0 0 0|two_bad.txt:1: the orientation (2, 0, 0, 0) must be a unit quaternion" \
           "0.05 nan 0.05 1 0 0 0|two_bad.txt:1: y 'nan' is not a finite number"; do
    printf '%s\n' "${bad%%|*}" > two_bad.txt
    sed 's/two.txt/two_bad.txt/' touching.yaml > file_bad.yaml
    expect file_bad "file_bad.yaml:14:[0-9]*: .*${bad#*|}"
done
# issue 70: an object placed through a wall is refused at its line, naming the object and the
# wall (once the health check stopped the run at step 5 for "0 J of its scale 0 J"); one
# across the tube's wall too (once it stayed on the side of its centre)
printf '0.05 0.05 0.05 1 0 0 0\n0.05 0.05 0.0 1 0 0 0\n' > through.txt
sed 's/two.txt/through.txt/' touching.yaml > through.yaml
expect through "through.yaml:14:[0-9]*: through.txt:2: object 2 at (0.05, 0.05, 0): crosses wall 1 (the plane n . x = 0, n = (0, 0, 1)) by 0.005 m, more than 0.1 of its smallest semi-axis 0.005 m"
printf '0.05 0.05 0.05 1 0 0 0\n0.075 0.05 0.05 1 0 0 0\n' > straddle.txt
scene straddle 's|  - random: {min: \[0, 0, 0\], max: \[0.1, 0.1, 0.1\], count: 20}|  - file: straddle.txt|'
expect straddle "straddle.yaml:15:[0-9]*: straddle.txt:2: object 2 at (0.075, 0.05, 0.05): crosses wall 6 (the tube at line 13, radius 0.025 m) by 0.012 m"
sed 's/two.txt/missing.txt/' touching.yaml > file_missing.yaml
expect file_missing "file_missing.yaml:14:[0-9]*: .*missing.txt: cannot open"
scene no_dt 's/  dt: 2e-4/  dt: auto/'
expect no_dt "no_dt.yaml:20:[0-9]*: an impulse scene needs a fixed 'dt'"
scene grains_key 's/^gravity:/contact: {normal: linear}\ngravity:/'
expect grains_key "grains_key.yaml:3:[0-9]*: 'contact' is not part of an impulse scene"
scene no_impulse '/^impulse:/,/friction/d'
expect no_impulse "no_impulse.yaml:[0-9]*:[0-9]*: 'objects' belong to an impulse scene"
scene bad_axis 's/ellipsoid: \[0.012, 0.008, 0.005\]/ellipsoid: [0.012, -0.008, 0.005]/'
expect bad_axis "bad_axis.yaml:16:[0-9]*: semi-axes must lie in 1e-9 .. 1e3 m: '-0.008'"
scene tiny_axis 's/ellipsoid: \[0.012, 0.008, 0.005\]/ellipsoid: [1e-300, 1e-300, 1e-300]/'
expect tiny_axis "tiny_axis.yaml:16:[0-9]*: semi-axes must lie in 1e-9 .. 1e3 m: '1e-300'"
scene needle 's/ellipsoid: \[0.012, 0.008, 0.005\]/ellipsoid: [0.012, 0.008, 0.000005]/'
expect needle "needle.yaml:16:[0-9]*: semi-axes 5e-06 and 0.012: an object flatter than 1:1000"
scene huge_dt 's/  dt: 2e-4/  dt: 1e10/'
expect huge_dt "huge_dt.yaml:20:[0-9]*: dt of 1e+10 s is beyond any real scene"
scene long_dt 's/  dt: 2e-4/  dt: 0.05/; s/  every: 0.02/  every: 0.1/'
expect long_dt "long_dt.yaml:20:[0-9]*: dt = 0.05 s: in one step gravity (9.81 m/s^2) moves an object 0.024525 m, more than the smallest semi-axis 0.005 m"
scene fast 's/    seed: 7/    velocity: [100, 0, 0]/'
expect fast "fast.yaml:15:[0-9]*: velocity 100 m/s moves these objects 0.02 m in a step"
scene spun 's/    seed: 7/    spin: [0, 0, 1e9]/'
expect spun "spun.yaml:15:[0-9]*: an object spin of 1e+09 rad/s is beyond any real scene"
# issue 70: a spin that turns an object more than 0.3 rad a step (the free rotation then
# loses energy: 4.5e-4 at 0.45 rad, 4 % at 1 rad) is refused, as a source's or a file line's
scene spin_step 's/    seed: 7/    spin: [0, 0, 5000]/'
expect spin_step "spin_step.yaml:15:[0-9]*: spin 5000 rad/s turns these objects 1 rad in a step of dt = 0.0002 s, more than 0.3 rad .*: a shorter dt (at most 6e-05 s)"
printf '0.05 0.05 0.05 1 0 0 0 0 0 0 0 3000 0
' > spun.txt
sed 's/two.txt/spun.txt/' touching.yaml > spun_line.yaml
expect spun_line "spun_line.yaml:14:[0-9]*: spun.txt:1: a spin of 3000 rad/s turns object 1 by 0.6 rad in a step of dt = 0.0002 s, more than 0.3 rad"
scene long_arm 's/  friction: 0.5/  friction: 0.5\n  rolling: 1/'
expect long_arm "long_arm.yaml:[0-9]*:[0-9]*: rolling = 1 m: a rolling friction arm longer than the largest semi-axis 0.012 m"
scene deep_slop 's/  friction: 0.5/  friction: 0.5\n  slop: 0.01/'
expect deep_slop "deep_slop.yaml:[0-9]*:[0-9]*: slop = 0.01 m: as deep as the smallest semi-axis 0.005 m"
# issue 70: absurd densities, tubes and a subnormal dt, each refused at its line with the range
scene light 's/density: 2500/density: 1e-300/'
expect light "light.yaml:17:[0-9]*: 'density' 1e-300 kg/m^3 is beyond any real object (accepted 0.001 .. 1e+06 kg/m^3)"
scene thin_tube 's/radius: 0.025}/radius: 1e-300}/'
expect thin_tube "thin_tube.yaml:13:[0-9]*: a tube's radius of 1e-300 m is beyond any real scene (accepted 1e-09 .. 1000 m)"
scene wide_tube 's/radius: 0.025}/radius: 1e300}/'
expect wide_tube "wide_tube.yaml:13:[0-9]*: a tube's radius of 1e+300 m is beyond any real scene"
scene short_tube 's/to: \[0.05, 0.05, 0.1\]/to: [0.05, 0.05, 1e-12]/'
expect short_tube "short_tube.yaml:13:[0-9]*: a tube's length of 1e-12 m is beyond any real scene"
scene subnormal_dt 's/  dt: 2e-4/  dt: 5e-324/'
expect subnormal_dt "subnormal_dt.yaml:20:[0-9]*: 'dt' is below the smallest normal number a double holds"
scene nan_axis 's/ellipsoid: \[0.012, 0.008, 0.005\]/ellipsoid: [0.012, .nan, 0.005]/'
expect nan_axis "nan_axis.yaml:16:[0-9]*: 'ellipsoid' must be finite: '.nan'"
scene bad_e 's/restitution: 0.3/restitution: 1.5/'
expect bad_e "bad_e.yaml:5:[0-9]*: 'restitution' must be >= 0 and <= 1: '1.5'"
scene flat_patch 's/  friction: 0.5/  friction: 0.5\n  patch_radius: 0/'
expect flat_patch "flat_patch.yaml:[0-9]*:[0-9]*: 'patch_radius' must be > 0: '0'"
scene nan_patch 's/  friction: 0.5/  friction: 0.5\n  patch_radius: .nan/'
expect nan_patch "nan_patch.yaml:[0-9]*:[0-9]*: 'patch_radius' must be finite: '.nan'"
scene crowded 's/count: 20/count: 2000/'
expect crowded "crowded.yaml:15:[0-9]*: 2000 objects cannot fit in the region: their bounding spheres would fill 14.5"
# below close packing but beyond what random placement reaches (about 0.38): tried, then said
scene jammed 's/count: 20/count: 69/'
expect jammed "jammed.yaml:15:[0-9]*: only [0-9]* of the 69 objects fit in the region"
scene narrow 's/max: \[0.1, 0.1, 0.1\]/max: [0.1, 0.02, 0.1]/'
expect narrow "narrow.yaml:15:[0-9]*: the region is narrower (0.02 m) than the objects' bounding diameter 0.024 m"
scene zero_q 's/    seed: 7/    orientation: [0, 0, 0, 0]/'
expect zero_q "zero_q.yaml:[0-9]*:[0-9]*: 'orientation' must be a unit quaternion \\[w, x, y, z\\]: its norm is 0"
scene long_q 's/    seed: 7/    orientation: [1, 1, 0, 0]/'
expect long_q "long_q.yaml:[0-9]*:[0-9]*: 'orientation' must be a unit quaternion \\[w, x, y, z\\]: its norm is 1.41421"
scene unknown 's/    density: 2500/    densty: 2500/'
expect unknown "unknown.yaml:17:[0-9]*: unknown key in 'objects'.*'densty'"
scene flat_tube 's/radius: 0.025}/radius: 0}/'
expect flat_tube "flat_tube.yaml:13:[0-9]*: 'radius' must be > 0: '0'"
scene point_tube 's/to: \[0.05, 0.05, 0.1\]/to: [0.05, 0.05, 0]/'
expect point_tube "point_tube.yaml:13:[0-9]*: a tube's 'from' and 'to' must be apart"
scene tube_plane 's/  - tube: {from/  - normal: [0, 0, 1]\n    tube: {from/'
expect tube_plane "tube_plane.yaml:13:[0-9]*: a tube wall has only 'tube'"
# a tube is refused where grains are: their walls are planes
cat > grain_tube.yaml <<'SCENE'
domain: {min: [0, 0, 0], max: [0.1, 0.1, 0.1]}
materials: [{name: glass, density: 2500}]
contact: {normal: linear, kn: 2000, friction: 0.5}
walls:
  - tube: {from: [0.05, 0.05, 0], to: [0.05, 0.05, 0.1], radius: 0.02}
grains:
  - lattice: {min: [0, 0, 0], max: [0.02, 0.02, 0.02]}
    radius: 0.002
run: {steps: 10, dt: 1e-5}
SCENE
expect grain_tube "grain_tube.yaml:5:[0-9]*: a 'tube' wall is for impulse scenes"
# checkpoints: a restart from the middle, on one thread, into a folder that lost the later
# frames, ends with the same last frame, the same thermo.csv (less its timings) and series
scene ckpt 's/  every: 0.02/  every: 0.02\n  checkpoint_every: 0.04/'
"$RUBBLE" run ckpt.yaml --output full --quiet > /dev/null || { echo "FAIL: checkpoint run"; exit 1; }
[ -s full/checkpoint_000000200.bin ] || { echo "FAIL: no checkpoint at step 200"; exit 1; }
cp -r full part && rm part/objects_000004.vtp part/objects_000005.vtp part/thermo.csv
"$RUBBLE" run ckpt.yaml --output part --restart part/checkpoint_000000200.bin --threads 1 \
    --quiet > report.txt || { echo "FAIL: the restart was refused"; cat report.txt; exit 1; }
cmp full/objects_000005.vtp part/objects_000005.vtp || { echo "FAIL: last frame differs"; exit 1; }
cut -d, -f1-11 full/thermo.csv > a.csv && cut -d, -f1-11 part/thermo.csv > b.csv
cmp a.csv b.csv || { echo "FAIL: thermo.csv differs after the restart"; exit 1; }
cmp full/objects.pvd part/objects.pvd || { echo "FAIL: objects.pvd differs"; exit 1; }
echo "ok: restarted at step 200 on one thread, the last frame and thermo.csv are the same"
restart_fails() {
    name=$1; ckpt=$2; pattern=$3
    "$RUBBLE" run "$name.yaml" --output "out_$name" --restart "$ckpt" > out.txt 2> err.txt
    if [ $? -ne 1 ] || ! grep -q -- "$pattern" err.txt; then
        echo "FAIL [$name]:"; cat err.txt; failures=$((failures+1))
    else
        echo "ok: $(cat err.txt)"
    fi
}
scene other 's/restitution: 0.3/restitution: 0.4/'
restart_fails other full/checkpoint_000000200.bin "impulse.restitution"
head -c 300 full/checkpoint_000000200.bin > cut.bin
restart_fails ckpt cut.bin "truncated checkpoint"
sed "s/steps: 500/steps: 400/" ckpt.yaml > shorter.yaml
restart_fails shorter full/checkpoint_000000400.bin "at step 400, already at or past the end"
cat > grains.yaml <<'SCENE'
domain: {min: [0, 0, 0], max: [0.1, 0.1, 0.1]}
materials: [{name: glass, density: 2500}]
contact: {normal: linear, kn: 2000, friction: 0.5}
grains:
  - lattice: {min: [0, 0, 0], max: [0.02, 0.02, 0.02]}
    radius: 0.002
run: {steps: 10, dt: 1e-5}
output: {checkpoint_every: 5e-5}
SCENE
"$RUBBLE" run grains.yaml --output grain_out --quiet > /dev/null || { echo "FAIL: grain run"; exit 1; }
restart_fails ckpt grain_out/checkpoint_000000005.bin "a checkpoint of grains, not of an impulse scene"
cp grains.yaml grains2.yaml
restart_fails grains2 full/checkpoint_000000200.bin "a checkpoint of an impulse scene, not of grains"
# a pour source: batches of rate x every objects, each where it fits among the objects as they
# are; all 20 placed by the end, and a restart from the middle of the pour (the schedule in the
# checkpoint) ends with the same last frame
scene pour 's/  - random: {min: \[0, 0, 0\], max: \[0.1, 0.1, 0.1\], count: 20}/  - pour: {min: [0, 0, 0.05], max: [0.1, 0.1, 0.1], count: 20, rate: 200, every: 0.02}/; s/  every: 0.02/  every: 0.02\n  checkpoint_every: 0.04/; /tube:/d'
"$RUBBLE" run pour.yaml --output pour_full --quiet > report.txt || {
    echo "FAIL: the pour scene was refused"; cat report.txt; exit 1; }
grep -q "^objects        20$" report.txt || { echo "FAIL: the pour did not place 20"; exit 1; }
awk -F, 'NR == 2 { first = $3 } NR > 1 { if ($3 < prev) bad = 1; prev = $3 }
         END { exit bad || first >= 20 || prev != 20 }' pour_full/thermo.csv || {
    echo "FAIL: the objects column does not grow from a first batch to 20"; exit 1; }
cp -r pour_full pour_part && rm pour_part/objects_000005.vtp pour_part/thermo.csv
"$RUBBLE" run pour.yaml --output pour_part --restart pour_part/checkpoint_000000200.bin \
    --threads 1 --quiet > /dev/null || { echo "FAIL: the pour restart was refused"; exit 1; }
cmp pour_full/objects_000005.vtp pour_part/objects_000005.vtp || {
    echo "FAIL: the pour's last frame differs after a restart"; exit 1; }
echo "ok: a pour places its 20 objects in batches, and restarts from its middle bit for bit"
scene slow_pour 's/  - random: {min: \[0, 0, 0\], max: \[0.1, 0.1, 0.1\], count: 20}/  - pour: {min: [0, 0, 0.05], max: [0.1, 0.1, 0.1], count: 20, rate: 0}/'
expect slow_pour "slow_pour.yaml:15:[0-9]*: 'rate' must be > 0: '0'"
scene countless_pour 's/  - random: {min: \[0, 0, 0\], max: \[0.1, 0.1, 0.1\], count: 20}/  - pour: {min: [0, 0, 0.05], max: [0.1, 0.1, 0.1], rate: 10}/'
expect countless_pour "countless_pour.yaml:15:[0-9]*: 'pour' needs 'count'"
scene two_places 's/  - random: {min: \[0, 0, 0\], max: \[0.1, 0.1, 0.1\], count: 20}/&\n    pour: {min: [0, 0, 0.05], max: [0.1, 0.1, 0.1], count: 5, rate: 10}/'
expect two_places "two_places.yaml:15:[0-9]*: an object source is exactly one of 'lattice', 'random', 'pour' and 'file'"
# an absurd count is refused before anything is placed (--max-grains bounds objects too)
scene huge 's/count: 20/count: 100000000/'
"$RUBBLE" run huge.yaml --max-grains 1000 --output out_huge > out.txt 2> err.txt
if [ $? -ne 1 ] || ! grep -q "ask for 100000000 objects, more than --max-grains 1000" err.txt; then
    echo "FAIL [huge]:"; cat err.txt; failures=$((failures+1))
else
    echo "ok: $(cat err.txt)"
fi
# perturbed objects (seed eqs. 1-2): a bump and a dent on each; the run and a restart from its
# middle agree bit for bit, the energy never grows
scene bumpy 's/    ellipsoid: \[0.012, 0.008, 0.005\]/&\n    bumps:\n      - {centre: [0.012, 0, 0], semi: [0.003, 0.003, 0.003], amplitude: 0.4}\n      - {centre: [0, 0.008, 0], semi: [0.004, 0.003, 0.003], amplitude: -0.5}/; s/  every: 0.02/  every: 0.02\n  checkpoint_every: 0.04/; s/count: 20/count: 10/; /tube:/d'
"$RUBBLE" run bumpy.yaml --output bumpy_full --quiet > report.txt || {
    echo "FAIL: the perturbed scene was refused"; cat report.txt; exit 1; }
grep -q "^objects        10$" report.txt || { echo "FAIL: not 10 perturbed objects"; exit 1; }
awk -F, 'NR > 2 && $6 > prev + 1e-12 * (prev < 0 ? -prev : prev) + 1e-15 {
             print "FAIL: energy grew at t = " $1 ": " prev " -> " $6; bad = 1 }
         NR > 1 { prev = $6 } END { exit bad }' bumpy_full/thermo.csv || exit 1
cp -r bumpy_full bumpy_part && rm bumpy_part/objects_000005.vtp bumpy_part/thermo.csv
"$RUBBLE" run bumpy.yaml --output bumpy_part --restart bumpy_part/checkpoint_000000200.bin \
    --threads 1 --quiet > /dev/null || { echo "FAIL: the perturbed restart was refused"; exit 1; }
cmp bumpy_full/objects_000005.vtp bumpy_part/objects_000005.vtp || {
    echo "FAIL: perturbed objects' last frame differs after a restart"; exit 1; }
for f in bumpy_full/surfaces.pvd bumpy_full/surfaces_000000.vtp bumpy_part/surfaces_000005.vtp; do
    [ -s "$f" ] || { echo "FAIL: $f missing (the perturbed objects' surfaces)"; exit 1; }
done
grep -q 'NumberOfPolys="[1-9]' bumpy_full/surfaces_000000.vtp || {
    echo "FAIL: the surfaces frame has no quads"; exit 1; }
grep -c "<DataSet" bumpy_part/surfaces.pvd | grep -q "^6$" || {
    echo "FAIL: surfaces.pvd after the restart does not list 6 frames"; exit 1; }
echo "ok: perturbed objects restart bit for bit, their energy never grows, surfaces drawn"
scene flat_bump 's/    ellipsoid: \[0.012, 0.008, 0.005\]/&\n    bumps: [{centre: [0.012, 0, 0], semi: [0.004, 0.004, 0.004], amplitude: 0}]/'
expect flat_bump "flat_bump.yaml:17:[0-9]*: 'amplitude' must not be 0"
scene thin_bump 's/    ellipsoid: \[0.012, 0.008, 0.005\]/&\n    bumps: [{centre: [0.012, 0, 0], semi: [0.004, -1, 0.004], amplitude: 1}]/'
expect thin_bump "thin_bump.yaml:17:[0-9]*: a bump's semi-axes must be > 0: '-1'"
# a bump no thinner than a thousandth of the object, as an ellipsoid is no flatter than 1:1000
# (a crafted checkpoint's fin 4e-17 m thick stalled its projections for minutes); 1.2e-5 m holds
scene fin_bump 's/    ellipsoid: \[0.012, 0.008, 0.005\]/&\n    bumps: [{centre: [0.012, 0, 0], semi: [0.004, 1.1e-5, 0.004], amplitude: 1}]/'
expect fin_bump "fin_bump.yaml:15:[0-9]*: perturbation 1: the smallest semi-axis of the region where it acts is 1.1e-05 m, below 1/1000 of the object's longest semi-axis 0.012 m"
scene fin_ok 's/    ellipsoid: \[0.012, 0.008, 0.005\]/&\n    bumps: [{centre: [0.01, 0, 0], semi: [0.002, 1.3e-5, 0.002], amplitude: 1}]/'
"$RUBBLE" run fin_ok.yaml --output fin_ok --threads 1 --quiet > /dev/null || {
    echo "FAIL: a fin 1.3e-5 m thin (above 1/1000 of 0.012 m) was refused"; exit 1; }
scene open_quadric 's/    ellipsoid: \[0.012, 0.008, 0.005\]/&\n    quadrics: [{q: [1, 1, 1, 0, 0, 0, 0, 0, 0, -1], amplitude: 1}]/'
expect open_quadric "open_quadric.yaml:15:[0-9]*: perturbation 1: its quadric is not bounded"
scene short_q 's/    ellipsoid: \[0.012, 0.008, 0.005\]/&\n    quadrics: [{q: [-1, -1, -1, 0, 0, 0, 0, 0, 1], amplitude: 1}]/'
expect short_q "short_q.yaml:17:[0-9]*: a quadric needs 'q: \\[q0, ..., q9\\]', ten numbers"
scene nine_bumps "s/    ellipsoid: \\[0.012, 0.008, 0.005\\]/&\\n    bumps: [$(for i in 1 2 3 4 5 6 7 8 9; do printf '{centre: [0, 0, 0.005], semi: [0.003, 0.003, 0.003], amplitude: 0.1}, '; done)]/"
expect nine_bumps "nine_bumps.yaml:17:[0-9]*: more than 8 bumps and quadrics on one object"
# issue 41: sources that cannot hold what they ask for are refused, not run short or for hours
scene lattice_short 's/  - random: {min: \[0, 0, 0\], max: \[0.1, 0.1, 0.1\], count: 20}/  - lattice: {min: [0, 0, 0], max: [0.1, 0.1, 0.1], count: 1000}/'
expect lattice_short "lattice_short.yaml:15:[0-9]*: only 32 of the asked objects fit on the lattice (4 x 4 x 4 sites"
# a lattice 1e104 m long (clamped to 1e18 sites a row) whose row the side wall blocks after 4:
# its sites are tried a thousand per object asked, at least 1e5, not for ever
scene lattice_blocked 's/  - random: {min: \[0, 0, 0\], max: \[0.1, 0.1, 0.1\], count: 20}/  - lattice: {min: [0, 0, 0], max: [1e104, 0.1, 0.1], count: 8}/'
expect lattice_blocked "lattice_blocked.yaml:15:[0-9]*: only 4 of the asked objects fit on the lattice (1000000000000000000 x 4 x 4 sites .*, the first 100000 of them tried"
scene random_many 's/count: 20}/count: 100000000}/'
# (what the machine's memory holds is checked first: 32 KiB an object)
expect random_many "random_many.yaml:15:[0-9]*: the sources ask for 1e+08 objects, about .* GiB"
[ "$failures" -eq 0 ] || { echo "$failures failures"; exit 1; }
echo "cli_run_impulse: ok"
