"""The hopper example (examples/hopper.yaml) made small for the tests that run it: the same
mesh, law, dt and periodic slice, the lattice cut at z = 9 cm instead of 14 (1976 grains
instead of 5776). Its lower layers, the ones that reach the slot within the tests' 0.15 s,
are the example's own: in 0.15 s 354 grains leave instead of 370, at a quarter of the CPU."""
import os

EXAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples")
PATH = os.path.join(EXAMPLES, "hopper.yaml")
MESH = os.path.abspath(os.path.join(EXAMPLES, "hopper.stl"))


def hopper_text(time=None, output=None):
    """The small hopper's scene text (its mesh named by absolute path); `time` replaces the
    run's 1.5 s, `output` the output block's text."""
    text = open(PATH).read().replace("hopper.stl", MESH)
    cut = text.replace("max: [0.039, 0.01, 0.14]", "max: [0.039, 0.01, 0.09]")
    assert cut != text, "examples/hopper.yaml's lattice moved: update tests/python/hopper_scene.py"
    text = cut
    if time is not None:
        text = text.replace("run: {time: 1.5,", "run: {time: %g," % time)
    if output is not None:
        text = text.replace("output: {folder: output/hopper, every: 0.02}", "output: " + output)
    return text
