# rubble — the two commands of a fresh Debian 12 machine:
#   make run    install what is missing, build, run the main job
#   make test   install what is missing, build, run the whole suite (also under ASan/UBSan)
# Longer jobs: make bench (docs/bench/), make validate (docs/validation/).

BUILD      ?= build
BUILD_SAN  ?= build-sanitize
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
RUBBLE      = $(abspath $(BUILD))/rubble
MAKEFLAGS  += --no-print-directory

.PHONY: all deps build build-sanitize run demo-contacts bench-contacts bench-dem bench-gravity test test-release test-sanitize bench validate clean

all: build

deps:
	@scripts/install-deps.sh build

build: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release > /dev/null
	@cmake --build $(BUILD) -j $(JOBS)

build-sanitize: deps
	@cmake -S . -B $(BUILD_SAN) -DCMAKE_BUILD_TYPE=Debug -DRBL_SANITIZE=ON > /dev/null
	@cmake --build $(BUILD_SAN) -j $(JOBS)

# The main job: grains poured into a box (examples/pour.yaml), about a minute; open
# output/pour/grains.pvd in ParaView.
run: build
	@$(RUBBLE) run examples/pour.yaml

# The contact-detection demo of issue 2: a million generated elements.
demo-contacts: build
	@scripts/demo-contacts.sh $(RUBBLE) $(BUILD)/demo

test: test-release test-sanitize

test-release: build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

test-sanitize: build-sanitize
	@cd $(BUILD_SAN) && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
		ctest --output-on-failure -j $(JOBS)

bench: bench-contacts bench-dem bench-gravity

bench-contacts: build
	@scripts/install-deps.sh bench
	@bench/contacts.sh $(RUBBLE)

# rubble vs LIGGGHTS vs LAMMPS on the same beds (about 40 minutes)
bench-dem: build
	@scripts/install-deps.sh bench
	@bench/dem.sh $(RUBBLE) 1e4,1e5 2000 3

# self-gravity: accuracy against direct summation and cost, tree over theta, Cells over Nc
# (about 5 minutes) -> docs/bench/gravity.*
bench-gravity: build
	@scripts/install-deps.sh bench
	@bench/gravity.sh $(RUBBLE)

validate: build
	@scripts/install-deps.sh bench
	@validation/contacts.sh $(RUBBLE)
	@validation/dem.sh $(RUBBLE) $(BUILD)
	@validation/integrators.sh $(RUBBLE)
	@validation/liggghts.sh $(RUBBLE)
	@validation/clumps.sh $(RUBBLE) $(BUILD)
	@validation/clump_dynamics.sh $(RUBBLE) $(BUILD)
	@validation/asteroid.sh $(RUBBLE)
	@validation/spin.sh $(RUBBLE)
	@validation/drop.sh $(RUBBLE)
	@validation/collapse.sh $(RUBBLE)
	@validation/sound.sh $(RUBBLE)

clean:
	rm -rf $(BUILD) $(BUILD_SAN)
