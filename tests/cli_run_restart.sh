#!/bin/sh
# Checkpoint/restart through `rubble run`: a run restarted from its halfway checkpoint into
# another folder writes byte-identical frames, thermo.csv and later checkpoints, and a .pvd
# of the frames that folder holds; --threads is honoured and --steps before the checkpoint is
# refused; a checkpoint of another scene and a corrupt file are refused with a message and
# exit status 1.
. "$(dirname "$0")/cli_run_common.sh"
fail() { echo "FAIL: $*"; exit 1; }

sed 's/output: {folder: out, every: 0.005}/output: {folder: out, every: 0.005, checkpoint_every: 0.005}/' \
    "$SCENES/small.yaml" > ck.yaml
"$RUBBLE" run ck.yaml --output A --quiet > /dev/null || fail "the whole run failed"
first=$(ls A/checkpoint_*.bin | head -1)
last=$(ls A/checkpoint_*.bin | tail -1)
[ "$first" != "$last" ] || fail "expected at least two checkpoints"
"$RUBBLE" run ck.yaml --output B --restart "$first" --quiet > /dev/null || fail "restart failed"
for f in thermo.csv $(cd B && ls grains_*.vtp checkpoint_*.bin); do
    cmp -s "A/$f" "B/$f" || fail "$f differs after the restart"
done
# B holds the frames from the restart on: its series lists them, as A's does
grep DataSet B/grains.pvd > b.lines
grep -F -x -f b.lines A/grains.pvd | cmp -s - b.lines || fail "B/grains.pvd lists frames A's does not"
[ "$(wc -l < b.lines)" -eq "$(ls B/grains_*.vtp | wc -l)" ] || fail "B/grains.pvd does not list B's frames"
echo "ok: restart from $first is byte-identical ($(ls B | wc -l) files)"
# output.collisions turned on at a restart from a checkpoint without it, and off at one from a
# checkpoint with it (the contacts' histories re-laid: issue 70): the physics as before, thermo.csv
# the same bytes; turned on, collisions.csv from the restart on; the report lists it among the
# outputs where the run wrote it
sed 's/every: 0.005, checkpoint_every: 0.005}/every: 0.005, checkpoint_every: 0.005, collisions: {every: 0.002}}/' \
    ck.yaml > ck_on.yaml
"$RUBBLE" run ck_on.yaml --output C --quiet > C.txt || fail "the run with collisions failed"
grep -q "^output .*C/thermo.csv, C/collisions.csv$" C.txt || fail "the report: $(grep '^output' C.txt)"
cmp -s A/thermo.csv C/thermo.csv || fail "collision statistics changed thermo.csv"
[ "$(wc -l < C/collisions.csv)" -gt 1 ] || fail "no collisions.csv rows: $(cat C/collisions.csv)"
"$RUBBLE" run ck_on.yaml --output D --restart "$first" --quiet > /dev/null ||
    fail "a restart that asks for collisions failed"
"$RUBBLE" run ck.yaml --output E --restart "C/$(basename "$first")" --quiet > E.txt ||
    fail "a restart that drops collisions failed"
grep -q "^output .*E/thermo.csv$" E.txt || fail "the report: $(grep '^output' E.txt)"
for d in D E; do
    cmp -s A/thermo.csv $d/thermo.csv || fail "$d/thermo.csv differs after turning collisions on or off"
