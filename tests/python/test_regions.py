"""Source regions other than boxes (issue 44): random grains and lattices in a cylinder or a
sphere lie entirely inside it; `volume_fraction` sets the count that fills that share of the
region (on average); the scene's errors."""
import math

import numpy as np
import pytest

import rubble

SCENE = """\
domain: {min: [-0.05, -0.05, 0], max: [0.05, 0.05, 0.1]}
materials: [{name: glass, density: 2500}]
contact: {normal: linear, tangential: none, kn: 2000, gamma_n: 0.001}
grains:
  - random: {cylinder: {from: [0, 0, 0.01], to: [0, 0, 0.09], radius: 0.03}, volume_fraction: 0.2}
    radius: {distribution: uniform, min: 0.001, max: 0.0015}
  - lattice: {sphere: {centre: [0.04, 0.04, 0.05], radius: 0.008}}
    radius: 0.001
run: {steps: 1, dt: auto}
output: {every: 1}
"""


def test_cylinder_and_sphere_regions(tmp_path):
    path = tmp_path / "regions.yaml"
    path.write_text(SCENE)
    run = rubble.Run(path, output=tmp_path / "o", threads=1)
    g = run.grains()
    x, r = np.array(g.position), np.array(g.radius)
    run.close()
    cyl = (np.hypot(x[:, 0], x[:, 1]) + r <= 0.03 * (1 + 1e-12)) & \
          (x[:, 2] - r >= 0.01 * (1 - 1e-12)) & (x[:, 2] + r <= 0.09 * (1 + 1e-12))
    sph = np.linalg.norm(x - [0.04, 0.04, 0.05], axis=1) + r <= 0.008 * (1 + 1e-12)
    assert (cyl | sph).all() and sph.sum() > 100
    # the count: 0.2 of the cylinder over the mean grain volume (uniform r: mean r^3 by number)
    mean_r3 = (0.0015**4 - 0.001**4) / 4 / 0.0005
    volume = math.pi * 0.03**2 * 0.08
    assert cyl.sum() == round(0.2 * volume / (4 / 3 * math.pi * mean_r3))
    phi = (4 / 3 * math.pi * r[cyl] ** 3).sum() / volume
    assert phi == pytest.approx(0.2, rel=0.02)
    # the sphere's lattice: the sites of the box lattice about it (spacing 2.02 r from the
    # box's corner plus r) that lie in the sphere
    s = 2.02 * 0.001
    side = 0.032 + 0.001 + s * np.arange(8)
    up = 0.042 + 0.001 + s * np.arange(8)
    sites = np.array(np.meshgrid(side, side, up)).reshape(3, -1).T
    inside = np.linalg.norm(sites - [0.04, 0.04, 0.05], axis=1) + 0.001 <= 0.008 * (1 + 1e-12)
    assert sph.sum() == inside.sum()


def test_region_errors_name_the_line(tmp_path):
    cases = {
        "cylinder: {from: [0, 0, 0.01], to: [0, 0, 0.09], radius: 0.03}, min: [0, 0, 0], ":
            "a region is a box (min, max), a 'cylinder', a 'sphere', a closed 'mesh' or an "
            "inflow 'face'",
        "face: {mesh: open.stl, depth: 0.001}, ": "the face's 'depth' 0.001 is below the "
                                                  "largest grain's diameter 0.003",
        "face: {depth: 0.01}, ": "a 'face' needs 'mesh'",
        "cylinder: {from: [0, 0, 0.01], to: [0, 0, 0.01], radius: 0.03}, ":
            "'from' and 'to' must be apart",
        "sphere: {centre: [0, 0, 0.05]}, ": "radius",
        "mesh: open.stl, ": "the region must be a closed mesh",
        "scale: 2, min: [0, 0, 0], max: [0.01, 0.01, 0.01], ": "are for a 'mesh' region",
    }
    (tmp_path / "open.stl").write_text("solid o\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\n"
                                       "vertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\n"
                                       "endsolid o\n")
    for bad, message in cases.items():
        text = SCENE.replace("cylinder: {from: [0, 0, 0.01], to: [0, 0, 0.09], radius: 0.03}, ",
                             bad)
        with pytest.raises(rubble.Error) as e:
            rubble.Run.from_yaml(text, name=str(tmp_path / "bad.yaml"), output=tmp_path / "x")
        assert e.value.line == 5 and message in e.value.message, e.value.message
    for bad, message in (("volume_fraction: 0.2", "volume_fraction: 0.2, count: 10"),
                         ("volume_fraction: 0.2", "volume_fraction: 0.7")):
        with pytest.raises(rubble.Error) as e:
            rubble.Run.from_yaml(SCENE.replace(bad, message), name=str(tmp_path / "bad.yaml"),
                                 output=tmp_path / "x")
        assert e.value.line == 5, e.value.message
        assert ("give 'count' or 'volume_fraction'" in e.value.message or
                "'volume_fraction' must be > 0 and <= 0.64" in e.value.message), e.value.message
    assert not (tmp_path / "x").exists()


