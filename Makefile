# gpureport. A fresh machine needs two commands:
#   make run    build gpureport and report the bundled sample run
#   make test   gofmt, vet, staticcheck, deadcode, every test (each fuzz
#               target's seed corpus included); deterministic
# Between them, while working:
#   make check  gofmt, vet, staticcheck and the unit tests in -short mode,
#               offline, in under 3 minutes on 2 cores
GO        ?= go
BIN       := bin/gpureport
PKGS      := ./...
SRC_DIRS  := cmd internal input snapshot gpulog ingest placement analyze report templates testdata docs
# The linters are tool lines of go.mod (pinned there: staticcheck from
# honnef.co/go/tools, deadcode from golang.org/x/tools), built from the
# module cache like any dependency.
STATICCHECK := $(GO) tool staticcheck
DEADCODE  := $(GO) tool deadcode
# Packages with fuzz targets, found rather than listed, so that a target
# that moves or is added is never left out; every Fuzz* function in them is run.
FUZZ_PKGS := $(sort $(patsubst %/,./%,$(dir $(shell grep -rl --include='*_test.go' '^func Fuzz' $(SRC_DIRS)))))
FUZZEXEC  ?= 2000x
# Corpus seed and cases per scenario for `make eval`. The analysis rules were
# tuned on seeds 1-4; report on any other seed.
EVAL_SEED ?= 7
EVAL_N    ?= 5
OUT       := out

.PHONY: all build run test check fmt vet third-party lint deadcode unit fuzz fuzz-smoke testdata corpus eval \
	bench bench-decode bench-scale race clean

all: build

build:
	$(GO) build -o $(BIN) ./cmd/gpureport

# The sample run's nvidia-smi timestamps are UTC (see testdata/README.md).
run: build
	./$(BIN) --tz UTC testdata/sample-run

test: vet lint deadcode unit

# The everyday gate, a subset of test: no network (GOPROXY=off: go.mod's
# modules must be in the module cache, as after one `go mod download` or one
# `make test`), no cross builds, no third-party check, no deadcode, and the
# tests in -short mode, which leave out the slow ones (headless Chromium,
# LibreOffice, the generated corpus, long decoder sweeps) that test runs.
check: export GOPROXY := off
check: fmt
	$(GO) vet $(PKGS)
	$(STATICCHECK) $(PKGS)
	$(GO) test -short $(PKGS)

fmt:
	@bad=$$(gofmt -l $(SRC_DIRS)); if [ -n "$$bad" ]; then echo "gofmt needed:"; echo "$$bad"; exit 1; fi

# Users run gpureport on Windows and macOS laptops too: vet also vets and
# builds for them (without cgo, as the NVML recorder is Linux-only), so the
# files only those builds compile (the NVML stub, the portable RSS reader)
# are vetted as well.
vet: third-party fmt
	$(GO) vet $(PKGS)
	CGO_ENABLED=0 $(GO) build ./...
	CGO_ENABLED=0 GOOS=windows GOARCH=amd64 $(GO) vet ./...
	CGO_ENABLED=0 GOOS=windows GOARCH=amd64 $(GO) build ./...
	CGO_ENABLED=0 GOOS=darwin GOARCH=arm64 $(GO) vet ./...
	CGO_ENABLED=0 GOOS=darwin GOARCH=arm64 $(GO) build ./...

# third_party/go-nvml must be upstream's pinned release plus the one line its
# README.gpureport.md explains (the module proxy and checksum database say
# what upstream is; `sync.sh update VERSION` moves to another release).
# `go install ./cmd/gpureport` must compile it without a warning; -a compiles
# it afresh, as a new machine would.
third-party:
	./third_party/go-nvml/sync.sh check
	@out=$$(CGO_ENABLED=1 $(GO) build -a github.com/NVIDIA/go-nvml/pkg/nvml 2>&1); \
	if [ -n "$$out" ]; then echo "$$out"; echo "FAIL: compiling go-nvml printed the above"; exit 1; fi

lint:
	$(STATICCHECK) $(PKGS)

# Functions that no main and no test reaches; fails when there are any.
# -test counts tests as callers: a test-helper package (internal/testutil)
# has no other.
deadcode:
	@out=$$($(DEADCODE) -test $(PKGS)) || exit 1; \
	if [ -n "$$out" ]; then echo "$$out"; echo "FAIL: unreachable functions"; exit 1; fi

# The recorder's tests run a second time without cgo, as Windows and macOS
# builds are: there Open must refuse with UnavailableError.
unit:
	$(GO) test -timeout 30m $(PKGS)
	CGO_ENABLED=0 $(GO) test ./internal/record

