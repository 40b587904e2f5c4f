# Cairn's build. Everything needs cgo (tree-sitter) and a C compiler.
GO      ?= go
BIN     := bin/cairn
VERSION ?= $(shell git describe --always --dirty 2>/dev/null || echo dev)
export CGO_ENABLED := 1

.PHONY: build test vet fmt-check bench corpora clean

build:
	$(GO) build -ldflags "-X github.com/cairnhq/cairn/internal/cli.Version=$(VERSION)" -o $(BIN) ./cmd/cairn

vet:
	$(GO) vet ./...

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

test: vet fmt-check
	$(GO) test -count=1 ./...

# Benchmarks on real corpora (fetched on first use); results go to bench/RESULTS.md.
bench: build
	bench/run.sh

clean:
	rm -rf bin
