"""shear_mu_i.py — validation/shear_mu_i.sh's analysis: per run (out_I/thermo.csv), mu =
<tau> / <sigma_zz>, I = rate d / sqrt(<sigma_zz> / rho) and phi over the last 60 % of the rows,
+- the standard error of five blocks; the fits mu(I) = mu_s + (mu_2 - mu_s) / (1 + I_0 / I)
(Jop, Forterre & Pouliquen 2006) and phi(I) = phi_max - a I (I <= 0.3); a markdown table on
stdout and shear-mu-i.png. Usage: shear_mu_i.py WORK DOCS P I:STRAIN... (SI units)"""
import csv
import os
import sys

import numpy as np

RHO, D = 2500.0, 0.001  # the beads' density (kg/m^3) and mean diameter (m)
BLOCKS = 5


def columns(path):
    with open(path) as f:
        rows = list(csv.DictReader(f))
    return {k: np.array([float(r[k]) for r in rows]) for k in rows[0]}


def point(work, I_nominal, P):
    c = columns(os.path.join(work, "out_%s" % I_nominal, "thermo.csv"))
    keep = c["time"] >= 0.4 * c["time"][-1]
    tau, szz, phi = c["shear_stress"][keep], c["stress_zz"][keep], c["volume_fraction"][keep]
    rate = float(I_nominal) * np.sqrt(P / RHO) / D
    blocks = [(t.mean() / s.mean(), rate * D / np.sqrt(s.mean() / RHO), p.mean())
              for t, s, p in zip(np.array_split(tau, BLOCKS), np.array_split(szz, BLOCKS),
                                 np.array_split(phi, BLOCKS))]
    b = np.array(blocks)
    err = b.std(axis=0, ddof=1) / np.sqrt(BLOCKS)
    mu = tau.mean() / szz.mean()
    return dict(I=rate * D / np.sqrt(szz.mean() / RHO), mu=mu, phi=phi.mean(), P=szz.mean(),
                dI=err[1], dmu=err[0], dphi=err[2], rate=rate,
                strain=rate * (c["time"][-1] - c["time"][keep][0]))


def fit_mu(pts):
    """Least squares over a grid of I_0 (mu_s, mu_2 linear in 1 / (1 + I_0 / I))."""
    I = np.array([p["I"] for p in pts])
    mu = np.array([p["mu"] for p in pts])
    w = 1.0 / np.maximum(np.array([p["dmu"] for p in pts]), 1e-3) ** 2
    best = None
    for I0 in np.exp(np.linspace(np.log(1e-3), np.log(10.0), 4000)):
        g = 1.0 / (1.0 + I0 / I)
        A = np.stack([1.0 - g, g], axis=1) * np.sqrt(w)[:, None]
        coef, *_ = np.linalg.lstsq(A, mu * np.sqrt(w), rcond=None)
        r = float(np.sum(w * (mu - (coef[0] * (1 - g) + coef[1] * g)) ** 2))
        if best is None or r < best[0]:
            best = (r, coef[0], coef[1], I0)
    return best[1:]


def main():
    work, docs, P = sys.argv[1], sys.argv[2], float(sys.argv[3])
    pts = [point(work, a.split(":")[0], P) for a in sys.argv[4:]]
    mu_s, mu_2, I0 = fit_mu(pts)
    dense = [p for p in pts if p["I"] <= 0.31]
    a, phi_max = np.polyfit([p["I"] for p in dense], [p["phi"] for p in dense], 1)
    print("| nominal I | γ̇ (1/s) | strain averaged | σ_zz (kPa) | I | μ | φ |")
    print("|---|---|---|---|---|---|---|")
    for a_, p in zip(sys.argv[4:], pts):
        print("| %s | %.4g | %.2f | %.1f | %.4g ± %.2g | %.3f ± %.3f | %.4f ± %.4f |"
              % (a_.split(":")[0], p["rate"], p["strain"], p["P"] / 1e3, p["I"], p["dI"],
                 p["mu"], p["dmu"], p["phi"], p["dphi"]))
    print()
    print("**Fits.** μ(I): μ_s = %.3f, μ_2 = %.3f, I_0 = %.3f; its slope at small I, "
          "(μ_2 − μ_s) / I_0 = %.2f (Jop et al.'s: 0.93). φ(I) = %.4f − %.3f I (I ≤ 0.3)."
          % (mu_s, mu_2, I0, (mu_2 - mu_s) / I0, phi_max, -a))
    print()
    print("| | μ_s | μ_2 | I_0 |")
    print("|---|---|---|---|")
    print("| this cell (μ_p = 0.5, e = 0.5, κ = 500) | %.3f | %.3f | %.3f |" % (mu_s, mu_2, I0))
    print("| Jop, Forterre & Pouliquen 2006 (glass beads, experiments on an incline) | "
          "0.38 (tan 20.9°) | 0.64 (tan 32.76°) | 0.279 |")
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(1, 2, figsize=(10, 4))
    I = np.array([p["I"] for p in pts])
    Ig = np.exp(np.linspace(np.log(I.min() / 2), np.log(I.max() * 2), 200))
    ax[0].errorbar(I, [p["mu"] for p in pts], yerr=[p["dmu"] for p in pts], fmt="o",
                   label="rubble, sheared cell at σ_zz = %g kPa" % (P / 1e3))
    ax[0].plot(Ig, mu_s + (mu_2 - mu_s) / (1 + I0 / Ig), "-",
               label="fit: μ_s %.3f, μ_2 %.3f, I_0 %.3f" % (mu_s, mu_2, I0))
    ax[0].plot(Ig, 0.38 + (0.64 - 0.38) / (1 + 0.279 / Ig), "--", label="Jop et al. 2006")
    ax[0].set_xscale("log"), ax[0].set_xlabel("I"), ax[0].set_ylabel("μ = τ / σ_zz")
    ax[0].legend(fontsize=8)
    ax[1].errorbar(I, [p["phi"] for p in pts], yerr=[p["dphi"] for p in pts], fmt="o")
    Il = np.linspace(0, 0.3, 50)
    ax[1].plot(Il, phi_max + a * Il, "-", label="φ_max %.4f − %.3f I" % (phi_max, -a))
    ax[1].set_xlabel("I"), ax[1].set_ylabel("φ"), ax[1].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(docs, "shear-mu-i.png"), dpi=110)


if __name__ == "__main__":
    main()