def test_a_pour_at_a_mass_rate(tmp_path):
    """mass_rate 0.01 kg/s of grains 0.8-1.2 mm (uniform), poured every 0.01 s for 0.2 s:
    the grains poured number the rate over the mean grain mass times the time (to one batch),
    and their mean mass is the mean asked for (within 5 standard errors)."""
    rho, lo, hi = 2500, 0.0008, 0.0012
    mean_m = rho * 4 / 3 * math.pi * (hi**4 - lo**4) / 4 / (hi - lo)
    text = """\
domain: {min: [0, 0, 0], max: [0.1, 0.1, 0.1]}
materials: [{name: glass, density: 2500}]
contact: {normal: linear, tangential: none, kn: 2000, gamma_n: 0.001}
grains:
  - pour: {cylinder: {from: [0.05, 0.05, 0.08], to: [0.05, 0.05, 0.095], radius: 0.03},
           count: 100000, mass_rate: 0.01, every: 0.01}
    radius: {distribution: uniform, min: 0.0008, max: 0.0012}
run: {time: 0.2, dt: 2.0e-5}
output: {every: 1}
"""
    path = tmp_path / "pour.yaml"
    path.write_text(text)
    run = rubble.Run(path, output=tmp_path / "o", threads=1)
    run.step(run.total_steps)
    m = np.array(run.grains().mass)
    run.close()
    per_second = 0.01 / mean_m
    assert abs(len(m) - per_second * 0.2) <= per_second * 0.01 + 1
    assert abs(m.mean() - mean_m) < 5 * m.std() / math.sqrt(len(m))


def tetrahedron(path):
    """A closed tetrahedron, corners at 0 and 4 cm along each axis, facets wound outward."""
    v = [(0, 0, 0), (0.04, 0, 0), (0, 0.04, 0), (0, 0, 0.04)]
    text = "solid t\n"
    for f in ((0, 2, 1), (0, 1, 3), (0, 3, 2), (1, 2, 3)):
        text += "facet normal 0 0 0\nouter loop\n"
        text += "".join("vertex %r %r %r\n" % v[k] for k in f)
        text += "endloop\nendfacet\n"
    path.write_text(text + "endsolid t\n")


def test_a_region_inside_a_closed_mesh(tmp_path):
    """Random grains in a tetrahedron (an STL, moved 1 cm along each axis) lie wholly inside
    it: clear of each face by their radius; the count fills 0.1 of its volume."""
    tetrahedron(tmp_path / "tet.stl")
    text = SCENE.replace(
        "cylinder: {from: [0, 0, 0.01], to: [0, 0, 0.09], radius: 0.03}, volume_fraction: 0.2",
        "mesh: tet.stl, offset: [0.01, 0.01, 0.01], volume_fraction: 0.1")
    text = text.replace("{distribution: uniform, min: 0.001, max: 0.0015}", "0.001")
    text = text[:text.index("  - lattice:")] + text[text.index("run:"):]
    path = tmp_path / "tet.yaml"
    path.write_text(text)
    run = rubble.Run(path, output=tmp_path / "o", threads=1)
    x = np.array(run.grains().position) - 0.01
    run.close()
    r = 0.001 * (1 - 1e-9)
    assert (x >= r).all() and ((x.sum(axis=1) - 0.04) / math.sqrt(3) <= -r).all()
    assert len(x) == round(0.1 * 0.04**3 / 6 / (4 / 3 * math.pi * 0.001**3))


