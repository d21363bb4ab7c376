#!/bin/sh
# CD5 bad input: every malformed input gets a message naming the file, line and value, exit
# status 1 (2 for a bad command line), and no contacts.txt (an old one is left untouched).
set -u
RUBBLE=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
failures=0

good_bounds() { printf '3\n0 0 0\n10 10 10\n' > bounds.txt; }
good_elements() { printf '2 0.5\n1 1 1\n2 1 1\n' > elements.txt; }

# expect STATUS PATTERN [rubble args...]: run, check status, stderr text, untouched output
expect() {
    status=$1; pattern=$2; shift 2
    echo "previous run" > contacts.txt
    "$RUBBLE" contacts "$@" > out.txt 2> err.txt
    got=$?
    if [ "$got" -ne "$status" ]; then
        echo "FAIL [$pattern]: exit $got, expected $status"; cat err.txt; failures=$((failures+1)); return
    fi
    if ! grep -q -- "$pattern" err.txt; then
        echo "FAIL: stderr lacks '$pattern':"; cat err.txt; failures=$((failures+1)); return
    fi
    if [ "$(cat contacts.txt)" != "previous run" ]; then
        echo "FAIL [$pattern]: contacts.txt was modified"; failures=$((failures+1)); return
    fi
    if ls | grep -q '\.tmp\.'; then
        echo "FAIL [$pattern]: temporary file left behind"; failures=$((failures+1)); return
    fi
    echo "ok: $(cat err.txt)"
}

good_bounds; good_elements
"$RUBBLE" contacts > out.txt || { echo "FAIL: good input refused"; exit 1; }
[ "$(cat contacts.txt)" = "2 1" ] || { echo "FAIL: good input gave '$(cat contacts.txt)'"; exit 1; }

expect 1 "missing.txt: cannot open" --elements missing.txt
expect 1 "nobounds.txt: cannot open" --bounds nobounds.txt
mkdir adir
expect 1 "adir:" --elements adir
printf '4\n0 0 0\n1 1 1\n' > bounds.txt
expect 1 "bounds.txt:1: dimension must be 2 or 3, got 4"
printf 'three\n' > bounds.txt
expect 1 "bounds.txt:1: dimension 'three' is not a whole number"
printf '3\n0 0\n1 1 1\n' > bounds.txt
expect 1 "bounds.txt:2: expected 3 minimum values"
printf '3\n0 0 0\n10 0 10\n' > bounds.txt
expect 1 "bounds.txt:3: maximum of y (0) must be greater than its minimum (0)"
printf '3\n0 0 0\n10 nan 10\n' > bounds.txt
expect 1 "bounds.txt:3: maximum of y 'nan' is not a finite number"
printf '3\n0 0 0\n' > bounds.txt
expect 1 "bounds.txt: ends after line 2"
good_bounds
printf '3 0.5\n1 1 1\n2 1 1\n' > elements.txt
expect 1 "announces 3 elements but the file ends after 2"
printf '1 0.5\n1 1 1\n2 1 1\n' > elements.txt
expect 1 "elements.txt:3: more elements than the 1 announced"
printf '2 0.5\n1 1 1\n2 x 1\n' > elements.txt
expect 1 "elements.txt:3: element 2: y 'x' is not a number"
printf '2 0.5\n1 1 1\n2 1 NaN\n' > elements.txt
expect 1 "elements.txt:3: element 2: z 'NaN' is not a finite number"
printf '2 0.5\n1 inf 1\n2 1 1\n' > elements.txt
expect 1 "elements.txt:2: element 1: y 'inf' is not a finite number"
printf '2 0.5\n1 1 1\n2 1e999 1\n' > elements.txt
expect 1 "elements.txt:3: element 2: y '1e999' is not a finite number"
printf '2 0\n1 1 1\n2 1 1\n' > elements.txt
expect 1 "elements.txt:1: radius R = 0 must be > 0"
printf '2\n1 1 1 0.5\n2 1 1 -0.25\n' > elements.txt
expect 1 "elements.txt:3: element 2: radius -0.25 must be > 0"
printf '2 0.5\n1 1 1\n11 1 1\n' > elements.txt
expect 1 "elements.txt:3: element 2: x = 11 is outside the bounds \[0, 10\]"
printf '2 0.5\n1 1 1\n2 1\n' > elements.txt
expect 1 "elements.txt:3: element 2: expected 3 values (x y z), found 2"
printf -- '-2 0.5\n' > elements.txt
expect 1 "elements.txt:1: element count N '-2' is not a whole number"
: > elements.txt
expect 1 "elements.txt: empty file"
# a header's count is checked against the file before anything is allocated (5e8 elements
# took 15.6 GB); a pipe, whose size cannot be told, may announce 2^24 at most
printf '500000000 0.5\n1 1 1\n2 1 1\n' > elements.txt
expect 1 "elements.txt:1: announces 500000000 elements, which need at least 6 bytes each, but the file has 12 bytes left"
cat elements.txt | "$RUBBLE" contacts --elements /dev/stdin > out.txt 2> err.txt
[ $? -eq 1 ] && grep -q "/dev/stdin:1: announces 500000000 elements, but a stream whose size cannot be told (a pipe) may announce at most 16777216" err.txt \
    && echo "ok: $(cat err.txt)" || { echo "FAIL: a pipe's count: $(cat err.txt)"; failures=$((failures+1)); }
