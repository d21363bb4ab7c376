"""The angle of repose against sliding friction, swept from Python (docs/guide/heap.md).

A column of glass beads against a wall collapses onto a rough floor (a slice, periodic across);
for each friction coefficient the run goes on until the grains are still, and the slope of the
heap's free surface is measured from the grains. The scene, the stillness test and the slope
are examples/python/repose_sweep.py's (which sweeps rolling friction); here the sliding
friction changes. Writes heap.csv and heap.png into the folder given (default output/heap).

    PYTHONPATH=build/python /usr/bin/python3 docs/guide/heap_sweep.py [folder]
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "examples", "python"))
import repose_sweep  # noqa: E402  (the scene, settle() and heap_angle())

import rubble  # noqa: E402


def scene(friction, folder, column=(0.02, 0.04)):
    """repose_sweep's column (no rolling resistance) with this sliding friction; column:
    its width and height, m."""
    s = repose_sweep.scene(0.0, folder)
    s["contact"]["friction"] = friction
    s["grains"][0]["lattice"]["max"] = [column[0], 0.008, column[1]]
    return s


def main(folder="output/heap", values=(0.1, 0.2, 0.4, 0.8), column=(0.02, 0.04),
         most=200000):
    os.makedirs(folder, exist_ok=True)
    rows = []
    for mu in values:
        run = rubble.Run(scene(mu, os.path.join(folder, "mu_%g" % mu), column))
        t = repose_sweep.settle(run, most=most)
        angle = repose_sweep.heap_angle(run.grains())
        rows.append((mu, angle, t))
        print("friction %.2f: angle of repose %.1f degrees (still at %.2f s)" % (mu, angle, t))
        run.close()
    with open(os.path.join(folder, "heap.csv"), "w") as f:
        f.write("friction,angle_deg,settled_s\n")
        for r in rows:
            f.write("%g,%.3f,%.4f\n" % r)
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(5, 3.5))
    ax.plot([r[0] for r in rows], [r[1] for r in rows], "o-")
    ax.set_xlabel("sliding friction $\\mu$ (grains and walls)")
    ax.set_ylabel("angle of repose (degrees)")
    ax.set_title("A collapsed column of glass beads, 1 mm")
    fig.tight_layout()
    fig.savefig(os.path.join(folder, "heap.png"), dpi=100)
    return rows


if __name__ == "__main__":
    main(*sys.argv[1:2])
