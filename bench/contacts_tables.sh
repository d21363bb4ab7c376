#!/bin/sh
# Markdown tables of the contact-detection study, from the CSVs of bench/contacts.sh.
# Usage: bench/contacts_tables.sh DOCS_BENCH_DIR > contacts.md
set -eu
D=$1
ALGS="screening nbs direct sorting tree cgrid"
table() { # csv dim column title scale
    awk -F, -v dim="$2" -v col="$3" -v algs="$ALGS" -v scale="$5" -v title="$4" '
    NR > 1 && $1 == dim && $6 == "ok" { v[$2 "," $3] = $col * scale; if (!($2 in seen)) { seen[$2] = 1; ns[++k] = $2 } }
    END {
        n = split(algs, a, " ")
        printf "| %s | ", title; for (i = 1; i <= n; i++) printf "%s | ", a[i]; printf "\n|---|"
        for (i = 1; i <= n; i++) printf "---|"; printf "\n"
        for (j = 1; j <= k; j++) {
            printf "| %s | ", ns[j]
            for (i = 1; i <= n; i++) { key = ns[j] "," a[i]; if (key in v) printf "%.0f | ", v[key]; else printf "– | " }
            printf "\n"
        }
    }' "$1"
}
echo "# Contact detection: measured tables"
echo
echo "Made by \`make bench\` (bench/contacts.sh) on $(date -u +%Y-%m-%d); machine: $(nproc) cores,"
echo "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(free -g | awk '/Mem:/{print $2}') GiB; one core used."
echo "Lattice of touching elements (spacing = diameter), numbered in random order."
echo "Warm = median of 3 runs reusing a workspace (as in a simulation); cold = the first call, on"
echo "fresh memory (as one \`rubble contacts\`)."
for dim in 3 2; do
    echo; echo "## ${dim}D: ns per element, warm"; echo
    table "$D/contacts.csv" $dim 10 "N" 1
    echo; echo "## ${dim}D: ns per element, cold (first call)"; echo
    awk -F, 'NR==1{print; next} {OFS=","; $10 = ($2 > 0 ? $9 * 1e9 / $2 : 0); print}' "$D/contacts.csv" > "$D/.cold.csv"
    table "$D/.cold.csv" $dim 10 "N" 1
    rm -f "$D/.cold.csv"
    echo; echo "## ${dim}D: working memory, bytes per element"; echo
    awk -F, 'NR==1{print; next} {OFS=","; $10 = ($2 > 0 ? $11 / $2 : 0); print}' "$D/contacts.csv" > "$D/.mem.csv"
    table "$D/.mem.csv" $dim 10 "N" 1
    rm -f "$D/.mem.csv"
done
echo; echo "## Sparse domain (3D, N = 10^5, random centres): working memory, MiB"; echo
echo "| box edge factor | screening | nbs | sorting |"; echo "|---|---|---|---|"
awk -F, 'NR > 1 { m[$4 "," $3] = sprintf("%.1f%s", $11 / 1048576, $6 == "refused" ? " (refused: needed)" : ""); if (!($4 in s)) { s[$4] = 1; f[++k] = $4 } }
    END { for (j = 1; j <= k; j++) printf "| %s | %s | %s | %s |\n", f[j], m[f[j] ",screening"], m[f[j] ",nbs"], m[f[j] ",sorting"] }' "$D/contacts-sparse.csv"
if [ -f "$D/contacts-polydisperse.csv" ]; then
    echo; echo "## Size range (3D, N = 10^6 random centres, solid share 0.3; 1% of the elements at r, 99% at r/Q): ns per element, warm"; echo
    awk -F, 'NR==1{print; next} {OFS=","; $2 = $5; print}' "$D/contacts-polydisperse.csv" > "$D/.q.csv"
    table "$D/.q.csv" 3 10 "Q" 1
    rm -f "$D/.q.csv"
fi
