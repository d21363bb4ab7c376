#!/bin/sh
# Run every libFuzzer harness of tests/fuzz for SECONDS each, from its seeds (tests/fuzz/seeds/
# and tests/fuzz/regressions/ of this tree, plus scenes, Demcda sets and checkpoints made here)
# and the corpus it grew before (FUZZ_DIR/corpus). Fails on any crash, sanitizer report, leak,
# timeout (10 s an input) or allocation beyond 1 GiB (2 GiB resident); the input that did it is
# left in FUZZ_DIR/artifacts. With --report FILE, writes the executions per target there.
#   tests/fuzz/run.sh FUZZ_BUILD RUBBLE SECONDS [--report docs/fuzz.md]
# FUZZ_TARGETS="stl volume" runs only those; FUZZ_RUNS=N stops each after N executions (or
# SECONDS, whichever comes first).
set -eu
BUILD=$(cd "$1" && pwd); RUBBLE=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); SECONDS_EACH=$3; REPORT=${5:-}
[ "${4:-}" = "--report" ] || REPORT=""
HERE=$(cd "$(dirname "$0")" && pwd); ROOT=$(cd "$HERE/../.." && pwd)
TARGETS=${FUZZ_TARGETS:-demcda scene scene_mesh scene_clump scene_bond_file scene_motion_table stl volume clump_file grains checkpoint impulse_checkpoint cg_files contact_bin}
RUNS=${FUZZ_RUNS:+-runs=$FUZZ_RUNS}
work="$BUILD/fuzz-work"; mkdir -p "$work/artifacts"
gen="$work/generated"; rm -rf "$gen"; mkdir -p "$gen"

# seeds made by rubble itself: scenes of the tree, Demcda sets, checkpoints of the fixed scene
mkdir -p "$gen/scene" "$gen/demcda" "$gen/checkpoint" "$gen/impulse_checkpoint" "$gen/scene_mesh" \
    "$gen/scene_clump"
