#!/bin/sh
# The scene's `bonds:` block (issue 72, docs/bonds.md): a bonded block dropped on a floor writes
# its bonds (bonds_NNNNNN.vtp, bonds.pvd, breaks.csv, thermo.csv's counts) and its fragments
# (fragments_NNNNNN.csv, fragment_sizes_NNNNNN.csv), bonds are made from a file's pairs, at a
# stage that glues a settled sample, and each bad value
# is refused at its line and column with the value, exit status 1, no output folder; with
# MPIEXEC, the same bytes over several processes and across restarts on other counts (below).
# usage: cli_bonds.sh RUBBLE [MPIEXEC]
. "$(dirname "$0")/cli_run_common.sh"
MPIEXEC=${2:-}
EXAMPLE=$SCENES/../../examples/bonded_block.yaml

# scene NAME SED: the example, run for 0.003 s, with one change
scene() { sed -e 's/^run: {time: 0.01,/run: {time: 0.003,/' -e "$2" "$EXAMPLE" > "$1.yaml"; }

scene good 's/x/x/'
"$RUBBLE" run good.yaml --output good --quiet > out.txt 2> err.txt || {
    echo "FAIL: the bonded scene was refused: $(cat err.txt)"; exit 1; }
for f in bonds.pvd bonds_000000.vtp bonds_000003.vtp breaks.csv fragments_000003.csv \
         fragment_sizes_000003.csv; do
    [ -s "good/$f" ] || { echo "FAIL: good/$f missing"; failures=$((failures+1)); }
done
for a in ids intact force moment normal_force sigma tau; do
    grep -q "Name=\"$a\"" good/bonds_000003.vtp || {
        echo "FAIL: bonds_000003.vtp lacks '$a'"; failures=$((failures+1)); }
done
head -1 good/thermo.csv | grep -q ',bonds_intact,bonds_broken$' || {
    echo "FAIL: thermo.csv lacks the bonds' counts"; failures=$((failures+1)); }
# 300 bonds in a 5 x 5 x 5 block (3 x 5 x 5 x 4), a few broken by 0.003 s, each break listed
last=$(tail -1 good/thermo.csv | awk -F, '{print $(NF-1) + $NF, $NF}')
breaks=$(($(wc -l < good/breaks.csv) - 1))
[ "${last% *}" = 300 ] && [ "${last#* }" -gt 0 ] && [ "${last#* }" = "$breaks" ] || {
    echo "FAIL: bonds (all, broken) $last, breaks.csv $breaks rows"; failures=$((failures+1)); }
# its fragments: every grain in one, labelled by least ids in order; the size distribution
# counts them and their mass (fractions summing to 1)
awk -F, 'NR > 1 { n += $2; if (NR > 2 && $1 <= last) bad = 1; last = $1 } END { exit !(n == 125 && !bad) }' \
    good/fragments_000003.csv || { echo "FAIL: fragments_000003.csv"; failures=$((failures+1)); }
awk -F, 'NR == FNR { if (FNR > 1) f++; next } FNR > 1 { c += $2; n += $1 * $2; m += $3 }
    END { exit !(c == f && n == 125 && m > 0.999999 && m < 1.000001) }' \
    good/fragments_000003.csv good/fragment_sizes_000003.csv ||
    { echo "FAIL: fragment_sizes_000003.csv"; failures=$((failures+1)); }
echo "ok: the bonded block's files ($breaks of 300 bonds broken," \
     "$(($(wc -l < good/fragments_000003.csv) - 1)) fragments)"

