"""A round orifice's discharge against Beverloo's law (validation/silo_orifice.sh): for each
orifice diameter D, the rate is docs/guide/silo_rate.py's (the slope of thermo.csv's
`outlet1_grains` while 2-10 % of the grains are out: after the gate is clear, before the bed
runs low); Beverloo's law for a round orifice,
    Q = C rho_b sqrt(g) (D - k d)^(5/2)    (mass per second),
fitted as the line Q^(2/5) = a (D - k d) gives C and k; rho_b, the bed's bulk density, is
measured in the first frame at or after 0.1 s (the grains' volume within 15 mm of the axis,
5-25 mm above the floor). Each rate must lie within the band the published constants span
(C = 0.55-0.65, k = 1.3-2.9: Beverloo et al. 1961, Nedderman 1992), from C = 0.55, k = 2.9 to
C = 0.65, k = 1.3, with the bed's measured density. Prints a table in markdown, writes
silo-orifice.png into OUT.

    PYTHONPATH=build/python python3 validation/silo_orifice.py FOLDER OUT D1 D2 ...
reads FOLDER/out_D/thermo.csv and its frames (D in mm).
"""
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "docs", "guide"))
import silo_rate  # noqa: E402

RHO, G = 2500.0, 9.81


def bed(folder):
    """(mean diameter, mean mass, bulk density) at the first frame at or after 0.1 s."""
    g = silo_rate.frame_at(folder, 0.1)
    r = g.point_data["radius"]
    x, y, z = g.points[:, 0], g.points[:, 1], g.points[:, 2]
    inside = (x * x + y * y <= 0.015 ** 2) & (z >= 0.005) & (z <= 0.025)
    phi = (4 / 3 * math.pi * r[inside] ** 3).sum() / (math.pi * 0.015 ** 2 * 0.02)
    return 2 * r.mean(), RHO * 4 / 3 * math.pi * (r ** 3).mean(), phi * RHO


def main(folder, out, sizes):
    rows = [(D,) + silo_rate.rate(os.path.join(folder, "out_%g" % D), "outlet1_grains",
                                  0.02, 0.10) for D in sizes]
    d, m, rho_b = bed(os.path.join(folder, "out_%g" % sizes[0]))
    D = np.array([r[0] for r in rows]) * 1e-3
    Q = np.array([r[1] for r in rows]) * m
    (a, b), cov = np.polyfit(D, Q ** 0.4, 1, cov=True)
    k = -b / a / d
    C = a ** 2.5 / (rho_b * math.sqrt(G))
    print("bed: d = %.3f mm, bulk density %.0f kg/m^3 (packing %.3f)\n"
          % (d * 1e3, rho_b, rho_b / RHO))
    def beverloo(c, kk, w):
        return c * rho_b * math.sqrt(G) * max(w * 1e-3 - kk * d, 0) ** 2.5

    print("| D (mm) | grains/s | ± | kg/s | Beverloo, fitted | C = 0.58, k = 1.5 | published band |")
    print("|---|---|---|---|---|---|---|")
    outside = []
    for (w, q, e, n), qm in zip(rows, Q):
        std, lo, hi = beverloo(0.58, 1.5, w), beverloo(0.55, 2.9, w), beverloo(0.65, 1.3, w)
        print("| %g | %.0f | %.0f | %.5f | %.5f | %.5f (rubble %+.0f %%) | %.5f-%.5f |"
              % (w, q, e, qm, beverloo(C, k, w), std, 100 * (qm / std - 1), lo, hi))
        if not lo <= qm <= hi:
            outside.append(w)
    print("\nFitted to the three: C = %.2f, k = %.2f" % (C, k))
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(5, 3.5))
    ax.errorbar(D * 1e3, Q * 1e3, yerr=[r[2] * m * 1e3 for r in rows], fmt="o", label="rubble")
    ds = np.linspace(1.5 * d, D.max() * 1.05, 100)
    ax.plot(ds * 1e3, 1e3 * 0.58 * rho_b * math.sqrt(G) * (ds - 1.5 * d) ** 2.5, "--",
            label="Beverloo, C = 0.58, k = 1.5")
    ds = np.linspace(max(k, 0) * d, D.max() * 1.05, 100)
    ax.plot(ds * 1e3, 1e3 * C * rho_b * math.sqrt(G) * (ds - k * d) ** 2.5, "-",
            label="fitted, C = %.2f, k = %.2f" % (C, k))
    ax.set_xlabel("orifice diameter D (mm)")
    ax.set_ylabel("discharge rate (g/s)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "silo-orifice.png"), dpi=120)
    if outside:
        raise SystemExit("the rate through D = %s mm outside Beverloo's published band" % outside)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], [float(s) for s in sys.argv[3:]])
