#!/bin/sh
# Walls moved by a table file (issue 73, docs/scenes.md `table`), through the CLI:
# - a two-row table of a constant velocity gives the bytes `velocity:` gives (thermo.csv,
#   final.txt): its rows' slope is the velocity itself;
# - a stage that switches a resting wall to a table: a restart inside the stage, at an odd step
#   mid-table, ends in the same bits; the same switch by --change-physics from a checkpoint at
#   the stage's first step gives the staged run's bits (thermo's `stage` column aside);
# - bad tables refused by file, line and value: time not after the row before, a value not a
#   number, a row short of the header's columns, one row, an unknown or repeated column, a
#   group in part, a quaternion not unit, a turn of 179 degrees between rows, a missing file,
#   a table beside another motion;
# - a checkpoint of format 22 (tests/scenes/format22, before the tables) restarts.
# usage: cli_wall_table.sh RUBBLE
. "$(dirname "$0")/cli_run_common.sh"

cat > base.yaml <<'EOF'
domain: {min: [0, 0, 0], max: [0.03, 0.015, 0.06], periodic: [y]}
gravity: [0, 0, -9.81]
materials:
  - {name: glass, density: 2500}
contact: {normal: linear, tangential: spring, kn: 2000, restitution: 0.5, friction: 0.5}
walls:
  - {name: floor, point: [0, 0, 0], normal: [0, 0, 1]}
  - {name: left, point: [0, 0, 0], normal: [1, 0, 0]}
  - {name: pusher, point: [0.03, 0, 0], normal: [-1, 0, 0]}
grains:
  - {lattice: {min: [0.002, 0, 0.002], max: [0.026, 0.015, 0.012], count: 60}, radius: 0.001}
run: {dt: 2e-5, time: 0.05}
output: {folder: out, every: 0.01, thermo_every: 0.001, checkpoint_every: 0.0131, final: final.txt}
EOF
# 0.25 m/s along -x for 0.05 s: 12.5 mm, into the bed
printf 't x y z\n0 0 0 0\n0.05 -0.0125 0 0\n' > slope.txt
sed 's/normal: \[-1, 0, 0\]}/normal: [-1, 0, 0], velocity: [-0.25, 0, 0]}/' base.yaml > velocity.yaml
sed 's/normal: \[-1, 0, 0\]}/normal: [-1, 0, 0], table: slope.txt}/' base.yaml > tabled.yaml
"$RUBBLE" run velocity.yaml --output v --threads 1 --quiet > /dev/null 2> err.txt &&
    "$RUBBLE" run tabled.yaml --output t --threads 1 --quiet > /dev/null 2>> err.txt ||
    { echo "FAIL [slope]: $(cat err.txt)"; exit 1; }
push=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
                { f = $c["wall3_fx"]; if (f > m) m = f } END { print m + 0 }' t/thermo.csv)
if cmp -s v/thermo.csv t/thermo.csv && cmp -s v/final.txt t/final.txt &&
   awk -v p="$push" 'BEGIN { exit !(p > 0) }'; then
    echo "ok: a two-row table of a constant velocity: the bytes of 'velocity' (the grains push it by up to $push N)"
else
    echo "FAIL [slope]: the table and 'velocity' differ (push $push N)"; failures=$((failures+1))
fi

# a stage switches the pusher to a table (in, back, in again, leaning about y through its foot)
cat > lean.txt <<'EOF'
# t (s), the displacement (m), the orientation (a unit quaternion)
t, x, y, z, qw, qx, qy, qz
0,      0,      0, 0, 1,        0, 0,         0
0.0073, -0.010, 0, 0, 0.999950, 0, 0.0099998, 0
0.0151, -0.008, 0, 0, 0.999988, 0, -0.004999, 0
0.03,   -0.016, 0, 0, 1,        0, 0,         0
EOF
sed -e 's/^output: .*/output: {folder: out, every: 0.01, thermo_every: 0.001, checkpoint_every: 0.0131, final: final.txt}\nstages:\n  - {name: settle, time: 0.01}\n  - {name: push, time: 0.04, walls: [{name: pusher, table: {file: lean.txt, pivot: [0.03, 0, 0]}}]}/' \
    -e 's/, time: 0.05}/}/' base.yaml > staged.yaml
"$RUBBLE" run staged.yaml --output s --threads 1 --quiet > notes.txt 2>&1 ||
    { echo "FAIL [staged]: $(cat notes.txt)"; exit 1; }
S=$(sed -n "s/.*stage 2 of 2 ('push') from step \([0-9]*\),.*/\1/p" notes.txt)
ck=$(ls s/checkpoint_*.bin | sed -n 2p) # 0.0262 s: mid-table, inside the stage
"$RUBBLE" run staged.yaml --output r --restart "$ck" --threads 1 --quiet > /dev/null 2> err.txt ||
    { echo "FAIL [restart]: $(cat err.txt)"; exit 1; }
push=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
                { f = $c["wall3_fx"]; if (f > m) m = f } END { print m + 0 }' s/thermo.csv)
if cmp -s s/final.txt r/final.txt && [ -n "$S" ] && awk -v p="$push" 'BEGIN { exit !(p > 0) }'; then
    echo "ok: a stage switched the pusher to a table at step $S (the grains push it by up to $push N); restarted from $(basename "$ck"), mid-table: the same final.txt"