scene negative 's/tensile_strength: 1.5e4/tensile_strength: -1/'
expect negative "negative.yaml:19:21: 'tensile_strength' must be > 0: '-1'"
scene lambda 's/radius_multiplier: 1 /radius_multiplier: 0 /'
expect lambda "lambda.yaml:18:22: 'radius_multiplier' must be > 0.*: '0'"
scene damping 's/damping: 0.1 /damping: 1.5 /'
expect damping "damping.yaml:21:12: 'damping' must be .*: '1.5'"
scene gap 's/gap: 1.0e-6 /gap: 0.01 /'
expect gap "gap.yaml:22:8: bonds: 'gap' 0.01 m is longer than the neighbour skin"
scene stiff 's/youngs_modulus: 1.0e6 /youngs_modulus: 1.0e12 /'
expect stiff "stiff.yaml:16:3: bonds: the time step .* is too long for the bond between grains"
scene no_modulus 's/youngs_modulus: 1.0e6 /stiffness: 1.0e6 /'
expect no_modulus "no_modulus.yaml:16:3: unknown key in 'bonds'.*: 'stiffness'"
scene near_key 's/damping: 0.1 /dampin: 0.1 /'
expect near_key "near_key.yaml:21:3: unknown key in 'bonds'.*'dampin'; did you mean 'damping'?"
scene spread_both 's/spread: {weibull: 5, seed: 3}/spread: {weibull: 5, normal: 0.1}/'
expect spread_both "spread_both.yaml:23:11: bonds.spread is one of"
scene spread_wide 's/spread: {weibull: 5, seed: 3}/spread: {normal: 0.5}/'
expect spread_wide "spread_wide.yaml:23:[0-9]*: 'normal' must be .*: '0.5'"
scene material 's/^  gap: 1.0e-6 .*/  material: rok/'
expect material "material.yaml:22:13: no material of this name: 'rok'; did you mean 'rock'?"
scene box 's/^  gap: 1.0e-6 .*/  box: {min: [0, 0, 0], max: [0, 1, 1]}/'
expect box "box.yaml:22:8: bonds.box needs min < max on every axis (x: 0, 0)"
scene far 's/^  gap: 1.0e-6 .*/  box: {min: [1, 1, 1], max: [2, 2, 2]}/'
expect far "far.yaml:16:3: bonds: no pair of the 0 grains chosen"
scene not_map '/^bonds:$/,/^  spread/c\
bonds: 3'
expect not_map "not_map.yaml:15:8: 'bonds' must be a mapping"

# Bonds from a file (docs/bonds.md "Bonds from a file"): the 5 x 5 x 5 block's rows along x,
# 100 pairs (the first of each row with its own radius): 100 bonds; each bad line refused at
# its number with its value, exit 1, no output folder.
# listed NAME TEXT: the block with bonds.file NAME.txt holding TEXT (printf's escapes)
listed() {
    printf "$2" > "$1.txt"
    scene "$1" "s/^  gap: 1.0e-6 .*/  file: $1.txt/"
}
listed rows "$(awk 'BEGIN { printf "# rows along x\\n"; for (r = 0; r < 25; r++)
    for (c = 0; c < 4; c++) printf "%d %d%s\\n", 5 * r + c, 5 * r + c + 1, c ? "" : " 0.0008" }')"
"$RUBBLE" run rows.yaml --output rows --quiet > /dev/null 2> err.txt || {
    echo "FAIL: bonds from a file: $(cat err.txt)"; exit 1; }
[ "$(tail -1 rows/thermo.csv | awk -F, '{ print $(NF-1) + $NF }')" = 100 ] || {
    echo "FAIL: rows.txt made $(tail -1 rows/thermo.csv | awk -F, '{ print $(NF-1) + $NF }') bonds of 100"
    failures=$((failures+1)); }
echo "ok: 100 bonds from rows.txt"
listed self '0 1\n0 0\n'
expect self "self.txt:2: grain 0 bonded to itself"
listed one_id '0 1\n# a comment\n3\n'
expect one_id "one_id.txt:3: a bond is 'id_i id_j' or 'id_i id_j radius' (m): 1 values"
listed four '0 1 2 3\n'
expect four "four.txt:1: a bond is .*: 4 values"
listed radius '0 1\n2 3 -1\n'
expect radius "radius.txt:2: a bond's radius must be > 0 m: '-1'"
listed twice '0 1\n2 3\n1 0\n'
expect twice "twice.txt:3: the bond of grains 0 and 1 is listed twice"
listed missing '0 1\n0 999\n'
expect missing "missing.txt:2: no grain 999 in the scene"
listed far '0 1\n0 124\n'
expect far "far.txt:2: bonds: grains 0 and 124 are 0.0118.* m apart .*longer than the neighbour skin"
listed word '0 x\n'
expect word "word.txt:1: grain id 'x' is not a whole number"
listed big '0 4294967296\n'
expect big "big.txt:1: grain id '4294967296' is past 4294967295"
listed empty '# none\n'
expect empty "empty.txt: no bonds in the file"
listed with_gap '0 1\n'
sed -i 's/^  file: with_gap.txt/  file: with_gap.txt\n  gap: 1.0e-6/' with_gap.yaml
expect with_gap "with_gap.yaml:23:8: bonds.gap chooses the grains to bond, which bonds.file lists"