def inlet(path, corners):
    """An open STL of two facets: the quadrilateral of these four corners."""
    text = "solid inlet\n"
    for f in ((0, 1, 2), (0, 2, 3)):
        text += "facet normal 0 0 0\nouter loop\n"
        text += "".join("vertex %r %r %r\n" % tuple(corners[k]) for k in f)
        text += "endloop\nendfacet\n"
    path.write_text(text + "endsolid inlet\n")


def test_an_inflow_through_a_mesh_face(tmp_path):
    """Grains come in through a tilted square inlet (an open STL, 4 cm a side, its plane
    turned 30 degrees about x) at 0.01 kg/s with a velocity through it (0.5 m/s): the grains poured
    number the rate over the mean grain mass times the time (to one batch), each appears in the
    slab of the face's depth on the side its velocity points to (before it moves: one step),
    and they cover the face uniformly (each half of it within 4 standard deviations of its
    share)."""
    rho, r = 2500, 0.001
    mean_m = rho * 4 / 3 * math.pi * r**3
    c, s = math.cos(math.radians(30)), math.sin(math.radians(30))
    # the square: u along x, w along the turned y; its normal (0, -s, c)
    u, w, n = np.array([1, 0, 0]), np.array([0, c, s]), np.array([0, -s, c])
    centre = np.array([0.05, 0.05, 0.05])
    corners = [centre + 0.02 * (a * u + b * w) for a, b in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
    inlet(tmp_path / "inlet.stl", corners)
    text = """\
domain: {min: [0, 0, -0.1], max: [0.1, 0.1, 0.1]}
materials: [{name: glass, density: 2500}]
contact: {normal: linear, tangential: none, kn: 2000, gamma_n: 0.001}
grains:
  - pour: {face: {mesh: inlet.stl, depth: 0.006}, count: 100000, mass_rate: 0.01, every: 0.01}
    radius: 0.001
    velocity: [0, 0.25, -0.433]
run: {time: TIME, dt: 1.0e-5}
output: {every: 1}
"""
    path = tmp_path / "inflow.yaml"
    path.write_text(text.replace("TIME", "1.0e-5"))  # the first batch, one step after
    run = rubble.Run(path, output=tmp_path / "first", threads=1)
    run.step(run.total_steps)
    x = np.array(run.grains().position)
    run.close()
    per_second = 0.01 / mean_m
    assert abs(len(x) - per_second * 0.01) < 1  # a batch of 9.55 on average
    # off the face along -n (the velocity's side: v . n < 0), by r to depth - r, moved one step
    v = np.array([0, 0.25, -0.433])
    d = (x - v * 1.0e-5 - centre) @ -n
    assert (d >= r * (1 - 1e-9)).all() and (d <= (0.006 - r) * (1 + 1e-9)).all()
    a, b = (x - centre) @ u, (x - centre) @ w
    assert (abs(a) <= 0.02 + 1e-4).all() and (abs(b) <= 0.02 + 1e-4).all()
    for half in (a > 0, b > 0):
        k, m = half.sum(), len(x)
        assert abs(k - m / 2) <= 4 * math.sqrt(m / 4), (k, m)
    path.write_text(text.replace("TIME", "0.1"))
    run = rubble.Run(path, output=tmp_path / "o", threads=1)
    run.step(run.total_steps)
    n_grains = len(run.grains().mass)
    run.close()
    assert abs(n_grains - per_second * 0.1) <= per_second * 0.01 + 1
