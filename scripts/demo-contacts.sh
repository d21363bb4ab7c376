#!/bin/sh
# The main job of `make run` (for now): generate a million spheres touching on a cubic
# lattice, numbered in random order, and find all their contacts with Munjiza-NBS.
# Usage: demo-contacts.sh RUBBLE DIR [N]   (the test suite runs it with a small N)
set -eu
RUBBLE=$1
DIR=$2
N=${3:-1000000}
mkdir -p "$DIR"
cd "$DIR"
"$RUBBLE" generate --dim 3 --n "$N" --packing lattice --radius 0.5 --shuffle
"$RUBBLE" contacts --algorithm nbs
echo "files: $(pwd)/bounds.txt $(pwd)/elements.txt -> $(pwd)/contacts.txt"
[ -s contacts.txt ] || { echo "demo: no contacts.txt written" >&2; exit 1; }
