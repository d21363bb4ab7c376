#!/bin/sh
# `rubble cg` (issue 74): coarse-graining after the run gives output.cg's bytes on the same
# states, from the frames with their contact .vtp, from the contact .csv or .bin alone, from the
# checkpoints, and with another grid, kernel and window given by --cg, averaged over y (a second run's
# output.cg with those settings is the reference); bad inputs are refused with the file, the
# line or byte and the value, and leave no files.
. "$(dirname "$0")/cli_run_common.sh"
fail() { echo "FAIL: $*"; exit 1; }
cat > bed.yaml <<'EOF'
domain: {min: [0, 0, -0.001], max: [0.008, 0.008, 0.016], periodic: [x, y]}
gravity: [0, 0, -9.81]
materials: [{name: glass, density: 2500}]
contact: {normal: linear, damping: linear, tangential: spring, kn: 2000, restitution: 0.5,
          gamma_t: 0.005, friction: 0.5}
walls: [{point: [0, 0, 0], normal: [0, 0, 1]}]
grains:
  - lattice: {min: [0, 0, 0.0005], max: [0.008, 0.008, 0.014], spacing: 0.0022}
    radius: {distribution: uniform, min: 0.00095, max: 0.00105}
    velocity_spread: 0.05
run: {time: 0.085, dt: 1.0e-5, skin: 0.0003}  # every output a whole number of steps
output: {folder: out, every: 0.02, checkpoint_every: 0.02, checkpoint_keep: 9, contacts: [vtp, csv, bin],
         cg: {cells: [4, 4, 16], width: 0.002, every: 0.02}}
EOF
GRID2='cells: [3, 1, 12], width: 0.0009, kernel: gaussian, samples: 2, profile: x, average: [y]'
sed "s|cg: {cells: \[4, 4, 16\], width: 0.002, every: 0.02}|cg: {$GRID2, every: 0.04}|" bed.yaml > bed2.yaml
grep -q gaussian bed2.yaml || fail "bed2.yaml was not made"
"$RUBBLE" run bed.yaml --output A --quiet > out.txt 2>&1 || { cat out.txt; fail "the run failed"; }
"$RUBBLE" run bed2.yaml --output B --quiet > out.txt 2>&1 || { cat out.txt; fail "run 2 failed"; }
# a cylindrical grid about the vertical line through the box's middle (issue 74)
GRID3='cells: [4, 8, 8], width: 0.002, coordinates: cylindrical, axis: z, centre: [0.004, 0.004, 0], min: [0, 0, -0.001], max: [0.0035, 6.283185307179586, 0.016], profile: r'
sed "s|cg: {cells: \[4, 4, 16\], width: 0.002, every: 0.02}|cg: {$GRID3, every: 0.02}|" bed.yaml > bed3.yaml
grep -q cylindrical bed3.yaml || fail "bed3.yaml was not made"
"$RUBBLE" run bed3.yaml --output B3 --quiet > out.txt 2>&1 || { cat out.txt; fail "run 3 failed"; }
# the frames hold grain pairs and floor contacts (else the stress would not be tested)
[ "$(grep -c '^[0-9]*,-1,1,' A/contacts_000004.csv)" -gt 10 ] || fail "too few wall contacts"
[ "$(grep -c '^[0-9]*,[0-9]*,-1,' A/contacts_000004.csv)" -gt 50 ] || fail "too few grain pairs"

same() { # same DIR_A NAME_A DIR_B NAME_B: both files of an output, byte for byte
    for f in "cg_$2.vti" "cg_profile_$2.csv"; do
        g=$(echo "$f" | sed "s/$2/$4/")
        cmp -s "$1/$f" "$3/$g" || fail "$3/$g differs from $1/$f"
    done
}
"$RUBBLE" cg bed.yaml A/grains_00000[0-4].vtp --output P > out.txt 2>&1 || { cat out.txt; fail "rubble cg failed"; }
for k in 000000 000001 000002 000003 000004; do same A $k P $k; done
cmp -s A/cg.pvd P/cg.pvd || fail "cg.pvd differs"
# from the contact tables alone, on two threads
mkdir C && cp A/grains_* A/grains.pvd A/contacts_*.csv C/
"$RUBBLE" cg bed.yaml C/grains_000003.vtp C/grains_000004.vtp --output PC --threads 2 > out.txt 2>&1 ||
    { cat out.txt; fail "rubble cg from .csv failed"; }