# Over several processes (docs/bonds.md "Over several processes"): the block, its bonds breaking
# from step 3939, on 1 and 3 processes writes the same bytes (final.txt, thermo.csv, every
# bonds_NNNNNN.vtp, bonds.pvd, breaks.csv); the checkpoint at step 4010 (bonds broken, others
# breaking after) written by 3 restarts on 2, and one process's on 3, into the same bytes; and
# a block thrown out of the domain on 2 (its grains and their bonds taken out, booked once).
also=""
if [ -n "$MPIEXEC" ]; then
    # (under the sanitizers Open MPI's own allocations are left at exit: their leaks not
    # counted, as for the other tests over several processes)
    mpi() { ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
        "$MPIEXEC" --allow-run-as-root --oversubscribe -np "$@"; }
    # same NAME A B: B's bonds frames (a restart's: those after it), breaks.csv, final.txt and
    # thermo.csv the same bytes as A's
    same() {
        for f in "$3"/bonds_*.vtp "$3"/fragment*.csv "$3"/breaks.csv "$3"/final.txt \
                 "$3"/thermo.csv; do
            cmp -s "$f" "$2/$(basename "$f")" || {
                echo "FAIL: $1: $(basename "$f") differs"; failures=$((failures+1)); }
        done
    }
    scene ranks 's/^output: {\(.*\)}/output: {\1, final: final.txt, checkpoint_every: 0.0029}/'
    sed -i 's/^run: {time: 0.003,/run: {time: 0.0035,/' ranks.yaml
    "$RUBBLE" run ranks.yaml --output one --quiet > /dev/null 2> err.txt || {
        echo "FAIL: one process: $(cat err.txt)"; exit 1; }
    mpi 3 "$RUBBLE" run ranks.yaml --output three --quiet > /dev/null 2> err.txt || {
        echo "FAIL: 3 processes: $(cat err.txt)"; exit 1; }
    same "3 processes" one three
    [ "$(ls three/bonds_*.vtp | wc -l)" -eq 5 ] && cmp -s one/bonds.pvd three/bonds.pvd || {
        echo "FAIL: 3 processes: bonds.pvd or its 5 frames differ"; failures=$((failures+1)); }
    ck=checkpoint_000004010.bin
    [ -e "three/$ck" ] && [ "$(head -2 one/breaks.csv | tail -1 | cut -d, -f1)" -lt 4010 ] &&
        [ "$(tail -1 one/breaks.csv | cut -d, -f1)" -gt 4010 ] || {
        echo "FAIL: no $ck amid the breaks"; failures=$((failures+1)); }
    mpi 2 "$RUBBLE" run ranks.yaml --output three_on_two --restart "three/$ck" --quiet \
        > /dev/null 2> err.txt || { echo "FAIL: restart on 2: $(cat err.txt)"; exit 1; }
    same "3 processes' checkpoint on 2" one three_on_two
    also=""
    if [ -z "${RBL_TEST_SLOW_BUILD:-}" ]; then # (under the sanitizers: 1, 3 and 3 -> 2 only)
        also=" and 1 -> 3"
        mpi 3 "$RUBBLE" run ranks.yaml --output one_on_three --restart "one/$ck" --quiet \
            > /dev/null 2> err.txt || { echo "FAIL: restart on 3: $(cat err.txt)"; exit 1; }
        same "one process's checkpoint on 3" one one_on_three
    fi
    echo "ok: bonds on 1 and 3 processes, restarts 3 -> 2$also:" \
         "the same bytes ($(($(wc -l < one/breaks.csv) - 1)) breaks)"
