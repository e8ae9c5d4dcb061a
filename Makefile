# pumasi — a newcomer needs two commands: `make localdev` and `make test`.
# bash with pipefail: a test piped into grep for its figures still fails the
# target when it fails.
SHELL := bash
.SHELLFLAGS := -o pipefail -c
GO      ?= go
BIN     ?= bin
PUMASI  := $(BIN)/pumasi
GOFLAGS_BUILD := -trimpath -buildvcs=false

.PHONY: build localdev test tools browser inspector bench fuzz vet

build:
	$(GO) build $(GOFLAGS_BUILD) -o $(PUMASI) ./cmd/pumasi

## install: go install ./cmd/pumasi into $(go env GOBIN), else $(go env GOPATH)/bin, and
## say where; unlike build it stamps the VCS revision, which `pumasi version` prints
.PHONY: install
install:
	$(GO) install -trimpath -buildvcs=auto ./cmd/pumasi
	@dir="$$($(GO) env GOBIN)"; [ -n "$$dir" ] || dir="$$($(GO) env GOPATH)/bin"; \
	echo "installed $$dir/pumasi"; \
	case ":$$PATH:" in *":$$dir:"*) ;; *) echo "$$dir is not on PATH; add it: export PATH=\"$$dir:\$$PATH\"";; esac

## localdev: serve the whole product on 127.0.0.1:8787 with home ~/.pumasi
localdev: build
	$(PUMASI) localdev

## tools: install the pinned test peers (MinIO, Lambda RIE, PostgreSQL + pgvector)
tools:
	bash scripts/tools.sh all
	bash scripts/postgres.sh install

## browser: install the pinned Debian chromium and playwright-core (dashboard test)
browser:
	bash scripts/browser.sh

## inspector: install the pinned MCP Inspector CLI (npm), which drives `pumasi mcp` in tests
inspector:
	bash scripts/inspector.sh

