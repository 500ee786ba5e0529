# Thin wrapper around CMake: `make` builds into build/, `make test` runs every test kind
# (unit, mpi, smpi, e2e), the unit tests again under ASan+UBSan, and a short fuzz run.
BUILD ?= build
JOBS ?= 2
CMAKE_FLAGS ?= -DMV_WERROR=ON

.PHONY: all build test test-main test-sanitize test-fuzz deps clean

all: build

build:
	cmake -S . -B $(BUILD) $(CMAKE_FLAGS) >/dev/null
	cmake --build $(BUILD) -j $(JOBS)

deps:
	bash scripts/install-deps.sh

test: test-main test-sanitize test-fuzz

test-main: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS) -LE fuzz

test-sanitize:
	cmake -S . -B $(BUILD)-asan $(CMAKE_FLAGS) -DMV_SANITIZE=ON -DMV_MPI_PROGRAMS=ON -DCMAKE_BUILD_TYPE=Debug >/dev/null
	cmake --build $(BUILD)-asan -j $(JOBS)
	cd $(BUILD)-asan && ctest --output-on-failure -j $(JOBS) -L 'unit|sanitize'

test-fuzz:
	CC=clang cmake -S . -B $(BUILD)-fuzz $(CMAKE_FLAGS) -DMV_FUZZ=ON -DMV_MPI_PROGRAMS=OFF >/dev/null
	cmake --build $(BUILD)-fuzz -j $(JOBS)
	cd $(BUILD)-fuzz && ctest --output-on-failure -L fuzz

clean:
	rm -rf $(BUILD) $(BUILD)-asan $(BUILD)-fuzz