fi
if [ -n "$MPIEXEC" ] && [ -z "${RBL_TEST_SLOW_BUILD:-}" ]; then
    scene thrown 's/velocity: \[0, 0, -2\]/velocity: [6, 0, -2]/;s/_strength: \([0-9.]*\)e[34]/_strength: \1e5/'
    sed -i 's/^run: {time: 0.003,/run: {time: 0.0055,/;s/^output: {\(.*\)}/output: {\1, final: final.txt}/' thrown.yaml
    "$RUBBLE" run thrown.yaml --output thrown1 --quiet > /dev/null 2> err.txt &&
        mpi 2 "$RUBBLE" run thrown.yaml --output thrown2 --quiet > /dev/null 2> err.txt || {
        echo "FAIL: the thrown block: $(cat err.txt)"; exit 1; }
    same "thrown out, 2 processes" thrown1 thrown2
    last=$(tail -1 thrown1/thermo.csv | awk -F, '{print $3, $(NF-1) + $NF}')
    [ "$last" = "25 300" ] || { echo "FAIL: thrown: grains, bonds $last"; failures=$((failures+1)); }
    echo "ok: a block thrown out of the domain on 2 processes: as on one ($last grains, bonds)"
fi
# Bonds at a stage (docs/bonds.md "Bonds at a stage"): the lattice settles, its second stage
# glues it (300 bonds made as it begins, none before), its third throws it at a wall, where it
# breaks; a restart at the checkpoint inside the glue stage ends in the same files; with
# MPIEXEC, on 3 processes too, and restarted there on 2.
GLUED=$SCENES/bonds/glued.yaml
"$RUBBLE" run "$GLUED" --output glued --quiet > /dev/null 2> err.txt || {
    echo "FAIL: the glued scene: $(cat err.txt)"; exit 1; }
counts=$(awk -F, 'NR > 1 { s[$NF] = $(NF-2) + $(NF-1) } END { print s[1], s[2], s[3] }' glued/thermo.csv)
broken=$(tail -1 glued/thermo.csv | awk -F, '{ print $(NF-1) }')
[ "$counts" = "0 300 300" ] && [ "$broken" -gt 0 ] || {
    echo "FAIL: glued: bonds by stage $counts, broken $broken"; failures=$((failures+1)); }
# same_glued NAME B: B's final.txt, thermo.csv, breaks.csv and last frames as glued's
same_glued() {
    for f in final.txt thermo.csv breaks.csv bonds_000006.vtp fragments_000006.csv; do
        cmp -s "glued/$f" "$2/$f" || { echo "FAIL: $1: $f differs"; failures=$((failures+1)); }
    done
}
"$RUBBLE" run "$GLUED" --output glued_restart --restart glued/checkpoint_000005358.bin \
    --quiet > /dev/null 2> err.txt || { echo "FAIL: glued restart: $(cat err.txt)"; exit 1; }
same_glued "glued, restarted in the glue stage" glued_restart
if [ -n "$MPIEXEC" ]; then
    mpi 3 "$RUBBLE" run "$GLUED" --output glued3 --quiet > /dev/null 2> err.txt || {
        echo "FAIL: glued on 3: $(cat err.txt)"; exit 1; }
    same_glued "glued on 3 processes" glued3
    if [ -z "${RBL_TEST_SLOW_BUILD:-}" ]; then # (under the sanitizers: on 3 only)
        mpi 2 "$RUBBLE" run "$GLUED" --output glued32 --restart glued3/checkpoint_000005358.bin \
            --quiet > /dev/null 2> err.txt || { echo "FAIL: glued 3 -> 2: $(cat err.txt)"; exit 1; }
        same_glued "glued, 3 processes' checkpoint on 2" glued32
    fi
fi
echo "ok: bonds made as the glue stage begins (bonds by stage: $counts; $broken broken" \
     "thrown at the wall), the same after a restart${MPIEXEC:+ and on 3${also:+ and 2} processes}"

[ "$failures" -eq 0 ] || exit 1
echo "ok: bonds"
