"""A bonded sample built from Python and pulled apart: its tensile strength (issue 72).

A bar of k x k x L touching spheres (radius 1 mm, no gravity) is glued by Run.add_bonds
(Potyondy & Cundall's parallel bond, docs/bonds.md) and pulled by external forces +-F spread
over its two end layers, F raised by 1 % every 200 steps (quasi-static: the bonds' dashpots at
0.7 of critical). Each of the k^2 chains along the bar carries F / k^2 in pure tension, so the
bar holds until F / k^2 = sigma_c pi R^2: the strength measured (the last F held and the first
that broke a bond) against k^2 sigma_c pi R^2.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/bonded_strength.py [folder]
"""
import math
import os
import sys

import numpy as np

import rubble

R, SIGMA_C = 1e-3, 1e4  # m, Pa


def scene(folder, k, length):
    top = 2 * R * length
    return {
        "domain": {"min": [-0.01, -0.01, -0.01], "max": [0.01 + 2 * R * k, 0.01 + 2 * R * k,
                                                          0.01 + top]},
        "materials": [{"name": "rock", "density": 2500}],
        "contact": {"normal": "linear", "damping": "linear", "tangential": "none", "kn": 1000,
                    "gamma_n": 0.0},
        "grains": [{"lattice": {"min": [0, 0, 0], "max": [2.01 * R * k, 2.01 * R * k,
                                                          top + 0.01 * R], "spacing": 2 * R},
                    "radius": R}],
        "run": {"steps": 10 ** 7, "dt": 2e-6},
        "output": {"folder": folder},
    }


def main(folder="output/bonded_strength", k=2, length=4):
    run = rubble.Run(scene(folder, k, length), output=folder)
    made = run.add_bonds(youngs_modulus=1e6, tensile_strength=SIGMA_C, shear_strength=1e9,
                         stiffness_ratio=2, damping=0.7, gap=1e-9)
    z = np.array(run.grains().position)[:, 2]
    ends = (z < z.min() + R / 2, z > z.max() - R / 2)
    closed = k * k * SIGMA_C * math.pi * R * R
    held, force = 0.0, 0.5 * closed
    while True:
        fext = run.external_forces()
        fext[:] = 0.0
        fext[ends[0], 2] = -force / ends[0].sum()
        fext[ends[1], 2] = force / ends[1].sum()
        run.step(200)
        if not run.bonds().intact.all():
            break
        held, force = force, force * 1.01
    run.close()
    print(f"{made} bonds; the bar held {held:.5g} N and broke at {force:.5g} N: "
          f"k^2 sigma_c pi R^2 = {closed:.5g} N ({(held + force) / 2 / closed - 1:+.2%})")
    return held, force, closed


if __name__ == "__main__":
    main(*(sys.argv[1:2] or [os.path.join("output", "bonded_strength")]))
