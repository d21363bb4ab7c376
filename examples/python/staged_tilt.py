"""A staged run: fill, settle, tilt until it avalanches.

Stage 1 pours beads into a periodic slab above a rough floor; stage 2 steps until they are
still; stage 3 turns gravity 2 degrees at a time about y, letting the bed settle after each
turn, until it flows (the mean downslope speed passes 5 cm/s): the angle it went at is the
bed's avalanche angle. Frames of every stage go to one series (grains.pvd in the folder).

    PYTHONPATH=build/python /usr/bin/python3 examples/python/staged_tilt.py [folder]
"""
import math
import os
import sys

import numpy as np

import rubble


def scene(folder):
    return {
        "domain": {"min": [0, 0, 0], "max": [0.03, 0.01, 0.04], "periodic": ["x", "y"]},
        "gravity": [0, 0, -9.81],
        "materials": [{"name": "glass", "density": 2500}],
        "contact": {"normal": "linear", "tangential": "spring", "kn": 500, "restitution": 0.3,
                    "friction": 0.5, "rolling": {"model": "epsd2", "friction": 0.3}},
        "walls": [{"point": [0, 0, 0], "normal": [0, 0, 1]}],
        "grains": [{"lattice": {"min": [0, 0, 0], "max": [0.03, 0.01, 0.002]},
                    "radius": 0.001}],   # a layer glued by friction to the floor: its roughness
        "run": {"time": 100.0, "dt": "auto"},
        "output": {"folder": folder, "every": 0.05},
    }


def still(run, speed=2e-3, chunk=1000, most=100000):
    start = run.step_count
    while run.step_count - start < most:
        run.step(chunk)
        if np.abs(run.grains().velocity).max() < speed:
            return True
    return False


def main(folder="output/staged_tilt"):
    run = rubble.Run(scene(folder))
    # stage 1: fill, a batch at a time above the floor layer
    for batch in range(6):
        placed = run.pour((0, 0, 0.004), (0.03, 0.01, 0.012), 80, 0.001, seed=batch + 1)
        run.step(3000)
        print("stage 1: batch %d, %d grains placed" % (batch + 1, placed))
    # stage 2: settle
    assert still(run), "the bed did not settle"
    n = run.grains().id.size
    print("stage 2: %d grains still at t = %.3f s" % (n, run.time))
    run.write_frame()
    # stage 3: tilt
    g0 = 9.81
    angle = 0
    while angle < 60:
        angle += 2
        theta = math.radians(angle)
        run.gravity = (g0 * math.sin(theta), 0.0, -g0 * math.cos(theta))
        run.step(4000)
        speed = float(np.mean(run.grains().velocity[:, 0]))
        print("stage 3: %2d degrees, mean downslope speed %.4f m/s" % (angle, speed))
        if speed > 0.05:
            break
        still(run, most=20000)
    run.write_frame()
    report = run.summary()
    run.close()
    print("the bed avalanched at %d degrees (%d grains, %d frames, energy put in by the "
          "stages %.3g J)" % (angle, n, report["frames"], report["energy_in"]))
    return angle, n


if __name__ == "__main__":
    main(*sys.argv[1:2])
