#!/bin/sh
# `pip install .` offline (issue 42): Debian's pip with --no-build-isolation installs the Python
# package (the extension linked by the project's CMake, here reusing the test's build folder)
# into a fresh folder; Python started from elsewhere imports it from there and runs a scene to
# the same final grains as `rubble run`.
#   tests/cli_pip_install.sh BUILD_DIR RUBBLE PYTHON
set -eu
BUILD=$(cd "$1" && pwd); RUBBLE=$2; PYTHON=$3
ROOT=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
(cd "$ROOT" && RUBBLE_BUILD="$BUILD" "$PYTHON" -m pip install -q --no-build-isolation --no-deps \
    --no-index --target "$work/site" . 2>&1 | grep -v "Running pip as the 'root' user" || true)
[ -f "$work/site/rubble/__init__.py" ] || { echo "pip installed no rubble package"; exit 1; }
ls "$work/site/rubble/"_rubble*.so > /dev/null
cat > "$work/scene.yaml" <<'YAML'
domain: {min: [0, 0, -0.001], max: [0.01, 0.01, 0.02]}
gravity: [0, 0, -9.81]
materials:
  - {name: glass, density: 2500}
contact: {normal: linear, tangential: spring, kn: 2000, restitution: 0.3, friction: 0.5}
walls:
  - {point: [0, 0, 0], normal: [0, 0, 1]}
grains:
  - lattice: {min: [0, 0, 0], max: [0.01, 0.01, 0.006]}
    radius: 0.001
run: {steps: 500, dt: auto}
output: {final: end.txt}
YAML
"$RUBBLE" run "$work/scene.yaml" --output "$work/cli" --threads 1 --quiet > /dev/null
(cd "$work" && PYTHONPATH="$work/site" "$PYTHON" -c "
import rubble
assert rubble.__file__.startswith('$work/site'), rubble.__file__
run = rubble.Run('scene.yaml', output='py', threads=1)
run.step(run.total_steps); run.finish(); run.close()
")
cmp "$work/cli/end.txt" "$work/py/end.txt"
echo "pip install: the package from $work/site runs the scene to the CLI's final grains"
