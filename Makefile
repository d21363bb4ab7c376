# rubble — the two commands of a fresh Debian 12 machine:
#   make run    install what is missing, build, run the main job
#   make test   install what is missing, build, run the whole suite (also under gcc's and
#               clang's ASan/UBSan) and a few seconds of each fuzz target
# Longer jobs: make bench (docs/bench/), make validate (docs/validation/), make fuzz (docs/fuzz.md),
# make renders (every example run and drawn by ParaView: docs/examples.md).
# make install PREFIX=DIR: the program, librubble (shared and static), rubble.h, rubble.pc and the
# CMake package (find_package(rubble)) under DIR (default /usr/local).

BUILD      ?= build
BUILD_SAN  ?= build-sanitize
BUILD_CLANG ?= build-clang
BUILD_FUZZ ?= build-fuzz
FUZZ_SECONDS ?= 300
PREFIX     ?= /usr/local
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
RUBBLE      = $(abspath $(BUILD))/rubble
MAKEFLAGS  += --no-print-directory

.PHONY: all deps test-deps build build-sanitize build-clang build-fuzz fuzz test-clang test-fuzz run demo-contacts bench-contacts bench-dem bench-roofline bench-gravity bench-fdo bench-cg bench-parallel bench-bonds test test-release test-sanitize bench validate renders install clean

all: build

deps:
	@scripts/install-deps.sh build

build: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release > /dev/null
	@cmake --build $(BUILD) -j $(JOBS)

# gcc's ASan and UBSan at -O1, as ASan's authors advise: the suite's CPU time falls by 40-65 %
# against -O0 (test_fdo_dynamics 84 -> 49 s, test_dem_conservation 52 -> 17 s, session 44)
build-sanitize: deps
	@cmake -S . -B $(BUILD_SAN) -DCMAKE_BUILD_TYPE=Debug "-DCMAKE_C_FLAGS_DEBUG=-g -O1" \
		-DRBL_SANITIZE=ON > /dev/null
	@cmake --build $(BUILD_SAN) -j $(JOBS)

test-deps:
	@scripts/install-deps.sh test

# the suite under clang's UBSan, optimised (gcc's ASan and UBSan are in build-sanitize)
build-clang: test-deps
	@CC=clang cmake -S . -B $(BUILD_CLANG) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRBL_SANITIZE=ON \
		-DRBL_SANITIZERS=undefined > /dev/null
	@cmake --build $(BUILD_CLANG) -j $(JOBS)

# the libFuzzer harnesses of tests/fuzz (clang, ASan, UBSan); one process, the library built
# without MPI (whose plugins' allocations LeakSanitizer reports at exit as leaks): the
# checkpoint read apart runs on the one-rank communicator
build-fuzz: test-deps
	@CC=clang cmake -S . -B $(BUILD_FUZZ) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRBL_FUZZ=ON \
		-DRBL_MPI=OFF > /dev/null
	@cmake --build $(BUILD_FUZZ) -j $(JOBS)

# The main job: grains poured into a box (examples/pour.yaml), about a minute; open
# output/pour/grains.pvd in ParaView.
run: build
	@$(RUBBLE) run examples/pour.yaml

# The contact-detection demo of issue 2: a million generated elements.
demo-contacts: build
	@scripts/demo-contacts.sh $(RUBBLE) $(BUILD)/demo

test: test-release test-sanitize test-clang test-fuzz

# the test tools first (pytest, matplotlib, pip for the Python package; pkgconf): the release
# pass runs the Python tests and the install tests
test-release: test-deps build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

test-sanitize: test-deps build-sanitize
	@cd $(BUILD_SAN) && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
		ctest --output-on-failure -j $(JOBS)

test-clang: build-clang
	@cd $(BUILD_CLANG) && UBSAN_OPTIONS=print_stacktrace=1 ctest --output-on-failure -j $(JOBS)

# a few seconds of each fuzz target, from its seeds and regressions (CI keeps them passing)
test-fuzz: build-fuzz build
	@tests/fuzz/run.sh $(BUILD_FUZZ) $(RUBBLE) 4

# every fuzz target for FUZZ_SECONDS (default 300, about 40 minutes); docs/fuzz.md
fuzz: build-fuzz build
	@tests/fuzz/run.sh $(BUILD_FUZZ) $(RUBBLE) $(FUZZ_SECONDS) --report docs/fuzz.md

bench: bench-contacts bench-dem bench-gravity bench-fdo bench-python bench-cg bench-parallel bench-bonds

bench-contacts: build
	@scripts/install-deps.sh bench
	@bench/contacts.sh $(RUBBLE)

