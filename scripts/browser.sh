#!/usr/bin/env bash
# browser.sh installs what the dashboard's browser test needs, pinned:
# Debian's chromium (apt) and playwright-core (npm ci from e2e/browser's
# package-lock.json) into a cache folder. `npx playwright install` cannot work
# here (it downloads its own browser build), so playwright-core drives the
# system chromium through executablePath.
#
# Usage: scripts/browser.sh            install (idempotent; quick when done)
#        scripts/browser.sh --print    print the module folder and exit
# Cache: ${PUMASI_TOOLS:-$HOME/.cache/pumasi/tools}/browser/node_modules
# Env:   PUMASI_CHROMIUM_VERSION overrides the pinned Debian version.
set -euo pipefail

# CHROMIUM_VERSION is the version Debian bookworm(-security) offered when the
# test was written; Debian replaces security builds, so when apt no longer
# offers it the current candidate is installed and the difference is logged.
CHROMIUM_VERSION="${PUMASI_CHROMIUM_VERSION:-156.0.8078.129-1~deb12u1}"
# FONTS_NANUM gives headless chromium Korean glyphs: the page shows Korean
# file names and the screenshots must too (Debian's chromium pulls no CJK font).
FONTS_NANUM_VERSION="20200506-1"

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
SRC="$ROOT/e2e/browser"
TOOLS="${PUMASI_TOOLS:-$HOME/.cache/pumasi/tools}"
DEST="$TOOLS/browser"

log() { printf 'browser.sh: %s\n' "$*" >&2; }

if [[ "${1:-}" == "--print" ]]; then
	echo "$DEST/node_modules"
	exit 0
fi

as_root() {
	if [[ "$(id -u)" == 0 ]]; then
		"$@"
	elif command -v sudo >/dev/null 2>&1; then
		sudo -n "$@"
	else
		log "need root to run: $*"
		return 1
	fi
}

# installed_version prints the installed Debian version of a package, if any.
installed_version() {
	dpkg-query -W -f='${Status} ${Version}\n' "$1" 2>/dev/null | awk '$3 == "installed" { print $4 }'
}

installed_chromium() { installed_version chromium; }

install_chromium() {
	local have fonts
	have="$(installed_chromium || true)"
	fonts="$(installed_version fonts-nanum || true)"
	if [[ "$have" == "$CHROMIUM_VERSION" && -x /usr/bin/chromium && -n "$fonts" ]]; then
		log "chromium $have already installed"
		return 0
	fi
	local start=$SECONDS
	log "installing Debian chromium $CHROMIUM_VERSION (have: ${have:-none})"
	as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
	local offered
	offered="$(apt-cache madison chromium 2>/dev/null | awk -F'|' '{ gsub(/ /, "", $2); print $2 }')"
	local want="$CHROMIUM_VERSION"
	if ! grep -qxF "$CHROMIUM_VERSION" <<<"$offered"; then
		want="$(apt-cache policy chromium | awk '/Candidate:/ { print $2 }')"
		if [[ -z "$want" || "$want" == "(none)" ]]; then
			log "apt offers no chromium package"
			return 1
		fi
		if [[ -n "$have" && "$have" == "$want" && -x /usr/bin/chromium && -n "$fonts" ]]; then
			log "pinned chromium $CHROMIUM_VERSION is no longer offered; keeping installed $have"
			return 0
		fi
		log "pinned chromium $CHROMIUM_VERSION is no longer offered; installing the candidate $want instead"
	fi
	local pkgs=("chromium=$want")
	if [[ -z "$fonts" ]]; then
		if apt-cache madison fonts-nanum 2>/dev/null | grep -qF "$FONTS_NANUM_VERSION"; then
			pkgs+=("fonts-nanum=$FONTS_NANUM_VERSION")
		else
			pkgs+=(fonts-nanum)
		fi
	fi
	as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${pkgs[@]}" >/dev/null
	log "installed chromium $(installed_chromium) and fonts-nanum $(installed_version fonts-nanum) in $((SECONDS - start))s"
}

# install_playwright runs npm ci in the cache folder unless the lock file that
# the last successful install recorded is byte-identical to the project's.
install_playwright() {
	local stamp="$DEST/installed.lock.json"
	if [[ -f "$DEST/node_modules/playwright-core/package.json" ]] && cmp -s "$SRC/package-lock.json" "$stamp"; then
		log "playwright-core already installed in $DEST/node_modules"
		return 0
	fi
	if ! command -v npm >/dev/null 2>&1; then
		log "npm is missing; install Node.js 20+ (Debian: apt-get install nodejs npm)"
		return 1
	fi
	local start=$SECONDS
	mkdir -p "$DEST"
	rm -f "$stamp"
	cp "$SRC/package.json" "$SRC/package-lock.json" "$DEST/"
	(cd "$DEST" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >&2)
	cp "$SRC/package-lock.json" "$stamp"
	log "installed playwright-core $(node -p 'require(process.argv[1]).version' "$DEST/node_modules/playwright-core/package.json") in $((SECONDS - start))s"
}

install_chromium
install_playwright