## test: vet, then every test (fuzz seed corpora included) with real peers under
## the race detector, which every package with concurrency runs through; then,
## without it, the load test at full size, the quality measurements and the
## serial tests over the labelled corpora (they skip themselves under -race: one
## request at a time, so nothing for it to check, and several times slower; the
## goroutines of the paths they drive run under it in every concurrent test) and
## the pure-CPU gate.
##
## RACE_FIRST: the longest packages start first, so that on 2 cores none of them
## begins last and stretches the wall time alone (go test starts packages in
## the order given). Longest first, from a race pass on the shared machine:
## adapters/postgres 218 s (it started seventh), localdev 314 s before its
## stuck-socket test stopped running out its 5 minutes, functions 214 s before
## the matrix copied one seeded home, adapters/s3 95, adapters/local 83,
## e2e/browser 78, cmd/pumasi 73, e2e 61.
## NORACE_PKGS run once without -race instead: they start no goroutine and share
## no state (no `go`, no sync; gate's TestGateHasNoConcurrency enforces it), so
## -race has nothing to check there and only multiplies their CPU (gate: 13x).
## Their code still runs under -race wherever a caller uses it concurrently
## (functions, knowledge, localdev).
## RACEFLAGS: SQLite's engine, modernc.org's translation of its C to Go
## (sqlite/lib, libc, memory), is built without race instrumentation, as the C
## of a cgo driver would be: the detector watched SQLite's own page cache and
## VDBE, never pumasi, and that was two thirds of the CPU of every test that
## opens a database (functions: 370+ CPU-s -> 100). The driver (modernc.org/sqlite,
## where pumasi's values cross into the engine) and all of pumasi stay
## instrumented, with checkptr.
## -vet=off: `go vet ./...` just ran every analyzer go test would.
## TRIM: vet, the tests and the binaries they build (e2e, the dashboard, MCP) use
## -trimpath, as `make install` does, so that a cold run compiles the tree once for
## all of them and once under -race, not a third time for the README's install test
## (localdev took 215 s cold against 102 s warm, mostly that compile).
TRIM        := GOFLAGS="-trimpath $(GOFLAGS)"
## TESTTMP: the tests run with TMPDIR on /dev/shm when it is a tmpfs with room
## (scripts/testtmp.sh): their homes, SQLite databases and go test's work folder
## die with the run, and on a shared disk their fsyncs were much of the wall time.
TESTTMP     = TMPDIR="$$(bash scripts/testtmp.sh)"
RACE_FIRST  := ./adapters/postgres ./localdev ./functions ./adapters/s3 ./adapters/local ./e2e/browser ./cmd/pumasi ./e2e ./machine
NORACE_PKGS := pumasi/gate
RACEFLAGS   := -race $(foreach p,modernc.org/sqlite/lib modernc.org/libc/... modernc.org/memory,-gcflags='$(p)=-race=false')
## PEERS: scripts/peers.sh installs the test peers (the targets tools, browser and
## inspector, the independent ones side by side) beside vet, so that a cold run's
## downloads and MinIO's build overlap the compile; a cached run is a no-op.
test:
	bash scripts/peers.sh & peers=$$!; \
		$(TRIM) $(GO) vet ./...; vet=$$?; \
		wait $$peers; installed=$$?; \
		[ $$vet -eq 0 ] && [ $$installed -eq 0 ]
	pkgs=$$($(GO) list $(RACE_FIRST) ./... | grep -vxF $(addprefix -e ,$(NORACE_PKGS))) && \
		PUMASI_REQUIRE_PEERS=1 $(TESTTMP) $(TRIM) $(GO) test $(RACEFLAGS) -vet=off -count=1 -timeout 14m $$pkgs
	@# then, side by side (each is one core's work): the pure-CPU packages, once
	@# without -race (for the gate, its figures on testdata/gate's tuning part;
	@# TestGateLabelledCorpus enforces the floors of both parts; the held-out
	@# figures print only with PUMASI_SHOW_HELDOUT=1, internal/heldout), and the
	@# measurements that skip themselves under -race (every one of them: a skipped
	@# test that no -run list names checks nothing), and the stored-details tests
	@# over every tuning text (under -race they read a sample); on a failure the whole
	@# output of either is printed. The gate's timeout is 8m: it took 240-275 s here
	@# before TestInstructionsLOFO (about 30 s of CPU) joined it
	@t=$$(mktemp -d); \
		PUMASI_REQUIRE_PEERS=1 $(TESTTMP) $(TRIM) $(GO) test -vet=off -count=1 -timeout 8m -v $(NORACE_PKGS) > $$t/gate.log 2>&1 & gate=$$!; \
		PUMASI_REQUIRE_PEERS=1 $(TESTTMP) $(TRIM) $(GO) test -vet=off -count=1 -timeout 5m -run '^(TestReadsDuringWrites|TestRetrievalQuality|TestRelevanceFloor|TestMergeableSymmetric|TestDetailSwapProbe|TestQuerySharesNothing|TestSemanticEmbedderMerges|TestRelevanceLeftOut|TestOwnLookAlikes|TestDetailsVersion|TestStoredDetailsMatchParse|TestFiguresAllocLinear|TestConflictTimeLinear)$$' -v ./adapters/local ./functions ./knowledge > $$t/quality.log 2>&1; quality=$$?; \
		wait $$gate; gated=$$?; \
		if [ $$quality -eq 0 ]; then grep -E '^(---|ok|FAIL|PASS)|quality_test.go|relevance_test.go:[0-9]+: (corpus|floor|no floor)' $$t/quality.log; else cat $$t/quality.log; fi; \
		if [ $$gated -eq 0 ]; then grep -E '^(ok|FAIL)|corpus_test.go:[0-9]+: (corpus|tuning|held-out)' $$t/gate.log; else cat $$t/gate.log; fi; \
		rm -rf $$t; [ $$quality -eq 0 ] && [ $$gated -eq 0 ]

## bench: benchmarks, each printed beside a baseline measured in the same run
## (BENCH passes flags: BENCH='-only knowledge-postgres-1m' runs a long scenario)
BENCH ?=
bench: tools build
	PUMASI_REQUIRE_PEERS=1 $(GO) run ./bench $(BENCH)

## fuzz: a longer fuzz run of every target (FUZZTIME per target, default 60s)
FUZZTIME ?= 60s
fuzz:
	bash scripts/fuzz.sh $(FUZZTIME)

## lambda: dist/<function>.zip for every functions/<name>/main.go, each holding a
## `bootstrap` for provided.al2023 (ARCH=arm64 by default, ARCH=amd64 too),
## built reproducibly: no VCS stamp, trimmed paths, fixed zip times and order
LAMBDA_FUNCTIONS := $(patsubst functions/%/main.go,%,$(wildcard functions/*/main.go))
ARCH ?= arm64
.PHONY: lambda
lambda:
	rm -rf dist/build-$(ARCH) && mkdir -p dist/build-$(ARCH)
	CGO_ENABLED=0 GOOS=linux GOARCH=$(ARCH) $(GO) build -trimpath -buildvcs=false -tags lambda.norpc \
		-ldflags='-s -w' -o dist/build-$(ARCH)/ $(addprefix ./functions/,$(LAMBDA_FUNCTIONS))
	$(GO) run ./scripts/lambdazip -out dist $(addprefix dist/build-$(ARCH)/,$(LAMBDA_FUNCTIONS))
