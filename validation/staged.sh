#!/bin/sh
# A staged study (issue 44, docs/scenes.md "Stages"): examples/staged.yaml run whole, and again
# from a checkpoint inside each of its stages; each restart must end in the same thermo row,
# byte for byte. The lid's servo stage must hold its pressure times the lid's area. Plots the
# lid's force and travel, the grains and the stage of each thermo row.
# Writes docs/validation/staged.md and staged.png.
# Usage: validation/staged.sh RUBBLE
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/validation/common.sh"
validation_workspace "$@"

"$RUBBLE" run "$ROOT/examples/staged.yaml" --quiet --output whole > whole.log
last=$(tail -n 1 whole/thermo.csv)
restarts=""
for stage in 1 2 3 4; do
    # the last checkpoint whose thermo rows end in this stage
    ck=""
    for f in whole/checkpoint_*.bin; do
        step=$(basename "$f" .bin | sed 's/checkpoint_0*//')
        row=$(awk -F, -v s="$step" 'NR > 1 && $2 + 0 <= s + 0 { st = $NF } END { print st }' \
            whole/thermo.csv)
        [ "$row" = "$stage" ] && ck=$f
    done
    [ -n "$ck" ] || continue
    "$RUBBLE" run "$ROOT/examples/staged.yaml" --quiet --output "again$stage" --restart "$ck" \
        > /dev/null
    same=no
    [ "$(tail -n 1 "again$stage/thermo.csv")" = "$last" ] && same=yes
    restarts="$restarts| $stage | $(basename "$ck") | $same |
"
done
/usr/bin/python3 - "$DOCS" whole/thermo.csv > figures.txt <<'PY'
import csv, sys
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
docs, path = sys.argv[1], sys.argv[2]
rows = list(csv.DictReader(open(path)))
t = [float(r["time"]) for r in rows]
stage = [int(r["stage"]) for r in rows]
fz = [float(r["wall6_fz"]) for r in rows]
dz = [1000 * float(r["wall6_dz"]) for r in rows]
n = [int(r["grains"]) for r in rows]
fig, ax = plt.subplots(3, 1, sharex=True, figsize=(7, 6.5))
ax[0].plot(t, fz, "C0"); ax[0].axhline(500 * 0.06 * 0.06, color="k", ls=":", lw=0.8)
ax[0].set_ylabel("lid force (N)")
ax[1].plot(t, dz, "C1"); ax[1].set_ylabel("lid travel (mm)")
ax[2].plot(t, n, "C2"); ax[2].set_ylabel("grains"); ax[2].set_xlabel("t (s)")
starts = [t[k] for k in range(len(t)) if k == 0 or stage[k] != stage[k - 1]]
names = ["settle", "tilt", "pour", "press"]
for a in ax:
    for k, s in enumerate(starts):
        a.axvline(s, color="grey", lw=0.6)
for k, s in enumerate(starts):
    ax[0].text(s + 0.01, max(fz) * 0.9, names[k], fontsize=8)
fig.suptitle("examples/staged.yaml: a stage per change (dotted: 500 Pa x lid area)")
fig.tight_layout()
fig.savefig(docs + "/staged.png", dpi=110)
tail = [f for tt, f in zip(t, fz) if tt >= t[-1] - 0.3]
print("%.7f %.2g %d" % (sum(tail) / len(tail), max(abs(f - 1.8) for f in tail), n[-1]))
PY
read mean spread grains < figures.txt
{
    echo "# A staged study (examples/staged.yaml)"
    echo
    echo "Made by \`validation/staged.sh\` (\`make validate\`). Four stages in one scene: 300 beads"
    echo "settle, gravity turns 30° with friction 0.5 -> 0.3, 150 beads are poured on, the lid"
    echo "comes down as a servo holding 500 Pa (1.8 N on the 6 cm square)."
    echo
    echo "- Lid force over the last 0.3 s: mean $mean N, largest departure from 1.8 N $spread N."
    echo "- Grains at the end: $grains (300 + 150 poured, none lost)."
    echo
    echo "Restarts from the last checkpoint inside each stage, against the whole run's last"
    echo "thermo row:"
    echo
    echo "| stage | checkpoint | last row byte for byte |"
    echo "|---|---|---|"
    printf "%s" "$restarts"
    echo
    echo "![lid force, travel and grains by stage](staged.png)"
} > "$DOCS/staged.md"
cat "$DOCS/staged.md"
