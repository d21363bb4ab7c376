# repose_angle.awk — the angle of repose of a heap from a grains file (x y z r ...): the surface
# height h(x) = max(z + r) in bins of width `bin` (metres) along x; a straight line fitted by
# least squares to each flank where 0.2 h_max < h < 0.8 h_max; prints
#   left_deg right_deg mean_deg h_max_m
# With -v profile=FILE it also writes the profile there as CSV lines "x_centre,h" (0 where a
# bin holds no grain), from x = 0 to the last bin with one.
# Usage: awk -v bin=0.002 [-v profile=FILE] -f repose_angle.awk final.txt
!/^#/ && NF >= 4 {
    b = int($1 / bin)
    top = $3 + $4
    if (!(b in h) || top > h[b]) h[b] = top
    if (b > bmax) bmax = b
}
END {
    if (profile != "")
        for (b = 0; b <= bmax; b++)
            printf "%.4f,%.6f\n", (b + 0.5) * bin, (b in h) ? h[b] : 0 > profile
    hmax = 0
    for (b = 0; b <= bmax; b++) if ((b in h) && h[b] > hmax) { hmax = h[b]; peak = b }
    for (side = 0; side < 2; side++) {
        n = sx = sy = sxx = sxy = 0
        for (b = 0; b <= bmax; b++) {
            if (!(b in h)) continue
            if ((side == 0 && b >= peak) || (side == 1 && b <= peak)) continue
            if (h[b] <= 0.2 * hmax || h[b] >= 0.8 * hmax) continue
            x = (b + 0.5) * bin
            n++; sx += x; sy += h[b]; sxx += x * x; sxy += x * h[b]
        }
        slope = n > 1 ? (n * sxy - sx * sy) / (n * sxx - sx * sx) : 0
        if (slope < 0) slope = -slope
        angle[side] = atan2(slope, 1) * 180 / 3.14159265358979
    }
    printf "%.1f %.1f %.1f %.5f\n", angle[0], angle[1], 0.5 * (angle[0] + angle[1]), hmax
}
