#!/bin/sh
# `mpirun -np P rubble run` (issue 13): the settle, hopper (mesh walls) and drum (a turning
# mesh) examples over 2 and 3 processes write what one process writes: thermo.csv (byte for
# byte: its sums are exact, so the processes' share does not change a bit), and each
# frame as a .pvtp over one piece per rank holding all the grains; so does a lattice whose
# grains touch from the start on 3. Checkpoints written by 3 processes restart on 2 and on 1,
# into the folder of the first run or another, and end in one process's bits (output.final,
# every digit of every grain); so do a pour, a self-gravitating asteroid spun up (shells and
# layers too) and clumps poured among spheres; flow counters count as one process counts. A command other than run is refused once, by
# rank 0, every process exits non-zero and no output folder is made. A process killed mid-run
# stops the job, with mpirun's message, within seconds.
. "$(dirname "$0")/cli_run_common.sh"
MPIEXEC=$2
EXAMPLES=$(cd "$(dirname "$0")/../examples" && pwd)
fail() { echo "FAIL: $*"; exit 1; }
mpi() { "$MPIEXEC" --allow-run-as-root --oversubscribe -np "$@"; }
# same_thermo A B: the same file, byte for byte (every sum in it is exact: the same bits
# whatever the processes)
same_thermo() { cmp -s "$1" "$2"; }

# under the sanitizers (RBL_TEST_SLOW_BUILD) the examples run on 3 processes only, the
# asteroid's spin-up takes 3 steps instead of 5 and the clumps 2000 steps instead of 4000
EXAMPLE_RANKS="2 3" SPIN_TIME=60 CLUMP_STEPS=4000
[ -n "${RBL_TEST_SLOW_BUILD:-}" ] && EXAMPLE_RANKS=3 SPIN_TIME=30 CLUMP_STEPS=2000
for ex in settle hopper drum; do
    "$RUBBLE" run "$EXAMPLES/$ex.yaml" --steps 500 --output "${ex}_1" --quiet > "${ex}_1.txt" \
        || fail "$ex on one process"
    for np in $EXAMPLE_RANKS; do
        mpi "$np" "$RUBBLE" run "$EXAMPLES/$ex.yaml" --steps 500 --output "${ex}_$np" --quiet \
            > "${ex}_$np.txt" || fail "$ex on $np processes"
        same_thermo "${ex}_1/thermo.csv" "${ex}_$np/thermo.csv" \
            || { diff "${ex}_1/thermo.csv" "${ex}_$np/thermo.csv" | head -5; fail "$ex: thermo.csv differs on $np"; }
        last=$(ls "${ex}_$np" | grep '\.pvtp$' | tail -1)
        [ "$(grep -c '<Piece Source=' "${ex}_$np/$last")" -eq "$np" ] || fail "$ex: $last lacks $np pieces"
        grep -q "${last%.pvtp}" "${ex}_$np/grains.pvd" || fail "$ex: grains.pvd does not list $last"
        grains=$(tail -1 "${ex}_1/thermo.csv" | cut -d, -f3)
        points=$(cat "${ex}_$np/${last%.pvtp}"_*.vtp | grep -a -o 'NumberOfPoints="[0-9]*"' \
                 | tr -dc '0-9\n' | awk '{s += $1} END {print s}')
        [ "$points" = "$grains" ] || fail "$ex: the pieces hold $points grains of $grains"
        grep -q "processes      $np, started by mpirun (Open MPI)" "${ex}_$np.txt" || fail "$ex: no processes line"
        share=$(awk '/^  grains / { print $4 }' "${ex}_$np.txt") # least / MEAN / largest
        awk -v m="$share" -v p="$np" -v n="$grains" 'BEGIN { d = m * p - n; exit !(d * d < p * p * 0.0025) }' \
            || fail "$ex: the processes' mean share $share x $np is not $grains grains"
    done
    echo "ok: $ex on $EXAMPLE_RANKS processes: thermo.csv as one process's; $(grep processes "${ex}_3.txt" | cut -c16-120)..."
done

# grains touching at the start (a lattice pressed 0.2 % together, friction): the contacts'
# springs start at the first force evaluation, which must happen once, after the spread
awk 'BEGIN { print "# x y z radius vx vy vz"; s = 0.001996; srand(5)
    for (k = 0; k < 5; k++) for (j = 0; j < 8; j++) for (i = 0; i < 8; i++)
        printf "%.9g %.9g %.9g 0.001 %.4g %.4g 0\n", (i + 0.5) * s, (j + 0.5) * s,
               0.000998 + k * s, 0.05 * (rand() - 0.5), 0.05 * (rand() - 0.5) }' > packed.txt
cat > packed.yaml <<YAML
domain: {min: [0, 0, -0.001], max: [0.016, 0.016, 0.03], periodic: [x, y]}
gravity: [0, 0, -9.81]
materials: [{name: glass, density: 2500}]
contact: {normal: linear, damping: linear, tangential: spring, kn: 2000, restitution: 0.5,
          friction: 0.5}
walls: [{point: [0, 0, 0], normal: [0, 0, 1]}]
grains:
  - file: packed.txt
run: {steps: 400, dt: auto, c: 0.05}
output: {folder: out, every: 0.001, contacts: [vtp, csv]}
YAML
"$RUBBLE" run packed.yaml --output packed_1 --quiet > packed_1.txt || fail "packed on one process"
mpi 3 "$RUBBLE" run packed.yaml --output packed_3 --quiet > packed_3.txt || fail "packed on 3"
touching=$(sed -n 2p packed_1/thermo.csv | cut -d, -f10)
[ "$touching" -gt 0 ] || fail "packed: no contact at the start"
same_thermo packed_1/thermo.csv packed_3/thermo.csv \
    || { diff packed_1/thermo.csv packed_3/thermo.csv | head -5; fail "packed: thermo.csv differs on 3"; }
