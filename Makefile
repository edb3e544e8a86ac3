# mcpxx - the two commands of the README, plus a few conveniences.
#
#   make run      install dependencies, build (Release, build/), run $(RUN_CMD): the gateway on
#                 examples/mcp.json (the bundled example servers) at http://$(GATEWAY_LISTEN)/mcp
#   make test     install dependencies, Release build + ctest, ASan/UBSan build + ctest,
#                 TSan build + ctest of the tests that exercise threads, find_package consumer
#                 test, API reference; ends with "N passed, N failed"
#   make test-tsan  the TSan stage alone (build-tsan/, ctest -L threads)
#   make build    install dependencies and build Release in build/
#   make bench    build Release and run every program in build/bench/ (but the soak)
#   make docs     the API reference (Doxygen, zero warnings) in build/docs/html/index.html
#   make format   clang-format -i on all C++ sources (format-check: report only)
#   make deps     scripts/install-deps only
#   make clean    remove build/, build-asan/ and build-tsan/ (distclean: also tests/interop/node_modules)
#
# Variables: JOBS (2), BUILD_DIR (build), ASAN_DIR (build-asan), TSAN_DIR (build-tsan), WERROR (ON),
#   CMAKE_ARGS, RUN_CMD (the program `make run` starts), RUN_ARGS, GATEWAY_LISTEN (127.0.0.1:8765);
#   for `make test`: RELEASE=0 / ASAN=0 / TSAN=0 / PACKAGE=0 / DOCS=0 / DEPS=0 skip a stage,
#   CTEST_ARGS (e.g. CTEST_ARGS="-L unit").

SHELL := /bin/bash
.DEFAULT_GOAL := build

JOBS      ?= 2
BUILD_DIR ?= build
ASAN_DIR  ?= build-asan
TSAN_DIR  ?= build-tsan
WERROR    ?= ON
GATEWAY_LISTEN ?= 127.0.0.1:8765
RUN_CMD   ?= $(abspath $(BUILD_DIR))/mcpxx gateway --config $(CURDIR)/examples/mcp.json --listen $(GATEWAY_LISTEN)
RUN_ARGS  ?=
CLANG_FORMAT ?= clang-format

export JOBS BUILD_DIR ASAN_DIR TSAN_DIR WERROR CMAKE_ARGS CTEST_ARGS RELEASE ASAN TSAN PACKAGE DOCS DEPS
# ccache: a fresh clone at another path still hits the cache (paths made relative to the repo).
export CCACHE_BASEDIR   ?= $(CURDIR)
export CCACHE_NOHASHDIR ?= 1

FORMAT_DIRS := include src apps examples tests bench fuzz

.PHONY: all deps build run test test-tsan bench docs format format-check clean distclean help

all: build

help:
	@sed -n '3,20p' Makefile | sed 's/^# \{0,1\}//'

deps:
	@scripts/install-deps

build: deps
	@scripts/cmake-build $(BUILD_DIR) Release

# examples/mcp.json finds the example servers through these (see docs/host-configuration.md), whatever the
# build directory and the working directory; tests/integration/example_gateway_test.cpp starts
# the gateway the same way.
run: export MCPXX_BUILD_DIR := $(abspath $(BUILD_DIR))
run: export MCPXX_SOURCE_DIR := $(CURDIR)
run: build
	$(RUN_CMD) $(RUN_ARGS)

test:
	@scripts/run-tests

test-tsan:
	@RELEASE=0 ASAN=0 TSAN=1 PACKAGE=0 DOCS=0 scripts/run-tests

bench: build
	@set -e; shopt -s nullglob; ran=0; \
	for b in $(BUILD_DIR)/bench/*; do \
	  if [[ "$${b##*/}" == soak ]]; then echo "==== $$b: a 30-minute soak, run by hand"; continue; fi; \
	  if [[ -f "$$b" && -x "$$b" ]]; then echo "==== $$b"; "$$b"; ran=1; fi; \
	done; \
	if [[ $$ran == 0 ]]; then echo "no benchmark programs in $(BUILD_DIR)/bench/"; fi

docs: deps
	@scripts/build-docs $(BUILD_DIR)/docs

# Every C/C++ source and header we own (no build trees, no node_modules).
format_files = $(shell find $(FORMAT_DIRS) -type d \( -name node_modules -o -name 'build*' \) -prune -o \
	-type f \( -name '*.cpp' -o -name '*.hpp' -o -name '*.h' -o -name '*.ipp' -o -name '*.cc' \) -print 2>/dev/null)

format:
	@command -v $(CLANG_FORMAT) >/dev/null || { echo "clang-format not found (apt-get install clang-format)"; exit 1; }
	@files="$(format_files)"; [[ -z "$$files" ]] || $(CLANG_FORMAT) -i $$files

format-check:
	@command -v $(CLANG_FORMAT) >/dev/null || { echo "clang-format not found (apt-get install clang-format)"; exit 1; }
	@files="$(format_files)"; [[ -z "$$files" ]] || $(CLANG_FORMAT) --dry-run -Werror $$files

clean:
	rm -rf $(BUILD_DIR) $(ASAN_DIR) $(TSAN_DIR)

distclean: clean
	rm -rf tests/interop/node_modules
