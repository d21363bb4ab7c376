"""validation/wall_loads.sh's helpers:

    python3 validation/wall_loads.py refine STL LEVELS     an ASCII STL's facets each cut in
                                                          4^LEVELS (edges halved), to stdout
    python3 validation/wall_loads.py compare DOCS GRAINS STEPS DT
                                                          rubble's walls frames against
                                                          LIGGGHTS's dump mesh/vtk: writes
                                                          DOCS/wall-loads.md and .png
"""
import sys

import numpy as np


def refine(path, levels):
    tris, corners = [], []
    for line in open(path):
        w = line.split()
        if w and w[0] == "vertex":
            corners.append(np.array([float(x) for x in w[1:4]]))
            if len(corners) == 3:
                tris.append(corners)
                corners = []
    for _ in range(levels):
        cut = []
        for a, b, c in tris:
            ab, bc, ca = (a + b) / 2, (b + c) / 2, (c + a) / 2
            cut += [[a, ab, ca], [ab, b, bc], [ca, bc, c], [ab, bc, ca]]
        tris = cut
    out = ["solid refined"]
    for t in tris:
        n = np.cross(t[1] - t[0], t[2] - t[0])
        out.append("facet normal %r %r %r\n outer loop" % tuple(n / np.linalg.norm(n)))
        out += ["  vertex %r %r %r" % tuple(v) for v in t]
        out.append(" endloop\nendfacet")
    print("\n".join(out + ["endsolid refined"]))


def legacy_vtk(path):
    """LIGGGHTS's dump mesh/vtk (ASCII legacy VTK 5.1): each facet's centroid, its cell
    fields (normal_stress_average, shear_stress_average, stress: the force per area, wear,
    area)."""
    words = open(path).read().split()
    at = words.index("POINTS")
    n = int(words[at + 1])
    points = np.array(words[at + 3:at + 3 + 3 * n], float).reshape(-1, 3)
    at = words.index("CONNECTIVITY")
    m = int(words[words.index("POLYGONS") + 2])
    conn = np.array(words[at + 2:at + 2 + m], int).reshape(-1, 3)
    at = words.index("FIELD")
    cells, k = {}, at + 3
    for _ in range(int(words[at + 2])):
        name, comps, count = words[k], int(words[k + 1]), int(words[k + 2])
        vals = np.array(words[k + 4:k + 4 + comps * count], float)
        cells[name] = vals.reshape(count, comps) if comps > 1 else vals
        k += 4 + comps * count
    return points[conn].mean(axis=1), cells


def matched(lig, rbl):
    """LIGGGHTS's facets and rubble's (its walls frame) in the same order, by centroid
    (LIGGGHTS writes its points as floats): (LIGGGHTS's fields, rubble's fields, area,
    centroid)."""
    from rubble import frames

    centre, L = legacy_vtk(lig)
    w = frames.read(rbl)
    conn, _ = w.cells
    p = w.points[conn.reshape(-1, 3)]
    d = np.linalg.norm(centre[:, None, :] - p.mean(axis=1)[None, :, :], axis=2)
    k = d.argmin(axis=1)
    assert d.min(axis=1).max() < 1e-6 and len(set(k)) == len(k), "facets do not match"
    area = 0.5 * np.linalg.norm(np.cross(p[:, 1] - p[:, 0], p[:, 2] - p[:, 0]), axis=1)
    return L, {name: v[k] for name, v in w.cell_data.items()}, area[k], centre


def one_step(lig, rbl):
    L, R, area, _ = matched(lig, rbl)
    force_l = L["stress"] * area[:, None]  # LIGGGHTS's "stress": the facet's force per area
    loaded = (np.abs(R["force"]).sum(axis=1) > 0) | (np.abs(force_l).sum(axis=1) > 0)
    top = np.abs(R["force"]).max()
    return dict(
        loaded=int(loaded.sum()), facets=len(area),
        force=np.abs(R["force"] - force_l).max() / top,
        pressure=np.abs(R["pressure"] - L["normal_stress_average"]).max() /
        R["pressure"].max(),
        shear=np.abs(R["shear"] - L["shear_stress_average"]).max() / R["shear"].max()
        if R["shear"].max() > 0 else 0.0,
        shear_l=L["shear_stress_average"].max(), total_r=R["force"].sum(axis=0),
        total_l=force_l.sum(axis=0), p_r=R["pressure"], p_l=L["normal_stress_average"])


