#!/usr/bin/env bash
# peers.sh installs every pinned test peer, the independent ones side by side:
# MinIO's build (about 3 CPU-minutes) runs beside the apt installs (PostgreSQL,
# pgvector, Chromium: one after the other, as they share dpkg's lock) and the
# npm installs, which mostly wait on the network. `make test` runs this beside
# `go vet`, so a cold run's downloads and MinIO's single-threaded link overlap
# the compile instead of preceding it. A cached run is a no-op of a second.
#
# Usage: scripts/peers.sh   (exits non-zero when any install failed)
set -uo pipefail
cd "$(dirname "$0")/.."

bash scripts/tools.sh minio &
minio=$!
(bash scripts/postgres.sh install && bash scripts/browser.sh) &
apt=$!
(bash scripts/tools.sh rie && bash scripts/inspector.sh) &
other=$!

rc=0
for pid in "$minio" "$apt" "$other"; do
	wait "$pid" || rc=1
done
if [[ $rc -ne 0 ]]; then
	echo "peers.sh: an install failed (its own lines above say which and why)" >&2
fi
exit "$rc"