good_elements
cat elements.txt | "$RUBBLE" contacts --elements /dev/stdin > out.txt && [ "$(cat contacts.txt)" = "2 1" ] \
    || { echo "FAIL: elements from a pipe"; failures=$((failures+1)); }
# values whose squares overflow or underflow are refused (the touch test squares distances)
printf '3\n-1e200 0 0\n1e200 10 10\n' > bounds.txt
expect 1 "bounds.txt:2: minimum of x = -1e+200 must be within +-1e+150"
good_bounds
printf '2\n1 1 1 1e-200\n2 1 1 0.5\n' > elements.txt
expect 1 "elements.txt:2: element 1: radius 1e-200 must be > 0 and within \[1e-150, 1e150\]"
good_elements
# a screening array that cannot fit: elements at opposite corners of 1e7 x 1e7 x 1e7 cells
printf '3\n0 0 0\n1e7 1e7 1e7\n' > bounds.txt
printf '2 0.5\n1 1 1\n9999999 9999999 9999999\n' > elements.txt
expect 1 "screening needs .* GiB .*use --algorithm nbs" --algorithm screening
# ... but the cells span the elements, not the bounds: three elements together in bounds of
# 1e6 x 4e6 x 1e6 (issue 41: 1.9 GiB of empty cells, 9 GB asked for 1e6 x 18e6 x 1e6) take a
# few cells, with every algorithm
printf '3\n0 0 0\n1e6 18e6 1e6\n' > bounds.txt
printf '3 0.5\n10 10 10\n10.9 10 10\n12 10 10\n' > elements.txt
for a in screening nbs direct sorting tree cgrid brute; do
    "$RUBBLE" contacts --algorithm $a --bounds bounds.txt --elements elements.txt \
        --output pairs.txt > report.txt 2> err.txt || {
        echo "FAIL [$a, 3 elements in vast bounds]: refused"; cat err.txt; failures=$((failures+1)); }
    # the working memory the algorithm reports, and the process's peak (kernel's count)
    work=$(sed -n 's/^memory: \([0-9.]*\) \([KMG]*i*B\) working.*/\1 \2/p' report.txt)
    peak=$(sed -n 's/.*, \([0-9.]*\) \(MiB\|KiB\|GiB\) peak resident.*/\1 \2/p' report.txt)
    case "$work $peak" in *GiB*) echo "FAIL [$a, 3 elements in vast bounds]: $work, $peak"
        failures=$((failures+1)) ;; esac
    grep -q "^pairs: 1$" report.txt || { echo "FAIL [$a]: not the one pair"; failures=$((failures+1)); }
done
echo "ok: 3 elements in bounds of 1e6 x 18e6 x 1e6: every algorithm finds its pair in MiB, not GiB"
good_bounds
good_elements
# ... while nbs handles the same sparse domain
"$RUBBLE" contacts --algorithm nbs > out.txt 2> err.txt && [ "$(cat contacts.txt)" = "2 1" ] \
    || { echo "FAIL: nbs on the sparse domain"; cat err.txt; failures=$((failures+1)); }
good_bounds
expect 2 "unknown contact-detection algorithm 'fastest'" --algorithm fastest
expect 2 "unknown argument '--frobnicate'" --frobnicate
expect 1 "cannot create a file there" --output /nonexistent-dir/contacts.txt

[ "$failures" -eq 0 ] || { echo "$failures failures"; exit 1; }
echo "cli errors: all ok"
