"""Values that read as other units (issue 70, docs/scenes.md "Warnings"): each misread scene
warns at the value's line with the plausible reading, `warnings: {off: [NAME]}` silences it, and
no example or test scene (opened at its own length: nothing is stepped) says any of them."""
import glob
import os
import re
import warnings

import pytest

import rubble

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
SMALL = open(os.path.join(ROOT, "tests", "scenes", "small.yaml")).read()
DRUM = open(os.path.join(ROOT, "examples", "drum.yaml")).read().replace(
    "mesh: drum.stl", "mesh: " + os.path.join(ROOT, "examples", "drum.stl"))
NEW = ("density", "gravity", "mesh_size", "omega", "long_run")


def said(tmp_path, name, text):
    """The warnings of the scene text, opened (not stepped) into a fresh folder."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        run = rubble.Run.from_yaml(text, name=str(tmp_path / (name + ".yaml")),
                                   output=tmp_path / ("out_" + name))
        got = list(run.warnings)
        run.close()
    return got


def line_of(text, needle):
    """The 1-based number of the line of text that holds needle."""
    return next(k + 1 for k, line in enumerate(text.splitlines()) if needle in line)


def edit(text, old, new):
    assert old in text
    return text.replace(old, new)


CASES = {  # name: (scene text, warning's name, its line, what it must say)
    "lb_ft3": (edit(SMALL, "density: 2500}", "density: 156}"), "density", 5,
               "density 156 kg/m^3 for 'glass' is glass's in lb/ft^3: 156 lb/ft^3 is 2499 kg/m^3"),
    "g_cm3": (edit(SMALL, "density: 2500}", "density: 2.5}"), "density", 5,
              "g/cm^3 meant? 2.5 g/cm^3 is 2500 kg/m^3"),
    "plastic_lb": (edit(SMALL, "density: 2500}", "density: 60}"), "density", 5,
                   "lb/ft^3 meant? 60 lb/ft^3 is 961.1 kg/m^3"),
    "upward": (edit(SMALL, "gravity: [0, 0, -9.81]", "gravity: [0, 0, 9.81]"), "gravity", 3,
               "gravity [0, 0, 9.81] points away from every wall (along the normal of the plane "
               "at line 9"),
    "rad_s": (edit(DRUM, "rpm: 20", "omega: 20"), "omega", line_of(DRUM, "rpm: 20"),
              "omega 20 rad/s turns the mesh wall (radius 0.04 m) at a Froude number w^2 R / g "
              "of 1.63"),
    "cm_as_mm": (edit(DRUM, "scale: 0.001 ", "scale: 0.0001"), "mesh_size",
                 line_of(DRUM, "- mesh: "),
                 "the mesh spans 0.008 m, 4 grains across"),
    "tiny_dt": (edit(SMALL, "run: {steps: 2000, dt: auto, c: 0.05}",
                     "run: {time: 1, dt: 3.0e-9}"), "long_run", 15,
                "hours of work: 333333334 steps of dt = 3e-09 s"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_misread_value_warns_at_its_line_and_is_silenced_when_meant(tmp_path, case):
    text, name, line, says = CASES[case]
    got = said(tmp_path, case, text)
    mine = [w for w in got if "warnings: {off: [%s]}" % name in w]
    assert len(mine) == 1, got
    assert mine[0].startswith(str(tmp_path / (case + ".yaml")) + ":%d:" % line), mine[0]
    assert says in mine[0], mine[0]
    meant = said(tmp_path, case + "_meant", "warnings: {off: [%s]}\n" % name + text)
    assert not [w for w in meant if "[%s]" % name in w], meant


@pytest.mark.parametrize("text", [
    edit(SMALL, "{name: glass, density: 2500}", "{name: cork, density: 156}"),  # cork is 120-240
    edit(SMALL, "{name: glass, density: 2500}", "{name: hollow_glass, density: 156}"),
    edit(DRUM, "rpm: 20", "omega: 2"),  # 2 rad/s: Froude 0.016
    edit(SMALL, "gravity: [0, 0, -9.81]", "gravity: [0, 0, 0]"),
])
def test_legitimate_values_say_nothing(tmp_path, text):
    assert said(tmp_path, "legit", text) == []


def test_an_unknown_name_is_refused_at_its_line(tmp_path):
    with pytest.raises(rubble.Error, match=r"legit.yaml:1:\d+: unknown warning in 'warnings.off' "
                       r"\(known: density, .*long_run, cg_width\): 'densty'"):
        said(tmp_path, "legit", "warnings: {off: [densty]}\n" + SMALL)


def scenes():
    found = glob.glob(os.path.join(ROOT, "examples", "*.yaml"))
    found += glob.glob(os.path.join(ROOT, "tests", "scenes", "**", "*.yaml"), recursive=True)
    return sorted(os.path.relpath(p, ROOT) for p in found)


@pytest.mark.parametrize("scene", scenes())
def test_no_example_or_test_scene_says_them(tmp_path, scene):
    path = os.path.join(ROOT, scene)
    text = open(path).read()
    inv = os.path.join(ROOT, "tests", "scenes", "invariance")
    text = text.replace("@OUTPUT@", "{every: 0.01}").replace("@HERE@", inv)
    text = re.sub(r"\.\./\.\./\.\./examples", os.path.join(ROOT, "examples"), text)
    got = said(tmp_path, os.path.basename(scene)[:-5], text) if "@" in open(path).read() else \
        _said_in_place(tmp_path, path)
    assert not [w for w in got if any("[%s]" % n in w for n in NEW)], got


def _said_in_place(tmp_path, path):
    """A scene opened where it lies (its meshes and files are named beside it)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        run = rubble.Run(path, output=tmp_path / "o")
        got = list(run.warnings)
        run.close()
    return got
