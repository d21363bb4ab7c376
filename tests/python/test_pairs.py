"""A pair of materials' own coefficients (issue 44, contact.pairs), under the Hertz-Mindlin
law and under the linear law: a glass grain on a steel floor slides with the pair's friction,
not the rule's (0.15 against 0.4), bounces with the pair's restitution, rolls against the
pair's rolling friction and rests on the floor at the overlap the pair's cohesion sets
(sjkr and JKR, closed forms); a pair given for other materials leaves these alone; in a
collapsing two-material heap each contact slides at its own pair's friction; the scene's
errors."""
import math

import numpy as np
import pytest

import rubble

SCENE = """\
domain: {min: [-0.05, -0.05, -0.01], max: [0.05, 0.05, 0.05]}
gravity: [0, 0, GRAVITY]
materials:
  - {name: glass, density: 2500, youngs_modulus: 1.0e7, poisson_ratio: 0.3, restitution: 0.5,
     friction: 0.5}
  - {name: steel, density: 7800, youngs_modulus: 2.0e7, poisson_ratio: 0.3, restitution: 0.9,
     friction: 0.3}
contact: {normal: hertz-mindlin, tangential: spring, pairs: PAIRS}
walls: [{point: [0, 0, 0], normal: [0, 0, 1], material: steel}]
grains: [{file: grain.txt, material: glass}]
run: {time: TIME, dt: 2.0e-6}
output: {every: 1}
"""


def run(tmp_path, name, pairs, grain, time, gravity=-9.81):
    (tmp_path / "grain.txt").write_text(grain)
    text = SCENE.replace("PAIRS", pairs).replace("TIME", str(time))
    path = tmp_path / (name + ".yaml")
    path.write_text(text.replace("GRAVITY", str(gravity)))
    r = rubble.Run(path, output=tmp_path / name, threads=1)
    r.step(r.total_steps)
    g = r.grains()
    r.close()
    return g.velocity[0]


@pytest.mark.parametrize("pairs, mu", [
    ("[{materials: [glass, steel], friction: 0.15}]", 0.15),
    ("[{materials: [glass, glass], friction: 0.05}]", 0.4),  # another pair: the rule's mean
])
def test_a_grain_slides_with_its_pairs_friction(tmp_path, pairs, mu):
    """While it slides, the floor's friction takes mu times the normal impulse from the grain's
    horizontal momentum: v_x(t) = v0 - mu (g t + v_z(t) - v_z(0)) (it still slides at 0.02 s:
    rolling sets in after 2 v0 / (7 mu g), 0.036 s for mu = 0.4)."""
    v = run(tmp_path, "slide", pairs, "0 0 0.001 0.001 0.5 0 0\n", 0.02)
    impulse = 9.81 * 0.02 + v[2]
    assert v[0] == pytest.approx(0.5 - mu * impulse, rel=2e-3)


def test_a_grain_bounces_with_its_pairs_restitution(tmp_path):
    v = run(tmp_path, "bounce", "[{materials: [steel, glass], restitution: 0.7}]",
            "0 0 0.0012 0.001 0 0 -1\n", 0.01, gravity=0)
    assert v[2] == pytest.approx(0.7, rel=2e-3)