# (each folder's scenes under their own prefix: examples/pour.yaml and tests/scenes/pour.yaml
# are two seeds)
for f in "$ROOT"/examples/*.yaml; do cp "$f" "$gen/scene/example_${f##*/}"; done
for f in "$ROOT"/tests/scenes/*.yaml; do cp "$f" "$gen/scene/test_${f##*/}"; done
for f in "$HERE"/*.yaml; do cp "$f" "$gen/scene/fuzz_${f##*/}"; done
cp "$ROOT"/examples/*.stl "$ROOT"/tests/scenes/health/*.stl "$HERE"/seeds/stl/* "$gen/scene_mesh/"
cp "$HERE"/seeds/clump_file/* "$gen/scene_clump/"
cp "$ROOT"/examples/clumps/ellipsoid.txt "$gen/scene_clump/example_ellipsoid.txt"
for spec in "2 200 random" "3 300 clustered" "3 125 lattice"; do
    set -- $spec
    "$RUBBLE" generate --dim "$1" --n "$2" --packing "$3" --radius-ratio 3 \
        --bounds "$gen/b.txt" --elements "$gen/e.txt" > /dev/null
    { cat "$gen/b.txt"; printf '\000'; cat "$gen/e.txt"; } > "$gen/demcda/$1d_$3.txt"
done
# checkpoints of each scene of fuzz_checkpoint (the order of FUZZ_SCENES in CMakeLists.txt),
# each file's last byte (the checksum's, which the harness recomputes) set to its scene's place
k=0
for name in checkpoint checkpoint_mesh checkpoint_open checkpoint_jkr checkpoint_clump \
    checkpoint_staged; do
    (cd "$gen" && "$RUBBLE" run "$HERE/${name}_scene.yaml" --output "ck_$name" --threads 1 \
        --quiet > /dev/null)
    for f in "$gen/ck_$name"/checkpoint_*.bin; do
        to="$gen/checkpoint/${name}_$(basename "$f")"
        head -c $(($(wc -c < "$f") - 1)) "$f" > "$to"
        printf "\\$(printf %03o $k)" >> "$to"
    done
    k=$((k + 1))
done
(cd "$gen" && "$RUBBLE" run "$HERE/impulse_checkpoint_scene.yaml" --output ick --threads 1 \
    --quiet > /dev/null)
for f in "$gen"/ick/checkpoint_*.bin; do
    to="$gen/impulse_checkpoint/$(basename "$f")"
    head -c $(($(wc -c < "$f") - 1)) "$f" > "$to"
    printf '\000' >> "$to"
done

# frames and contact files of fuzz_cg_files' scene: the frame's length (4 bytes, little
# endian), the contact file's kind (1: .csv, 0: .vtp), the frame, the contact file
mkdir -p "$gen/cg_files"
(cd "$gen" && "$RUBBLE" run "$HERE/cg_files_scene.yaml" --output cgf --threads 1 --quiet > /dev/null)
byte() { printf "\\$(printf %03o "$1")"; }
for f in "$gen"/cgf/grains_*.vtp; do
    k=$(basename "$f" .vtp | sed 's/grains_//'); n=$(wc -c < "$f")
    for kind in 0 1; do
        ext=vtp; [ "$kind" -eq 1 ] && ext=csv
        { byte $((n & 255)); byte $((n >> 8 & 255)); byte $((n >> 16 & 255)); byte $((n >> 24 & 255))
          byte "$kind"; cat "$f" "$gen/cgf/contacts_$k.$ext"; } > "$gen/cg_files/${k}_$ext"
    done
done
# the same run's binary contact tables (fuzz_contact_bin; seeds/contact_bin holds one with a
# study's columns and an empty one)
mkdir -p "$gen/contact_bin"
cp "$gen"/cgf/contacts_*.bin "$gen/contact_bin/"

[ -z "$REPORT" ] || { printf '| target | seconds | executions | executions/s | corpus | result |\n|---|---|---|---|---|---|\n' > "$work/table.md"; }
failed=0
for t in $TARGETS; do
    corpus="$work/corpus/$t"; mkdir -p "$corpus"
    seeds=""
    for d in "$HERE/seeds/$t" "$HERE/regressions/$t" "$gen/$t"; do
        [ -d "$d" ] && seeds="$seeds $d"
    done
    log="$work/$t.log"
    # one OpenMP thread: fuzz_stl ran its corpus in 8.6 s instead of 14.8 s on two (waking
    # threads for every small parallel region), and a second campaign has the other core
    if OMP_NUM_THREADS=1 OMP_WAIT_POLICY=passive \
       ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 \
       LSAN_OPTIONS=suppressions="$HERE/lsan.supp" \
       UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
       "$BUILD/tests/fuzz/fuzz_$t" -max_total_time="$SECONDS_EACH" $RUNS -timeout=10 \
       -rss_limit_mb=2048 -malloc_limit_mb=1024 -print_final_stats=1 \
       -artifact_prefix="$work/artifacts/$t-" "$corpus" $seeds > "$log" 2>&1; then
        result=clean
    else
        result=FAILED; failed=$((failed + 1))
        echo "fuzz_$t FAILED: the input is in $work/artifacts; the end of $log:"
        grep -E "ERROR|runtime error|SUMMARY|Test unit written|abort|==[0-9]+==" "$log" | head -20
    fi
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    files=$(ls "$corpus" | wc -l)
    echo "fuzz_$t: ${execs:-0} executions in ${SECONDS_EACH} s (${rate:-0}/s), corpus $files: $result"
    [ -z "$REPORT" ] || echo "| \`fuzz_$t\` | $SECONDS_EACH | ${execs:-0} | ${rate:-0} | $files | $result |" >> "$work/table.md"
done
if [ -n "$REPORT" ]; then
    {
        sed -n '1,/<!-- table -->/p' "$REPORT"
        echo "Run of $(date -u +%Y-%m-%d), \`make fuzz FUZZ_SECONDS=$SECONDS_EACH\` on $(nproc) cores:"
        echo
        cat "$work/table.md"
        echo
        sed -n '/<!-- end of table -->/,$p' "$REPORT"
    } > "$work/report.md"
    mv "$work/report.md" "$REPORT"
fi
[ "$failed" -eq 0 ] || { echo "$failed fuzz target(s) failed"; exit 1; }
echo "fuzz: all $(echo $TARGETS | wc -w) targets clean"
