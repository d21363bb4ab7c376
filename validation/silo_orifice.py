"""A round orifice's discharge against Beverloo's law (validation/silo_orifice.sh): for each
orifice diameter D, the rate is the least-squares slope of thermo.csv's `outlet1_grains`
against time over the steady part, T0-T1 (after the gate is clear and the flow has formed,
before the bed has fallen by more than about one orifice); Beverloo's law for a round orifice
in a flat floor,
    W = C rho_b sqrt(g) (D - k d)^(5/2)    (mass per second),
with rho_b the bed's bulk density measured at rest just before the gate opens (the grains'
volume within 15 mm of the axis, 3-15 mm above the floor: below the free surface at about
20 mm, above the floor's first layer). C is fitted with k = 1.5 (Nedderman 1992 for glass
beads), and C and k together (the line W^(2/5) = a (D - k d)). The bounds, and why, are in
docs/validation/silo_orifice.md; a rate or fit outside them exits non-zero. Prints a table in
markdown, writes silo-orifice.png into OUT.

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
T0, T1 = 0.21, 0.51          # s: the steady part (the gate is clear at 0.152 s)
K_FIXED = 1.5                # Nedderman's k for glass beads
C_LO, C_HI = 0.45, 0.71      # C = 0.58 +- 22 % (docs/validation/silo_orifice.md)
SPREAD = 0.15                # each D's C within 15 % of their mean: the (D - k d)^(5/2) law


def rate(folder):
    """(grains per second, its standard error) over T0-T1 from thermo.csv."""
    with open(os.path.join(folder, "thermo.csv")) as f:
        names = f.readline().strip().split(",")
    t = np.loadtxt(os.path.join(folder, "thermo.csv"), delimiter=",", skiprows=1, ndmin=2)
    time, out = t[:, names.index("time")], t[:, names.index("outlet1_grains")]
    keep = (time >= T0 - 1e-9) & (time <= T1 + 1e-9)
    if keep.sum() < 10:
        raise SystemExit("%s: fewer than 10 thermo rows in %g-%g s" % (folder, T0, T1))
    (slope, _), cov = np.polyfit(time[keep], out[keep], 1, cov=True)
    return slope, math.sqrt(cov[0, 0])


def bed(folder):
    """(mean diameter, mean mass, bulk density, its packing) at the first frame at or after
    0.12 s (the gate still shut)."""
    g = silo_rate.frame_at(folder, 0.12)
    r = g.point_data["radius"]
    x, y, z = g.points[:, 0], g.points[:, 1], g.points[:, 2]
    inside = (x * x + y * y <= 0.015 ** 2) & (z >= 0.003) & (z <= 0.015)
    phi = (4 / 3 * math.pi * r[inside] ** 3).sum() / (math.pi * 0.015 ** 2 * 0.012)
    return 2 * r.mean(), RHO * 4 / 3 * math.pi * (r ** 3).mean(), phi * RHO, phi


def main(folder, out, sizes):
    rows = [(D,) + rate(os.path.join(folder, "out_%g" % D)) for D in sizes]
    d, m, rho_b, phi = bed(os.path.join(folder, "out_%g" % sizes[0]))
    D = np.array([r[0] for r in rows]) * 1e-3
    W = np.array([r[1] for r in rows]) * m
    scale = rho_b * math.sqrt(G)
    c_each = W / (scale * (D - K_FIXED * d) ** 2.5)
    c_fixed = float(np.exp(np.mean(np.log(c_each))))
    a, b = np.polyfit(D, W ** 0.4, 1)
    k_free, c_free = -b / a / d, a ** 2.5 / scale
    print("bed before the gate opens: d = %.3f mm, bulk density %.0f kg/m^3 (packing %.3f); "
          "rates over %g-%g s\n" % (d * 1e3, rho_b, phi, T0, T1))
    print("| D (mm) | D/d | grains/s | ± | W (g/s) | C at k = %.1f | Beverloo C = 0.58, k = %.1f (g/s) |"
          % (K_FIXED, K_FIXED))
    print("|---|---|---|---|---|---|---|")
    for (w, q, e), wm, c in zip(rows, W, c_each):
        std = 0.58 * scale * (w * 1e-3 - K_FIXED * d) ** 2.5
        print("| %g | %.1f | %.0f | %.0f | %.2f | %.3f | %.2f (rubble %+.0f %%) |"
              % (w, w * 1e-3 / d, q, e, wm * 1e3, c, std * 1e3, 100 * (wm / std - 1)))
    print("\nC at k = %.1f (geometric mean of the %d): %.3f; C and k fitted together: C = %.3f, "
          "k = %.2f" % (K_FIXED, len(rows), c_fixed, c_free, k_free))
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(5, 3.5))
    ax.errorbar(D * 1e3, W * 1e3, yerr=[r[2] * m * 1e3 for r in rows], fmt="o", label="rubble")
    ds = np.linspace(K_FIXED * d, D.max() * 1.05, 100)
    for c, kk, style, what in [(0.58, K_FIXED, "--", "Beverloo"), (c_fixed, K_FIXED, ":", "C fitted"),
                               (c_free, k_free, "-", "both fitted")]:
        ds = np.linspace(max(kk, 0) * d, D.max() * 1.05, 100)
        ax.plot(ds * 1e3, 1e3 * c * scale * (ds - kk * d) ** 2.5, style,
                label="%s, C = %.2f, k = %.2f" % (what, c, kk))
    ax.set_xlabel("orifice diameter D (mm)")
    ax.set_ylabel("discharge rate W (g/s)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "silo-orifice.png"), dpi=120)
    bad = []
    if not C_LO <= c_fixed <= C_HI:
        bad.append("C = %.3f at k = %.1f outside %.2f-%.2f" % (c_fixed, K_FIXED, C_LO, C_HI))
    far = [w for (w, _, _), c in zip(rows, c_each) if abs(c / c_fixed - 1) > SPREAD]
    if far:
        bad.append("the rate through D = %s mm off the (D - k d)^(5/2) law by more than %d %%"
                   % (far, 100 * SPREAD))
    if bad:
        raise SystemExit("; ".join(bad))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], [float(s) for s in sys.argv[3:]])