def test_pair_errors_name_the_line(tmp_path):
    (tmp_path / "grain.txt").write_text("0 0 0.001 0.001 0 0 0\n")
    cases = {
        "[{materials: [glass, iron], friction: 0.1}]": "no material of this name: 'iron'",
        "[{materials: [glass], friction: 0.1}]": "a pair needs 'materials': [a, b]",
        "[{materials: [glass, steel]}]": "a pair needs at least one of 'friction'",
        "[{materials: [glass, steel], rolling_friction: 0.1}]":
            "a pair's 'rolling_friction' needs rolling: {model: cdt}",
        "[{materials: [glass, steel], energy_density: 1.0e4}]":
            "a pair's 'energy_density' needs cohesion: {model: sjkr}",
        "[{materials: [glass, steel], restitution: 1.5}]": "'restitution' must be > 0 and <= 1",
        "{materials: [glass, steel], friction: 0.1}": "'pairs' must be a list",
        # the same pair twice, either way round: the last won silently (issue 70, pa05)
        "[{materials: [glass, steel], friction: 0.2}, {materials: [steel, glass], friction: 0.9}]":
            "the pair of 'steel' and 'glass' is given twice, at line 8 column 62 and at line 8 "
            "column 106",
        "[{materials: [glass, glass], friction: 0.2}, {materials: [glass, steel], friction: "
        "0.9}, {materials: [glass, glass], restitution: 0.5}]":
            "the pair of 'glass' and 'glass' is given twice, at line 8 column 62",
    }
    for bad, message in cases.items():
        text = SCENE.replace("PAIRS", bad).replace("TIME", "0.001").replace("GRAVITY", "0")
        with pytest.raises(rubble.Error) as e:
            rubble.Run.from_yaml(text, name=str(tmp_path / "bad.yaml"), output=tmp_path / "x")
        assert e.value.line == 8 and message in e.value.message, e.value.message

# The same two materials under the linear law: friction, damping (from restitution, for two
# grains of the first source's mean radius, as contact.restitution), rolling friction and
# cohesion are the law's unless a pair sets its own.
LINEAR = """\
domain: {min: [-0.05, -0.05, -0.01], max: [0.05, 0.05, 0.05]}
gravity: [0, 0, GRAVITY]
materials: [{name: glass, density: 2500}, {name: steel, density: 7800}]
contact: {normal: linear, kn: 2000, restitution: 0.5, friction: 0.5, EXTRA pairs: PAIRS}
walls: [{point: [0, 0, 0], normal: [0, 0, 1], material: steel}]
grains: [{file: grain.txt, material: glass}]
run: {time: TIME, dt: DT}
output: {every: 1}
"""


def run_linear(tmp_path, name, pairs, grain, time, extra="", gravity=-9.81, dt=2.0e-6,
               spin=None):
    (tmp_path / "grain.txt").write_text(grain)
    text = LINEAR.replace("PAIRS", pairs).replace("TIME", str(time)).replace("EXTRA", extra)
    path = tmp_path / (name + ".yaml")
    path.write_text(text.replace("GRAVITY", str(gravity)).replace("DT", str(dt)))
    r = rubble.Run(path, output=tmp_path / name, threads=1)
    if spin is not None:
        r.grains().spin[0] = spin
    r.step(r.total_steps)
    g = r.grains()
    out = types_copy(g)
    r.close()
    return out


def types_copy(g):
    return {k: np.array(getattr(g, k)) for k in ("id", "position", "velocity", "spin",
                                                 "material")}


@pytest.mark.parametrize("pairs, mu", [
    ("[{materials: [glass, steel], friction: 0.15}]", 0.15),
    ("[{materials: [glass, glass], friction: 0.05}]", 0.5),  # another pair: the law's
])
def test_linear_law_a_grain_slides_with_its_pairs_friction(tmp_path, pairs, mu):
    """As under Hertz-Mindlin: v_x(t) = v0 - mu (g t + v_z(t) - v_z(0)) while it slides."""
    v = run_linear(tmp_path, "slide", pairs, "0 0 0.001 0.001 0.5 0 0\n", 0.02)["velocity"][0]
    impulse = 9.81 * 0.02 + v[2]
    assert v[0] == pytest.approx(0.5 - mu * impulse, rel=2e-3)


@pytest.mark.parametrize("pairs, e", [
    ("[{materials: [glass, glass], restitution: 0.8}]", 0.8),
    ("[{materials: [glass, steel], restitution: 0.8}]", 0.5),  # another pair: the law's
])
def test_linear_law_two_grains_collide_with_their_pairs_restitution(tmp_path, pairs, e):
    """Two glass grains of the source's mean radius meet head-on at 0.5 m/s each: they part
    at e times that, e the pair's (its gamma_n from e for this contact mass). At 320 steps per
    contact (at 80 the velocity Verlet's own error in e is 1.3 % for e = 0.5)."""
    grains = "-0.0012 0 0.01 0.001 0.5 0 0\n0.0012 0 0.01 0.001 -0.5 0 0\n"
    g = run_linear(tmp_path, "collide", pairs, grains, 0.005, gravity=0, dt=5.0e-7)
    vx = g["velocity"][np.argsort(g["id"]), 0]
    assert vx[0] == pytest.approx(-0.5 * e, rel=2e-3)
    assert vx[1] == pytest.approx(0.5 * e, rel=2e-3)