done
head -1 D/collisions.csv | grep -q "^time_start,time_end," || fail "D/collisions.csv: $(head -1 D/collisions.csv)"
[ ! -e E/collisions.csv ] || fail "E wrote collisions.csv without output.collisions"
echo "ok: collisions turned on and off at restarts, the same physics"
# files are created as any program's: 0666 less the umask (written beside, renamed into place)
(umask 022 && "$RUBBLE" run "$SCENES/small.yaml" --output M --quiet > /dev/null) || fail "umask run"
for f in M/thermo.csv M/grains.pvd M/grains_000000.vtp A/checkpoint_*.bin; do
    mode=$(stat -c %a "$f")
    case $f in A/*) want=$(printf '%o' $((0666 & ~$(umask))));; *) want=644;; esac
    [ "$mode" = "$want" ] || fail "$f has mode $mode, not $want"
done
echo "ok: output files have mode 644 under umask 022"

# restart options (docs/scenes.md): --threads is honoured (the bits do not depend on it);
# --steps counts from the run's start, so a checkpoint past it is refused, nothing written
"$RUBBLE" run ck.yaml --output E --restart "$first" --threads 1 > out.txt || fail "restart on 1 thread failed"
grep -q "on 1 thread " out.txt || fail "--threads 1 was not honoured: $(grep speed out.txt)"
cmp -s A/thermo.csv E/thermo.csv || fail "thermo.csv differs on 1 thread"
grep -q "earlier frames are not in E" out.txt || fail "the report does not say frames are elsewhere"
at=$(echo "$first" | sed 's/.*checkpoint_0*\([0-9]*\)\.bin/\1/')
"$RUBBLE" run ck.yaml --output F --restart "$first" --steps $((at - 1)) > out.txt 2> err.txt && fail "--steps before the checkpoint accepted"
grep -q "checkpoint is at step $at, already at or past the end of the run" err.txt || fail "message: $(cat err.txt)"
[ -e F ] && fail "a refused restart made its output folder"
echo "ok: $(cat err.txt)"
# a restart into a new folder lists in grains.pvd only the frames that folder holds
for f in $(sed -n 's/.*file="\([^"]*\)".*/\1/p' E/grains.pvd); do
    [ -s "E/$f" ] || fail "E/grains.pvd lists $f, which E does not hold"
done
[ "$(grep -c DataSet E/grains.pvd)" -eq "$(ls E/grains_*.vtp | wc -l)" ] || fail "E/grains.pvd misses frames"
echo "ok: a restart into another folder lists its $(ls E/grains_*.vtp | wc -l) frames"

# another scene (one more grain source) refuses the checkpoint
sed 's/^run:/  - random: {min: [0, 0, 0.035], max: [0.02, 0.02, 0.045], count: 5}\n    radius: 0.001\nrun:/' \
    ck.yaml > other.yaml
"$RUBBLE" run other.yaml --output C --restart "$first" > out.txt 2> err.txt && fail "foreign checkpoint accepted"
grep -q "written for another scene" err.txt || fail "message: $(cat err.txt)"
echo "ok: $(cat err.txt)"
# a scene with another law (or material) refuses it, naming the setting; the same scene
# written otherwise (keys reordered, flow style expanded, a comment) with a longer run and
# other output intervals is accepted
sed 's/kn: 2000/kn: 2500/' ck.yaml > law.yaml
"$RUBBLE" run law.yaml --output C --restart "$first" > out.txt 2> err.txt && fail "checkpoint of another law accepted"
grep -q "its scene has 'contact.kn: 2000' where law.yaml has 'contact.kn: 2500'" err.txt || fail "message: $(cat err.txt)"
echo "ok: $(cat err.txt)"
sed 's/density: 2500/density: 2600/' ck.yaml > dense.yaml
"$RUBBLE" run dense.yaml --output C --restart "$first" > out.txt 2> err.txt && fail "checkpoint of another material accepted"
grep -q "materials\[0\].density: 2500" err.txt || fail "message: $(cat err.txt)"
sed -e 's/^run: {steps: 2000, dt: auto, c: 0.05}/run:\n  c: 0.05   # the same\n  dt: auto\n  steps: 2400/' \
    -e 's/every: 0.005, checkpoint_every: 0.005/checkpoint_every: 0.004, every: 0.002, thermo_every: 0.001/' \
    ck.yaml > longer.yaml
