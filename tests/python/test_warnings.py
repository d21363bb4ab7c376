"""Warnings for likely mistakes (issue 44) reach Python as rubble.Warning through Python's
warnings, and Run.warnings lists them; a scene without any raises none."""
import os
import warnings

import pytest

import rubble

SMALL = os.path.join(os.path.dirname(__file__), "..", "scenes", "small.yaml")


def test_warnings_are_python_warnings(tmp_path):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # none from a clean scene into a new folder
        run = rubble.Run(SMALL, output=tmp_path / "o", steps=1)
        assert run.warnings == []
        run.step(1)
        run.close()
    with pytest.warns(rubble.Warning, match="output folder holds .* files of an earlier run"):
        run = rubble.Run(SMALL, output=tmp_path / "o", steps=1)
    assert len(run.warnings) == 1
    run.close()
    text = open(SMALL).read().replace("density: 2500}", "density: 2.5}")
    with pytest.warns(rubble.Warning) as got:
        run = rubble.Run.from_yaml(text, name=str(tmp_path / "light.yaml"),
                                   output=tmp_path / "light", steps=1)
    assert [str(w.message) for w in got] == run.warnings
    assert run.warnings[0].startswith(str(tmp_path / "light.yaml") + ":5:")
    assert "density 2.5 kg/m^3 is below any solid's" in run.warnings[0]
    run.close()
