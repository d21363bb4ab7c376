"""A custom force through the hook: beads in a liquid, buoyant and dragged.

Beads of two densities, lighter and heavier than the liquid (1500 kg/m^3, 10 mPa s), start
mixed in a closed box. Every 10 steps a hook sets each bead's external force: buoyancy
rho_f V g upwards and Stokes drag -6 pi mu r v. The light beads rise to the top, the heavy ones
sink, each towards its terminal speed (rho - rho_f) V g / (6 pi mu r).

    PYTHONPATH=build/python /usr/bin/python3 examples/python/buoyant_grains.py [folder]
"""
import math
import os
import sys

import numpy as np

import rubble

RHO_F, MU, G = 1500.0, 0.01, 9.81


def scene(folder):
    box = [0.02, 0.02, 0.04]
    region = {"min": [0, 0, 0.005], "max": [0.02, 0.02, 0.035]}
    return {
        "domain": {"min": [0, 0, 0], "max": box},
        "gravity": [0, 0, -G],
        "materials": [{"name": "light", "density": 1000}, {"name": "heavy", "density": 2500}],
        "contact": {"normal": "linear", "tangential": "spring", "kn": 500, "restitution": 0.3,
                    "friction": 0.3},
        "walls": [{"point": p, "normal": n, "material": "heavy"} for p, n in (
            ([0, 0, 0], [0, 0, 1]), ([0, 0, box[2]], [0, 0, -1]), ([0, 0, 0], [1, 0, 0]),
            ([box[0], 0, 0], [-1, 0, 0]), ([0, 0, 0], [0, 1, 0]), ([0, box[1], 0], [0, -1, 0]))],
        "grains": [{"random": dict(region, count=150), "radius": 0.001, "material": "light",
                    "seed": 1},
                   {"random": dict(region, count=150), "radius": 0.001, "material": "heavy",
                    "seed": 2}],
        "run": {"time": 10.0, "dt": "auto"},
        "output": {"folder": folder, "every": 0.05},
    }


def liquid(run):
    """Buoyancy and Stokes drag on every bead, as the beads are now."""
    g = run.grains()
    volume = g.mass / np.where(g.material == 0, 1000.0, 2500.0)
    f = run.external_forces()
    f[:] = -6 * math.pi * MU * g.radius[:, None] * g.velocity
    f[:, 2] += RHO_F * volume * G


def main(folder="output/buoyant"):
    run = rubble.Run(scene(folder))
    run.hook(10, liquid)
    g = run.grains()
    light = g.material == 0
    print("start: mean height light %.4f m, heavy %.4f m"
          % (g.position[light, 2].mean(), g.position[~light, 2].mean()))
    run.until(0.6)
    g = run.grains()
    light = g.material == 0
    zl, zh = g.position[light, 2].mean(), g.position[~light, 2].mean()
    def terminal(rho):
        return (rho - RHO_F) * (4 / 3 * math.pi * 1e-9) * G / (6 * math.pi * MU * 1e-3)

    print("t = %.2f s: mean height light %.4f m, heavy %.4f m (alone, light beads would rise "
          "at %.3f m/s, heavy ones sink at %.3f m/s)"
          % (run.time, zl, zh, -terminal(1000.0), terminal(2500.0)))
    run.close()
    return zl, zh


if __name__ == "__main__":
    main(*sys.argv[1:2])
