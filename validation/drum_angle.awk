# drum_angle.awk — a rotating drum's bed from a grains file (x y z r ...): the free surface's
# height h(x) = max(z + r) in bins of 3 mm along x over the middle of the drum, |x| <= 20 mm
# (clear of the wall, where grains ride up), a straight line fitted to it by least squares;
# prints
#   angle_deg x_com_m z_com_m grains
# the centre of mass weighted by r^3 (the grains' masses, one density).
# Usage: awk -f drum_angle.awk grains.txt
!/^#/ && NF >= 4 {
    n++; m = $4 * $4 * $4; M += m; sx += m * $1; sz += m * $3
    if ($1 < -0.02 || $1 > 0.02) next
    b = int(($1 + 0.02) / 0.003)
    top = $3 + $4
    if (!(b in h) || top > h[b]) h[b] = top
}
END {
    k = fx = fy = fxx = fxy = 0
    for (b in h) {
        x = -0.02 + (b + 0.5) * 0.003
        k++; fx += x; fy += h[b]; fxx += x * x; fxy += x * h[b]
    }
    slope = (k * fxy - fx * fy) / (k * fxx - fx * fx)
    printf "%.2f %.6f %.6f %d\n", atan2(slope < 0 ? -slope : slope, 1) * 180 / 3.14159265358979, sx / M, sz / M, n
}