same A 000003 PC 000003; same A 000004 PC 000004
# from the binary tables alone (contact_bin_read.c): the same bytes again
mkdir G && cp A/grains_* A/grains.pvd A/contacts_*.bin G/
"$RUBBLE" cg bed.yaml G/grains_000003.vtp G/grains_000004.vtp --output PG > out.txt 2>&1 ||
    { cat out.txt; fail "rubble cg from .bin failed"; }
same A 000003 PG 000003; same A 000004 PG 000004
# from the checkpoints at 0.04 and 0.08 s (output.cg's 2 and 4; the last, at the run's end,
# 0.085 s, as its last frame, is not on output.cg's schedule), numbered by their place
"$RUBBLE" cg bed.yaml $(ls A/checkpoint_*.bin | sed -n '2p; 4p') --output PK > out.txt 2>&1 || { cat out.txt; fail "from checkpoints failed"; }
same A 000002 PK 000000; same A 000004 PK 000001
# another grid, a Gaussian, 2 samples per output, a profile along x: run 2's output.cg
"$RUBBLE" cg bed.yaml B/grains_00000[1-4].vtp --output P2 --cg "{$GRID2}" > out.txt 2>&1 ||
    { cat out.txt; fail "rubble cg --cg failed"; }
same B 000001 P2 000002; same B 000002 P2 000004
grep -q '^x,density' P2/cg_profile_000002.csv || fail "the profile is not along x"
grep -q '(2 samples); averaged over y$' P2/cg_profile_000002.csv || fail "the profile does not say it averaged over y"
grep -q 'WholeExtent="0 2 0 0 0 11"' P2/cg_000002.vti || fail "not one node across y"
"$RUBBLE" cg bed.yaml A/grains_00000[3-4].vtp --output P3 --cg "{$GRID3}" > out.txt 2>&1 ||
    { cat out.txt; fail "rubble cg --cg cylindrical failed"; }
same B3 000003 P3 000003; same B3 000004 P3 000004
grep -q '^r,density,volume_fraction,velocity_r,velocity_t,velocity_z,stress_rr,stress_rt' P3/cg_profile_000004.csv ||
    fail "the cylindrical profile's columns"

# refusals: status 1, the message, no output folder
refuse() { # refuse NAME PATTERN ARGS...: rubble cg ARGS --output out_NAME
    name=$1; pattern=$2; shift 2
    "$RUBBLE" cg "$@" --output "out_$name" > out.txt 2> err.txt
    got=$?
    grep -q "^==[0-9]*==ERROR: [A-Za-z]*Sanitizer" err.txt && { cat err.txt; fail "[$name] sanitizer"; }
    [ "$got" -eq 1 ] || { cat err.txt; fail "[$name] exit $got, expected 1"; }
    grep -q -- "$pattern" err.txt || { cat err.txt; fail "[$name] stderr lacks '$pattern'"; }
    [ ! -e "out_$name" ] || fail "[$name] files were written: $(ls "out_$name")"
}
mkdir D
cp A/grains.pvd D/
refuse missing "D/grains_000009.vtp: no contact file" bed.yaml D/grains_000009.vtp
cp A/contacts_000004.csv D/contacts_000004.csv
refuse missing_frame "D/grains_000004.vtp: cannot open" bed.yaml D/grains_000004.vtp
head -c 3000 A/grains_000004.vtp > D/grains_000004.vtp
refuse truncated "D/grains_000004.vtp: byte [0-9]*: array '[a-z]*' .* the file's end" \
    bed.yaml D/grains_000004.vtp
sed 's/NumberOfPoints="[0-9]*"/NumberOfPoints="99999999999"/' A/grains_000004.vtp > D/grains_000004.vtp
refuse huge "D/grains_000004.vtp: byte [0-9]*: array 'position' holds [0-9]* bytes, not the 99999999999 x 3" \
    bed.yaml D/grains_000004.vtp
