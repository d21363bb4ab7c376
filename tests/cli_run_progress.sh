#!/bin/sh
# Progress of `rubble run` where no terminal shows it (issue 43): with stderr a file, as in a
# batch job's log, a whole line every --progress-every seconds (step, percent, simulated time,
# steps/s, ETA); none with --quiet, none for a run shorter than the interval; the report on
# stdout is the same either way. A bad interval is refused before anything runs.
. "$(dirname "$0")/cli_run_common.sh"
fail() { echo "FAIL: $*"; exit 1; }
# over a second of stepping: 60000 steps in the release build, 6000 under ASan (at -O1)
STEPS=60000
[ -n "${RBL_TEST_SLOW_BUILD:-}" ] && STEPS=6000
"$RUBBLE" run "$SCENES/small.yaml" --steps $STEPS --threads 1 --output a --progress-every 0.2 \
    > a.txt 2> a.err || fail "the run failed"
lines=$(grep -c "^rubble run: step [0-9]* of $STEPS ([0-9.]*%), t = [0-9.e+-]* s, [0-9]* particles, [0-9]* steps/s, [0-9.]* s so far, ETA [0-9]*:[0-9][0-9]:[0-9][0-9]\$" a.err)
[ "$lines" -ge 2 ] || { cat a.err; fail "expected progress lines every 0.2 s, got $lines"; }
[ "$lines" -eq "$(wc -l < a.err)" ] || { cat a.err; fail "stderr holds more than progress lines"; }
grep -q "step $STEPS of $STEPS (100.0%)" a.err || { cat a.err; fail "no line at the end"; }
if grep -q "$(printf '\r')" a.err; then fail "a carriage return in a log file"; fi
"$RUBBLE" run "$SCENES/small.yaml" --steps $STEPS --threads 1 --output b --progress-every 0.2 \
    --quiet > b.txt 2> b.err || fail "the quiet run failed"
[ ! -s b.err ] || { cat b.err; fail "--quiet wrote to stderr"; }
"$RUBBLE" run "$SCENES/small.yaml" --steps 300 --output c > c.txt 2> c.err || fail "short run"
[ ! -s c.err ] || { cat c.err; fail "a run shorter than 30 s wrote progress"; }
cmp a/thermo.csv b/thermo.csv || fail "progress changed the results"
for bad in 0 -1 nan x; do
    "$RUBBLE" run "$SCENES/small.yaml" --progress-every "$bad" --output d > d.txt 2> d.err
    [ $? -eq 2 ] && grep -q "progress-every: not a number of seconds > 0: '$bad'" d.err \
        || { cat d.err; fail "--progress-every $bad not refused"; }
    [ ! -e d ] || fail "--progress-every $bad made an output folder"
done
echo "ok: $lines progress lines off a terminal, none with --quiet or for a short run; bad intervals refused"