@pytest.mark.parametrize("pairs, mu_r", [
    ("[{materials: [glass, steel], rolling_friction: 0.02}]", 0.02),
    ("[{materials: [glass, glass], rolling_friction: 0.02}]", 0.05),  # the law's
])
def test_linear_law_a_grain_rolls_against_its_pairs_rolling_friction(tmp_path, pairs, mu_r):
    """A grain rolling without slipping on the floor slows at 5 mu_r g / 7 (cdt: a torque
    mu_r F_e r against its spin; a solid sphere's I = 2/5 m r^2), mu_r the pair's."""
    r, v0 = 0.001, 0.1
    t = 0.05
    g = run_linear(tmp_path, "roll", pairs, "0 0 0.001 0.001 0.1 0 0\n", t,
                   extra="rolling: {model: cdt, friction: 0.05},", spin=(0, v0 / r, 0))
    decel = (v0 - g["velocity"][0][0]) / t
    assert decel == pytest.approx(5.0 / 7.0 * mu_r * 9.81, rel=0.02)


def sjkr_overlap(kn, k_c, r, m, g=9.81):
    """At rest on a plane under sjkr with a linear spring: kn xi - k_c pi (2 r xi - xi^2) = m g
    (a^2 = r^2 - (r - xi)^2 on a wall)."""
    a, b, c = math.pi * k_c, kn - 2.0 * math.pi * k_c * r, -m * g
    return (-b + math.sqrt(b * b - 4.0 * a * c)) / (2.0 * a)


@pytest.mark.parametrize("pairs, k_c", [
    ("[{materials: [glass, steel], energy_density: 1.0e5}]", 1.0e5),
    ("[{materials: [glass, glass], energy_density: 1.0e5}]", 2.0e4),  # the law's
])
def test_linear_law_a_grain_rests_at_its_pairs_cohesion(tmp_path, pairs, k_c):
    r = 0.001
    m = 2500.0 * 4.0 / 3.0 * math.pi * r ** 3
    g = run_linear(tmp_path, "rest", pairs, "0 0 0.001 0.001 0 0 0\n", 0.03,
                   extra="cohesion: {model: sjkr, energy_density: 2.0e4},")
    xi = r - g["position"][0][2]
    assert xi == pytest.approx(sjkr_overlap(2000.0, k_c, r, m), rel=1e-5)


def jkr_overlap(w, y_star, r, load):
    """JKR at rest under a load (N, pressing): F(a) = 4 E* a^3 / (3 R) - 2 E* c a^(3/2) = load
    on the stable branch (F rising with a), then xi = a^2 / R - c sqrt(a)."""
    c = math.sqrt(2.0 * math.pi * w / y_star)
    f = lambda a: 4.0 * y_star * a ** 3 / (3.0 * r) - 2.0 * y_star * c * a ** 1.5 - load
    lo = (0.75 * r * c) ** (2.0 / 3.0)  # where F is least
    hi = lo
    while f(hi) < 0.0:
        hi *= 2.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if f(mid) < 0.0 else (lo, mid)
    a = 0.5 * (lo + hi)
    return a * a / r - c * math.sqrt(a)


