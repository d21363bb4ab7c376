"""A slot silo's discharge rate against Beverloo's law (docs/guide/silo.md): for each slot
width W, the rate is the least-squares slope of the grains out (thermo.csv's `lost`) against
time while 10-40 % of the grains are out, with its standard error. Beverloo's law for a slot of
width W and length L (the slice's depth),
    Q = C rho_b sqrt(g) L (W - k d)^(3/2)    (mass per second),
is fitted to them as a line, Q^(2/3) = a (W - k d), giving C and k; rho_b, the bed's bulk
density, is measured (the grains' volume in a box in the middle of the bed at t = 0.1 s).
Prints a table and writes silo.png into the folder.

    PYTHONPATH=build/python /usr/bin/python3 docs/guide/silo_rate.py FOLDER W1 W2 ...
reads FOLDER/out_W/thermo.csv and the frames beside it (W in mm).
"""
import math
import os
import sys

import numpy as np

from rubble import frames

RHO, G, L = 2500.0, 9.81, 0.01  # the glass, gravity, the slice's depth (silo.yaml)


def rate(folder, column="lost", lo=0.1, hi=0.4):
    """(grains per second, its standard error, grains at the start) from thermo.csv: the
    slope of `column` (the grains out: `lost`, or an outlet's `outletK_grains`) while lo-hi of
    the grains are out."""
    with open(os.path.join(folder, "thermo.csv")) as f:
        names = f.readline().strip().split(",")
    t = np.loadtxt(os.path.join(folder, "thermo.csv"), delimiter=",", skiprows=1, ndmin=2)
    time, lost = t[:, names.index("time")], t[:, names.index(column)]
    n = t[0, names.index("grains")] + lost[0]
    keep = (lost >= lo * n) & (lost <= hi * n)
    if keep.sum() < 3:
        raise SystemExit("%s: fewer than 3 rows with %g-%g %% of the grains out"
                         % (folder, 100 * lo, 100 * hi))
    (slope, _), cov = np.polyfit(time[keep], lost[keep], 1, cov=True)
    return slope, math.sqrt(cov[0, 0]), int(n)


def frame_at(folder, time):
    """The grains' first frame at or after `time` (s) in folder/grains.pvd."""
    import re
    with open(os.path.join(folder, "grains.pvd")) as f:
        found = [(float(a), b) for a, b in
                 re.findall(r'timestep="([^"]+)"[^>]*file="([^"]+)"', f.read())]
    path = next(p for t, p in found if t >= time - 1e-9)
    return frames.read(os.path.join(folder, path))


def bed(folder):
    """(mean diameter, mean mass, bulk density) of the grains in the first frame at t >= 0.1 s:
    those whose centres lie in |x| <= 20 mm, 5 <= z <= 25 mm."""
    g = frame_at(folder, 0.1)
    r = g.point_data["radius"]
    x, z = g.points[:, 0], g.points[:, 2]
    inside = (np.abs(x) <= 0.02) & (z >= 0.005) & (z <= 0.025)
    phi = (4 / 3 * math.pi * r[inside] ** 3).sum() / (0.04 * L * 0.02)
    return 2 * r.mean(), RHO * 4 / 3 * math.pi * (r ** 3).mean(), phi * RHO


def main(folder, widths):
    rows = [(w,) + rate(os.path.join(folder, "out_%g" % w)) for w in widths]
    d, m, rho_b = bed(os.path.join(folder, "out_%g" % widths[0]))
    W = np.array([r[0] for r in rows]) * 1e-3
    Q = np.array([r[1] for r in rows]) * m  # kg/s
    (a, b), cov = np.polyfit(W, Q ** (2 / 3), 1, cov=True)
    k = -b / a / d
    C = a ** 1.5 / (rho_b * math.sqrt(G) * L)
    # their standard errors from the fit's covariance, to first order
    dk = math.sqrt(cov[1, 1] / a ** 2 + b ** 2 * cov[0, 0] / a ** 4 - 2 * b * cov[0, 1] / a ** 3) / d
    dC = 1.5 * C * math.sqrt(cov[0, 0]) / a
    print("bed: d = %.3f mm, bulk density %.0f kg/m^3 (packing %.3f)" % (d * 1e3, rho_b, rho_b / RHO))
    print("W (mm)  grains/s  +-  kg/s      Beverloo fit")
    for (w, q, e, n), qm in zip(rows, Q):
        fit = C * rho_b * math.sqrt(G) * L * max(w * 1e-3 - k * d, 0) ** 1.5
        print("%5g  %8.0f  %4.0f  %.5f   %.5f" % (w, q, e, qm, fit))
    print("Beverloo: C = %.2f +- %.2f, k = %.2f +- %.2f" % (C, dC, k, dk))
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(5, 3.5))
    ax.errorbar(W * 1e3, Q * 1e3, yerr=[r[2] * m * 1e3 for r in rows], fmt="o", label="rubble")
    ws = np.linspace(k * d, W.max() * 1.05, 100)
    ax.plot(ws * 1e3, 1e3 * C * rho_b * math.sqrt(G) * L * (ws - k * d) ** 1.5, "-",
            label="Beverloo, C = %.2f, k = %.2f" % (C, k))
    ax.set_xlabel("slot width W (mm)")
    ax.set_ylabel("discharge rate (g/s)")
    ax.set_title("Slot silo, glass beads d = %.1f mm" % (d * 1e3))
    ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(folder, "silo.png"), dpi=100)
    return rows, C, k


if __name__ == "__main__":
    main(sys.argv[1], [float(w) for w in sys.argv[2:]])
