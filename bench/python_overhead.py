"""The cost of stepping from Python against `rubble run` (issue 42's bar: at most 1 % at 1e4+
grains). The same scene (a bed of 10^4 grains settling on a floor, one thread) run by the CLI
with --steps N, by Python at once (run.step(N)), and by Python in pieces of 100 steps reading
the grains' arrays after each; interleaved, best of `repeats`. Prints particle-steps per second
(the CLI's as its report counts them, the stepping's wall time; Python's over the wall time of
its whole loop) and peak memory, writes
docs/bench/python-overhead.csv.

    PYTHONPATH=build/python /usr/bin/python3 bench/python_overhead.py [build/rubble] [steps]
"""
import os
import re
import resource
import subprocess
import sys
import tempfile
import time

import rubble

SCENE = """\
domain: {min: [0, 0, 0], max: [0.05, 0.05, 0.1]}
gravity: [0, 0, -9.81]
materials:
  - {name: glass, density: 2500}
contact: {normal: linear, tangential: spring, kn: 2000, restitution: 0.5, friction: 0.5}
walls:
  - {point: [0, 0, 0], normal: [0, 0, 1]}
grains:
  - lattice: {min: [0, 0, 0.0], max: [0.05, 0.05, 0.1], count: 10000}
    radius: 0.001
    velocity_spread: 0.05
run: {steps: 100000, dt: auto}
output: {every: 1000}
"""


def cli(rubble_bin, path, out, steps):
    text = subprocess.run([rubble_bin, "run", path, "--output", out, "--steps", str(steps),
                           "--threads", "1", "--quiet"], check=True, capture_output=True,
                          text=True).stdout
    return float(re.search(r"speed\s+([0-9.e+]+) particle-steps/s", text).group(1))


def python(path, out, steps, pieces):
    """The particle-steps per second of the whole Python loop's wall time (the array reads
    between the pieces included)."""
    run = rubble.Run(path, output=out, threads=1, steps=steps)
    grains = run.grains().id.size
    start = time.perf_counter()
    if pieces:
        while run.step_count < steps:
            run.step(min(pieces, steps - run.step_count))
            run.grains().position.sum()
    else:
        run.step(steps)
    wall = time.perf_counter() - start
    run.close()
    return grains * steps / wall


def main(rubble_bin="build/rubble", steps=3000, repeats=3):
    steps = int(steps)
    work = tempfile.mkdtemp()
    path = os.path.join(work, "bed.yaml")
    with open(path, "w") as f:
        f.write(SCENE)
    best = {"cli": 0.0, "python": 0.0, "python_pieces_100": 0.0}
    for r in range(repeats):
        best["cli"] = max(best["cli"], cli(rubble_bin, path, os.path.join(work, "c"), steps))
        best["python"] = max(best["python"], python(path, os.path.join(work, "p"), steps, 0))
        best["python_pieces_100"] = max(best["python_pieces_100"],
                                        python(path, os.path.join(work, "q"), steps, 100))
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
    lines = ["way,particle_steps_per_second,vs_cli"]
    for k, v in best.items():
        lines.append("%s,%.4g,%.4f" % (k, v, v / best["cli"]))
        print("%-18s %.4g particle-steps/s  (%.2f %% of the CLI's)" % (k, v, 100 * v / best["cli"]))
    print("peak memory of the Python process: %.0f MiB (10^4 grains, %d steps)" % (peak, steps))
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "bench",
                       "python-overhead.csv")
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main(*sys.argv[1:3])
