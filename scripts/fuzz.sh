#!/usr/bin/env bash
# Runs every fuzz target of the module for FUZZTIME each (default 60s) and
# prints a line per target. `make test` already runs their seed corpora.
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime="${1:-60s}"
status=0
for pkg in $(go list ./...); do
  dir=$(go list -f '{{.Dir}}' "$pkg")
  targets=$(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$dir"/*_test.go 2>/dev/null | sed 's/^func //' | sort -u || true)
  for t in $targets; do
    echo "== $pkg $t ($fuzztime)"
    if ! go test -run '^$' -fuzz "^${t}\$" -fuzztime "$fuzztime" "$pkg" 2>&1 | tail -3; then
      status=1
    fi
  done
done
exit $status
