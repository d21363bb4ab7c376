#!/bin/sh
# The main job of `make run` (for now): generate a million spheres touching on a cubic
# lattice, numbered in random order, and find all their contacts with Munjiza-NBS.
set -eu
RUBBLE=$1
DIR=$2
mkdir -p "$DIR"
cd "$DIR"
"$RUBBLE" generate --dim 3 --n 1000000 --packing lattice --radius 0.5 --shuffle
"$RUBBLE" contacts --algorithm nbs
echo "files: $(pwd)/bounds.txt $(pwd)/elements.txt -> $(pwd)/contacts.txt"
