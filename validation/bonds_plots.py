"""validation/bonds.sh's analysis (issue 72): the cantilever (rubble and Yade against
Euler-Bernoulli), the UCS and Brazilian tests of a bonded sample (peak stresses from the
platens' forces, broken bonds against strain); writes docs/validation/bonds.md and its PNGs
and exits 1 when a bound is missed. SI units.
Usage: bonds_plots.py BEAM_RUBBLE.json BEAM_YADE.json DOCS"""
import json
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from bonds_closed_forms import beam_constants  # noqa: E402

rub, yad = (json.load(open(p)) for p in sys.argv[1:3])
DOCS = sys.argv[3]
N, E = rub["N"], 1e6
c = beam_constants(N, E)
failed = []


def check(name, value, lo, hi):
    ok = lo <= value <= hi
    if not ok:
        failed.append("%s = %.4g outside [%g, %g]" % (name, value, lo, hi))
    return ok


rel = lambda a, b: a / b - 1.0
tip_r, tip_y = rel(rub["tip"], c["tip_eb"]), rel(yad["tip"], c["tip_eb"])
f_r, f_y = rel(rub["frequency"], c["f_eb_tip_mass"]), rel(yad["frequency"], c["f_eb_tip_mass"])
check("rubble tip vs Euler-Bernoulli", abs(tip_r), 0, 0.02)
check("rubble f1 vs Euler-Bernoulli with the tip's half grain", abs(f_r), 0, 0.02)
check("Yade tip vs rubble", abs(rel(yad["tip"], rub["tip"])), 0, 0.05)
check("Yade f1 vs rubble", abs(rel(yad["frequency"], rub["frequency"])), 0, 0.05)

fig, ax = plt.subplots(figsize=(7, 4))
for name, style in (("rubble", "-"), ("yade", "--")):
    t = np.loadtxt("%s/bonds-beam-%s-trace.csv" % (DOCS, name), delimiter=",", skiprows=1)
    ax.plot(t[:, 0], t[:, 1] * 1e3, style, label=name)
T = 1.0 / c["f_eb_tip_mass"]
tt = np.linspace(0, 6 * T, 600)
ax.plot(tt, c["tip_eb"] * np.cos(2 * np.pi * tt / T) * 1e3, ":", label="Euler-Bernoulli mode 1 (tip mass m/2)")
ax.set_xlabel("time after release (s)")
ax.set_ylabel("tip deflection (mm)")
ax.set_title("cantilever of %d bonded spheres released from F L^3/3EI" % (N + 1))
ax.legend(fontsize=8)
fig.tight_layout()
fig.savefig(DOCS + "/bonds-beam.png", dpi=110)


def thermo(path):
    head = open(path).readline().strip().split(",")
    data = np.loadtxt(path, delimiter=",", skiprows=1)
    return {h: data[:, k] for k, h in enumerate(head)}


SIGMA_B = 3.0e5
ucs = thermo(DOCS + "/bonds-ucs-thermo.csv")
H, A = 0.012, 0.006 * 0.006
s_ucs = 0.5 * (-ucs["wall1_fz"] + ucs["wall2_fz"]) / A
e_ucs = (ucs["wall1_dz"] - ucs["wall2_dz"]) / H
br = thermo(DOCS + "/bonds-brazilian-thermo.csv")
D, T_DISC = 0.012, 0.004
F_br = 0.5 * (-br["wall1_fy"] + br["wall2_fy"])
s_br = 2.0 * F_br / (np.pi * D * T_DISC)
e_br = (br["wall1_dy"] - br["wall2_dy"]) / D
sigma_c, sigma_t = s_ucs.max(), s_br.max()
k_c, k_t = int(np.argmax(s_ucs)), int(np.argmax(s_br))
modulus = np.polyfit(e_ucs[(s_ucs > 0.1 * sigma_c) & (s_ucs < 0.5 * sigma_c) & (np.arange(len(s_ucs)) < k_c)],
                     s_ucs[(s_ucs > 0.1 * sigma_c) & (s_ucs < 0.5 * sigma_c) & (np.arange(len(s_ucs)) < k_c)], 1)[0]
ratio = sigma_c / sigma_t
# the peak is reached and passed: the last stress below 0.8 of the peak (post-peak softening)
check("UCS: stress at the end over the peak", s_ucs[-1] / sigma_c, 0, 0.8)
check("Brazilian: stress at the end over the peak", s_br[-1] / sigma_t, 0, 0.8)
check("sigma_c / sigma_b", sigma_c / SIGMA_B, 0.3, 3.0)
check("sigma_t / sigma_b", sigma_t / SIGMA_B, 0.03, 0.5)
check("sigma_c / sigma_t", ratio, 2.0, 12.0)

fig, axs = plt.subplots(1, 2, figsize=(10, 4))
for ax, e, s, b, title in ((axs[0], e_ucs, s_ucs, ucs["bonds_broken"], "uniaxial compression"),
                           (axs[1], e_br, s_br, br["bonds_broken"], "Brazilian disc")):
    ax.plot(e * 1e3, s / 1e3, "k-", label="stress")
    ax.set_xlabel("platens' strain (1e-3)")
    ax.set_ylabel("stress (kPa)" + (": F / A" if ax is axs[0] else ": 2F / (pi D t)"))
    ax.set_title(title)
    ax2 = ax.twinx()
    ax2.plot(e * 1e3, b, "r--", label="broken bonds")
    ax2.set_ylabel("broken bonds", color="r")
fig.tight_layout()
fig.savefig(DOCS + "/bonds-strength.png", dpi=110)

intact0 = int(ucs["bonds_intact"][0] + ucs["bonds_broken"][0])
intact0_br = int(br["bonds_intact"][0] + br["bonds_broken"][0])
summary = {
    "beam": {"tip_eb": c["tip_eb"], "tip_rubble": rub["tip"], "tip_yade": yad["tip"],
             "f_eb": c["f_eb"], "f_eb_tip_mass": c["f_eb_tip_mass"],
             "f_rubble": rub["frequency"], "f_yade": yad["frequency"]},
    "ucs": {"sigma_c": sigma_c, "strain_at_peak": e_ucs[k_c], "modulus": modulus,
            "bonds": intact0, "broken_at_peak": int(ucs["bonds_broken"][k_c]),
            "broken_end": int(ucs["bonds_broken"][-1])},
    "brazilian": {"sigma_t": sigma_t, "strain_at_peak": e_br[k_t], "bonds": intact0_br,
                  "broken_at_peak": int(br["bonds_broken"][k_t]),
                  "broken_end": int(br["bonds_broken"][-1])},
    "ratio": ratio, "failed": failed}
json.dump(summary, open(DOCS + "/bonds-summary.json", "w"), indent=1)
print(json.dumps(summary, indent=1))
print("cantilever: tip rubble %+.3f %%, Yade %+.3f %% of F L^3/3EI; f1 rubble %+.3f %%, Yade %+.3f %% of "
      "Euler-Bernoulli with the tip's half grain (%+.2f %% of the bare cantilever's)" %
      (100 * tip_r, 100 * tip_y, 100 * f_r, 100 * f_y, 100 * rel(rub["frequency"], c["f_eb"])))
print("UCS sigma_c = %.4g Pa (%.3f sigma_b), Brazilian sigma_t = %.4g Pa (%.3f sigma_b), ratio %.2f" %
      (sigma_c, sigma_c / SIGMA_B, sigma_t, sigma_t / SIGMA_B, ratio))
for f in failed:
    print("FAILED:", f)
sys.exit(1 if failed else 0)
