"""The settled bed of validation/cg.sh: reads the run's last cg profile (output.cg) and final
grains, writes docs/validation/cg.md (its first sections) and cg-bed.png.

    python3 validation/cg_plots.py DOCS BED_FOLDER
"""
import os
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import rubble  # noqa: E402

docs, bed = sys.argv[1:3]
G = 9.81


def profile(folder):
    """The last cg profile of a run: its columns, and its header line (time, samples)."""
    names = sorted(n for n in os.listdir(folder) if n.startswith("cg_profile_"))
    path = os.path.join(folder, names[-1])
    with open(path) as f:
        head = f.readline()
    return np.genfromtxt(path, delimiter=",", names=True, skip_header=1), head


def grains(folder):
    t = np.loadtxt(os.path.join(folder, "grains.txt"), ndmin=2)
    return t[:, :3], t[:, 3], 2500 * 4 / 3 * np.pi * t[:, 3] ** 3


def balance(p):
    """-g times the density integrated from each node layer up (the momentum balance at
    rest), by the trapezoid rule from the top."""
    h = p["z"][1] - p["z"][0]
    rho = p["density"]
    return -G * (np.cumsum(rho[::-1])[::-1] - 0.5 * rho) * h


# ---- 1. the settled bed
pb, head_b = profile(bed)
xb, rb, mb = grains(bed)
area = 0.01 * 0.01
top_b = np.percentile(xb[:, 2], 98)
z = pb["z"]
weight = np.array([-G * mb[xb[:, 2] > zz].sum() / area for zz in z])
bal = balance(pb)
c = 0.001
inner = (z > c) & (z < top_b - c)
err_balance = np.abs(pb["stress_zz"][inner] - bal[inner]).max() / abs(bal[inner]).max()
err_weight = np.abs(pb["stress_zz"][inner] - weight[inner]).max() / abs(weight[inner]).max()
kin = np.abs(pb["kinetic_stress_zz"]).max() / np.abs(pb["stress_zz"]).max()

# the density integrated over the grid against the mass, at three resolutions, both kernels
scene = f"""\
domain: {{min: [0, 0, -0.001], max: [0.01, 0.01, 0.05], periodic: [x, y]}}
materials: [{{name: glass, density: 2500}}]
contact: {{normal: linear, tangential: spring, kn: 2000, restitution: 0.2, friction: 0.5}}
walls: [{{point: [0, 0, 0], normal: [0, 0, 1]}}]
grains: [{{file: {os.path.abspath(os.path.join(bed, 'grains.txt'))}}}]
run: {{steps: 1, dt: 2.0e-6}}
"""
run = rubble.Run.from_yaml(scene, name=os.path.abspath("mass.yaml"), output="mass", threads=2)
mass = run.grains().mass.sum()
rows = []
for kernel, width in (("lucy", 0.001), ("gaussian", 0.0004)):
    cut = width if kernel == "lucy" else 3 * width
    for per in (2, 4, 8):  # nodes per cutoff radius
        h = cut / per
        n = [int(round(0.01 / h)), int(round(0.01 / h)), int(round(0.026 / h))]
        cg = rubble.CoarseGrain((0, 0, -0.001), (0.01, 0.01, 0.025), n, width, kernel)
        f = cg.add(run).fields()
        rows.append((kernel, width, per, np.prod(n), f.density.sum() * np.prod(f.spacing) /
                     mass - 1))
run.close()

fig, ax = plt.subplots(1, 2, figsize=(11, 5.2))
ax[0].plot(-pb["stress_zz"], z * 1e3, "b-", lw=2, label=r"$-\sigma_{zz}$ (CG, Lucy c = 1 mm)")
ax[0].plot(-bal, z * 1e3, "k--", lw=1.5, label=r"$g\int_z^\infty \rho\,dz'$ (CG density)")
ax[0].plot(-weight, z * 1e3, "r:", lw=1.5, label="weight of the grains above / area")
ax[0].axhline(top_b * 1e3, color="gray", lw=0.8)
ax[0].set_xlabel("vertical stress (Pa, compression)")
ax[0].set_ylabel("z (mm)")
ax[0].legend(loc="upper right", fontsize=9)
ax[0].set_title(f"settled bed, {len(mb)} grains")
ax[1].plot(pb["density"], z * 1e3, "g-", lw=2, label=r"$\rho$ (kg/m$^3$)")
ax[1].plot(pb["volume_fraction"] * 2500, z * 1e3, "m:", lw=1.5,
           label=r"2500 $\times$ volume fraction")
ax[1].set_xlabel(r"kg/m$^3$")
ax[1].legend(loc="upper right", fontsize=9)
ax[1].set_title("density: layering by the floor")
fig.tight_layout()
fig.savefig(os.path.join(docs, "cg-bed.png"), dpi=100)

samples_b = re.search(r"\((\d+) samples\)", head_b).group(1)
with open(os.path.join(docs, "cg.md"), "w") as out:
    w = out.write
    w("# Coarse-graining (validation/cg.sh)\n\n")
    w("Fields from `output.cg` as a scene sets it (docs/cg.md): Lucy kernel of radius c = 1 mm"
      " (two grain diameters), nodes 0.25 mm apart, each output the mean of "
      f"{samples_b} samples over its interval. Tension is positive, so a bed under its weight "
      "has sigma_zz < 0; the plots show -sigma_zz.\n\n")
    w("## A settled bed: the momentum balance\n\n")
    w(f"{len(mb)} glass beads (r 0.4 to 0.5 mm) settled for 0.3 s on a floor between periodic "
      f"sides (1 cm square); the surface (98th percentile of the centres) at {top_b * 1e3:.1f}"
      " mm.\n\n")
    w("![settled bed](cg-bed.png)\n\n")
    w("| check, at every node layer at least c from the floor and the surface | largest "
      "difference / largest value |\n|---|---|\n")
    w(f"| sigma_zz against -g times the CG density integrated from z up (the balance at rest) |"
      f" {err_balance:.2%} |\n")
    w(f"| sigma_zz against the weight of the grains above z per area | {err_weight:.2%} "
      "(the kernel spreads each grain over +-c) |\n")
    w(f"| kinetic share of the stress | {kin:.1e} (at rest) |\n\n")
    w("Near the floor (z < c) the kernel reaches below it, where no grain is: the fields there "
      "are the floor's boundary layer (Weinhart et al. 2012 treat it with the wall's own "
      "contact term), not bulk values.\n\n")
    w("The density integrated over the grid against the grains' mass (the same bed, one "
      "sample):\n\n| kernel | width | nodes per cutoff | nodes | mass error |\n"
      "|---|---|---|---|---|\n")
    for kernel, width, per, nodes, e in rows:
        w(f"| {kernel} | {width * 1e3:g} mm | {per} | {nodes} | {e:+.1e} |\n")
    w("\n")
print(open(os.path.join(docs, "cg.md")).read())
