# Sourced by the `rubble run` tests (cli_run_*.sh): RUBBLE (their argument), SCENES
# (tests/scenes), a scratch folder as the working directory (removed on exit), failures = 0,
# and expect.
set -u
RUBBLE=$1
SCENES=$(cd "$(dirname "$0")/scenes" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
failures=0

# expect NAME PATTERN: `rubble run NAME.yaml` exits with status 1, says PATTERN on stderr and
# creates no output folder. Under the sanitizers a leak or a memory error also exits with 1:
# their report on stderr fails the case.
expect() {
    name=$1; pattern=$2
    "$RUBBLE" run "$name.yaml" --output "out_$name" > out.txt 2> err.txt
    got=$?
    if grep -q "^==[0-9]*==ERROR: [A-Za-z]*Sanitizer" err.txt; then
        echo "FAIL [$name]: the sanitizer reports:"; cat err.txt; failures=$((failures+1)); return
    fi
    if [ "$got" -ne 1 ]; then
        echo "FAIL [$name]: exit $got, expected 1"; cat err.txt; failures=$((failures+1)); return
    fi
    if ! grep -q -- "$pattern" err.txt; then
        echo "FAIL [$name]: stderr lacks '$pattern':"; cat err.txt; failures=$((failures+1)); return
    fi
    if [ -e "out_$name" ]; then
        echo "FAIL [$name]: an output folder was created"; failures=$((failures+1)); return
    fi
    echo "ok: $(cat err.txt)"
}

# rows_after STAGED CHANGED S: the thermo rows after step S that both runs' thermo.csv have (each
# counts its rows from its own start), into a.csv (STAGED's, without its last column, `stage`)
# and b.csv (CHANGED's): a stage and the same change by --change-physics compared row by row.
rows_after() {
    awk -F, -v s="$3" 'NR > 1 && $2 > s { print $2 }' "$1/thermo.csv" | sort > sa
    awk -F, -v s="$3" 'NR > 1 && $2 > s { print $2 }' "$2/thermo.csv" | sort > sb
    comm -12 sa sb > both
    awk -F, 'NR == FNR { w[$1]; next } ($2 in w)' both "$1/thermo.csv" | sed 's/,[^,]*$//' > a.csv
    awk -F, 'NR == FNR { w[$1]; next } ($2 in w)' both "$2/thermo.csv" > b.csv
}