grep -q "steps: 2400" longer.yaml && grep -q "every: 0.002" longer.yaml || fail "sed did not rewrite longer.yaml"
"$RUBBLE" run longer.yaml --output G --restart "$first" --quiet > out.txt 2> err.txt || fail "a longer run of the same scene refused: $(cat err.txt)"
grep -q "^[^,]*,2400," G/thermo.csv || fail "the longer run did not reach step 2400"
echo "ok: the same scene, rewritten, runs on to step 2400"
# a corrupt checkpoint
cp "$first" bad.bin
printf 'XXXX' | dd of=bad.bin bs=1 seek=500 conv=notrunc 2> /dev/null
"$RUBBLE" run ck.yaml --output D --restart bad.bin > out.txt 2> err.txt && fail "corrupt checkpoint accepted"
grep -q "checksum mismatch" err.txt || fail "message: $(cat err.txt)"
echo "ok: $(cat err.txt)"
# output.checkpoint_keep: the last K of a run stay, and the report names them and output.final
sed 's/output: {folder: out, every: 0.005}/output: {folder: out, every: 0.005, checkpoint_every: 0.002, checkpoint_keep: 2, final: end.txt}/' \
    "$SCENES/small.yaml" > keep.yaml
"$RUBBLE" run keep.yaml --output K > out.txt || fail "the run keeping 2 checkpoints failed"
[ "$(ls K/checkpoint_*.bin | wc -l)" -eq 2 ] || fail "not 2 checkpoints kept: $(ls K)"
last=$(ls K/checkpoint_*.bin | tail -1)
grep -q "^checkpoints    2 in K, the last $(basename "$last") (to go on: rubble run keep.yaml --restart $last)" out.txt ||
    fail "the report does not name the checkpoints: $(cat out.txt)"
grep -q "^final          K/end.txt" out.txt || fail "the report does not name the final file"
echo "ok: 2 checkpoints kept, named in the report with the final file"
# Every output, checkpoints included, is the same bytes on 1, 2 and 3 threads (issue 41: the
# frames came in memory order, stress summed in the pair list's order, and the memory order
# itself, kept in checkpoints, was chosen for the thread count: along z on one thread, along x
# on two for this wide periodic bed); a checkpoint restarted on another count continues into
# the same bytes.
for t in 1 2 3; do
    "$RUBBLE" run "$SCENES/wide.yaml" --threads $t --output W$t --quiet > /dev/null ||
        fail "the wide bed on $t threads failed"
done
[ "$(ls W1/checkpoint_*.bin | wc -l)" -ge 2 ] || fail "the wide bed wrote no checkpoints: $(ls W1)"
for t in 2 3; do
    for f in $(cd W1 && ls); do
        cmp -s "W1/$f" "W$t/$f" || fail "$f differs between 1 and $t threads"
    done
done
"$RUBBLE" run "$SCENES/wide.yaml" --threads 1 --output W4 --restart W2/checkpoint_000000261.bin \
    --quiet > /dev/null || fail "the 2-thread checkpoint did not restart on 1 thread"
for f in grains_000002.vtp grains_000005.vtp thermo.csv; do
    cmp -s "W1/$f" "W4/$f" || fail "$f differs after the restart across thread counts"
done
echo "ok: the wide bed's every file, checkpoints included, the same bytes on 1, 2 and 3 threads"
# A restart at an odd step inside a pour (issue 69: a batch falls at the first step whose time
# reaches its own, wherever the run stops for its output): the checkpoint at step 4555 lies
# between the batches at 3031 and 6061; restarted on 2 threads, or with rows every 0.005 s (an
# output setting a restart may change: before, the next batch fell at the next row, 6080 in
# the whole run and 6200 in this one), the run ends in the same final.txt, and on 2 threads in
# the same thermo.csv too.
sed 's/output: {folder: out, final: final.txt}/output: {folder: out, final: final.txt, checkpoint_every: 0.01503}/' \
    "$SCENES/pour.yaml" > pour.yaml