# Every fuzz target for FUZZEXEC executions each. Not part of `make test`:
# Go's fuzzer mutates at random (it takes no seed), so a run can find a new
# crasher in code that no commit touched and turn one clean clone red and the
# next green; `make test` must say the same of the same commit every time. Its
# `unit` step runs every fuzz target on its seed corpus (the real files and
# every crasher kept under testdata/fuzz), which is deterministic; fuzzing to
# find new inputs is this target's and `make fuzz`'s work, run while working
# on a parser and before a release. The budget is a count, not a
# duration: Go 1.26's fuzz coordinator can fail a run with "context deadline
# exceeded" at a -fuzztime=<duration> boundary (golang/go#75804) without having
# found anything. A failing run prints its whole output and any crasher that
# it wrote under testdata/fuzz, so the failure can be replayed with `go test`.
fuzz-smoke:
	@set -e; log=$$(mktemp); trap 'rm -f $$log' EXIT; \
	for p in $(FUZZ_PKGS); do \
	  for f in $$($(GO) test -list '^Fuzz' $$p | grep '^Fuzz'); do \
	    echo "fuzz $$p $$f $(FUZZEXEC)"; \
	    if ! $(GO) test $$p -run='^$$' -fuzz="^$$f$$" -fuzztime=$(FUZZEXEC) -fuzzminimizetime=200x >$$log 2>&1; then \
	      cat $$log; \
	      echo "FAIL: fuzz target $$f in $$p; new crashers:"; \
	      git status --porcelain --untracked-files=all -- '*/testdata/fuzz/*' || true; \
	      exit 1; \
	    fi; \
	  done; \
	done

fuzz:
	$(MAKE) fuzz-smoke FUZZEXEC=200000x

# The capture kit (python/): its unittest tests run against a stand-in for
# torch, with no GPU and nothing to install; Debian's python3 (3.8 or
# later) is enough.
PYTHON ?= python3
.PHONY: python-test
test: python-test
python-test:
	cd python && $(PYTHON) -m unittest discover -s tests

# Regenerate the bundled sample run and the log fixtures (their output is
# committed; tests pin them).
testdata:
	$(GO) run ./internal/gen sample -o testdata/sample-run
	$(GO) run ./internal/gen logs -o testdata/logs

corpus:
	rm -rf $(OUT)/corpus
	$(GO) run ./internal/gen corpus -o $(OUT)/corpus -seed $(EVAL_SEED) -n $(EVAL_N)

# Labelled evaluation (package internal/eval): per-scenario and per-knob tables,
# a confusion matrix per verdict flag and for the OOM cause, leak precision,
# recall, top-1 site and suspects with a bad interval. Exits 4 when a target
# (internal/eval's Target* constants) is missed.
eval: build corpus
	./$(BIN) eval $(OUT)/corpus

# The data race detector over the packages that run work side by side (the
# load's workers, the roles beside attribution, the digest cache's shared
# tables): minutes, so not part of test. The detector slows the decoder's
# tests some tenfold: ./snapshot alone takes about ten minutes on 2 cores,
# the default per-package limit, hence -timeout.
race:
	$(GO) test -race -short -timeout 30m ./analyze/... ./ingest ./snapshot ./cmd/gpureport

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./snapshot ./gpulog ./ingest ./analyze ./report ./cmd/gpureport

# Decoder vs CPython pickle.load on a generated ~280 MB snapshot with
# thousands of distinct stacks (targets: full decode at least 8x faster,
# both decoders timed in process, without a process's start; digest-only
# reading at least 500 MB/s per core). BENCH_BASE=REV (a git
# revision, e.g. main) also times that revision's gpureport in the same
# run, for before/after figures. BENCH_DECODE_ARGS='-shape ordinary' (or
# few, large) times a snapshot of that shape of gen shape instead.
BENCH_BASE ?=
BENCH_DECODE_ARGS ?=
bench-decode: build
	$(GO) run ./internal/benchdecode -bin $(BIN) $(BENCH_DECODE_ARGS) $(if $(BENCH_BASE),-base $(BENCH_BASE))

clean:
	rm -rf bin $(OUT)

# Long runs (README, "Long runs"): first runs, re-runs after one more
# snapshot, peak RSS and CPython's pickle.load, on runs of distinct copies
# of generated snapshots of three shapes (few blocks, ordinary, a large
# model's), with and without caught OOM events. Durations measured on the
# shared 2-core VM (they double when others build): the few and ordinary
# shapes, both OOM variants, N 200 and 400, took 40 minutes at a load of
# 12-19; BENCH_SCALE_ARGS='-shapes ordinary,large -oom no -large-n 40,80'
# took 7 minutes at a load of 6-14 (the figures in docs/fold.md, section
# 7). The default adds the few shape, the OOM variants and large N 60,120
# (about an hour, 6 GB of disk); '-large-n 200,400' is issue 30's full
# table (20 GB of disk, an hour more). On a later, faster VM, '-shapes
# ordinary,large -oom both -n 200,400 -large-n 20,40 -python-max 20
# -large-python-max 6' took 3.5 minutes with a base, and '-shapes large
# -oom both -large-n 200 -large-python-max 6' 5 minutes (10 GB). Since the
# first runs and CPython's loads are timed three times each, taking turns,
# '-shapes large -oom both -large-n 200 -large-python-max 6' with a base
# takes 4 minutes, and '-shapes ordinary -oom both -n 200,400 -python-max
# 20' with a base 1.5. Each shape waits -settle (3.5 s) before its first
# runs. BENCH_BASE=REV also times
# that git revision's gpureport in the same run (see bench-decode).
BENCH_SCALE_ARGS ?=
bench-scale: build
	$(GO) run ./internal/benchscale -bin $(BIN) $(BENCH_SCALE_ARGS) $(if $(BENCH_BASE),-base $(BENCH_BASE))
