#!/bin/bash
# test-cpu.sh — each ctest test of a build run alone, one after the other, with the CPU seconds
# (user + system, its children's included) it took: what to trim when `make test` passes its
# 20 minutes. CPU time barely moves with the machine's load, where ctest's wall times do (a
# shared 2-core machine: 3-4x). Prints "cpu user system wall name" sorted, costliest first.
#   scripts/test-cpu.sh BUILD [VAR=value ...]   (e.g. build-san ASAN_OPTIONS=detect_leaks=1)
# TESTS=REGEX runs only the tests whose names it matches.
# For the Python tests one by one: pytest --durations gives their wall times.
set -eu
build=$(cd "$1" && pwd); shift
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cd "$build"
for t in $(ctest -N -R "${TESTS:-.}" | sed -n 's/^ *Test *#[0-9]*: //p'); do
    status=ok
    env "$@" /usr/bin/time -o "$out/time" -f "%U %S %e" ctest -R "^$t\$" > "$out/log" 2>&1 ||
        status=FAILED
    read -r user sys wall < <(tail -n 1 "$out/time")
    awk -v u="$user" -v s="$sys" -v w="$wall" -v n="$t" -v st="$status" \
        'BEGIN { printf "%.2f %s %s %s %s%s\n", u + s, u, s, w, n, st == "ok" ? "" : " FAILED" }'
done | sort -rn
