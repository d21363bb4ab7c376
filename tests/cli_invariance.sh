#!/bin/sh
# Invariance (issue 69, docs/testing.md): what must not matter does not change a run. Over the
# scenes of tests/scenes/invariance (a mesh overhanging a periodic box with a pour, an outlet,
# wear and a flow counter; clumps among spheres with cohesion, rolling resistance and stages
# that change gravity, friction, pour and press; clumps in a trough, a mesh overhanging a
# periodic box, that a stage vibrates while it pours; a silo of primitive walls whose gate a
# stage takes away; a self-gravitating pile; a bonded block breaking as it lands; a sheared
# cell of Lees-Edwards boundaries, at constant volume and at an imposed normal stress), each
# with every
# output on (frames with every field, contacts as vtp and csv, coarse-grained fields, wall
# loads, flow counters, checkpoints):
#   memory order  the grains stored in a new random order at every neighbour build
#                 (--test-shuffle) and on 2 threads: every file the same bytes but the
#                 checkpoints (they hold the grains in memory order), and a restart from the
#                 shuffled run's checkpoint ends in the same final.txt (release pass only);
#   schedule      the outputs off or at other intervals: the same final.txt;
#   restart       from a checkpoint at an odd step (inside a stage, a pour, the wear): the
#                 same final.txt, and the frames and thermo rows after it the same bytes;
#   ranks         (with MPIEXEC) the scene with the outputs that run over several processes,
#                 on 3 processes: the same final.txt and thermo.csv as on one (and a bonded
#                 scene's bonds frames and breaks.csv, a wearing mesh's walls frames).
# usage: cli_invariance.sh RUBBLE [MPIEXEC]
. "$(dirname "$0")/cli_run_common.sh"
MPIEXEC=${2:-}
INV=$SCENES/invariance

# FIELDS: every frame field
FIELDS="[radius, velocity, angular_velocity, id, contact_force, contacts, clump, stress, mass, material, contact_torque, kinetic_energy]"

EXAMPLES=$(cd "$SCENES/../../examples" && pwd)

# scene NAME FULL MIN: the scene with the output maps FULL and MIN, as NAME_full.yaml and
# NAME_min.yaml here (the examples' files it names, and @HERE@'s beside it, by their absolute
# paths)
scene() {
    sed -e "s|@OUTPUT@|$2|" -e "s|@HERE@|$INV|" -e "s|\.\./\.\./\.\./examples|$EXAMPLES|" \
        "$INV/$1.yaml" > "$1_full.yaml"
    sed -e "s|@OUTPUT@|$3|" -e "s|@HERE@|$INV|" -e "s|\.\./\.\./\.\./examples|$EXAMPLES|" \
        "$INV/$1.yaml" > "$1_min.yaml"
}

fail() { echo "FAIL [$1]: $2"; failures=$((failures+1)); }

# rows FILE: thermo.csv's physics (an impulse scene's last four columns are timings)
rows() { if [ "$kind" = objects ]; then cut -d, -f1-17 "$1"; else cat "$1"; fi; }

# same_files NAME A B: every file of A is in B with the same bytes (checkpoints: only there;
# thermo.csv: its physics), and B has no other
same_files() {
    if [ "$(ls "$2")" != "$(ls "$3")" ]; then
        fail "$1" "the files differ: $(ls "$2" | tr '\n' ' ') / $(ls "$3" | tr '\n' ' ')"
        return
    fi
    for f in "$2"/*; do
        case $f in
        */checkpoint_*.bin) continue ;;
        */thermo.csv) rows "$f" > a_rows.csv; rows "$3/thermo.csv" > b_rows.csv
                      cmp -s a_rows.csv b_rows.csv || fail "$1" "thermo.csv differs" ;;
        *) cmp -s "$f" "$3/$(basename "$f")" || fail "$1" "$(basename "$f") differs" ;;
        esac
    done
}