"$RUBBLE" run bed.yaml --output E --quiet --steps 1 > /dev/null 2>&1 # (no mass field below)
sed 's/fields: \[radius, velocity, id\]//' bed.yaml | sed 's/contacts: \[vtp, csv, bin\],/contacts: csv, fields: [radius, velocity, id],/' > nomass.yaml
"$RUBBLE" run nomass.yaml --output F --quiet --steps 1 > out.txt 2>&1 || { cat out.txt; fail "the run without mass failed"; }
refuse no_mass "F/grains_000000.vtp: no PointData array 'mass' (a frame to coarse-grain needs" \
    nomass.yaml F/grains_000000.vtp
cp A/grains_000004.vtp D/grains_000004.vtp
sed '5s/,-1,/,x1,/' A/contacts_000004.csv > D/contacts_000004.csv
refuse bad_number "D/contacts_000004.csv:5: column 3 ('wall'): not a number" bed.yaml D/grains_000004.vtp
awk -F, 'NR == 2 { $1 = 987654 } { print }' OFS=, A/contacts_000004.csv > D/contacts_000004.csv
refuse no_grain "contact 0: grain 987654 is not in the frame" bed.yaml D/grains_000004.vtp
# crafted binary tables: the file and the byte named, nothing allocated by a count
mv D/contacts_000004.csv D/kept.csv
bin=A/contacts_000004.bin
head -c 1000 $bin > D/contacts_000004.bin
refuse bin_truncated "D/contacts_000004.bin: byte 16: [0-9]* rows of column [0-9]* ('[a-z_0-9]*') take [0-9]* bytes a row from byte [0-9]*, past the file's 1000" \
    bed.yaml D/grains_000004.vtp
{ head -c 16 $bin; printf '\377\377\377\377\377\377\377\077'; tail -c +25 $bin; } > D/contacts_000004.bin
refuse bin_huge "D/contacts_000004.bin: byte 16: 4611686018427387903 rows of column 1 ('id1')" bed.yaml D/grains_000004.vtp
{ cat $bin; printf 'x'; } > D/contacts_000004.bin
refuse bin_tail "D/contacts_000004.bin: byte [0-9]*: 1 bytes after the table's end" bed.yaml D/grains_000004.vtp
{ head -c 8 $bin; printf '\002'; tail -c +10 $bin; } > D/contacts_000004.bin
refuse bin_version "D/contacts_000004.bin: byte 8: a contact table of version 2" bed.yaml D/grains_000004.vtp
{ head -c 88 $bin; printf 'x'; tail -c +90 $bin; } > D/contacts_000004.bin
refuse bin_type "D/contacts_000004.bin: byte 88: column 2 ('id2'): type 120 ('x')" bed.yaml D/grains_000004.vtp
rm D/contacts_000004.bin; mv D/kept.csv D/contacts_000004.csv
refuse bad_key "--cg:1:21: unknown key in 'cg'" bed.yaml A/grains_000004.vtp --cg '{cells: [3, 5, 12], widht: 0.002}'
refuse too_wide "--cg:1:1: cg: the kernel reaches 0.0045 m, more than half the periodic side x" \
    bed.yaml A/grains_000004.vtp --cg '{cells: [3, 5, 12], width: 0.0015, kernel: gaussian}'
refuse windows "3 inputs are not whole outputs of 2 samples" bed.yaml A/grains_00000[1-3].vtp --cg "{$GRID2}"
# a clump's spheres: a frame does not hold the clump's centre of mass (a checkpoint does)
EXAMPLES=$(cd "$(dirname "$0")/../examples" && pwd)
sed "s|clump: clumps/|clump: $EXAMPLES/clumps/|; s|  folder: output/clumps|  folder: cl\n  contacts: csv|" \
    "$EXAMPLES/clumps.yaml" > clumps.yaml
"$RUBBLE" run clumps.yaml --steps 1 --quiet > out.txt 2>&1 || { cat out.txt; fail "the clumps' run"; }
refuse clumps "cl/grains_000000.vtp: grain [0-9]* is a clump's sphere" clumps.yaml cl/grains_000000.vtp \
    --cg '{cells: [4, 4, 4], width: 0.01}'
# a failure after an output was written takes it back
refuse all_or_none "D/grains_000004.vtp" bed.yaml A/grains_000003.vtp D/grains_000004.vtp
echo "ok: rubble cg gives output.cg's bytes from .vtp, .csv and .bin contacts, checkpoints and --cg; bad inputs refused"