def compare(docs, grains, steps, dt):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    mu0 = one_step("lig_el_1.vtk", "rbl_el/walls_000000.vtp")
    mu = one_step("lig_mu_1.vtk", "rbl_mu/walls_000001.vtp")
    L, R, area, centre = matched("lig_long_%d.vtk" % steps, "rbl_long/walls_000001.vtp")
    vol_r, vol_l = R["wear"] * area, L["wear"] * L["area"]
    edges = np.arange(0.0, 0.0801, 0.01)
    band = np.digitize(centre[:, 2], edges) - 1
    rows = []
    for b in range(len(edges) - 1):
        s = band == b
        rows.append((edges[b], edges[b + 1], vol_r[s].sum(), vol_l[s].sum()))
    fig, ax = plt.subplots(1, 2, figsize=(11, 4.4))
    top = max(mu["p_r"].max(), mu["p_l"].max())
    ax[0].plot([0, top], [0, top], color="0.7", lw=1)
    ax[0].plot(mu["p_l"], mu["p_r"], ".", ms=4)
    ax[0].set_xlabel("LIGGGHTS normal_stress_average (Pa)")
    ax[0].set_ylabel("rubble pressure (Pa)")
    ax[0].set_title("each facet's pressure, the same state, one step")
    mid = [(a + b) / 2 * 1000 for a, b, _, _ in rows]
    ax[1].barh(np.array(mid) - 1.5, [r[2] for r in rows], height=3, label="rubble")
    ax[1].barh(np.array(mid) + 1.5, [r[3] for r in rows], height=3, label="LIGGGHTS 3.8")
    ax[1].set_xlabel("volume worn (m$^3$, Finnie, k = 1e-9 / Pa)")
    ax[1].set_ylabel("height of the facets (mm)")
    ax[1].set_title("wear over %.2g s of discharge" % (steps * dt))
    ax[1].legend()
    fig.tight_layout()
    fig.savefig(docs + "/wall-loads.png", dpi=110)
    tot_r, tot_l = vol_r.sum(), vol_l.sum()
    with open(docs + "/wall-loads.md", "w") as f:
        f.write(f"""# Mesh walls' loads and wear per facet (validation/wall_loads.sh)

The hopper of [silo.md](silo.md) (examples/hopper.stl, periodic slice of 10 mm), each of its
STL's 8 facets cut in 64: 512 facets of about 5 mm². rubble poured {grains} glass beads
(r 0.9-1 mm, linear law with absolute damping, k_n = 2000 N/m, dt = {dt:g} s) and let them
flow 0.25 s; that state (positions and velocities) is read by rubble and by LIGGGHTS 3.8
(`fix mesh/surface/stress ... wear finnie`, `dump mesh/vtk ... stress stresscomponents wear
area`; 2 MPI ranks). Facets are matched by their centroids.

## The same state, one step

Largest difference over the facets between rubble's `output.wall_loads` frame and
LIGGGHTS's dump, relative to the largest value:

| | facets loaded | force per facet | pressure | shear |
|---|---|---|---|---|
| the same positions, elastic and frictionless | {mu0['loaded']} of {mu0['facets']} | {mu0['force']:.1e} | {mu0['pressure']:.1e} | none in either |
| the same state, one step, the whole law (mu = 0.5) | {mu['loaded']} of {mu['facets']} | {mu['force']:.1e} | {mu['pressure']:.1e} | {mu['shear']:.1e} |

On the same positions (LIGGGHTS's after one elastic, frictionless step, written with 17
digits and evaluated by rubble: only the positions matter to such a law) each facet's
force and pressure agree to round-off and LIGGGHTS's printed digits: the same contacts go to
the same facets. Stepped once from the same state, the programs start from different
forces: LIGGGHTS's set-up evaluation (before `run`'s first step) gives some mesh contacts
forces other than its steps give (up to 56 times larger on a grain, in this state), and it
leaves the tangential spring out of it (see [network.md](network.md)); so the first step's
positions differ by up to 2e-9 m, the facets' pressure by {mu['pressure']:.0e} and their
shear, made of the tangential forces, by {mu['shear']:.0e}.

## Wear over {steps * dt:.2g} s of discharge

From the same state, {steps} steps in each program with Finnie's wear (k = 1e-9 /Pa, the
LIGGGHTS definition: 2 k |v| |F| E(angle) dt / area while the grain approaches; rubble.h
`rbl_sim_set_mesh_wear`). Each program follows its own trajectories from there, so this is a
statistical comparison: the volume worn in bands of facets by height.

| facets' height (mm) | rubble (m³) | LIGGGHTS (m³) | difference |
|---|---|---|---|
""")
        for a, b, r, l in rows:
            diff = "%+.1f %%" % (100 * (l - r) / r) if r > 0 else "-"
            f.write(f"| {a * 1000:.0f}-{b * 1000:.0f} | {r:.4g} | {l:.4g} | {diff} |\n")
        f.write(f"| all | {tot_r:.4g} | {tot_l:.4g} | {100 * (tot_l - tot_r) / tot_r:+.1f} % |\n")
        f.write("""
![each facet's pressure after one step, and the wear by height](wall-loads.png)

The wear concentrates on the inclined walls near the slot, where the flow is fastest and
meets the walls at an angle; the vertical walls above see grains sliding parallel to them
(Finnie's E = 0 at a grazing angle) and do not wear.
""")


if __name__ == "__main__":
    if sys.argv[1] == "refine":
        refine(sys.argv[2], int(sys.argv[3]))
    else:
        compare(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5]))
