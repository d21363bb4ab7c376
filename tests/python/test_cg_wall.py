"""Coarse-graining next to walls (issue 74; Weinhart et al., Granular Matter 14, 2012): each
wall contact in the contact stress along its branch from the grain's centre to the contact
point, and the wall force density t (their boundary interaction force density) about the
contact point, so that div sigma + rho g = t holds through the boundary layer. A settled bed
on a floor, and one between two side walls: sigma . n next to the wall = the wall's load per
area (thermo's wallK_f), the balance at every node, t integrating to the walls' loads."""
import os

import numpy as np
import pytest

import rubble
from rubble import frames

G = 9.81
SIDE = 0.006  # the box's side across the periodic axes (m)
BED = """\
domain: {min: [0, 0, -0.003], max: [0.006, 0.006, 0.02], periodic: PERIODIC}
gravity: [0, 0, -9.81]
materials: [{name: glass, density: 2500}]
contact: {normal: linear, tangential: spring, kn: 2000, restitution: 0.1, friction: 0.5,
          gamma_t: 0.01, rolling: {model: epsd2, friction: 0.1}, twisting: {model: marshall}}
walls: WALLS
grains:
  - lattice: {min: [LO, 0, 0.0001], max: [HI, 0.006, 0.008], spacing: 0.00105}
    radius: {distribution: uniform, min: 0.0004, max: 0.0005}
    velocity_spread: 0.05
run: {steps: 1, dt: 2.0e-6}
output: {folder: bed, every: 1, thermo_every: 1}
"""
FLOOR = "[{point: [0, 0, 0], normal: [0, 0, 1]}]"
SIDES = ("[{point: [0, 0, 0], normal: [0, 0, 1]}, {point: [0, 0, 0], normal: [1, 0, 0]}, "
         "{point: [0.006, 0, 0], normal: [-1, 0, 0]}]")


def settled(tmp_path, name, sides, threads=1):
    """About 175 beads of 0.8-1 mm settled on a floor (periodic in x and y), or between side
    walls at x = 0 and 6 mm (periodic in y), read at rest: the run, and the walls' loads (the
    force on each wall, N, from thermo.csv: 3 x walls).

    At rest means the grains' unbalanced forces (contacts and gravity, summed |F| along the
    load the test balances: z on the floor, x between the side walls) under 1e-3 of that load,
    so that inertia leaves at most 1e-3 in the balances below. A bead alone on the floor keeps
    an undamped tangential swing, a spin about the vertical and a roll unless the law damps
    them (gamma_t, twisting, rolling): without them the beds never came to rest (on the side
    walls the balance wandered 2e-3 to 1.5e-2 between 80k and 170k steps; docs/dem.md "A bed
    at rest makes no energy this way"). They come to rest in 50k to 100k steps."""
    text = (BED.replace("PERIODIC", "[y]" if sides else "[x, y]")
            .replace("WALLS", SIDES if sides else FLOOR)
            .replace("LO", "0.0003" if sides else "0").replace("HI", "0.0057" if sides else "0.006"))
    run = rubble.Run.from_yaml(text, name=str(tmp_path / f"{name}.yaml"),
                               output=tmp_path / name, threads=threads)
    axis = 0 if sides else 2
    run.step(50000)
    while True:
        run.write_thermo()
        th = frames.read_thermo(tmp_path / name / "thermo.csv")
        loads = np.array([[th[f"wall{w}_f{a}"][-1] for a in "xyz"] for w in (1, 2, 3) if
                          f"wall{w}_fx" in th])
        unbalanced = np.abs(run.grains().force[:, axis]).sum()
        if unbalanced < 1e-3 * abs(loads[1 if sides else 0, axis]):
            return run, loads
        assert run.step_count < 150000, (name, run.step_count, unbalanced, loads)
        run.step(10000)


def profile(run, axis, lo, hi, cells, width):
    """The fields along axis (0: x, 2: z), averaged over the other two over the box's whole
    extent (so every grain and contact counts): the nodes' coordinates, the fields, the
    averaged cross-section's area."""
    top = run.grains().position[:, 2].max() + 0.002
    box_lo, box_hi = [0.0, 0.0, -0.002], [SIDE, SIDE, top]
    box_lo[axis], box_hi[axis] = lo, hi
    n = [1, 1, 1]
    n[axis] = cells
    cg = rubble.CoarseGrain(tuple(box_lo), tuple(box_hi), tuple(n), width, "lucy",
                            average="yz" if axis == 0 else "xy")
    f = cg.add(run).fields()
    at = f.origin[axis] + np.arange(cells) * f.spacing[axis]
    area = np.prod([box_hi[a] - box_lo[a] for a in range(3) if a != axis])
    return at, f, area


def from_above(values, h):
    """The integral of a node profile from each node up (midpoint rule, half the node's
    own cell)."""
    return (np.cumsum(values[::-1])[::-1] - 0.5 * values) * h


