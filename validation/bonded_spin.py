"""bonded_spin.py — the bonded rubble pile spun up (issue 72 item 5, the asteroid case): the
spin at which its bonds must have given way, from the statics of a part of the body cut off by
a plane, against what the run did (validation/bonded_spin.sh; docs/validation/bonded_spin.md).

The bound. Cut the body by a plane parallel to the spin axis a (through the centre of mass c,
unit normal e perpendicular to a, at offset o along e). In the frame turning with the body at
rest, the part beyond the plane (P: (x - c).e > o) is held by the forces across the plane:
    F(w) = w^2 sum_P m (x - c).e  -  sum_{i in P, j not in P} G m_i m_j (x_j - x_i).e / |x_j - x_i|^3
must be carried outward-pulling across it. Contacts push, never pull (no cohesion), so the
bonds crossing the plane carry at least F(w); bond b carries along e at most its normal
force's strength sigma_t A_b |n_b.e| plus its shear force's tau_c A_b sqrt(1 - (n_b.e)^2)
(A_b = pi (lambda min(r_i, r_j))^2; its moments only lower what it can carry). So the body
cannot hold at w above
    w_max(e, o)^2 = (sum_cross capacity + gravity's pull) / sum_P m (x - c).e,
whichever plane: the least over planes, w_max, is a spin at which (held long enough to settle)
the bonds across the weakest plane must all be broken, the two sides no longer joined by any
chain of intact bonds. This is an upper bound on the spin at which the body comes apart; the
first bonds break below it where the load is not shared evenly (the stress of a spinning,
self-gravitating elastic sphere is largest at its centre).

Usage: bonded_spin.py predict GRAINS.vtp BONDS.vtp AXIS SIGMA_T TAU_C LAMBDA G
       bonded_spin.py fragments RUN_FOLDER OUT.csv
"""
import glob
import math
import os
import sys

import numpy as np

from rubble import frames


def body(grains_path, bonds_path):
    g = frames.read(grains_path)
    b = frames.read(bonds_path)
    ids = g.point_data["id"].astype(np.int64)
    index = {int(k): n for n, k in enumerate(ids)}
    pairs = np.array([[index[int(i)], index[int(j)]] for i, j in b.cell_data["ids"]],
                     dtype=np.int64).reshape(-1, 2)
    return (g.points, g.point_data["mass"], g.point_data["radius"], pairs,
            b.cell_data["intact"].astype(bool))


def planes(axis, count=36):
    """Unit normals perpendicular to the axis, every 180/count degrees."""
    a = np.asarray(axis, float) / np.linalg.norm(axis)
    u = np.cross(a, [1.0, 0.0, 0.0] if abs(a[0]) < 0.9 else [0.0, 1.0, 0.0])
    u /= np.linalg.norm(u)
    v = np.cross(a, u)
    return [math.cos(t) * u + math.sin(t) * v for t in np.linspace(0, math.pi, count,
                                                                    endpoint=False)]


def bound(x, m, r, pairs, axis, sigma_t, tau_c, lam, G, offsets=np.linspace(-0.5, 0.5, 11)):
    """(w_max, e, o, mass beyond, capacity, pull, lever) of the weakest plane."""
    c = (m[:, None] * x).sum(0) / m.sum()
    rel = x - c
    size = np.sqrt((rel ** 2).sum(1)).max()
    d = x[None, :, :] - x[:, None, :]              # x_j - x_i
    dist3 = (np.sqrt((d ** 2).sum(2)) ** 3)
    np.fill_diagonal(dist3, np.inf)
    area = math.pi * (lam * np.minimum(r[pairs[:, 0]], r[pairs[:, 1]])) ** 2
    nb = x[pairs[:, 1]] - x[pairs[:, 0]]
    nb /= np.sqrt((nb ** 2).sum(1))[:, None]
    best = None
    for e in planes(axis):
        s = rel @ e
        pull_all = G * m[:, None] * m[None, :] * (d @ e) / dist3  # on i from j, along e
        for f in offsets:
            o = f * size
            part = s > o
            if part.sum() < 2 or (~part).sum() < 2:
                continue
            lever = (m[part] * s[part]).sum()
            if lever <= 0:
                continue
            pull = -pull_all[np.ix_(part, ~part)].sum()   # the rest pulls P back: > 0
            cross = part[pairs[:, 0]] != part[pairs[:, 1]]
            ce = np.abs(nb[cross] @ e)
            cap = (area[cross] * (sigma_t * ce + tau_c * np.sqrt(np.maximum(0, 1 - ce ** 2)))).sum()
            w = math.sqrt((cap + pull) / lever)
            if best is None or w < best[0]:
                best = (w, e, o, m[part].sum(), cap, pull, lever, int(cross.sum()))
    return best


def largest_fragment(run, k):
    """The largest fragment's mass and the count of fragments at frame k, from the run's
    fragments_k.csv (connected components of the intact bonds, docs/bonds.md "Fragments")."""
    f = np.genfromtxt(os.path.join(run, f"fragments_{k}.csv"), delimiter=",", names=True,
                      ndmin=1)
    return f["mass"].max(), len(f)


def main():
    if sys.argv[1] == "predict":
        gp, bp, axis, st, tc, lam, G = sys.argv[2:9]
        x, m, r, pairs, _ = body(gp, bp)
        axis = [float(a) for a in axis.split(",")]
        w, e, o, mp, cap, pull, lever, n = bound(x, m, r, pairs, axis, float(st), float(tc),
                                                 float(lam), float(G))
        print(f"{w:.10g} {o:.6g} {mp / m.sum():.6g} {cap:.6g} {pull:.6g} {lever:.6g} {n}"
              f" {e[0]:.6g},{e[1]:.6g},{e[2]:.6g}")
    elif sys.argv[1] == "fragments":
        run, out = sys.argv[2:4]
        series = frames.read_pvd(os.path.join(run, "grains.pvd"))
        with open(out, "w") as f:
            f.write("time,intact,largest_fragment_mass_fraction,fragments,detached\n")
            for t, path in series:
                path = path if os.path.exists(path) else os.path.join(run, path)
                k = os.path.basename(path).split("_")[1].split(".")[0]
                bonds = os.path.join(run, f"bonds_{k}.vtp")
                g = frames.read(path)
                x, m = g.points, g.point_data["mass"]
                c = (m[:, None] * x).sum(0) / m.sum()
                detached = int((np.sqrt(((x - c) ** 2).sum(1)) > 12.0).sum())
                if os.path.exists(bonds):
                    x, m, r, pairs, intact = body(path, bonds)
                    big, count = largest_fragment(run, k)
                    f.write(f"{t:.10g},{int(intact.sum())},{big / m.sum():.6g},{count},{detached}\n")
                else:
                    f.write(f"{t:.10g},,,,{detached}\n")
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main()
