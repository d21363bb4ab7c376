#!/bin/sh
# `mpirun -np P rubble run` (issue 13): the settle, hopper (mesh walls) and drum (a turning
# mesh) examples over 2 and 3 processes write what one process writes: thermo.csv's every
# column, and each frame as a .pvtp over one piece per rank holding all the grains; so does a
# lattice whose grains touch from the start on 3. What does
# not run over several processes yet (a pour source; any command but run) is refused once, by
# rank 0, every process exits non-zero and no output folder is made.
. "$(dirname "$0")/cli_run_common.sh"
MPIEXEC=$2
EXAMPLES=$(cd "$(dirname "$0")/../examples" && pwd)
fail() { echo "FAIL: $*"; exit 1; }
mpi() { "$MPIEXEC" --allow-run-as-root --oversubscribe -np "$@"; }

for ex in settle hopper drum; do
    "$RUBBLE" run "$EXAMPLES/$ex.yaml" --steps 500 --output "${ex}_1" --quiet > "${ex}_1.txt" \
        || fail "$ex on one process"
    for np in 2 3; do
        mpi "$np" "$RUBBLE" run "$EXAMPLES/$ex.yaml" --steps 500 --output "${ex}_$np" --quiet \
            > "${ex}_$np.txt" || fail "$ex on $np processes"
        cmp -s "${ex}_1/thermo.csv" "${ex}_$np/thermo.csv" \
            || { diff "${ex}_1/thermo.csv" "${ex}_$np/thermo.csv" | head -5; fail "$ex: thermo.csv differs on $np"; }
        last=$(ls "${ex}_$np" | grep '\.pvtp$' | tail -1)
        [ "$(grep -c '<Piece Source=' "${ex}_$np/$last")" -eq "$np" ] || fail "$ex: $last lacks $np pieces"
        grep -q "${last%.pvtp}" "${ex}_$np/grains.pvd" || fail "$ex: grains.pvd does not list $last"
        grains=$(tail -1 "${ex}_1/thermo.csv" | cut -d, -f3)
        points=$(cat "${ex}_$np/${last%.pvtp}"_*.vtp | grep -a -o 'NumberOfPoints="[0-9]*"' \
                 | tr -dc '0-9\n' | awk '{s += $1} END {print s}')
        [ "$points" = "$grains" ] || fail "$ex: the pieces hold $points grains of $grains"
        grep -q "processes      $np (mpirun)" "${ex}_$np.txt" || fail "$ex: no processes line"
    done
    echo "ok: $ex on 2 and 3 processes: thermo.csv as one process's; $(grep processes "${ex}_3.txt" | cut -c16-120)..."
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
output: {folder: out, every: 0.001}
YAML
"$RUBBLE" run packed.yaml --output packed_1 --quiet > packed_1.txt || fail "packed on one process"
mpi 3 "$RUBBLE" run packed.yaml --output packed_3 --quiet > packed_3.txt || fail "packed on 3"
touching=$(sed -n 2p packed_1/thermo.csv | cut -d, -f10)
[ "$touching" -gt 0 ] || fail "packed: no contact at the start"
cmp -s packed_1/thermo.csv packed_3/thermo.csv \
    || { diff packed_1/thermo.csv packed_3/thermo.csv | head -5; fail "packed: thermo.csv differs on 3"; }
echo "ok: a packed lattice ($touching contacts at the start) on 3 processes: thermo.csv as one process's"

# refused: a pour source, and any command but run
mpi 2 "$RUBBLE" run "$EXAMPLES/pour.yaml" --output pour > out.txt 2> pour.txt && fail "a pour ran on 2"
[ "$(grep -c 'a pour source cannot yet run over several processes' pour.txt)" -eq 1 ] \
    || { cat pour.txt; fail "the pour's message is not there once"; }
[ -e pour ] && fail "an output folder was made"
mpi 2 "$RUBBLE" contacts --help > out.txt 2> err.txt && fail "contacts ran on 2"
[ "$(grep -c 'only `rubble run` runs over several processes' err.txt)" -eq 1 ] \
    || { cat err.txt; fail "the message is not there once"; }
echo "ok: refused on 2 processes with one message each: $(grep -h 'cannot yet' pour.txt | cut -c1-150)..."