# rubble vs LIGGGHTS vs LAMMPS on 7 states of a granular system, 1e4 to 1e6 grains, 1 and 2
# cores (about 2 hours; BENCH_REPEAT=1 about 45 minutes) -> docs/bench/dem.*
BENCH_REPEAT ?= 3
bench-dem: build
	@scripts/install-deps.sh bench
	@bench/dem.sh $(RUBBLE) collapse,settle,flow,gas,poly3,poly10,hertz 1e4,1e5,1e6 5e7 $(BENCH_REPEAT) "1 2"

# the soft-sphere step's roofline: the machine's bandwidth and peak (bench/stream.c), each
# phase's bytes and flops per particle-step, counted and measured by cachegrind, and the
# fraction of the limit reached, on bench/dem.sh's states at 1e4 and 1e5 (settled 1e6 timed)
# (about 40 minutes on a shared machine) -> docs/bench/roofline.{csv,png}, roofline-tables.md
bench-roofline: build
	@scripts/install-deps.sh bench
	@bench/roofline.sh $(RUBBLE)

# self-gravity: accuracy against direct summation and cost, tree over theta, Cells over Nc
# (about 5 minutes) -> docs/bench/gravity.*
bench-gravity: build
	@scripts/install-deps.sh bench
	@bench/gravity.sh $(RUBBLE)

# the seed's 1000 ellipsoids into an inclined tube, like for like on 1 and 2 threads, alone and on a shared machine (about 12 minutes) -> docs/bench/fdo.md
bench-fdo: build
	@scripts/install-deps.sh bench
	@bench/fdo.sh $(RUBBLE)

# coarse-graining of a 10^6-grain frame, 1 and 2 threads -> docs/bench/cg.csv
bench-cg: build
	@PYTHONPATH=$(BUILD)/python /usr/bin/python3 bench/cg.py 1000000

# each process's peak memory on 1 and 4 ranks: lattice and pour of 4e5, a self-gravitating
# cloud of 2e5 (about a minute) -> docs/bench/parallel-memory.csv (issue 47)
bench-parallel: build
	@bench/parallel_memory.sh $(RUBBLE) 4e5 4
	@bench/gravity_ranks.sh $(RUBBLE) 4

# bonds' cost (issue 72's bar: within 1.5x): a dense packing of 1e5 grains stepped with and
# without bonds, CPU time and peak memory (about 5 minutes) -> docs/bench/bonds.csv, bonds.md
bench-bonds: build
	@scripts/install-deps.sh bench
	@bench/bonds.sh $(RUBBLE)

# stepping from Python against `rubble run`, 10^4 grains (about a minute) -> docs/bench/python-overhead.csv
bench-python: build
	@PYTHONPATH=$(BUILD)/python /usr/bin/python3 bench/python_overhead.py $(RUBBLE) 3000

validate: build
	@scripts/install-deps.sh bench
	@validation/contacts.sh $(RUBBLE)
	@validation/dem.sh $(RUBBLE) $(BUILD)
	@validation/integrators.sh $(RUBBLE)
	@validation/liggghts.sh $(RUBBLE)
	@validation/network.sh $(RUBBLE)
	@validation/cg.sh $(RUBBLE)
	@validation/wall_loads.sh $(RUBBLE)
	@validation/staged.sh $(RUBBLE)
	@validation/contact_models.sh $(RUBBLE)
	@validation/silo.sh $(RUBBLE)
	@validation/silo_orifice.sh $(RUBBLE) $(BUILD)
	@validation/drum.sh $(RUBBLE)
	@validation/heap_rolling.sh $(RUBBLE)
	@validation/clumps.sh $(RUBBLE) $(BUILD)
	@validation/clump_dynamics.sh $(RUBBLE) $(BUILD)
	@validation/asteroid.sh $(RUBBLE)
	@validation/spin.sh $(RUBBLE)
	@validation/bonded_spin.sh $(RUBBLE) $(BUILD)
	@validation/drop.sh $(RUBBLE)
	@validation/collapse.sh $(RUBBLE)
	@validation/sound.sh $(RUBBLE)
	@validation/fdo.sh $(RUBBLE)
	@validation/crease.sh $(RUBBLE)
	@validation/bonds.sh $(RUBBLE)
	@validation/bonds_impact.sh $(RUBBLE)
	@validation/energy_account.sh $(RUBBLE)
	@validation/shear_mu_i.sh $(RUBBLE)

# every example run to its end and drawn by ParaView -> docs/examples.md, docs/examples/*.png
renders: build
	@scripts/install-deps.sh bench
	@scripts/render_examples.sh $(RUBBLE) $(EXAMPLES)

install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

clean:
	rm -rf $(BUILD) $(BUILD_SAN) $(BUILD_CLANG) $(BUILD_FUZZ)
