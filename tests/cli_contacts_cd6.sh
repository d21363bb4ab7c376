#!/bin/sh
# CD5 + CD6 through the program: the Demcda files of seed 000 Test 1, defaults in the current
# folder, every algorithm by name and by Demcda number; contacts.txt must equal the expected
# file byte for byte (12 pairs in 2D, 54 in 3D; i > j, i descending then j descending).
set -eu
RUBBLE=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

# 9 circles of diameter 1, numbered row by row (x fastest), comments and blank lines allowed
cat > bounds.txt <<'B'
# Test 1 of seed 000, 2D
2

0 0     # minima
2 2     # maxima
B
{ echo "9 0.5"; for y in 0 1 2; do for x in 0 1 2; do echo "$x $y"; done; done; } > elements.txt
printf '9 8\n9 6\n8 7\n8 5\n7 4\n6 5\n6 3\n5 4\n5 2\n4 1\n3 2\n2 1\n' > expected2.txt
for alg in 1 2 screening nbs direct sorting tree cgrid brute; do
    rm -f contacts.txt
    "$RUBBLE" contacts --algorithm "$alg" > out.txt
    cmp contacts.txt expected2.txt || { echo "2D $alg: contacts.txt differs"; diff contacts.txt expected2.txt; exit 1; }
    grep -q "^pairs: 12$" out.txt || { echo "2D $alg: stdout lacks 'pairs: 12'"; cat out.txt; exit 1; }
    grep -q "detection time" out.txt && grep -q "memory" out.txt
done

# 27 spheres, radius given per element this time (the 'N' alone form)
printf '3\n0 0 0\n2 2 2\n' > b3.txt
{ echo "27"; for z in 0 1 2; do for y in 0 1 2; do for x in 0 1 2; do echo "$x $y $z 0.5"; done; done; done; } > e3.txt
for alg in screening nbs direct sorting tree cgrid brute; do
    "$RUBBLE" contacts --algorithm "$alg" --bounds b3.txt --elements e3.txt --output c3.txt > out.txt
    [ "$(wc -l < c3.txt)" -eq 54 ] || { echo "3D $alg: $(wc -l < c3.txt) pairs, expected 54"; exit 1; }
    [ "$(head -6 c3.txt | tr '\n' ' ')" = "27 26 27 24 27 18 26 25 26 23 26 17 " ] || { echo "3D $alg: first six differ"; head -6 c3.txt; exit 1; }
    [ "$(tail -5 c3.txt | tr '\n' ' ')" = "5 4 5 2 4 1 3 2 2 1 " ] || { echo "3D $alg: last five differ"; tail -5 c3.txt; exit 1; }
    [ "$(sort -u c3.txt | wc -l)" -eq 54 ] || { echo "3D $alg: duplicate pairs"; exit 1; }
done
ls | grep -q '\.tmp\.' && { echo "temporary files left behind"; ls; exit 1; }
echo "cli CD6: ok"
