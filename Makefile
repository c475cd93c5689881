# gpureport: `make run` reports the bundled sample run, `make test` runs the tests.
GO      ?= go
BIN     := bin/gpureport
PKGS    := ./... ./testdata/gen/...

.PHONY: all build run test vet lint testdata clean

all: build

build:
	$(GO) build -o $(BIN) ./cmd/gpureport

run: build
	./$(BIN) testdata/sample-run

vet:
	$(GO) vet $(PKGS)
	@test -z "$$(gofmt -l cmd ingest analyze report templates testdata)" || { gofmt -l cmd ingest analyze report templates testdata; echo "gofmt needed"; exit 1; }

test: vet
	$(GO) test $(PKGS)

lint: vet
	$(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2 $(PKGS)

clean:
	rm -rf bin
