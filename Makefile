# pumasi — a newcomer needs two commands: `make localdev` and `make test`.
GO      ?= go
BIN     ?= bin
PUMASI  := $(BIN)/pumasi
GOFLAGS_BUILD := -trimpath -buildvcs=false

.PHONY: build localdev test tools bench fuzz vet

build:
	$(GO) build $(GOFLAGS_BUILD) -o $(PUMASI) ./cmd/pumasi

## localdev: serve the whole product on 127.0.0.1:8787 with home ~/.pumasi
localdev: build
	$(PUMASI) localdev

## tools: install the pinned test peers (MinIO, Lambda RIE) into the cache
tools:
	bash scripts/tools.sh all

## test: vet, then every test (fuzz seed corpora included) with real peers
test: tools
	$(GO) vet ./...
	PUMASI_REQUIRE_PEERS=1 $(GO) test -count=1 -timeout 14m ./...

## bench: benchmarks, each printed beside a baseline measured in the same run
bench: tools build
	PUMASI_REQUIRE_PEERS=1 $(GO) run ./bench

## fuzz: a longer fuzz run of every target (FUZZTIME per target, default 60s)
FUZZTIME ?= 60s
fuzz:
	bash scripts/fuzz.sh $(FUZZTIME)