# check NAME [KIND]: the invariances of NAME; KIND one: it runs on one process only;
# objects: an impulse scene (its objects stay in id order: threads and no shuffle; one process)
check() {
    name=$1 kind=${2:-grains}
    "$RUBBLE" run "${name}_full.yaml" --output "$name.base" --threads 1 --quiet \
        > /dev/null 2> "$name.err" || { fail "$name" "base run: $(cat "$name.err")"; return; }
    [ -s "$name.base/final.txt" ] || { fail "$name" "no final.txt"; return; }
    # memory order (and threads)
    shuffle="--test-shuffle 5"
    [ "$kind" = objects ] && shuffle=""
    # shellcheck disable=SC2086
    "$RUBBLE" run "${name}_full.yaml" --output "$name.shuffled" --threads 2 --quiet \
        $shuffle > /dev/null 2>&1 || fail "$name" "shuffled run failed"
    same_files "$name: memory order" "$name.base" "$name.shuffled"
    # output schedule
    "$RUBBLE" run "${name}_min.yaml" --output "$name.min" --threads 2 --quiet \
        > /dev/null 2>&1 || fail "$name" "run with other outputs failed"
    cmp -s "$name.base/final.txt" "$name.min/final.txt" ||
        fail "$name: output schedule" "final.txt differs with other outputs"
    # restart at the checkpoint nearest the middle, on 2 threads
    set -- "$name.base"/checkpoint_*.bin
    [ "$#" -ge 2 ] || { fail "$name" "fewer than 2 checkpoints: $*"; return; }
    eval "ck=\${$(( ($# + 1) / 2 ))}"
    "$RUBBLE" run "${name}_full.yaml" --output "$name.restart" --threads 2 --quiet \
        --restart "$ck" > /dev/null 2> "$name.err" ||
        { fail "$name" "restart: $(cat "$name.err")"; return; }
    cmp -s "$name.base/final.txt" "$name.restart/final.txt" ||
        fail "$name: restart" "final.txt differs after a restart from $(basename "$ck")"
    # (the shuffled run's checkpoint restarted: the release pass's; under the sanitizers its
    # code is the restart's above)
    if [ -z "${RBL_TEST_SLOW_BUILD:-}" ]; then
        "$RUBBLE" run "${name}_full.yaml" --output "$name.restart2" --threads 1 --quiet \
            --restart "$name.shuffled/$(basename "$ck")" > /dev/null 2>&1 ||
            fail "$name" "restart from the shuffled run's $(basename "$ck") failed"
        cmp -s "$name.base/final.txt" "$name.restart2/final.txt" ||
            fail "$name: memory order" "final.txt differs after a restart from the shuffled run"
    fi
    for f in "$name.restart"/*_[0-9]*.v* "$name.restart"/*_[0-9]*.csv; do
        [ -e "$f" ] || continue
        cmp -s "$f" "$name.base/$(basename "$f")" ||
            fail "$name: restart" "$(basename "$f") differs after a restart from $(basename "$ck")"
    done
    # collisions.csv: the rows before the checkpoint carried by it, its open interval too
    if [ -e "$name.base/collisions.csv" ]; then
        cmp -s "$name.base/collisions.csv" "$name.restart/collisions.csv" ||
            fail "$name: restart" "collisions.csv differs after a restart from $(basename "$ck")"
        cmp -s "$name.base/collisions.csv" "$name.min/collisions.csv" ||
            fail "$name: output schedule" "collisions.csv differs with other outputs"
    fi
    rows=$(wc -l < "$name.restart/thermo.csv")
    rows "$name.restart/thermo.csv" | tail -n $((rows - 1)) > restart_rows.csv
    rows "$name.base/thermo.csv" | tail -n $((rows - 1)) > base_rows.csv
    cmp -s restart_rows.csv base_rows.csv ||
        fail "$name: restart" "thermo.csv's rows after $(basename "$ck") differ"
    if [ -n "$MPIEXEC" ] && [ "$kind" = grains ]; then
        "$MPIEXEC" --allow-run-as-root --oversubscribe -np 3 "$RUBBLE" run "${name}_min.yaml" \
            --output "$name.ranks" --threads 1 --quiet > /dev/null 2> "$name.err" ||
            { fail "$name" "3 processes: $(cat "$name.err")"; return; }
        cmp -s "$name.base/final.txt" "$name.ranks/final.txt" ||
            fail "$name: ranks" "final.txt differs on 3 processes"
        cmp -s "$name.min/thermo.csv" "$name.ranks/thermo.csv" ||
            fail "$name: ranks" "thermo.csv differs on 3 processes"
        if [ -e "$name.min/collisions.csv" ]; then
            cmp -s "$name.min/collisions.csv" "$name.ranks/collisions.csv" ||
                fail "$name: ranks" "collisions.csv differs on 3 processes"
        fi
        for f in "$name.min"/bonds_*.vtp "$name.min"/bonds.pvd "$name.min"/breaks.csv \
                 "$name.min"/walls_*.vtp; do
            [ -e "$f" ] || continue # (a bonded scene's, walls that wear: one process's bytes)
            cmp -s "$f" "$name.ranks/$(basename "$f")" ||
                fail "$name: ranks" "$(basename "$f") differs on 3 processes"
        done
    fi
    echo "ok: $name ($(ls "$name.base" | wc -l) files; restart from $(basename "$ck"))"
}

scene hopper \
    "{folder: o, every: 0.01, thermo_every: 0.0007, checkpoint_every: 0.0187, final: final.txt, contacts: [vtp, csv], fields: $FIELDS, cg: {cells: [18, 2, 16], width: 0.004, min: [-0.045, 0, -0.004], max: [0.045, 0.01, 0.06]}, wall_loads: true, flow: [{point: [0, 0, 0.002], normal: [0, 0, -1]}]}" \
    "{folder: o, every: 0.0137, thermo_every: 0.05, final: final.txt}"
# on 3 processes too (its walls' loads and wear in walls_NNNNNN.vtp), but under the
# sanitizers, where cli_mpi_run's small scene checks the wear over several processes
if [ -n "${RBL_TEST_SLOW_BUILD:-}" ]; then check hopper one; else check hopper; fi

# collision statistics: the first interval (0.0021 s) holds the first checkpoint (0.00191 s) and
# events before it (its open interval's tally goes into the checkpoint); the last ends with the run
COLLISIONS="collisions: {every: 0.0021, bins: 12, energy: [1e-13, 1e-4]}"
scene clumps_staged \
    "{folder: o, every: 0.001, thermo_every: 0.00013, checkpoint_every: 0.00191, final: final.txt, contacts: [vtp, csv], fields: $FIELDS, cg: {cells: [5, 5, 10], width: 0.004}, wall_loads: true, flow: [{point: [0, 0, 0.01], normal: [0, 0, -1]}], $COLLISIONS}" \
    "{folder: o, every: 0.0023, final: final.txt, contacts: csv, $COLLISIONS}"
check clumps_staged

# the frames at other intervals stop the stepping at other steps (a stop had rounded a clump's
# closing kick otherwise: 0.004 against 0.0061 gave another final.txt)
scene shaken_trough \
    "{folder: o, every: 0.004, thermo_every: 0.0007, checkpoint_every: 0.0093, final: final.txt, contacts: [vtp, csv], fields: $FIELDS, cg: {cells: [3, 3, 8], width: 0.004}, wall_loads: true, flow: [{point: [0, 0, 0.01], normal: [0, 0, -1]}]}" \
    "{folder: o, every: 0.0061, final: final.txt}"
check shaken_trough

# gates (issue 73): primitive walls, a gate taken away with grains on it, a lid put in; the
# restart's checkpoint lies after the gate went; on 3 processes (its outputs but the walls'
# loads): the same final.txt and thermo.csv, the stages' rows included
scene gate \
    "{folder: o, every: 0.01, thermo_every: 0.0013, checkpoint_every: 0.0323, final: final.txt, contacts: [vtp, csv], fields: $FIELDS, wall_loads: true}" \
    "{folder: o, every: 0.0137, final: final.txt}"
check gate

scene gravity \
    "{folder: o, every: 20, thermo_every: 1.4, checkpoint_every: 37.8, final: final.txt, contacts: [vtp, csv], fields: $FIELDS, cg: {cells: [10, 10, 10], width: 0.05, min: [-0.2, -0.2, -0.2], max: [0.2, 0.2, 0.2]}, flow: [{point: [0, 0, 0], normal: [0, 0, 1]}]}" \
    "{folder: o, every: 500, final: final.txt}"
check gravity

scene jkr \
    "{folder: o, every: 0.0005, thermo_every: 0.00007, checkpoint_every: 0.00071, final: final.txt, contacts: csv, fields: $FIELDS, cg: {cells: [6, 3, 10], width: 0.002}}" \
    "{folder: o, every: 0.0011, final: final.txt}"
check jkr

# bonds (issue 72): breaking as the block lands (on 3 processes too: its bonds files as well)
scene bonded \
    "{folder: o, every: 0.001, thermo_every: 0.00011, checkpoint_every: 0.00213, final: final.txt, contacts: [vtp, csv], fields: $FIELDS}" \
    "{folder: o, every: 0.0023, final: final.txt}"
check bonded

# a sheared cell (docs/shear.md): Lees-Edwards boundaries, the shift wrapping at L/2 before
# the middle checkpoint; one process (shear is refused over MPI)
scene sheared \
    "{folder: o, every: 0.0006, thermo_every: 0.00013, checkpoint_every: 0.00047, final: final.txt, contacts: [vtp, csv], fields: $FIELDS}" \
    "{folder: o, every: 0.0007, final: final.txt}"
check sheared one

# the same cell at an imposed normal stress: its height servoed (the shift then the images'
# speed's integral, a checkpoint's field), the strain rate not 0 at the middle checkpoint
scene sheared_pressure \
    "{folder: o, every: 0.0006, thermo_every: 0.00013, checkpoint_every: 0.00047, final: final.txt, contacts: [vtp, csv], fields: $FIELDS}" \
    "{folder: o, every: 0.0007, final: final.txt}"
check sheared_pressure one

scene impulse \
    "{folder: o, every: 0.02, thermo_every: 0.0034, checkpoint_every: 0.037, final: final.txt}" \
    "{folder: o, every: 0.05, final: final.txt}"
check impulse objects

[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "cli_invariance: all passed"
