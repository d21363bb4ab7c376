"""Angle of repose against rolling friction: a parameter sweep driven from Python.

A column of glass beads against a wall collapses onto a rough floor (a slice, periodic across);
for each rolling friction the run goes until the grains are still, and the slope of the heap's
free surface is measured from the grains themselves. Rolling resistance holds a steeper heap.
Writes repose.csv and repose.png (matplotlib) into the folder given (default: output/repose).

    PYTHONPATH=build/python /usr/bin/python3 examples/python/repose_sweep.py [folder]
"""
import math
import os
import sys

import numpy as np

import rubble

RADIUS = 0.001


def scene(rolling, folder):
    contact = {"normal": "linear", "tangential": "spring", "kn": 500, "restitution": 0.3,
               "friction": 0.5}
    if rolling > 0:
        contact["rolling"] = {"model": "epsd2", "friction": rolling}
    return {
        "domain": {"min": [0, 0, 0], "max": [0.07, 0.008, 0.05], "periodic": ["y"]},
        "gravity": [0, 0, -9.81],
        "materials": [{"name": "glass", "density": 2500}],
        "contact": contact,
        "walls": [{"point": [0, 0, 0], "normal": [0, 0, 1]},
                  {"point": [0, 0, 0], "normal": [1, 0, 0]}],
        "grains": [{"lattice": {"min": [0, 0, 0], "max": [0.02, 0.008, 0.04]},
                    "radius": RADIUS, "velocity_spread": 0.01, "seed": 3}],
        "run": {"time": 10.0, "dt": "auto"},
        "output": {"folder": folder, "every": 0.05},
    }


def heap_angle(grains):
    """The free surface's slope, degrees: the top of each 2 mm column of grains, fitted by a
    line between 20 % and 80 % of the heap's height."""
    x, z = grains.position[:, 0], grains.position[:, 2] + grains.radius
    edges = np.arange(0.0, x.max() + 0.002, 0.002)
    tops = [(0.5 * (a + b), z[(x >= a) & (x < b)].max())
            for a, b in zip(edges[:-1], edges[1:]) if np.any((x >= a) & (x < b))]
    xs, hs = np.array(tops).T
    keep = (hs > 0.2 * hs.max()) & (hs < 0.8 * hs.max())
    slope = np.polyfit(xs[keep], hs[keep], 1)[0]
    return math.degrees(math.atan(-slope))


def settle(run, every=2000, still=1e-3, most=200000):
    """Step until the fastest grain is slower than `still` m/s (or `most` steps)."""
    while run.step_count < most:
        run.step(every)
        if np.abs(run.grains().velocity).max() < still:
            break
    return run.time


def main(folder="output/repose", values=(0.0, 0.1, 0.4)):
    os.makedirs(folder, exist_ok=True)
    rows = []
    for mu_r in values:
        run = rubble.Run(scene(mu_r, os.path.join(folder, "mu_r_%g" % mu_r)))
        t = settle(run)
        angle = heap_angle(run.grains())
        rows.append((mu_r, angle, t))
        print("rolling friction %.2f: angle of repose %.1f degrees (still at %.2f s)"
              % (mu_r, angle, t))
        run.close()
    with open(os.path.join(folder, "repose.csv"), "w") as f:
        f.write("rolling_friction,angle_deg,settled_s\n")
        for r in rows:
            f.write("%g,%.3f,%.4f\n" % r)
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(5, 3.5))
    ax.plot([r[0] for r in rows], [r[1] for r in rows], "o-")
    ax.set_xlabel("rolling friction $\\mu_r$ (epsd2)")
    ax.set_ylabel("angle of repose (degrees)")
    ax.set_title("A collapsed column of glass beads, 1 mm")
    fig.tight_layout()
    fig.savefig(os.path.join(folder, "repose.png"), dpi=100)
    return rows


if __name__ == "__main__":
    main(*sys.argv[1:2])
