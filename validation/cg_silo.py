"""Janssen's silo with coarse-grained stresses (validation/cg.sh): a square column of glass
beads between four frictional plane walls settles; the side walls then slide up slowly, so
that their friction on the grains is mobilized upward along the whole height (Janssen's
assumption), stop, and the column rests again; then sigma_zz(depth) from rubble.CoarseGrain
against Janssen's law with the stress ratio K measured at the walls and the wall friction
(given, and as mobilized), and the exact vertical force balance of every slab with the walls.
Writes cg-silo.png and the silo section (Markdown) on stdout.

    python3 validation/cg_silo.py DOCS
"""
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import rubble  # noqa: E402

docs = sys.argv[1]
L, MU, G, DT = 0.008, 0.5, 9.81, 2.0e-6
SCENE = f"""\
domain: {{min: [0, 0, -0.001], max: [{L}, {L}, 0.12]}}
gravity: [0, 0, -{G}]
materials: [{{name: glass, density: 2500}}]
contact: {{normal: linear, tangential: spring, kn: 4000, restitution: 0.2, friction: {MU}}}
walls:
  - {{point: [0, 0, 0], normal: [0, 0, 1]}}
  - {{point: [0, 0, 0], normal: [1, 0, 0]}}
  - {{point: [{L}, 0, 0], normal: [-1, 0, 0]}}
  - {{point: [0, 0, 0], normal: [0, 1, 0]}}
  - {{point: [0, {L}, 0], normal: [0, -1, 0]}}
grains:
  - lattice: {{min: [0, 0, 0.0001], max: [{L}, {L}, 0.115], spacing: 0.00105}}
    radius: {{distribution: uniform, min: 0.0004, max: 0.0005}}
    velocity_spread: 0.05
run: {{time: 0.4, dt: {DT}}}
output: {{folder: silo, every: 0.4}}
"""
run = rubble.Run.from_yaml(SCENE, name=os.path.abspath("silo.yaml"), threads=2)
run.step(run.total_steps)  # settled: 0.4 s
for w in (1, 2, 3, 4):  # the side walls slide up 0.05 mm in 0.1 s, then stop
    run.set_wall_motion(w, velocity=(0, 0, 0.0005))
run.step(50000)
for w in (1, 2, 3, 4):
    run.set_wall_motion(w)
run.step(50000)  # rest 0.1 s
n = (40, 40, 240)  # the box widened by c on each side: the kernels' tails beyond the walls
cg = rubble.CoarseGrain((-0.001, -0.001, -0.001), (L + 0.001, L + 0.001, 0.059), n, 0.001)
for k in range(5):
    run.step(2000)
    cg.add(run)
f = cg.fields()
g, c = run.grains(), run.contacts()
area = L * L
z = f.origin[2] + np.arange(n[2]) * f.spacing[2]
da = f.spacing[0] * f.spacing[1]
szz_int = -f.stress[..., 2, 2].sum(axis=(1, 2)) * da  # N: the vertical force across z
szz = szz_int / area
mass_int = f.density.sum(axis=(1, 2)) * da  # kg/m
top = np.percentile(g.position[:, 2], 98)
bulk = (z > 0.005) & (z < top - 0.005)
rho_b = mass_int[bulk].mean() / area
depth = top - z

# the walls: normal stress against depth (K at the wall), mobilized friction
side = c.wall >= 1
fn = np.linalg.norm(c.wall_fn[side], axis=1)
ft = c.wall_ft[side]
zc = c.wall_point[side, 2]
bins = np.arange(0.0, top, 0.004)
fn_bin, _ = np.histogram(zc, bins, weights=fn)
mid = 0.5 * (bins[1:] + bins[:-1])
inner = (mid > 0.005) & (mid < top - 0.005)
sigma_h = fn_bin / (4 * L * np.diff(bins))
K = sigma_h[inner].sum() / np.interp(mid[inner], z, szz).sum()
mu_mob = ft[:, 2].sum() / fn.sum()  # upward friction over normal force
R = area / (4 * L)


def janssen(d, mu):
    return rho_b * G * R / (mu * K) * (1 - np.exp(-mu * K * np.clip(d, 0, None) / R))


