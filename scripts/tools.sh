#!/usr/bin/env bash
# tools.sh installs the pinned test peers (MinIO, the Lambda runtime interface
# emulator) into a cache folder so tests and CI need nothing installed by hand.
#
# Usage: scripts/tools.sh [minio|rie|all]   (default: all)
# Cache: ${PUMASI_TOOLS:-$HOME/.cache/pumasi/tools}/bin, one stamp file per tool.
set -euo pipefail

MINIO_MODULE="github.com/minio/minio"
MINIO_VERSION="v0.0.0-20260212201848-7aac2a2c5b7c"
RIE_MODULE="github.com/aws/aws-lambda-runtime-interface-emulator/cmd/aws-lambda-rie"
RIE_VERSION="v0.0.0-20261030222936-bef5c4ba774d"

TOOLS="${PUMASI_TOOLS:-$HOME/.cache/pumasi/tools}"
BIN="$TOOLS/bin"
STAMPS="$TOOLS/stamps"

log() { printf 'tools.sh: %s\n' "$*" >&2; }

# install NAME MODULE VERSION builds MODULE@VERSION into $BIN unless the binary
# exists and its stamp records the same version.
install() {
	local name="$1" module="$2" version="$3"
	local bin="$BIN/$name" stamp="$STAMPS/$name"
	if [[ -x "$bin" && -f "$stamp" && "$(cat "$stamp")" == "$module@$version" ]]; then
		log "$name $version already installed at $bin"
		return 0
	fi
	mkdir -p "$BIN" "$STAMPS"
	log "installing $module@$version into $BIN"
	if [[ "$name" == minio ]]; then log "MinIO takes about 3 CPU-minutes to build the first time"; fi
	local start=$SECONDS
	# A line every 30 s while go builds, so a first run's silent minutes
	# read as progress, not a hang.
	(
		t0=$(date +%s)
		while sleep 30; do log "still building $name ($(($(date +%s) - t0))s so far)"; done
	) &
	local beat=$!
	# CGO_ENABLED=0 keeps the binaries static; both build without cgo. -s -w:
	# no symbol table or DWARF, which only a debugger of MinIO would read and
	# which MinIO's single-threaded link spends seconds writing.
	if ! CGO_ENABLED=0 GOBIN="$BIN" GOFLAGS="${GOFLAGS:--buildvcs=false}" go install -ldflags='-s -w' "$module@$version"; then
		kill "$beat" 2>/dev/null || true
		log "install of $name failed"
		return 1
	fi
	kill "$beat" 2>/dev/null || true
	printf '%s\n' "$module@$version" >"$stamp"
	log "installed $name in $((SECONDS - start))s: $bin"
}

want="${1:-all}"
case "$want" in
minio) install minio "$MINIO_MODULE" "$MINIO_VERSION" ;;
rie) install aws-lambda-rie "$RIE_MODULE" "$RIE_VERSION" ;;
all)
	install minio "$MINIO_MODULE" "$MINIO_VERSION"
	install aws-lambda-rie "$RIE_MODULE" "$RIE_VERSION"
	;;
*)
	echo "usage: $0 [minio|rie|all]" >&2
	exit 2
	;;
esac