@pytest.mark.parametrize("pairs, w", [
    ("[{materials: [glass, steel], surface_energy: 0.5}]", 0.5),
    ("[{materials: [glass, glass], surface_energy: 0.5}]", 0.05),  # the law's
])
def test_a_grain_rests_at_its_pairs_jkr_surface_energy(tmp_path, pairs, w):
    """Hertz-Mindlin with JKR: a glass grain on the steel floor rests where JKR's force
    carries its weight; its surface energy is the pair's."""
    r = 0.001
    m = 2500.0 * 4.0 / 3.0 * math.pi * r ** 3
    (tmp_path / "grain.txt").write_text("0 0 0.001 0.001 0 0 0\n")
    text = SCENE.replace("tangential: spring,",
                         "tangential: spring, cohesion: {model: jkr, surface_energy: 0.05},")
    text = text.replace("PAIRS", pairs).replace("TIME", "0.03").replace("GRAVITY", "-9.81")
    path = tmp_path / "jkr.yaml"
    path.write_text(text)
    r_ = rubble.Run(path, output=tmp_path / "jkr", threads=1)
    r_.step(r_.total_steps)
    z = float(r_.grains().position[0][2])
    r_.close()
    y_star = 1.0 / ((1 - 0.09) / 1.0e7 + (1 - 0.09) / 2.0e7)
    assert r - z == pytest.approx(jkr_overlap(w, y_star, r, m * 9.81), rel=1e-5)


HEAP = """\
domain: {min: [-0.03, -0.03, 0], max: [0.03, 0.03, 0.05]}
gravity: [0, 0, -9.81]
materials: [{name: a, density: 2500}, {name: b, density: 2500}]
contact: {normal: linear, kn: 2000, restitution: 0.3, friction: 0.5,
          pairs: [{materials: [a, b], friction: 0.1}]}
walls: [{point: [0, 0, 0], normal: [0, 0, 1], material: a}]
grains:
  - {random: {min: [-0.005, -0.005, 0.001], max: [0.005, 0.005, 0.04], count: 150},
     radius: 0.0008, material: a, seed: 1}
  - {random: {min: [-0.005, -0.005, 0.001], max: [0.005, 0.005, 0.04], count: 150},
     radius: 0.0008, material: b, seed: 2}
run: {time: 0.12, dt: auto}
output: {every: 1}
"""


def test_a_two_material_heap_slides_at_each_pairs_friction(tmp_path):
    """The issue's heap: materials a and b grip themselves with friction 0.5 and each other
    with 0.1 (neither's). While the column collapses, every contact's |f_t| / |f_n| stays
    within its own pair's friction, and the sliding ones reach it: a-b contacts at 0.1, a-a
    and b-b well above 0.1, on the floor (material a) b grains at 0.1."""
    path = tmp_path / "heap.yaml"
    path.write_text(HEAP)
    r = rubble.Run(path, output=tmp_path / "heap", threads=1)
    most = {"same": 0.0, "cross": 0.0, "wall_a": 0.0, "wall_b": 0.0}
    for _ in range(12):
        r.step(r.total_steps // 12)
        g = r.grains()
        material = dict(zip(np.array(g.id).tolist(), np.array(g.material).tolist()))
        c = r.contacts()
        ratio = np.linalg.norm(c.ft, axis=1) / np.linalg.norm(c.fn, axis=1)
        cross = np.array([material[i] != material[j] for i, j in c.ids.tolist()], dtype=bool)
        for key, sel, mu in (("same", ~cross, 0.5), ("cross", cross, 0.1)):
            if sel.any():
                assert ratio[sel].max() <= mu * (1 + 1e-9)
                most[key] = max(most[key], ratio[sel].max())
        wratio = np.linalg.norm(c.wall_ft, axis=1) / np.linalg.norm(c.wall_fn, axis=1)
        wb = np.array([material[i] == 1 for i in c.wall_grain.tolist()], dtype=bool)
        for key, sel, mu in (("wall_a", ~wb, 0.5), ("wall_b", wb, 0.1)):
            if sel.any():
                assert wratio[sel].max() <= mu * (1 + 1e-9)
                most[key] = max(most[key], wratio[sel].max())
    r.close()
    assert most["cross"] == pytest.approx(0.1, rel=1e-9)
    assert most["wall_b"] == pytest.approx(0.1, rel=1e-9)
    assert most["same"] > 0.2 and most["wall_a"] > 0.2, most
