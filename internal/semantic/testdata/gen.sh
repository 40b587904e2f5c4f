#!/usr/bin/env bash
# Regenerates fixture.scip from fixture/ with the pinned scip-go (see Makefile).
#   usage: internal/semantic/testdata/gen.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$here/fixture/." "$work/"
cd "$work"
GOFLAGS=-mod=mod scip-go index --quiet --module-version v0.0.0 --output "$here/fixture.scip"