sed 's/checkpoint_every: 0.01503}/checkpoint_every: 0.01503, thermo_every: 0.005}/' pour.yaml > pour_rows.yaml
"$RUBBLE" run pour.yaml --threads 1 --output P --quiet > /dev/null || fail "the pour failed"
[ "$(ls P/checkpoint_*.bin)" = P/checkpoint_000004555.bin ] || fail "not one checkpoint at step 4555: $(ls P)"
"$RUBBLE" run pour.yaml --threads 2 --output Q --restart P/checkpoint_000004555.bin --quiet > /dev/null ||
    fail "the pour's restart failed"
for f in final.txt thermo.csv; do
    cmp -s "P/$f" "Q/$f" || fail "$f differs after a restart at step 4555 inside the pour"
done
"$RUBBLE" run pour_rows.yaml --threads 1 --output R --restart P/checkpoint_000004555.bin --quiet > /dev/null ||
    fail "the pour's restart with other rows failed"
cmp -s P/final.txt R/final.txt || fail "final.txt differs after a restart at step 4555 with other thermo rows"
echo "ok: a restart at step 4555, inside the pour, ends in the same bits (2 threads; other thermo rows)"

# A batch system's SIGTERM (issue 70): the run stops at the end of the step it is seen in, with
# a checkpoint of that step in its folder (the scene asks for none), thermo.csv whole, a message
# naming both, and exit status 143; restarted from it, the run ends in the same final.txt and
# thermo.csv as a run never stopped. Ctrl-C (SIGINT) does the same with 130.
sed 's/output: {folder: out, every: 0.005}/output: {folder: out, every: 0.005, thermo_every: 0.001, final: final.txt}/' \
    "$SCENES/small.yaml" > stop.yaml
# stop_run DIR SIGNAL: a long run into DIR, sent SIGNAL once it has written its second frame
stop_run() {
    "$RUBBLE" run stop.yaml --steps 100000000 --output "$1" --quiet > "$1.out" 2> "$1.err" &
    job=$!
    for i in $(seq 1 1200); do [ -e "$1/grains_000001.vtp" ] && break; sleep 0.05; done
    kill -"$2" "$job"
    wait "$job"
}
stop_run S TERM
got=$?
[ "$got" -eq 143 ] || fail "SIGTERM: exit $got, not 143: $(cat S.err)"
ck=$(ls S/checkpoint_*.bin 2> /dev/null)
[ "$(echo "$ck" | wc -w)" -eq 1 ] || fail "SIGTERM: not one checkpoint: $(ls S)"
n=$(echo "$ck" | sed 's/.*checkpoint_0*\([0-9]*\)\.bin/\1/')
grep -q "stopped at step $n of 100000000 .* on signal 15: checkpoint $ck written.*--restart $ck" S.err \
    || fail "SIGTERM: message: $(cat S.err)"
# whole: its last row has the header's columns
tail -1 S/thermo.csv | grep -q '^[0-9.e-]*,[0-9]*,424,' &&
    awk -F, 'NR == 1 { n = NF } END { exit NF != n }' S/thermo.csv ||
    fail "SIGTERM: thermo.csv's last row: $(tail -1 S/thermo.csv)"
"$RUBBLE" run stop.yaml --restart "$ck" --steps $((n + 300)) --output T --quiet > /dev/null \
    || fail "the restart from SIGTERM's checkpoint failed"
"$RUBBLE" run stop.yaml --steps $((n + 300)) --output U --quiet > /dev/null || fail "the run to $((n + 300))"
for f in final.txt thermo.csv; do
    cmp -s "T/$f" "U/$f" || fail "$f differs after a restart from SIGTERM's checkpoint at step $n"
done
echo "ok: $(cat S.err)"
echo "ok: restarted, it ends at step $((n + 300)) in the bits of a run never stopped"
stop_run V INT
got=$?
[ "$got" -eq 130 ] && [ -e "$(ls V/checkpoint_*.bin)" ] && grep -q "on signal 2: checkpoint" V.err \
    || fail "SIGINT: exit $got: $(cat V.err)"
echo "ok: SIGINT: exit 130, $(ls V/checkpoint_*.bin)"
