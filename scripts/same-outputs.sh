#!/bin/sh
# same-outputs.sh — a refactoring changes no bit: every example run for its first STEPS steps
# by two builds of rubble gives the same bytes in every output file (frames, thermo.csv, final.txt,
# contacts, fields, checkpoints); an impulse scene's thermo.csv without its timing columns
# (named *_s). Used for issue 71's "same bits as today" (docs/testing.md).
# usage: [RBL_SAME_THREADS=2] scripts/same-outputs.sh OLD_RUBBLE NEW_RUBBLE [STEPS] [EXAMPLE.yaml ...]
# (both runs on RBL_SAME_THREADS threads, default 1)
set -u
old=$1 new=$2 steps=${3:-400} threads=${RBL_SAME_THREADS:-1}
shift 2; [ $# -gt 0 ] && shift
here=$(cd "$(dirname "$0")/.." && pwd)
[ $# -gt 0 ] || set -- "$here"/examples/*.yaml
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
for scene in "$@"; do
    name=$(basename "$scene" .yaml)
    for side in old new; do
        eval "bin=\$$side"
        (cd "$(dirname "$scene")" &&
            "$bin" run "$(basename "$scene")" --output "$work/$name.$side" --steps "$steps" \
                --threads "$threads" --quiet > "$work/$name.$side.txt" 2>&1)
        echo $? > "$work/$name.$side.rc"
    done
    if ! cmp -s "$work/$name.old.rc" "$work/$name.new.rc"; then
        echo "DIFFER $name: exit $(cat "$work/$name.old.rc") / $(cat "$work/$name.new.rc")"
        failures=$((failures + 1)); continue
    fi
    differ=""
    for f in "$work/$name.old"/*; do
        [ -f "$f" ] || continue
        b=$(basename "$f")
        case $b in
        thermo.csv) # the physics: the columns that are not timings (*_s)
            keep=$(head -1 "$f" | tr ',' '\n' | grep -vn '_s$' | cut -d: -f1 | paste -sd,)
            cut -d, -f"$keep" "$f" > "$work/a.csv"
            cut -d, -f"$keep" "$work/$name.new/$b" > "$work/b.csv"
            cmp -s "$work/a.csv" "$work/b.csv" || differ="$differ $b" ;;
        *) cmp -s "$f" "$work/$name.new/$b" || differ="$differ $b" ;;
        esac
    done
    if [ -n "$differ" ]; then
        echo "DIFFER $name:$differ"; failures=$((failures + 1))
    else
        echo "same   $name ($(ls "$work/$name.old" | wc -l) files, exit $(cat "$work/$name.old.rc"))"
    fi
done
exit $failures