# the exact balance of each slab above z: the weight less the walls' vertical forces above,
# less the grains' m a (their net force) above, is the force across z
weight = np.array([G * g.mass[g.position[:, 2] > zz].sum() for zz in z])
walls_up = np.array([(c.wall_fn[side, 2] + c.wall_ft[side, 2])[zc > zz].sum() for zz in z])
ma = np.array([g.force[g.position[:, 2] > zz, 2].sum() for zz in z])
exact = weight - walls_up + ma
err_balance = np.abs(szz_int[bulk] - exact[bulk]).max() / exact[bulk].max()
err_given = np.abs(szz[bulk] - janssen(depth[bulk], MU)).max() / szz[bulk].max()
err_mob = np.abs(szz[bulk] - janssen(depth[bulk], mu_mob)).max() / szz[bulk].max()
sat = szz[bulk & (depth > 0.03)].mean()

fig, ax = plt.subplots(figsize=(6.8, 5.6))
ax.plot(szz[bulk], depth[bulk] * 1e3, "b-", lw=2, label=r"$-\sigma_{zz}$ (CG, 5 samples)")
ax.plot(exact[bulk] / area, depth[bulk] * 1e3, "c:", lw=2,
        label="(weight - walls' lift - m a) above / area")
ax.plot(janssen(depth, mu_mob)[bulk], depth[bulk] * 1e3, "r--", lw=1.5,
        label=fr"Janssen, $\mu_w$ = {mu_mob:.2f} (mobilized), K = {K:.2f} (walls)")
ax.plot(janssen(depth, MU)[bulk], depth[bulk] * 1e3, "k-.", lw=1,
        label=fr"Janssen, $\mu_w$ = {MU} (given), K = {K:.2f}")
ax.plot(rho_b * G * depth[bulk], depth[bulk] * 1e3, "g:", lw=1, label=r"hydrostatic $\rho_b g d$")
ax.set_xlim(0, 1.6 * szz[bulk].max())
ax.invert_yaxis()
ax.set_xlabel("vertical stress (Pa, compression)")
ax.set_ylabel("depth below the surface (mm)")
ax.set_title(f"square silo {L * 1e3:.0f} mm wide, {len(g.mass)} beads")
ax.legend(fontsize=8.5, loc="lower right")
fig.tight_layout()
fig.savefig(os.path.join(docs, "cg-silo.png"), dpi=100)

print("## A square silo: Janssen\n")
print(f"{len(g.mass)} beads (r 0.4 to 0.5 mm) settle for 0.4 s in a square column "
      f"{L * 1e3:.0f} mm wide (four plane walls and a floor, mu = {MU} for grains and walls); "
      "the side walls then slide up 0.05 mm in 0.1 s, so that their friction on the grains "
      "points up along the whole height, as Janssen assumes, stop, and the column rests 0.1 s. "
      f"The surface at {top * 1e3:.1f} mm. sigma_zz is the mean over the cross-section (the "
      "grid reaches c beyond the walls, so every kernel is whole), 5 samples over 0.02 s.\n")
print("    sigma_v(d) = rho_b g R / (mu_w K) (1 - exp(-mu_w K d / R)),   R = A / perimeter = L / 4\n")
print(f"with rho_b = {rho_b:.0f} kg/m^3 from the CG density, K = {K:.3f} the walls' normal stress "
      "(their contacts binned by height) over sigma_zz, and mu_w the walls' friction: the "
      f"given {MU}, or the mobilized {mu_mob:.3f} (their contacts' upward force over their "
      "normal force). Nothing is fitted.\n")
print("![silo](cg-silo.png)\n")
print("| check, in the bulk (5 mm from the floor and the surface) | largest difference |")
print("|---|---|")
print(f"| the force across each height (CG) against the exact balance of the grains above: "
      f"weight - the walls' vertical forces - sum m a | {err_balance:.1%} of the largest |")
print(f"| sigma_zz against Janssen, mobilized mu_w = {mu_mob:.3f} | {err_mob:.0%} of the "
      "largest |")
print(f"| sigma_zz against Janssen, given mu_w = {MU} | {err_given:.0%} of the largest |")
print(f"\nThe vertical stress saturates at about {sat:.0f} Pa below 30 mm, where the hydrostatic "
      f"rho_b g d would reach {rho_b * G * 0.05:.0f} Pa at 50 mm: the walls carry the rest. "
      "Janssen's law with the friction the walls actually carry describes the column; with "
      "the friction coefficient given it saturates lower, as the walls' contacts are not all "
      "sliding once the walls stop (a static column carries less than mu F_n). The column is "
      "8 beads wide, so the stress is not uniform over its section as Janssen assumes.")


