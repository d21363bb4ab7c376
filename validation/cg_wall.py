"""A settled bed against a side wall, coarse-grained with the wall force density t (issue 74,
docs/cg.md "Next to a wall"; Weinhart et al., Granular Matter 14, 2012): glass beads settle on
a floor between two frictional side walls (periodic across y); on a 3D grid reaching c beyond
the walls, sigma_xx(x) (the mean over y and z) against -int_x t_x, sigma_zz(z) against
-g int_z rho - int_z t_z + the grains' net force above, through the walls' boundary layers,
and sigma . n next to each wall against its load (thermo.csv). Writes cg-wall.png and the
section (Markdown) on stdout.

    python3 validation/cg_wall.py DOCS
"""
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import rubble  # noqa: E402
from rubble import frames  # noqa: E402

docs = sys.argv[1]
W, G, C = 0.01, 9.81, 0.001  # the bed's width across x (m), gravity, Lucy's c (m)
SCENE = f"""\
domain: {{min: [0, 0, -0.002], max: [{W}, {W}, 0.03], periodic: [y]}}
gravity: [0, 0, -{G}]
materials: [{{name: glass, density: 2500}}]
contact: {{normal: linear, tangential: spring, kn: 2000, restitution: 0.2, friction: 0.5}}
walls:
  - {{point: [0, 0, 0], normal: [0, 0, 1]}}
  - {{point: [0, 0, 0], normal: [1, 0, 0]}}
  - {{point: [{W}, 0, 0], normal: [-1, 0, 0]}}
grains:
  - lattice: {{min: [0.0003, 0, 0.0001], max: [{W - 0.0003}, {W}, 0.014], spacing: 0.00105}}
    radius: {{distribution: uniform, min: 0.0004, max: 0.0005}}
    velocity_spread: 0.05
run: {{time: 0.25, dt: 2.0e-6}}
output: {{folder: wall, every: 0.25, thermo_every: 0.25}}
"""
run = rubble.Run.from_yaml(SCENE, name=os.path.abspath("wall.yaml"), threads=2)
run.step(run.total_steps)
run.write_thermo()
th = frames.read_thermo(os.path.join("wall", "thermo.csv"))
loads = np.array([[th[f"wall{w}_f{a}"][-1] for a in "xyz"] for w in (1, 2, 3)])
g = run.grains()
top = g.position[:, 2].max() + g.radius.max()
lo, hi = (-C, 0.0, -C), (W + C, W, top + C)  # c beyond the walls and the surface
n = (int(round((hi[0] - lo[0]) / (C / 4))), 40, int(round((hi[2] - lo[2]) / (C / 4))))
cg = rubble.CoarseGrain(lo, hi, n, C)
f = cg.add(run).fields()
h = f.spacing
x = f.origin[0] + np.arange(n[0]) * h[0]
z = f.origin[2] + np.arange(n[2]) * h[2]


def from_end(v, step):
    """The integral of a node profile from each node to the grid's end (midpoint rule)."""
    return (np.cumsum(v[::-1])[::-1] - 0.5 * v) * step


