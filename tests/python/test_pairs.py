"""A pair of materials' own coefficients (issue 44, contact.pairs): a glass grain on a steel
floor slides with the pair's friction, not the mean of the two materials' (0.15 against 0.4),
and bounces with the pair's restitution; a pair given for other materials leaves these alone;
the scene's errors."""
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
        "[{materials: [glass, steel]}]": "a pair needs 'friction', 'restitution' or both",
        "[{materials: [glass, steel], restitution: 1.5}]": "'restitution' must be > 0 and <= 1",
        "{materials: [glass, steel], friction: 0.1}": "'pairs' must be a list",
    }
    for bad, message in cases.items():
        text = SCENE.replace("PAIRS", bad).replace("TIME", "0.001").replace("GRAVITY", "0")
        with pytest.raises(rubble.Error) as e:
            rubble.Run.from_yaml(text, name=str(tmp_path / "bad.yaml"), output=tmp_path / "x")
        assert e.value.line == 8 and message in e.value.message, e.value.message
    text = SCENE.replace("normal: hertz-mindlin, tangential: spring, pairs: PAIRS",
                         "normal: linear, kn: 1000, friction: 0.5, pairs: []")
    text = text.replace("youngs_modulus: 1.0e7, poisson_ratio: 0.3, restitution: 0.5,\n     "
                        "friction: 0.5", "").replace("youngs_modulus: 2.0e7, poisson_ratio: "
                                                     "0.3, restitution: 0.9,\n     friction: 0.3", "")
    with pytest.raises(rubble.Error) as e:
        rubble.Run.from_yaml(text.replace("TIME", "0.001").replace("GRAVITY", "0"),
                             name=str(tmp_path / "bad.yaml"), output=tmp_path / "x")
    assert "'pairs' are for normal: hertz-mindlin" in e.value.message, e.value.message