# next to the walls (issue 74, docs/cg.md "Next to a wall"): the balance with the wall force
# density t, at every node through the boundary layers. Across x (the means over the grid's y
# and z nodes: the kernels reach no farther than the grid, so d/dy and d/dz of the mean
# vanish): sigma_xx(x) = -int_x t_x; up z (the cross-section's means): sigma_zz(z) =
# -g int_z rho - int_z t_z + the grains' m a above (their net force, as `ma`) per area.
hx, hz = f.spacing[0], f.spacing[2]
x = f.origin[0] + np.arange(n[0]) * hx
sxx_x = f.stress[..., 0, 0].mean(axis=(0, 1))
tx_x = f.wall_force[..., 0].mean(axis=(0, 1))
bal_x = -(np.cumsum(tx_x[::-1])[::-1] - 0.5 * tx_x) * hx
rho_z = f.density.mean(axis=(1, 2))
tz_z = f.wall_force[..., 2].mean(axis=(1, 2))
area_grid = (n[0] * f.spacing[0]) * (n[1] * f.spacing[1])
szz_z = f.stress[..., 2, 2].mean(axis=(1, 2))
above = lambda v: (np.cumsum(v[::-1])[::-1] - 0.5 * v) * hz  # noqa: E731
ma_z = np.array([g.force[g.position[:, 2] > zz, 2].sum() for zz in z]) / area_grid
bal_z = -G * above(rho_z) - above(tz_z) + ma_z
no_t = -G * above(rho_z) + ma_z
near_x = (x < 0.002) | (x > L - 0.002)  # within 2 c of a side wall, beyond it too
near_z = z < 0.002
scale_x, scale_z = np.abs(sxx_x).max(), np.abs(szz_z).max()
err_x = np.abs(sxx_x - bal_x)[near_x].max() / scale_x
err_z = np.abs(szz_z - bal_z)[near_z].max() / scale_z
err_z_all = np.abs(szz_z - bal_z).max() / scale_z
err_no_t = np.abs(szz_z - no_t)[near_z].max() / scale_z

fig, (a1, a2) = plt.subplots(1, 2, figsize=(10, 4.2))
a1.plot(x * 1e3, -sxx_x, "b-", label=r"$-\sigma_{xx}$ (CG)")
a1.plot(x * 1e3, -bal_x, "r--", label=r"$\int_x t_x$: the walls' force density")
a1.axvline(0, color="k", lw=0.5), a1.axvline(L * 1e3, color="k", lw=0.5)
a1.set_xlabel("x (mm), walls at 0 and 8"), a1.set_ylabel("Pa (compression), mean over y, z")
a1.legend(fontsize=8)
a2.plot(-szz_z, z * 1e3, "b-", label=r"$-\sigma_{zz}$ (CG)")
a2.plot(-bal_z, z * 1e3, "r--", label=r"$g\int_z\rho + \int_z t_z - \Sigma ma$")
a2.plot(-no_t, z * 1e3, "g:", label=r"without $t$")
a2.axhline(0, color="k", lw=0.5)
a2.set_ylim(-1, 6), a2.set_xlabel("Pa (compression), mean over the section")
a2.set_ylabel("z (mm), floor at 0"), a2.legend(fontsize=8)
fig.suptitle("the silo next to its walls: stress balance with the wall force density")
fig.tight_layout()
fig.savefig(os.path.join(docs, "cg-silo-wall.png"), dpi=100)
print("\n## Next to the walls: the wall force density\n")
print("The same silo's fields with the walls' force density t (docs/cg.md \"Next to a wall\"): "
      "across x, the mean over y and z of sigma_xx against -int_x t_x (no body force along x); "
      "up z, the section's mean sigma_zz against -g int_z rho - int_z t_z plus the grains' "
      "net force above per area (t holds the side walls' friction as well as the floor). "
      "Nodes c/4 apart, the midpoint rule.\n")
print("![silo walls](cg-silo-wall.png)\n")
print("| check | largest difference |")
print("|---|---|")
print(f"| sigma_xx within 2 c of each side wall (and beyond it) | {err_x:.2%} of the largest |")
print(f"| sigma_zz within 2 c of the floor (and below it) | {err_z:.2%} of the largest |")
print(f"| sigma_zz at every height | {err_z_all:.2%} of the largest |")
print(f"| the same without t, within 2 c of the floor | {err_no_t:.0%} of the largest |")
