#!/usr/bin/env bash
# inspector.sh installs the MCP Inspector CLI that cmd/pumasi's tests drive
# the real `pumasi mcp` binary with, pinned: npm ci from scripts/inspector's
# package-lock.json (@modelcontextprotocol/inspector 2.12.0) into a cache
# folder, like scripts/browser.sh does for playwright-core.
#
# Usage: scripts/inspector.sh            install (idempotent; quick when done)
#        scripts/inspector.sh --print    print the package folder and exit (its
#                                        package.json names the bins: mcp-inspector
#                                        for `--cli` calls, mcpdo for subscriptions)
# Cache: ${PUMASI_TOOLS:-$HOME/.cache/pumasi/tools}/inspector/node_modules
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
SRC="$ROOT/scripts/inspector"
TOOLS="${PUMASI_TOOLS:-$HOME/.cache/pumasi/tools}"
DEST="$TOOLS/inspector"
PKG="$DEST/node_modules/@modelcontextprotocol/inspector"

log() { printf 'inspector.sh: %s\n' "$*" >&2; }

# entry is the launcher the package's `mcp-inspector` bin points at.
entry() { echo "$PKG/$(node -p 'require(process.argv[1]).bin["mcp-inspector"]' "$PKG/package.json")"; }

if [[ "${1:-}" == "--print" ]]; then
	echo "$PKG"
	exit 0
fi

if ! command -v npm >/dev/null 2>&1; then
	log "npm is missing; install Node.js 20+ (Debian: apt-get install nodejs npm)"
	exit 1
fi
stamp="$DEST/installed.lock.json"
if [[ -f "$PKG/package.json" ]] && cmp -s "$SRC/package-lock.json" "$stamp"; then
	log "inspector $(node -p 'require(process.argv[1]).version' "$PKG/package.json") already installed in $DEST/node_modules"
	exit 0
fi
start=$SECONDS
mkdir -p "$DEST"
rm -f "$stamp"
cp "$SRC/package.json" "$SRC/package-lock.json" "$DEST/"
# --ignore-scripts: the CLI needs no install step (its native keyring module
# ships prebuilt per platform as an optional dependency).
(cd "$DEST" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >&2)
cp "$SRC/package-lock.json" "$stamp"
log "installed inspector $(node -p 'require(process.argv[1]).version' "$PKG/package.json") in $((SECONDS - start))s: $(entry)"
