# arrival.awk: thermo.csv with layer columns -> layer, height of its middle (m), arrival time
# (first time its mean vz reaches half its peak), peak vz
BEGIN { FS = "," }
NR == 1 { for (c = 1; c <= NF; c++) if ($c ~ /^layer[0-9]+_vz$/) { n++; col[n] = c }; next }
{ t[NR] = $1; for (l = 1; l <= n; l++) { v[NR, l] = $col[l]; if ($col[l] > peak[l]) peak[l] = $col[l] } ; rows = NR }
END {
    for (l = 1; l <= n; l++) {
        at = ""
        for (r = 2; r <= rows; r++) if (v[r, l] >= 0.5 * peak[l]) { at = t[r]; break }
        printf "%d %.6g %s %.4g\n", l, (l - 0.5) * H / n, at, peak[l]
    }
}