sxx = f.stress[..., 0, 0].mean(axis=(0, 1))
bal_x = -from_end(f.wall_force[..., 0].mean(axis=(0, 1)), h[0])
section = (hi[0] - lo[0]) * (hi[1] - lo[1])
szz = f.stress[..., 2, 2].mean(axis=(1, 2))
rho = f.density.mean(axis=(1, 2))
ma = np.array([g.force[g.position[:, 2] > zz, 2].sum() for zz in z]) / section
bal_z = -G * from_end(rho, h[2]) - from_end(f.wall_force[..., 2].mean(axis=(1, 2)), h[2]) + ma
no_t = -G * from_end(rho, h[2]) + ma
near_x = (x < 2 * C) | (x > W - 2 * C)
near_z = z < 2 * C
err_x = np.abs(sxx - bal_x)[near_x].max() / np.abs(sxx).max()
err_x_all = np.abs(sxx - bal_x).max() / np.abs(sxx).max()
err_z = np.abs(szz - bal_z)[near_z].max() / np.abs(szz).max()
err_z_all = np.abs(szz - bal_z).max() / np.abs(szz).max()
err_no_t = np.abs(szz - no_t)[near_z].max() / np.abs(szz).max()
# sigma . n against each wall's load: between a wall and the first centres only its
# contacts' branches cross a plane parallel to it, so there sigma_xx times the wall's area is
# its load, with a kernel narrow enough to reach neither (c = 0.15 mm, a profile along x
# averaged over y and z)
narrow = 0.00015
cells_x = int(round((hi[0] - lo[0]) / (narrow / 10)))
cg2 = rubble.CoarseGrain(lo, hi, (cells_x, 1, 1), narrow, average="yz")
f2 = cg2.add(run).fields()
x2 = f2.origin[0] + np.arange(cells_x) * f2.spacing[0]
sxx2 = f2.stress[0, 0, :, 0, 0]
wall_area = (hi[1] - lo[1]) * (hi[2] - lo[2])
rows = []
for name, a, b, load in (("left wall (x = 0)", 0.0, g.position[:, 0].min(), loads[1, 0]),
                         ("right wall (x = 10 mm)", g.position[:, 0].max(), W, -loads[2, 0])):
    mask = (x2 > a + 1.01 * narrow) & (x2 < b - 1.01 * narrow)
    if mask.any():  # a gap of more than 2 c between the wall and its nearest centre
        rows.append((name, mask.sum(), np.abs(sxx2[mask] * wall_area / load - 1).max()))

fig, (a1, a2) = plt.subplots(1, 2, figsize=(10, 4.2))
a1.plot(x * 1e3, -sxx, "b-", label=r"$-\sigma_{xx}$ (CG), mean over y, z")
a1.plot(x * 1e3, -bal_x, "r--", label=r"$\int_x t_x$: the walls' force density")
for xw in (0, W * 1e3):
    a1.axvline(xw, color="k", lw=0.5)
a1.set_xlabel("x (mm): side walls at 0 and 10"), a1.set_ylabel("Pa (compression)")
a1.legend(fontsize=8)
a2.plot(-szz, z * 1e3, "b-", label=r"$-\sigma_{zz}$ (CG), mean over the section")
a2.plot(-bal_z, z * 1e3, "r--", label=r"$g\int_z\rho + \int_z t_z - \Sigma\, ma$")
a2.plot(-no_t, z * 1e3, "g:", label=r"without $t$")
a2.axhline(0, color="k", lw=0.5)
a2.set_xlabel("Pa (compression)"), a2.set_ylabel("z (mm): floor at 0"), a2.legend(fontsize=8)
fig.suptitle(f"a settled bed of {len(g.mass)} beads between side walls: stress balance next "
             "to them")
fig.tight_layout()
fig.savefig(os.path.join(docs, "cg-wall.png"), dpi=100)

print("## A settled bed against side walls: the wall force density\n")
print(f"{len(g.mass)} beads (r 0.4 to 0.5 mm, mu = 0.5) settle for 0.25 s on a floor between "
      f"two side walls {W * 1e3:.0f} mm apart (periodic across y). One sample on a 3D grid "
      f"of {n[0]} x {n[1]} x {n[2]} nodes c/4 apart reaching c beyond the walls and the "
      "surface (Lucy, c = 1 mm), with the walls' force density t (docs/cg.md \"Next to a "
      "wall\"). Across x, the mean over y and z of sigma_xx against -int_x t_x (no body force "
      "along x; the means' d/dy and d/dz vanish, every kernel being whole); up z, the "
      "section's mean sigma_zz against -g int_z rho - int_z t_z plus the grains' net force "
      "above per area (t holds the side walls' friction as well as the floor's load).\n")
print("![wall](cg-wall.png)\n")
print("| check | largest difference |")
print("|---|---|")
print(f"| sigma_xx within 2 c of the side walls (and beyond them) | {err_x:.2%} of the largest |")
print(f"| sigma_xx at every x | {err_x_all:.2%} of the largest |")
print(f"| sigma_zz within 2 c of the floor (and below it) | {err_z:.2%} of the largest |")
print(f"| sigma_zz at every height | {err_z_all:.2%} of the largest |")
print(f"| the same without t, within 2 c of the floor | {err_no_t:.0%} of the largest |")
for name, count, err in rows:
    print(f"| sigma_xx x the wall's area between it and the first centres ({count} nodes, "
          f"c = {narrow * 1e3} mm), against its load (thermo.csv's 8 digits), {name} | "
          f"{err:.1e} |")
print()
