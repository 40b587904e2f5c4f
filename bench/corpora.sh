#!/usr/bin/env bash
# Fetch the benchmark corpora with the ordinary client of each registry.
# Idempotent. Prints NAME=PATH per corpus.
#   usage: bench/corpora.sh [DIR]   (default: $CAIRN_CORPORA or ~/.cache/cairn-corpora)
set -euo pipefail
dir=${1:-${CAIRN_CORPORA:-$HOME/.cache/cairn-corpora}}
mkdir -p "$dir/gomod" "$dir/npm" "$dir/deb"
export GOMODCACHE="$dir/gomod" GOFLAGS=-mod=mod GOTOOLCHAIN=local

gomod() { # module version
  (cd "$dir" && go mod download -json "$1@$2" >/dev/null) || { echo "cannot download $1@$2" >&2; return 1; }
  echo "$dir/gomod/$1@$2"
}
npmpkg() { # package version
  local out="$dir/npm/$1-$2"
  if [ ! -d "$out/package" ]; then
    mkdir -p "$out" && (cd "$out" && npm pack --silent "$1@$2" >/dev/null && tar xzf ./*.tgz)
  fi
  echo "$out/package"
}
debpkg() { # package, path inside
  local out="$dir/deb/$1"
  if [ ! -d "$out/root" ]; then
    mkdir -p "$out"
    (cd "$out" && { apt-get download "$1" >/dev/null 2>&1 || { apt-get update >/dev/null && apt-get download "$1" >/dev/null; }; })
    dpkg -x "$out"/*.deb "$out/root"
  fi
  echo "$out/root/$2"
}

# A small Go web framework (about a hundred files): the agent-question benchmark asks about it.
echo "go_small=$(gomod github.com/gin-gonic/gin v1.10.0)"
echo "go_med=$(gomod k8s.io/client-go v0.31.0)"
echo "go_large=$(gomod k8s.io/kubernetes v1.31.0)"
# Go modules with quick, self-contained test suites (test_run affected_by).
echo "go_gin=$(gomod github.com/gin-gonic/gin v1.10.0)"
echo "go_testify=$(gomod github.com/stretchr/testify v1.9.0)"
echo "ts=$(npmpkg effect 3.10.0)"
echo "ts_small=$(npmpkg rxjs 7.8.1)"
echo "py=$(debpkg python3-django usr/lib/python3/dist-packages/django)"
# A real npm (yarn) workspace: Consul's web UI, seven packages under packages/*.
echo "js_workspace=$(gomod github.com/hashicorp/consul v1.17.0)/ui"
# One real project per further language: indexed for throughput and parse-failure rate.
echo "lang_rust=$(debpkg librust-regex-syntax-dev usr/share/cargo/registry)"
# Two more Rust crates for the reference tiers of Rust (not in the default run).
echo "rust_serde_json=$(debpkg librust-serde-json-dev usr/share/cargo/registry)"
echo "rust_syn=$(debpkg librust-syn-dev usr/share/cargo/registry)"
# A JavaScript package of ES classes whose constructors assign their fields
# (for the reference tiers of JavaScript; not in the default run).
echo "js_ws=$(npmpkg ws 8.18.0)"
echo "lang_c=$(gomod github.com/tree-sitter/go-tree-sitter v0.25.0)"
echo "lang_cpp=$(npmpkg leveldown 6.1.1)/deps"
echo "lang_ruby=$(debpkg ruby-rack usr/share/rubygems-integration/all/gems)"
echo "lang_php=$(debpkg php-symfony-console usr/share/php)"
javasrc() { # java.util of the OpenJDK sources (Debian ships them as src.zip)
  local out="$dir/deb/openjdk-17-source"
  if [ ! -d "$out/java.util" ]; then
    debpkg openjdk-17-source usr >/dev/null
    (cd "$out" && unzip -q -o "$(find root -name src.zip | head -1)" 'java.base/java/util/*' -d java.util)
  fi
  echo "$out/java.util"
}
echo "lang_java=$(javasrc)"
echo "lang_csharp=$(npmpkg com.neuecc.unirx 7.1.0)"
echo "lang_kotlin=$(npmpkg react-native 0.81.6)/ReactAndroid/src/main/java/com/facebook/react/uimanager"
