#!/bin/sh
# Checkpoint/restart through `rubble run`: a run restarted from its halfway checkpoint writes
# byte-identical frames, thermo.csv, .pvd and later checkpoints; a checkpoint of another
# scene and a corrupt file are refused with a message and exit status 1.
set -u
RUBBLE=$1
SCENES=$(cd "$(dirname "$0")/scenes" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
fail() { echo "FAIL: $*"; exit 1; }

sed 's/output: {folder: out, every: 0.005}/output: {folder: out, every: 0.005, checkpoint_every: 0.005}/' \
    "$SCENES/small.yaml" > ck.yaml
"$RUBBLE" run ck.yaml --output A --quiet > /dev/null || fail "the whole run failed"
first=$(ls A/checkpoint_*.bin | head -1)
last=$(ls A/checkpoint_*.bin | tail -1)
[ "$first" != "$last" ] || fail "expected at least two checkpoints"
"$RUBBLE" run ck.yaml --output B --restart "$first" --quiet > /dev/null || fail "restart failed"
for f in grains.pvd thermo.csv $(cd B && ls grains_*.vtp checkpoint_*.bin); do
    cmp -s "A/$f" "B/$f" || fail "$f differs after the restart"
done
echo "ok: restart from $first is byte-identical ($(ls B | wc -l) files)"

# another scene (one more grain source) refuses the checkpoint
sed 's/^run:/  - random: {min: [0, 0, 0.035], max: [0.02, 0.02, 0.045], count: 5}\n    radius: 0.001\nrun:/' \
    ck.yaml > other.yaml
"$RUBBLE" run other.yaml --output C --restart "$first" > out.txt 2> err.txt && fail "foreign checkpoint accepted"
grep -q "written for another scene" err.txt || fail "message: $(cat err.txt)"
echo "ok: $(cat err.txt)"
# a corrupt checkpoint
cp "$first" bad.bin
printf 'XXXX' | dd of=bad.bin bs=1 seek=500 conv=notrunc 2> /dev/null
"$RUBBLE" run ck.yaml --output D --restart bad.bin > out.txt 2> err.txt && fail "corrupt checkpoint accepted"
grep -q "checksum mismatch" err.txt || fail "message: $(cat err.txt)"
echo "ok: $(cat err.txt)"