echo "ok: a packed lattice ($touching contacts at the start) on 3 processes: thermo.csv as one process's"
# the contact network: each process writes the contacts whose first grain is its own; the
# pieces together are one process's table, row for row, and the .pvtp gathers 3 pieces
for k in 000000 000002; do
    [ -s "packed_3/contacts_${k}_2.csv" ] || { ls packed_3; fail "packed: no contact table piece"; }
    tail -q -n +2 "packed_1/contacts_$k.csv" | sort > net_1.txt
    tail -q -n +2 packed_3/contacts_${k}_*.csv | sort > net_3.txt
    [ -s net_1.txt ] && cmp -s net_1.txt net_3.txt \
        || { diff net_1.txt net_3.txt | head -5; fail "packed: the contacts of frame $k differ on 3"; }
    [ "$(grep -c '<Piece Source="contacts_' "packed_3/contacts_$k.pvtp")" -eq 3 ] \
        || fail "packed: contacts_$k.pvtp lacks its pieces"
done
grep -q "contacts_000002.pvtp" packed_3/contacts.pvd || fail "packed: contacts.pvd lacks the .pvtp"
echo "ok: the contact network on 3 processes: the pieces hold one process's $(wc -l < net_1.txt) contacts, each once"
# the columns studies read (the tangential spring, the sliding flag, the rolling torque) and
# a filter (a region, |F_n|): the pieces hold one process's rows, and each process's binary
# table its .csv's rows (issue 74)
sed 's|contacts: \[vtp, csv\]}|contacts: {format: [csv, bin], columns: [spring, sliding, rolling_torque, age], region: {min: [0, 0, -1], max: [0.01, 0.016, 1]}, min_normal_force: 1e-5}}|; s|friction: 0.5}|friction: 0.5, rolling: {model: epsd2, friction: 0.1}}|' \
    packed.yaml > study.yaml
grep -q "rolling_torque" study.yaml && grep -q epsd2 study.yaml || fail "study: the scene was not made"
"$RUBBLE" run study.yaml --output study_1 --quiet > study_1.txt || fail "study on one process"
mpi 3 "$RUBBLE" run study.yaml --output study_3 --quiet > study_3.txt || fail "study on 3"
for k in 000000 000002; do
    tail -q -n +2 "study_1/contacts_$k.csv" | sort > net_1.txt
    tail -q -n +2 study_3/contacts_${k}_*.csv | sort > net_3.txt
    [ -s net_1.txt ] && cmp -s net_1.txt net_3.txt \
        || { diff net_1.txt net_3.txt | head -5; fail "study: the contacts of frame $k differ on 3"; }
    [ $k = 000000 ] || grep -q ',1,[^,]*,[^,]*,[^,]*,[^,]*$' net_1.txt || fail "study: no contact slides in frame $k"
    for r in 0 1 2; do [ -s "study_3/contacts_${k}_$r.bin" ] || fail "study: no binary piece $r"; done
done
echo "ok: contact columns and filters on 3 processes: one process's $(wc -l < net_1.txt) rows"

# flow counters (output.flow) and outlets: the lattice thrown down through a plane, a disk
# and a mesh square, taken out through a disk and in a box on the floor: each process counts
# and takes out its own grains, the sums are exact, so thermo.csv is one process's on 3, and
# so after a checkpoint of 3 restarted on 2
awk '!/^#/ { printf "%s %s %.9g %s %s %s -1\n", $1, $2, $3 + 0.005, $4, $5, $6 }' packed.txt > falling.txt
printf 'solid s\n%s\n%s\nendsolid s\n' \
    'facet normal 0 0 0 outer loop vertex 0 0 0.012 vertex 0 0.016 0.012 vertex 0.016 0 0.012 endloop endfacet' \
    'facet normal 0 0 0 outer loop vertex 0.016 0 0.012 vertex 0 0.016 0.012 vertex 0.016 0.016 0.012 endloop endfacet' \
    | sed 's/ \(outer\|vertex\|endloop\|endfacet\)/\n\1/g' > square.stl
sed 's|file: packed.txt|file: falling.txt|; s|^output:.*|output: {folder: out, every: 0.001, thermo_every: 0.0005, checkpoint_every: 0.002, flow_window: 0.0007, flow: [{point: [0, 0, 0.01], normal: [0, 0, -1]}, {point: [0.008, 0.008, 0.008], normal: [0, 0, 1], radius: 0.005}, {mesh: square.stl}]}|' \
    packed.yaml > flow.yaml
echo 'outlets: [{box: {min: [0, 0, -0.001], max: [0.016, 0.016, 0.0025]}}, {point: [0.008, 0.008, 0.009], normal: [0, 0, -1], radius: 0.004}]' >> flow.yaml
"$RUBBLE" run flow.yaml --output flow_1 --quiet > flow_1.txt || fail "flow on one process"
mpi 3 "$RUBBLE" run flow.yaml --output flow_3 --quiet > flow_3.txt || fail "flow on 3"
crossed=$(awk -F, 'NR == 1 { for (c = 1; c <= NF; c++) k[$c] = c; next }
    END { print $k["flow1_grains_forward"] + $k["flow3_grains_forward"], $k["outlet1_grains"] + $k["outlet2_grains"] }' flow_1/thermo.csv)
set -- $crossed
[ "$1" -gt 10 ] && [ "$2" -gt 10 ] || { tail -1 flow_1/thermo.csv; fail "flow: no grain crossed or taken out ($crossed)"; }
same_thermo flow_1/thermo.csv flow_3/thermo.csv \
    || { diff flow_1/thermo.csv flow_3/thermo.csv | head -5; fail "flow: thermo.csv differs on 3"; }
mpi 2 "$RUBBLE" run flow.yaml --restart flow_3/checkpoint_000000243.bin --output flow_32 --quiet \
    > flow_32.txt || { ls flow_3; fail "flow: the restart on 2"; }
same_thermo flow_1/thermo.csv flow_32/thermo.csv \
    || { diff flow_1/thermo.csv flow_32/thermo.csv | head -5; fail "flow: thermo.csv differs restarted on 2"; }
# their windows (output.flow_window, issue 74): flow.csv one process's bytes, restarted too
for f in flow_3 flow_32; do
    cmp -s flow_1/flow.csv $f/flow.csv || { diff flow_1/flow.csv $f/flow.csv | head -5; fail "flow: $f/flow.csv differs"; }
done
[ "$(grep -c ',outlet1,' flow_1/flow.csv)" -gt 3 ] || fail "flow: flow.csv lacks its windows"
echo "ok: flow counters (a plane, a disk, a mesh square) and outlets (a box, a disk; $crossed crossed and taken out) on 3 processes and restarted on 2: thermo.csv as one process's"

# an outlet opened over half a cohesive bed at rest (tests/scenes/health/outlet_cohesive.yaml,
# a row each step) takes whole layers at once, pairs across processes among them: what their
# contacts held is carried out once per pair (where its first grain is, the ghosts told which
# of them leave), so the account, thermo.csv, is one process's on 3; with collision
# statistics on, each contact taken out ends its event once (the events in collisions.csv are
# the touching contacts the drain took, from thermo.csv), the same bytes on 3
cp "$SCENES/health/outlet_cohesive.yaml" "$SCENES/health/stage_weaker_jkr.txt" .
sed -i 's|^output: {\(.*\)}$|output: {\1, collisions: {every: 0.0001, bins: 10, energy: [1e-16, 1e-6]}}|' \
    outlet_cohesive.yaml
"$RUBBLE" run outlet_cohesive.yaml --output drain_1 --quiet > drain_1.txt || fail "drain on one process"
mpi 3 "$RUBBLE" run outlet_cohesive.yaml --output drain_3 --quiet > drain_3.txt || fail "drain on 3"
taken=$(awk -F, 'NR == 1 { for (c = 1; c <= NF; c++) k[$c] = c; next } END { print $k["outlet1_grains"] }' drain_1/thermo.csv)
[ "$taken" -gt 50 ] || fail "drain: only $taken grains taken out"
same_thermo drain_1/thermo.csv drain_3/thermo.csv \
    || { diff drain_1/thermo.csv drain_3/thermo.csv | head -5; fail "drain: thermo.csv differs on 3"; }
dropped=$(awk -F, 'NR == 1 { for (c = 1; c <= NF; c++) k[$c] = c; next }
                   { n = $k["contacts"] + $k["wall_contacts"] } NR == 2 { first = n } END { print first - n }' \
          drain_1/thermo.csv)
events=$(awk -F, 'NR > 1 { s += $9 } END { print s + 0 }' drain_1/collisions.csv)
[ "$dropped" -gt 50 ] && [ "$events" -eq "$dropped" ] ||
    fail "drain: $events collision events for $dropped contacts taken out"
cmp -s drain_1/collisions.csv drain_3/collisions.csv || fail "drain: collisions.csv differs on 3"
echo "ok: an outlet over a cohesive bed ($taken grains taken out with their contacts, $events contact events ended) on 3 processes: thermo.csv and collisions.csv as one process's"

# checkpoints from 3 processes to 2 and 1: the settle example, 600 steps, a checkpoint every
# 261 steps, the final grains
sed 's|^output:.*|output: {folder: out, every: 0.001, checkpoint_every: 0.002, final: final.txt}|' \
    "$EXAMPLES/settle.yaml" > ck.yaml
"$RUBBLE" run ck.yaml --steps 600 --output ck_1 --quiet > ck_1.txt || fail "ck on one process"
mpi 3 "$RUBBLE" run ck.yaml --steps 600 --output ck_3 --quiet > ck_3.txt || fail "ck on 3"
cmp -s ck_1/final.txt ck_3/final.txt || fail "ck: the final grains differ on 3"
first=ck_3/checkpoint_000000261.bin
[ -s "$first" ] || { ls ck_3; fail "ck: no $first"; }
cp -r ck_3 ck_32 # on 2, into the folder the first run wrote: its earlier frames stay listed
mpi 2 "$RUBBLE" run ck.yaml --steps 600 --restart "$first" --output ck_32 --quiet > ck_32.txt \
    || fail "ck: the restart on 2"
"$RUBBLE" run ck.yaml --steps 600 --restart "$first" --output ck_31 --quiet > ck_31.txt \
    || fail "ck: the restart on 1"
for r in ck_32 ck_31; do
    cmp -s ck_1/final.txt $r/final.txt || fail "$r: the final grains differ from one process's"
    same_thermo ck_1/thermo.csv $r/thermo.csv || fail "$r: thermo.csv differs"
done
frames=$(grep -c '<DataSet' ck_1/grains.pvd)
[ "$(grep -c '<DataSet' ck_32/grains.pvd)" -eq "$frames" ] || fail "ck_32: grains.pvd lacks frames"
[ "$(grep -c '\.pvtp' ck_32/grains.pvd)" -eq "$frames" ] || fail "ck_32: grains.pvd lists no .pvtp"
grep -q "only what the folder holds" ck_31.txt || fail "ck_31: the frames written elsewhere not told"
echo "ok: a checkpoint of 3 processes at step 261 restarted on 2 and on 1: the final grains as one process's, $frames frames listed"

# more processes than cells: a periodic box 3 cells wide each way (the least one process
# accepts) on 4 processes, each box thinner than a ghost layer
cat > thin.yaml <<YAML
domain: {min: [0, 0, 0], max: [0.0075, 0.0075, 0.0075], periodic: [x, y, z]}
materials: [{name: glass, density: 2500}]
contact: {normal: linear, damping: linear, tangential: spring, kn: 2000, restitution: 0.5,
          friction: 0.5}
grains:
  - random: {min: [0, 0, 0], max: [0.0075, 0.0075, 0.0075], count: 14}
    radius: {distribution: uniform, min: 0.0009, max: 0.0011}
    velocity_spread: 0.5
run: {steps: 1500, dt: auto, c: 0.05}
output: {folder: out, every: 0.01, final: final.txt}
YAML
"$RUBBLE" run thin.yaml --output thin_1 --quiet > thin_1.txt || fail "thin on one process"
mpi 4 "$RUBBLE" run thin.yaml --output thin_4 --quiet > thin_4.txt || fail "thin on 4"
cmp -s thin_1/final.txt thin_4/final.txt || fail "thin: the final grains differ on 4"
touched=$(cut -d, -f10 thin_1/thermo.csv | sort -n | tail -1)
[ "$touched" -gt 0 ] || fail "thin: no grains ever touched"
echo "ok: 14 grains in a periodic box of 3 cells a side on 4 processes: the final grains as one process's (up to $touched touching)"

# bad input over several processes: one message (rank 0), every process non-zero, nothing
# written. A periodic axis too short for the cells (and so for a ghost layer); a checkpoint
# of another format version.
sed 's/0\.0075/0.0066/g' thin.yaml > short.yaml
mpi 3 "$RUBBLE" run short.yaml --output short > out.txt 2> short.txt && fail "a short axis ran on 3"
[ "$(grep -c 'short.yaml:1:[0-9]*: periodic axis x: the box (0.0066 m) must hold at least 3 cells' short.txt)" -eq 1 ] \
    || { cat short.txt; fail "the short axis's message is not there once"; }
[ -e short ] && fail "short: an output folder was made"
cp ck_3/checkpoint_000000261.bin other.bin
printf '\377' | dd of=other.bin bs=1 seek=8 conv=notrunc 2> /dev/null
mpi 2 "$RUBBLE" run ck.yaml --restart other.bin --output other > out.txt 2> other.txt \
    && fail "a checkpoint of another version ran"
[ "$(grep -c 'other.bin: checkpoint format version [0-9]*; this rubble reads version' other.txt)" -eq 1 ] \
    || { cat other.txt; fail "the version's message is not there once"; }
[ -e other ] && fail "other: an output folder was made"
echo "ok: on several processes, one message each: $(grep -h 'error' short.txt | cut -c1-110)...; $(grep -h 'error' other.txt | cut -c13-110)"

# a pour: 400 grains in 4 batches onto a floor and onto each other (most of them touching at the end),
# each batch placed as one process places it, against the grains of every process
cat > pour.yaml <<YAML
domain: {min: [0, 0, -0.001], max: [0.012, 0.012, 0.03], periodic: [x, y]}
gravity: [0, 0, -9.81]
materials: [{name: glass, density: 2500}]
contact: {normal: linear, damping: linear, tangential: spring, kn: 2000, restitution: 0.5,
          friction: 0.5}
walls: [{point: [0, 0, 0], normal: [0, 0, 1]}]
grains:
  - pour: {min: [0, 0, 0.002], max: [0.012, 0.012, 0.012], count: 400, rate: 200000, every: 0.004}
    radius: {distribution: uniform, min: 0.0007, max: 0.0009}
    velocity: [0, 0, -0.3]
    velocity_spread: 0.1
run: {steps: 6000, dt: auto, c: 0.05}
output: {folder: out, every: 0.005, final: final.txt}
YAML
"$RUBBLE" run pour.yaml --output pour_1 --quiet > pour_1.txt || fail "the pour on one process"
mpi 3 "$RUBBLE" run pour.yaml --output pour_3 --quiet > pour_3.txt 2>&1 || fail "the pour on 3"
cmp -s pour_1/final.txt pour_3/final.txt || fail "the pour: the final grains differ on 3"
same_thermo pour_1/thermo.csv pour_3/thermo.csv || fail "the pour: thermo.csv differs on 3"
grep -q 'WARNING' pour_3.txt && { cat pour_3.txt; fail "the pour: warnings"; }
touching=$(tail -1 pour_1/thermo.csv | cut -d, -f10)
echo "ok: a pour of 400 grains in 4 batches on 3 processes: the final grains as one process's ($touching touching)"

# a rubble-pile asteroid spun up (the settled body of validation/asteroid.sh): self-gravity
# (every process gathers the grains for the tree), an open domain with an escape distance,
# spin steps, radial shells and layers over 3 processes; shells and layers are exact sums, so
# the same files as one process's
{ cat <<'YAML'
domain: {open: true, escape: 500}
self_gravity: {method: tree, theta: 0.5, every: 10}
materials: [{name: rock, density: 3000}]
contact: {normal: linear, damping: linear, tangential: seed, kn: 1.8e5, gamma_n: 3.0e4,
          friction: 0.5}
YAML
  cat <<YAML
grains: [{file: $EXAMPLES/../docs/validation/asteroid-settled.txt}]
spin: {axis: [1, 1, 0], omega_critical: 0.3, step: 0.2, every: 10, until: 1.3}
run: {time: $SPIN_TIME, dt: auto, c: 0.04}
output: {folder: out, every: 20, thermo_every: 5, final: final.txt,
         shells: {count: 10, radius: 30, band: 5}, layers: {axis: z, count: 12, min: -15, max: 15}}
YAML
} > spin.yaml
"$RUBBLE" run spin.yaml --output spin_1 --quiet > spin_1.txt || fail "the spin on one process"
mpi 3 "$RUBBLE" run spin.yaml --output spin_3 --quiet > spin_3.txt || fail "the spin on 3"
cmp -s spin_1/final.txt spin_3/final.txt || fail "the spin: the final grains differ on 3"
same_thermo spin_1/thermo.csv spin_3/thermo.csv || fail "the spin: thermo.csv differs on 3"
# the report's interactions per grain (the tree gathered on every process) as one process's
per_grain() { grep -o '[0-9.]* interactions per grain' "$1"; }
[ -n "$(per_grain spin_1.txt)" ] && [ "$(per_grain spin_1.txt)" = "$(per_grain spin_3.txt)" ] \
    || fail "the spin: $(per_grain spin_3.txt) on 3, $(per_grain spin_1.txt) on 1"
shells=0
for f in spin_1/shells_*.csv; do
    cmp -s "$f" "spin_3/${f#spin_1/}" || { diff "$f" "spin_3/${f#spin_1/}"; fail "the spin: $f differs"; }
    shells=$((shells + 1))
done
[ "$shells" -ge 2 ] || fail "the spin: $shells shells files"
layers=$(head -1 spin_1/thermo.csv | tr ',' '\n' | grep -c '^layer')
[ "$layers" -eq 24 ] || fail "the spin: $layers layer columns"
echo "ok: an asteroid spun up for $SPIN_TIME s on 3 processes (self-gravity, escape, shells, layers): the final grains, $shells shells files and thermo.csv with its $layers layer columns as one process's"

# clumps across processes: each goes with its centre of mass, its members with it, and the
# ghost layers are wider by a clump's reach. Jacks (a sphere of 0.5 mm and six more 3 mm out
# along the axes: their members reach 3 mm from the centre, a ghost layer of spheres alone is
# 1.2 mm, and leaving the reach out makes this differ) in a lattice with single spheres among
# them, and jacks poured on top, 4000 steps; a checkpoint from 3 processes restarted on 2: the
# final grains as one process's
{ printf 'rubble-clump 1\ndensity 2500\nvolume 3.67e-9\nmass 9.17e-6\ncentre 0 0 0\n'
  printf 'principal 4.8e-11 4.8e-11 4.8e-11\naxes\n1 0 0\n0 1 0\n0 0 1\nspheres 7\n'
  printf '0 0 0 0.0005\n%s 0 0 0.0005\n0 %s 0 0.0005\n0 0 %s 0.0005\n' 3e-3 3e-3 3e-3
  printf '%s 0 0 0.0005\n0 %s 0 0.0005\n0 0 %s 0.0005\n' -3e-3 -3e-3 -3e-3; } > jack.txt
cat > clumps.yaml <<YAML
domain: {min: [0, 0, -0.001], max: [0.02, 0.02, 0.05], periodic: [x, y]}
gravity: [0, 0, -9.81]
materials: [{name: sand, density: 2500}]
contact: {normal: linear, damping: linear, tangential: spring, kn: 2000, restitution: 0.5,
          gamma_t: 0.01, friction: 0.5}
walls: [{point: [0, 0, 0], normal: [0, 0, 1]}]
grains:
  - lattice: {min: [0, 0, 0], max: [0.02, 0.02, 0.02]}
    clump: jack.txt
    velocity_spread: 1.0
  - random: {min: [0, 0, 0], max: [0.02, 0.02, 0.02], count: 300}
    radius: 0.0005
    velocity_spread: 1.0
  - pour: {min: [0.0, 0.0, 0.025], max: [0.02, 0.02, 0.049], count: 30, rate: 8000,
           every: 0.004}
    clump: jack.txt
    velocity: [0, 0, -0.5]
run: {steps: $CLUMP_STEPS, dt: auto, c: 0.05, skin: 0.0002}
output: {folder: out, every: 0.005, checkpoint_every: 0.005, final: final.txt}
YAML
# (dt: auto is 2.94e-6 s, set by the tangential spring's own bound: 2000 steps are 5.9 ms)
"$RUBBLE" run clumps.yaml --output clumps_1 --quiet > clumps_1.txt || fail "clumps on one process"
mpi 3 "$RUBBLE" run clumps.yaml --output clumps_3 --quiet > clumps_3.txt || fail "clumps on 3"
cmp -s clumps_1/final.txt clumps_3/final.txt || fail "clumps: the final grains differ on 3"
same_thermo clumps_1/thermo.csv clumps_3/thermo.csv || fail "clumps: thermo.csv differs on 3"
first=$(ls clumps_3 | grep '^checkpoint_' | head -1)
[ -n "$first" ] || { ls clumps_3; fail "clumps: no checkpoint"; }
mpi 2 "$RUBBLE" run clumps.yaml --restart "clumps_3/$first" --output clumps_32 --quiet \
    > clumps_32.txt || fail "clumps: the restart on 2"
cmp -s clumps_1/final.txt clumps_32/final.txt || fail "clumps: the restart on 2 differs"
echo "ok: clumps across 3 processes and restarted on 2 from $first: the final grains as one process's ($(grep '^grains' clumps_1.txt | cut -c16-))"

# refused: any command but run
mpi 2 "$RUBBLE" contacts --help > out.txt 2> err.txt && fail "contacts ran on 2"
[ "$(grep -c 'only `rubble run` runs over several processes' err.txt)" -eq 1 ] \
    || { cat err.txt; fail "the message is not there once"; }
echo "ok: refused on 2 processes with one message: $(grep -h 'only' err.txt | cut -c1-150)"

# refused: a sheared cell (docs/shear.md: one process only), at the scene check (before any
# grain is placed) and at the key's line
sed -e "s|@OUTPUT@|{folder: o, every: 0.001}|" "$SCENES/invariance/sheared.yaml" > sheared.yaml
mpi 2 "$RUBBLE" run sheared.yaml --output sheared --quiet > out.txt 2> err.txt && fail "shear ran on 2"
grep -q 'sheared.yaml:10:[0-9]*: a sheared cell (domain.shear, docs/shear.md) cannot yet run over several' err.txt || { cat err.txt; fail "shear: no message at its line"; }
echo "ok: a sheared cell refused on 2 processes at its line"

# a process that dies (killed) mid-run: the others do not wait for it forever; the job stops
# with a message naming the dead rank, and mpirun exits non-zero
"$MPIEXEC" --allow-run-as-root --oversubscribe -np 3 "$RUBBLE" run "$EXAMPLES/settle.yaml" \
    --steps 100000000 --output killed --quiet > killed.txt 2>&1 &
job=$!
victim=""
for i in $(seq 200); do # the ranks stepping: the first frame is written
    [ -e killed/grains.pvd ] && victim=$(pgrep -f "^[^ ]*rubble run .*--output killed" | tail -1)
    [ -n "$victim" ] && break
    sleep 0.1
done
[ -n "$victim" ] || { kill "$job"; fail "killed: the run did not start"; }
kill -9 "$victim"
for i in $(seq 600); do
    kill -0 "$job" 2> /dev/null || break
    sleep 0.1
done
if kill -0 "$job" 2> /dev/null; then
    pkill -9 -f "^[^ ]*rubble run .*--output killed"; kill -9 "$job"
    fail "killed: the job still runs 60 s after one process died"
fi
wait "$job" && fail "killed: mpirun exited 0"
pgrep -f "^[^ ]*rubble run .*--output killed" > /dev/null && fail "killed: processes remain"
grep -q 'exited on signal 9' killed.txt || { cat killed.txt; fail "killed: no message"; }
echo "ok: one of 3 processes killed mid-run: the job stopped, $(grep -m1 'exited on signal 9' killed.txt | cut -c1-120)"

# SIGTERM reaching one process of 3 (issue 70: a batch system's, a node's): all stop after the
# same step, with one checkpoint (every rank's part in it), one message and exit status 143;
# restarted from it on 3 processes, the run ends in one process's final.txt of a run never
# stopped. SIGTERM to mpirun (it sends it to every process) stops them as cleanly.
sed 's/output: {folder: out, every: 0.005}/output: {folder: out, every: 0.005, final: final.txt}/' \
    "$SCENES/small.yaml" > stop.yaml
# stop_job DIR VICTIM [SECONDS]: 3 processes into DIR; VICTIM rank (the last one found) or mpirun
# (job) sent SIGTERM once the second frame is written. mpirun sends SIGKILL 1 s after the
# SIGTERM it forwards (docs/parallel.md): a loaded machine's checkpoint took longer (this case
# failed under load, twice in session 54), so mpirun is given 5 s when it is the one signalled
# (Open MPI 4.1.4's mpirun sleeps the whole timeout even when every process has gone: 60 s
# cost the test a minute; a rank signalled alone keeps mpirun's 1 s, which its peers, stopping
# with it, do not need).
stop_job() {
    "$MPIEXEC" --allow-run-as-root --oversubscribe ${3:+--mca odls_base_sigkill_timeout $3} -np 3 "$RUBBLE" run stop.yaml \
        --steps 100000000 --output "$1" --quiet > "$1.txt" 2>&1 &
    job=$! # mpirun itself (not a function's subshell)
    for i in $(seq 1200); do [ -e "$1/grains_000001.pvtp" ] && break; sleep 0.05; done
    if [ "$2" = job ]; then kill -TERM "$job"
    else kill -TERM "$(pgrep -f "^[^ ]*rubble run stop.yaml .*--output $1" | tail -1)"; fi
    wait "$job"
}
stop_job stop_3 rank
got=$?
[ "$got" -eq 143 ] || { cat stop_3.txt; fail "SIGTERM to one of 3: mpirun exited $got, not 143"; }
ck=$(ls stop_3/checkpoint_*.bin 2> /dev/null)
[ "$(echo "$ck" | wc -w)" -eq 1 ] || fail "SIGTERM to one of 3: not one checkpoint: $(ls stop_3)"
n=$(echo "$ck" | sed 's/.*checkpoint_0*\([0-9]*\)\.bin/\1/')
[ "$(grep -c "stopped at step $n of 100000000 .* on signal 15: checkpoint $ck written" stop_3.txt)" -eq 1 ] \
    || { cat stop_3.txt; fail "SIGTERM to one of 3: not one message"; }
mpi 3 "$RUBBLE" run stop.yaml --restart "$ck" --steps $((n + 300)) --output stop_33 --quiet > /dev/null \
    || fail "the restart on 3 from SIGTERM's checkpoint"
"$RUBBLE" run stop.yaml --steps $((n + 300)) --output stop_1 --quiet > /dev/null || fail "stop.yaml on 1"
cmp -s stop_1/final.txt stop_33/final.txt || fail "final.txt differs after SIGTERM at step $n on 3 and a restart"
echo "ok: SIGTERM to one of 3 processes: $(grep -m1 stopped stop_3.txt | cut -c1-110)...; the restart ends in one process's bits"
stop_job stop_3m job 5
ck=$(ls stop_3m/checkpoint_*.bin 2> /dev/null)
[ "$(echo "$ck" | wc -w)" -eq 1 ] && grep -q "on signal 15: checkpoint $ck written" stop_3m.txt \
    || { cat stop_3m.txt; fail "SIGTERM to mpirun: no clean stop"; }
echo "ok: SIGTERM to mpirun: every process stopped at $ck"

# the refusals name the launcher that started the processes (srun here: its variables, MPI's
# own taken away, as under srun --mpi=pmix)
SLURM_STEP_NUM_TASKS=2 SLURM_PROCID=0 "$RUBBLE" contacts --help > out.txt 2> err.txt && fail "contacts ran under srun"
grep -q "started as 2 processes by srun (SLURM): only" err.txt || { cat err.txt; fail "srun: the command's refusal"; }
mpi 2 sh -c "SLURM_STEP_NUM_TASKS=2 SLURM_PROCID=\$OMPI_COMM_WORLD_RANK exec env -u OMPI_COMM_WORLD_SIZE \
    -u OMPI_COMM_WORLD_RANK '$RUBBLE' run '$EXAMPLES/ellipsoids.yaml' --steps 3 --output srun_objects" \
    > out.txt 2>&1 && fail "objects ran on 2 under srun"
grep -q "cannot yet run over several processes (started as 2 by srun (SLURM))" out.txt \
    || { cat out.txt; fail "srun: the scene's refusal"; }
echo "ok: refusals under srun name it: $(grep -h 'started as' err.txt | cut -c1-60)..."

# a failure on one process only before the run (issue 41: its STL missing, as on a node whose
# disk lacks it; the others waited for it for ever): every process stops within seconds, and
# rank 0 says why
mkdir -p lone/a lone/b
cp "$EXAMPLES/hopper.yaml" lone/a/hopper.yaml
cp lone/a/hopper.yaml lone/b/hopper.yaml
cp "$EXAMPLES/hopper.stl" lone/a/hopper.stl # b has none
cat > lone/run.sh <<SH
#!/bin/sh
cd "$work/lone/\$([ "\$OMPI_COMM_WORLD_RANK" = 1 ] && echo b || echo a)" || exit 9
exec "$RUBBLE" run hopper.yaml --steps 100 --output out --quiet
SH
chmod +x lone/run.sh
timeout 60 "$MPIEXEC" --allow-run-as-root --oversubscribe -np 3 lone/run.sh > lone.txt 2>&1
status=$?
[ "$status" -ne 124 ] || fail "one process without its STL: the job hung (killed after 60 s)"
[ "$status" -ne 0 ] || fail "one process without its STL: exit 0"
grep -q "hopper.stl: cannot open" lone.txt || { cat lone.txt; fail "no message naming the STL"; }
echo "ok: one of 3 processes without its STL: the job stopped (exit $status) saying $(grep -m1 'cannot open' lone.txt | cut -c1-100)"

# a start apart (issue 47): each process places only its own grains of a lattice, a random
# packing among them (polydisperse, spread velocities: every draw as one process draws) and a
# file's, keeping those in its slab, and the first build sends them to their boxes: the final
# grains and thermo.csv as one process's; so in an open domain (slabs of the sources' regions)
awk 'BEGIN { print "# x y z radius"; for (i = 0; i < 40; i++) printf "%.6g %.6g 0.028 0.0004\n", 0.0005 + i * 0.00037, 0.004 + (i % 5) * 0.0017 }' > apart.txt
cat > apart.yaml <<YAML
domain: {min: [0, 0, 0], max: [0.015, 0.012, 0.04], periodic: [x, y]}
gravity: [0, 0, -9.81]
materials: [{name: glass, density: 2500}]
contact: {normal: linear, damping: linear, tangential: spring, kn: 2000, restitution: 0.5, friction: 0.5}
walls: [{point: [0, 0, 0], normal: [0, 0, 1]}]
grains:
  - lattice: {min: [0, 0, 0.0005], max: [0.015, 0.012, 0.008], spacing: 0.0011}
    radius: {distribution: uniform, min: 0.0004, max: 0.0005}
  - random: {min: [0, 0, 0.009], max: [0.015, 0.012, 0.025], count: 300}
    radius: {distribution: uniform, min: 0.0003, max: 0.0006}
    velocity: [0.1, 0, -0.2]
    velocity_spread: 0.05
  - file: apart.txt
run: {steps: 400, dt: auto}
output: {final: end.txt, every: 0.002}
YAML
sed -e 's/^domain: .*/domain: {open: true}/' apart.yaml > apart_open.yaml
# and with select's and spin's centre of mass summed over the processes
{ cat apart_open.yaml; echo 'select: {within: 0.008}'; echo 'spin: {axis: [0, 0, 1], omega: 3}'; } > apart_spin.yaml
APART="apart apart_open apart_spin"
[ -n "${RBL_TEST_SLOW_BUILD:-}" ] && APART=apart_spin # (under the sanitizers: the open one, selected and spun)
for scene in $APART; do
    "$RUBBLE" run $scene.yaml --output ${scene}_1 --quiet > /dev/null || fail "$scene on one process"
    mpi 3 "$RUBBLE" run $scene.yaml --output ${scene}_3 --quiet > ${scene}_3.txt \
        || { cat ${scene}_3.txt; fail "$scene on 3 processes"; }
    cmp -s ${scene}_1/end.txt ${scene}_3/end.txt || fail "$scene: the final grains differ on 3"
    same_thermo ${scene}_1/thermo.csv ${scene}_3/thermo.csv || fail "$scene: thermo.csv differs on 3"
done
echo "ok: a lattice, a random packing and a file placed apart on 3 processes (closed, open, selected and spun): $(head -1 ${scene}_1/end.txt | cut -c3-) ($APART), the final grains and thermo.csv as one process's"

# a random packing of many blocks (issue 47: each process places the blocks of its share, 8
# colours in 8 rounds, the grains then to their holders) above a lattice, in a periodic box,
# and a pour of many blocks too, each batch among the grains of every process: on 2, 3 and 4
# processes the final grains and thermo.csv as one process's
cat > blocks.yaml <<YAML
domain: {min: [0, 0, 0], max: [0.02, 0.02, 0.04], periodic: [x, y]}
gravity: [0, 0, -9.81]
materials: [{name: glass, density: 2500}]
contact: {normal: linear, damping: linear, tangential: spring, kn: 2000, restitution: 0.5, friction: 0.5}
walls: [{point: [0, 0, 0], normal: [0, 0, 1]}]
grains:
  - lattice: {min: [0, 0, 0.0005], max: [0.02, 0.02, 0.004], spacing: 0.0011}
    radius: 0.0005
  - random: {min: [0, 0, 0.004], max: [0.02, 0.02, 0.02], count: 5000}
    radius: {distribution: uniform, min: 0.0002, max: 0.0004}
    velocity_spread: 0.05
  - pour: {min: [0, 0, 0.022], max: [0.02, 0.02, 0.035], count: 3000, rate: 3750000, every: 0.0004}
    radius: {distribution: uniform, min: 0.0002, max: 0.0004}
    velocity: [0, 0, -0.3]
run: {time: 0.0016, dt: auto}
output: {final: end.txt, every: 0.003}
YAML
RANKS="2 3 4"
if [ -n "${RBL_TEST_SLOW_BUILD:-}" ]; then # (under the sanitizers: on 3, the first two batches)
    RANKS=3
    sed -i 's/^run: {time: 0.0016, dt: auto}$/run: {time: 0.0008, dt: auto}/' blocks.yaml
fi
"$RUBBLE" run blocks.yaml --output blocks_1 --quiet > /dev/null || fail "blocks on one process"
for np in $RANKS; do
    mpi $np "$RUBBLE" run blocks.yaml --output blocks_$np --quiet > blocks_$np.txt \
        || { cat blocks_$np.txt; fail "blocks on $np processes"; }
    cmp -s blocks_1/end.txt blocks_$np/end.txt || fail "blocks: the final grains differ on $np"
    same_thermo blocks_1/thermo.csv blocks_$np/thermo.csv || fail "blocks: thermo.csv differs on $np"
done
echo "ok: a random packing and a pour of many blocks on $RANKS processes: $(head -1 blocks_1/end.txt | cut -c3-), the final grains and thermo.csv as one process's"

# a dense packing (issue 73, insert_pack.c): every process computes the one packing against
# the lattice's grains gathered from all, and adds its share: the final grains as one's on 3
cat > dense.yaml <<YAML
domain: {min: [0, 0, 0], max: [0.02, 0.02, 0.02], periodic: [x, y]}
materials: [{name: glass, density: 2500}]
contact: {normal: linear, kn: 2000, gamma_n: 0, friction: 0.5}
walls: [{point: [0, 0, 0], normal: [0, 0, 1]}, {point: [0, 0, 0.02], normal: [0, 0, -1]}]
grains:
  - lattice: {min: [0, 0, 0], max: [0.02, 0.02, 0.003], spacing: 0.0021}
    radius: 0.001
  - pack: {min: [0, 0, 0], max: [0.02, 0.02, 0.02], volume_fraction: 0.5}
    radius: {distribution: uniform, min: 0.0005, max: 0.0008}
    velocity_spread: 0.01
run: {steps: 20, dt: auto}
output: {final: end.txt}
YAML
"$RUBBLE" run dense.yaml --output dense_1 --quiet > /dev/null || fail "dense on one process"
mpi 3 "$RUBBLE" run dense.yaml --output dense_3 --quiet > dense_3.txt \
    || { cat dense_3.txt; fail "dense on 3 processes"; }
cmp -s dense_1/end.txt dense_3/end.txt || fail "dense: the final grains differ on 3"
echo "ok: a dense packing on 3 processes: $(head -1 dense_1/end.txt | cut -c3-), the final grains as one process's"

# a lattice placed apart (issue 47: each process its share of the sites, each site its own
# stream): overhanging a periodic box, so that its sites at one end meet the images of those
# at the other, settled in the sites' order on every process alike: the grains one process
# places (405: those the one stream of before placed), on 3 processes
cat > overhang.yaml <<YAML
domain: {min: [0, 0, 0], max: [0.01, 0.01, 0.02], periodic: [x, y]}
materials: [{name: glass, density: 2500}]
contact: {normal: linear, damping: linear, tangential: none, kn: 2000, gamma_n: 0}
grains:
  - lattice: {min: [-0.0023, -0.0017, 0], max: [0.0105, 0.0102, 0.006], spacing: 0.0011}
    radius: {distribution: uniform, min: 0.0004, max: 0.0005}
    velocity_spread: 0.01
run: {steps: 20, dt: auto}
output: {final: end.txt}
YAML
"$RUBBLE" run overhang.yaml --output overhang_1 --quiet > /dev/null || fail "overhang on one process"
mpi 3 "$RUBBLE" run overhang.yaml --output overhang_3 --quiet > overhang_3.txt \
    || { cat overhang_3.txt; fail "overhang on 3 processes"; }
cmp -s overhang_1/end.txt overhang_3/end.txt || fail "overhang: the final grains differ on 3"
grep -q "405 grains" overhang_1/end.txt || { head -1 overhang_1/end.txt; fail "overhang: not 405 grains"; }
echo "ok: a lattice overhanging a periodic box, its sites meeting images settled apart: $(head -1 overhang_1/end.txt | cut -c3-) on 3 processes as on one"

# the file is read in parts, a third of its bytes each: a bad line in the last third and a
# --max-grains crossed in the second are named as one process names them, on every process;
# so is a --max-grains crossed by the random packing (each process holds a third of it)
awk 'NR == 37 { print "0.01 0.01 0.028 0.0004 0.1" } { print }' apart.txt > apart_bad.txt
sed 's/file: apart.txt/file: apart_bad.txt/' apart.yaml > apart_bad.yaml
sed '/lattice:/,/velocity_spread/d' apart.yaml > apart_file.yaml # (the file alone)
CASES="apart_bad.yaml|apart_file.yaml --max-grains 20|apart.yaml --max-grains 1000"
[ -n "${RBL_TEST_SLOW_BUILD:-}" ] && CASES="apart_bad.yaml|apart_file.yaml --max-grains 20"
IFS='|'; set -f; set -- $CASES; unset IFS; set +f
for case in "$@"; do
    set -- $case
    "$RUBBLE" run "$@" --output bad_1 --quiet > bad_1.txt 2>&1 && fail "$case: exit 0 on one process"
    mpi 3 "$RUBBLE" run "$@" --output bad_3 --quiet > bad_3.txt 2>&1 && fail "$case: exit 0 on 3"
    one=$(grep -m1 "apart" bad_1.txt); [ -n "$one" ] || { cat bad_1.txt; fail "$case: no message"; }
    [ "$(grep -c -F "$one" bad_3.txt)" -ge 1 ] || { cat bad_1.txt bad_3.txt; fail "$case: 3 processes said otherwise"; }
    echo "ok: $case on 3 processes reading the file in parts: $one"
done

# launchers (issue 47): srun starting processes this MPI does not join (no PMI plugin it
# speaks) would run serial copies into one folder; each copy sees SLURM's task count and MPI's
# one process and refuses, the task 0 with the message, before anything is written. mpirun
# inside a SLURM allocation (SLURM's variables and its own both set) runs as mpirun says.
SLURM_STEP_NUM_TASKS=2 SLURM_PROCID=0 timeout 60 "$RUBBLE" run "$EXAMPLES/settle.yaml" \
    --steps 10 --output copies > copies_0.txt 2>&1 &
task0=$!
SLURM_STEP_NUM_TASKS=2 SLURM_PROCID=1 timeout 60 "$RUBBLE" run "$EXAMPLES/settle.yaml" \
    --steps 10 --output copies > copies_1.txt 2>&1 &
task1=$!
wait "$task0" && fail "srun copies: task 0 exited 0"
wait "$task1" && fail "srun copies: task 1 exited 0"
[ -e copies ] && fail "srun copies: a folder was made"
grep -q 'started as 2 processes by srun (SLURM) (SLURM_STEP_NUM_TASKS=2), but MPI sees 1' \
    copies_0.txt || { cat copies_0.txt; fail "srun copies: no message from task 0"; }
[ -s copies_1.txt ] && { cat copies_1.txt; fail "srun copies: task 1 spoke too"; }
SLURM_STEP_NUM_TASKS=1 SLURM_PROCID=0 mpi 2 "$RUBBLE" run "$EXAMPLES/settle.yaml" --steps 10 \
    --output inside > inside.txt 2>&1 || { cat inside.txt; fail "mpirun inside an allocation"; }
grep -q "processes      2, started by mpirun (Open MPI)" inside.txt || { cat inside.txt; fail "inside: not 2 processes"; }
# hybrid: each process takes OMP_NUM_THREADS, or srun's --cpus-per-task, threads (1 without)
OMP_NUM_THREADS=2 mpi 2 "$RUBBLE" run "$EXAMPLES/settle.yaml" --steps 10 --output hybrid \
    > hybrid.txt 2>&1 || { cat hybrid.txt; fail "hybrid"; }
grep -q "on 2 threads" hybrid.txt || { grep speed hybrid.txt; fail "OMP_NUM_THREADS=2: not 2 threads"; }
env -u OMP_NUM_THREADS SLURM_CPUS_PER_TASK=2 "$MPIEXEC" --allow-run-as-root --oversubscribe \
    -np 2 "$RUBBLE" run "$EXAMPLES/settle.yaml" --steps 10 --output hybrid2 > hybrid2.txt 2>&1 \
    || { cat hybrid2.txt; fail "hybrid, cpus per task"; }
grep -q "on 2 threads" hybrid2.txt || { grep speed hybrid2.txt; fail "SLURM_CPUS_PER_TASK=2: not 2 threads"; }
# examples/slurm/job.sh, its srun a stand-in that starts its command on 2 processes (the
# script's own lines otherwise as sbatch runs them): it runs the scene over 2
mkdir -p stub && cat > stub/srun <<SH
#!/bin/sh
while [ "\${1#-}" != "\$1" ]; do shift; done # srun's options
exec "$MPIEXEC" --allow-run-as-root --oversubscribe -np 2 "\$@"
SH
ln -sf "$RUBBLE" stub/rubble && chmod +x stub/srun
PATH="$work/stub:$PATH" SLURM_JOB_ID=77 SLURM_CPUS_PER_TASK=1 \
    bash "$EXAMPLES/slurm/job.sh" "$EXAMPLES/settle.yaml" --steps 10 > job.txt 2>&1 \
    || { cat job.txt; fail "examples/slurm/job.sh"; }
grep -q "processes      2, started by" job.txt && [ -s run-77/thermo.csv ] \
    || { cat job.txt; fail "examples/slurm/job.sh: not 2 processes into run-77"; }
echo "ok: srun's copies refused, $(cut -c1-120 copies_0.txt)...; mpirun inside an allocation runs on 2"