def test_the_floor_traction_and_the_balance_through_the_boundary_layer(tmp_path):
    run, loads = settled(tmp_path, "floor", sides=False)
    g = run.grains()
    c = run.contacts()
    weight = g.mass.sum() * G
    traction = loads[0, 2] / SIDE**2  # the floor's load per area (Pa; < 0: pressed down)
    # settled: the floor carries the weight (what is left, sum m a, is the balance's residual)
    assert abs(-loads[0, 2] / weight - 1) < 2e-3, (loads, weight)
    # 1. next to the floor, between it and the lowest centres (z_min), only the wall
    # contacts' branches cross a plane: with a kernel (c = 0.15 mm) that reaches neither the
    # floor's contact points nor a centre, sigma_zz there is exactly the floor's load per
    # area (thermo's 8 digits; the line integral's Gauss rule on pieces of c / 2: 4e-7), and
    # the wall force density t is 0
    z_min = g.position[:, 2].min()
    width = 0.00015
    z, f, area = profile(run, 2, -0.0005, 0.001, 150, width)
    band = (z > width * 1.01) & (z < z_min - width * 1.01)
    assert band.sum() >= 5
    szz = f.stress[:, 0, 0, 2, 2]
    assert np.abs(szz[band] / traction - 1).max() < 2e-6, (szz[band], traction)
    assert np.abs(f.wall_force[band]).max() == 0.0
    # ... and from the contacts themselves
    assert np.abs(szz[band] / ((c.wall_fn + c.wall_ft)[:, 2].sum() / -SIDE**2) - 1).max() < 2e-6
    # 2. the momentum balance at rest, at every node from 2 mm below the floor to above the
    # surface, through the boundary layer: sigma_zz(z) = -g int_z rho - int_z t_z, with
    # Lucy's c = 1 mm (a grain's diameter) and nodes c / 13 apart (the midpoint rule's
    # error on these C2 fields: 1e-3), within 0.5 % of the bottom's stress; without t the
    # layer within c of the floor is off by the whole traction
    z, f, area = profile(run, 2, -0.002, 0.012, 180, 0.001)
    h = f.spacing[2]
    szz = f.stress[:, 0, 0, 2, 2]
    rho, t = f.density[:, 0, 0], f.wall_force[:, 0, 0]
    balance = -G * from_above(rho, h) - from_above(t[:, 2], h)
    err = np.abs(szz - balance).max() / abs(traction)
    assert err < 5e-3, err
    assert np.abs(szz + G * from_above(rho, h)).max() / abs(traction) > 0.4  # t matters
    # 3. sum rules: t integrates to the floor's load, the density to the mass
    assert np.abs(t.sum(axis=0) * h * area - loads[0]).max() < 1e-6 * abs(loads[0, 2])
    assert abs(rho.sum() * h * area / g.mass.sum() - 1) < 1e-6


def test_side_walls_balance_the_lateral_stress(tmp_path):
    run, loads = settled(tmp_path, "sides", sides=True)
    c = run.contacts()
    # profiles across x, averaged over y and over z (the whole bed and its floor): no body
    # force along x, so sigma_xx(x) = -int_x t_x (the floor's friction in t too)
    x, f, area = profile(run, 0, -0.0015, 0.0075, 130, 0.001)
    h = f.spacing[0]
    sxx, t = f.stress[0, 0, :, 0, 0], f.wall_force[0, 0]
    balance = -from_above(t[:, 0], h)
    err = np.abs(sxx - balance).max() / np.abs(sxx).max()
    assert err < 5e-3, err
    assert np.abs(t.sum(axis=0) * h * area - loads.sum(axis=0)).max() < 1e-6 * abs(loads[0, 2])
    # next to each side wall, between it and the nearest centres, only its contacts'
    # branches cross a plane x = const: sigma_xx there = its load per area (x: pressed)
    width = 0.00015
    x, f, area = profile(run, 0, -0.0005, SIDE + 0.0005, 700, width)
    centres = run.grains().position[:, 0]
    for lo, hi, load in ((0.0, centres.min(), loads[1, 0]),
                         (centres.max(), SIDE, -loads[2, 0])):
        band = (x > lo + width * 1.01) & (x < hi - width * 1.01)
        assert band.sum() >= 3, (lo, hi)
        sxx = f.stress[0, 0, band, 0, 0]
        assert np.abs(sxx / (load / area) - 1).max() < 2e-6, (sxx, load / area)
    assert (c.wall == 1).sum() > 5 and (c.wall == 2).sum() > 5


@pytest.mark.skipif(bool(os.environ.get("RBL_TEST_SLOW_BUILD")),
                    reason="two settled beds (10 s in release): the threads' bits are the "
                           "release pass's; the sanitizers run the same code in the tests above")
def test_the_same_bits_on_one_and_two_threads(tmp_path):
    """The bed on the floor settled on 1 and on 2 threads (the same bits), coarse-grained by
    each (the threads split the grid's x layers): every field the same bits, t too."""
    fields = []
    for threads in (1, 2):
        run, _ = settled(tmp_path, f"t{threads}", sides=False, threads=threads)
        cg = rubble.CoarseGrain((0, 0, -0.002), (SIDE, SIDE, 0.004), (12, 12, 24), 0.001)
        fields.append(cg.add(run).fields())
    for key in ("density", "velocity", "stress", "fabric", "wall_force"):
        assert np.array_equal(getattr(fields[0], key), getattr(fields[1], key)), key
    assert np.abs(fields[0].wall_force[..., 2]).max() > 0
