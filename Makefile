# Cairn's build. Everything needs cgo (tree-sitter) and a C compiler.
GO      ?= go
BIN     := bin/cairn
VERSION ?= $(shell git describe --always --dirty 2>/dev/null || echo dev)
export CGO_ENABLED := 1

.PHONY: build test vet fmt-check e2e-deps runner-deps pytest-dep flake8-dep tools bench opsbench precision agentbench renamebench bench-worktrees harden corpora clean realmod

# Pinned external tools the tests drive for real (the semantic layer runs
# scip-go); installed into bin/tools, which comes first on PATH for every
# recipe. A test that needs one fails when it is missing.
TOOLS_DIR := $(CURDIR)/bin/tools
export PATH := $(TOOLS_DIR):$(PATH)
SCIP_GO   := $(TOOLS_DIR)/scip-go
STATICCHECK := $(TOOLS_DIR)/staticcheck

# The end-to-end tests drive cairn with the official TypeScript MCP client,
# check the OpenAPI document with swagger-parser, openapi-typescript and tsc,
# and load the dashboard in Debian's Chromium with playwright-core: the npm
# packages are installed from test/e2e/package-lock.json into
# test/e2e/node_modules, Chromium with apt-get when it is missing.
# CAIRN_SKIP_NODE=1 skips both the installs and those tests.
E2E_DIR  := test/e2e
E2E_DEPS := $(E2E_DIR)/node_modules/.package-lock.json
ifeq ($(CAIRN_SKIP_NODE),1)
TEST_DEPS :=
else
TEST_DEPS := e2e-deps
endif

# The tests of test_run and lint_check drive real runners and linters: jest,
# vitest, eslint, tsc and biome pinned in test/runners (the fixture
# repositories link its node_modules), pytest from Debian's python3-pytest
# (installed when neither a pytest program nor the python module is there),
# flake8 from Debian, staticcheck from tools, and go, node and cargo from
# the machine (and javac, which a rename script compiles its result with).
RUNNERS_DIR  := test/runners
RUNNERS_DEPS := $(RUNNERS_DIR)/node_modules/.package-lock.json

build:
	$(GO) build -ldflags "-X github.com/cairnhq/cairn/internal/cli.Version=$(VERSION)" -o $(BIN) ./cmd/cairn

# vet runs go vet and staticcheck (pinned in tools): dead code, values
# assigned and never read, and dropped errors fail the build.
vet: tools
	$(GO) vet ./...
	$(STATICCHECK) ./...

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

# CAIRN_REALMOD=1: test/realmod fetches two releases of a real Go module
# from the module proxy (as tools does) and checks semantic_diff against its
# changelog. CAIRN_REALMOD=0 make test skips it.
CAIRN_REALMOD ?= 1
export CAIRN_REALMOD

test: vet fmt-check tools $(TEST_DEPS) runner-deps
	$(GO) test -count=1 -timeout 30m ./...

realmod:
	CAIRN_REALMOD=1 $(GO) test -count=1 -v ./test/realmod/

tools: $(SCIP_GO) $(STATICCHECK)

$(SCIP_GO):
	GOBIN=$(TOOLS_DIR) $(GO) install github.com/scip-code/scip-go/cmd/scip-go@v0.2.9

# lint_check's tests run staticcheck.
$(STATICCHECK):
	GOBIN=$(TOOLS_DIR) $(GO) install honnef.co/go/tools/cmd/staticcheck@v0.8.2

CHROMIUM := /usr/bin/chromium
SUDO     := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

e2e-deps: $(E2E_DEPS) $(CHROMIUM)

$(CHROMIUM):
	$(SUDO) apt-get install -y --no-install-recommends chromium || { $(SUDO) apt-get update && $(SUDO) apt-get install -y --no-install-recommends chromium; }

runner-deps: $(RUNNERS_DEPS) pytest-dep flake8-dep

$(RUNNERS_DEPS): $(RUNNERS_DIR)/package.json $(RUNNERS_DIR)/package-lock.json
	cd $(RUNNERS_DIR) && npm ci --no-audit --no-fund
	touch $@

pytest-dep:
	@command -v pytest >/dev/null 2>&1 || python3 -c 'import pytest' 2>/dev/null || \
		{ $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq python3-pytest; }

flake8-dep:
	@command -v flake8 >/dev/null 2>&1 || { $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq flake8; }

$(E2E_DEPS): $(E2E_DIR)/package.json $(E2E_DIR)/package-lock.json
	cd $(E2E_DIR) && npm ci --no-audit --no-fund
	touch $@

# Ten worktrees of the kubernetes corpus against one, and the import path of
# an index artifact (docs/ARTIFACTS.md); writes its section of bench/RESULTS.md.
bench-worktrees: build
	nice -n 10 bench/worktrees.sh

# Benchmarks on real corpora (fetched on first use); results go to bench/RESULTS.md.
bench: build
	bench/run.sh

# What task accounting, metrics, the ledger and the call log add per call
# (interleaved A/B rounds in one process); writes its section of
# bench/RESULTS.md.
opsbench:
	$(GO) run ./bench/cmd/opsbench -results bench/RESULTS.md

# Precision and recall of references against the compilers' indexers and
# language servers (installs them pinned under bench/precision/tools; heavy:
# minutes per corpus). Writes its section of bench/RESULTS.md.
precision: tools
	bench/precision/run.sh

# Agent questions in one call: the committed questions of
# bench/agentbench/questions.json asked of Cairn, scored against their ground
# truth and against a grep-and-read baseline in tokens (its section of
# bench/RESULTS.md). REGEN=1 draws the questions and computes the truth again
# with the pinned oracles (slow: gopls on kubernetes).
agentbench:
	bench/agentbench/run.sh

# Refactors on real code: Cairn's renames (Go: gin and client-go; TypeScript:
# rxjs with its development dependencies) compared with gopls's and
# typescript-language-server's renames and built after, moves built after,
# and one large rename timed (its section of bench/RESULTS.md). Installs its
# pinned oracles under bench/out/tools; heavy: an hour or more on two cores.
# Not part of make test.
renamebench: tools
	bench/renamebench/run.sh

# Reliability campaigns (long: over an hour of fuzzing, 1,000 SIGKILLs of
# writers, the path battery); writes the Reliability section of
# bench/RESULTS.md. FUZZTIME, FUZZPAR and KILLS tune it.
harden: tools
	bench/harden.sh

clean:
	rm -rf bin $(E2E_DIR)/node_modules $(RUNNERS_DIR)/node_modules