else
    echo "FAIL [restart]: final.txt differs after a restart from $ck"; failures=$((failures+1))
fi
# --change-physics from a checkpoint at step S of the scene without stages
T=$(awk -F, -v s="$S" '$2 == s { print $1 }' s/thermo.csv)
sed -e '/^stages:/,$d' -e "s/time: 0.05}/steps: $S}/" -e "s/checkpoint_every: 0.0131/checkpoint_every: $T/" \
    base.yaml > settle.yaml
E=$(tail -n 1 s/thermo.csv | cut -d, -f2)
sed -e "s/steps: $S}/steps: $E}/" \
    -e 's/normal: \[-1, 0, 0\]}/normal: [-1, 0, 0], table: {file: lean.txt, pivot: [0.03, 0, 0]}}/' \
    settle.yaml > changed.yaml
if "$RUBBLE" run settle.yaml --output c0 --threads 1 --quiet > /dev/null 2> err.txt &&
   "$RUBBLE" run changed.yaml --output c --restart "c0/checkpoint_$(printf %09d "$S").bin" \
       --change-physics --threads 1 --quiet > /dev/null 2>> err.txt; then
    rows_after s c "$S"
    if [ -s a.csv ] && cmp -s a.csv b.csv && cmp -s s/final.txt c/final.txt; then
        echo "ok: the same switch by --change-physics at step $S: the same bits ($(wc -l < a.csv) rows)"
    else
        echo "FAIL [change-physics]: the staged and the changed run differ"
        diff a.csv b.csv | head -n 4 | cut -c 1-160; failures=$((failures+1))
    fi
else
    echo "FAIL [change-physics]: $(cat err.txt)"; failures=$((failures+1))
fi

# a checkpoint of format 22 (before the tables) restarts in the uninterrupted run's bits
cp "$SCENES/format22/scene.yaml" old.yaml
if "$RUBBLE" run old.yaml --output o23 --threads 1 --quiet > /dev/null 2> err.txt &&
   "$RUBBLE" run old.yaml --output o22 --threads 1 --quiet \
       --restart "$SCENES/format22/checkpoint_000000250.bin" > /dev/null 2>> err.txt &&
   cmp -s o23/final.txt o22/final.txt; then
    echo "ok: a checkpoint of format 22 restarts in the uninterrupted run's bits"
else
    echo "FAIL [format 22]: $(cat err.txt)"; failures=$((failures+1))
fi

# refusals: each table beside a scene that reads it
bad() { # NAME PATTERN, the table's text on stdin
    cat > "$1.txt"
    sed "s/normal: \[-1, 0, 0\]}/normal: [-1, 0, 0], table: $1.txt}/" base.yaml > "$1.yaml"
    expect "$1" "$2"
}
printf 't x y z\n0 0 0 0\n0.02 -0.001 0 0\n0.01 -0.002 0 0\n' |
    bad back_in_time "back_in_time.txt:4: motion table row 3: its time '0.01.*' s must come after"
printf 't x y z\n0 0 0 0\n0.02 nan 0 0\n' | bad not_number "not_number.txt:3: x 'nan' is not a finite number"
printf 't x y z\n0 0 0 0\n0.02 -0.001 0\n' | bad short_row "short_row.txt:3: 3 values where the header names 4"
printf '# one row\nt x y z\n0 0 0 0\n' | bad one_row "one_row.txt: 1 row: a table needs at least 2"
printf 't x y w\n0 0 0 0\n' | bad unknown_column "unknown_column.txt:1: unknown column 'w'"
printf '0 0 0 0\n1 0 0 0\n' | bad no_header "no_header.txt:1: unknown column '0'"
printf 't x x z\n' | bad twice "twice.txt:1: column 'x' named twice"
printf 't x y\n' | bad in_part "in_part.txt:1: the header has 'x y z' in part"
printf 't qw qx qy qz\n0 1 0 0 0\n0.01 0.9 0 0 0\n' |
    bad not_unit "not_unit.txt:3: motion table row 2: its orientation (0.9, 0, 0, 0) is not a unit"
printf 't rx ry rz\n0 0 0 0\n0.01 0 3.13 0\n' |
    bad half_turn "half_turn.txt:3: motion table row 2: the wall turns 179.3 degrees"
printf 't x y z\n0 0 0 0\n1e-9 -1 0 0\n' | bad too_fast "too_fast.yaml:9:.*a wall's table moving it at 1e+09 m/s"
sed 's/normal: \[-1, 0, 0\]}/normal: [-1, 0, 0], table: nowhere.txt}/' base.yaml > missing.yaml
expect missing "missing.yaml:9:[0-9]*: nowhere.txt: cannot open"
sed 's/normal: \[-1, 0, 0\]}/normal: [-1, 0, 0], velocity: [-0.1, 0, 0], table: slope.txt}/' \
    base.yaml > with_velocity.yaml
expect with_velocity "with_velocity.yaml:9:[0-9]*: a 'table' is the wall's whole motion: leave out 'velocity'"

[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "cli_wall_table: all passed"
