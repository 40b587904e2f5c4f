#!/usr/bin/env bash
# Regenerates tsfixture.scip from tsfixture/ with scip-typescript 0.4.0
# (npm i @sourcegraph/scip-typescript@0.4.0 typescript@5.9.3; put its bin
# directory on PATH).
#   usage: internal/semantic/testdata/gen-ts.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$here/tsfixture/." "$work/"
cd "$work"
scip-typescript index --output "$here/tsfixture.scip"
