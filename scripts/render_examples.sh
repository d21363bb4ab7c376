#!/bin/sh
# Every example run to its end and its last frame drawn by ParaView (`make renders`): each
# examples/NAME.yaml runs in build/renders/NAME, scripts/render_frame.py draws it into
# docs/examples/NAME.png, and docs/examples.md shows each picture under the scene's own
# opening comment, with what is coloured and how long the run took.
# Usage: scripts/render_examples.sh RUBBLE [NAME ...]   (default: every example)
# Needs pvpython (Debian's python3-paraview) and xvfb-run (xvfb), as scripts/install-deps.sh
# bench installs them.
set -eu
RUBBLE=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
shift
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$ROOT/build/renders
DOCS=$ROOT/docs/examples
mkdir -p "$WORK" "$DOCS"
command -v pvpython > /dev/null && command -v xvfb-run > /dev/null || {
    echo "render_examples.sh: needs pvpython and xvfb-run (scripts/install-deps.sh bench)" >&2
    exit 1
}
names=${*:-$(cd "$ROOT/examples" && ls *.yaml | sed 's/\.yaml$//')}

# NAME -> "COLOUR WALL_COLOUR VIEW" (scripts/render_frame.py) and what the colour shows
style() {
    case $1 in
        asteroid) echo "speed - oblique" ;;
        clumps) echo "clump - oblique" ;;
        cohesive) echo "height - side" ;;
        drop) echo "- - side" ;;
        drum) echo "speed - side" ;;
        ellipsoids|perturbed) echo "height - oblique" ;;
        hopper) echo "speed - side" ;;
        hopper_wear) echo "speed wear oblique" ;;
        press) echo "stress - side" ;;
        staged) echo "radius - oblique" ;;
        *) echo "height - oblique" ;;
    esac
}
meaning() {
    case $1 in
        speed) echo "speed |v|" ;;
        height) echo "height z" ;;
        clump) echo "whether a grain is a clump's sphere (1) or a sphere of its own (0)" ;;
        stress) echo "the norm of each grain's stress tensor (its contacts' Σ f ⊗ l over its volume)" ;;
        -) echo "none" ;;
        radius) echo "radius" ;;
        *) echo "$1" ;;
    esac
}

for name in $names; do
    scene=$ROOT/examples/$name.yaml
    [ -f "$scene" ] || { echo "no example $scene" >&2; exit 1; }
    echo "== $name"
    rm -rf "$WORK/$name"
    # the scene reads its files (STL, clumps) beside it: run it where it lies
    start=$(date +%s)
    (cd "$ROOT/examples" && "$RUBBLE" run "$name.yaml" --output "$WORK/$name" --quiet) \
        > "$WORK/$name.txt" 2>&1 || { tail -5 "$WORK/$name.txt" >&2; exit 1; }
    seconds=$(( $(date +%s) - start ))
    set -- $(style "$name")
    xvfb-run -a pvpython "$ROOT/scripts/render_frame.py" "$WORK/$name" "$DOCS/$name.png" \
        "$1" "$2" "$3" > "$WORK/$name.render.txt" 2>&1 ||
        { tail -5 "$WORK/$name.render.txt" >&2; exit 1; }
    if [ "$name" = ellipsoids ]; then # the recipe draws each object at its size
        xvfb-run -a pvpython "$ROOT/scripts/check_glyph_size.py" "$WORK/$name" ||
            { echo "render_examples.sh: the ellipsoids are not drawn at their size" >&2; exit 1; }
    fi
    walls=""
    [ "$2" != - ] && walls="; walls coloured by $2"
    echo "$name $seconds $(meaning "$1")$walls" >> "$WORK/made.txt.new"
done

# the page: every example drawn so far (this run's rows replace older ones)
touch "$WORK/made.txt"
awk 'NR == FNR { row[$1] = $0; next } { if (!($1 in row)) row[$1] = $0 }
     END { for (k in row) print row[k] }' "$WORK/made.txt.new" "$WORK/made.txt" |
    sort > "$WORK/made.txt.tmp"
mv "$WORK/made.txt.tmp" "$WORK/made.txt"
rm -f "$WORK/made.txt.new"
{
    echo "# The examples, drawn"
    echo
    echo "Each scene of \`examples/\` run to its end and its last frame drawn by ParaView, made by"
    echo "\`make renders\` (scripts/render_examples.sh, scripts/render_frame.py: grains as spheres of"
    echo "their radius, impulse objects as their ellipsoids, walls translucent with their outlines)."
    echo "Above each picture, the scene's own opening comment: what it should show."
    while read -r name seconds what; do
        echo
        echo "## $name"
        echo
        sed -n '/^#/!q; s/^# \{0,1\}/> /p' "$ROOT/examples/$name.yaml"
        echo
        echo "![$name](examples/$name.png)"
        echo
        echo "Colour: $what. The run took $seconds s on this machine ($(nproc) cores)."
    done < "$WORK/made.txt"
} > "$ROOT/docs/examples.md"
echo "docs/examples.md, docs/examples/*.png"
