#!/usr/bin/env bash
# postgres.sh installs the PostgreSQL test peer: PostgreSQL 15 from Debian
# bookworm and pgvector built from Debian trixie's source package (pgvector is
# not packaged for bookworm), and runs throwaway clusters for tests by hand.
#
# Usage: scripts/postgres.sh [install]        install once; a cached run is a no-op
#        scripts/postgres.sh start DIR PORT   initdb in DIR (if new) and start on 127.0.0.1:PORT
#        scripts/postgres.sh stop DIR         stop the cluster in DIR
#
# The system's apt sources are never changed: trixie's source index is read
# through a private apt configuration under the cache folder.
# Cache: ${PUMASI_TOOLS:-$HOME/.cache/pumasi/tools}/{pgvector,stamps/pgvector}.
set -euo pipefail

PG_MAJOR=15
PG_BIN="/usr/lib/postgresql/$PG_MAJOR/bin"
PG_CONFIG="$PG_BIN/pg_config"
PGVECTOR_VERSION="0.8.0"
PGVECTOR_DEB="0.8.0-1"
# PGVECTOR_SHA256 pins pgvector_0.8.0.orig.tar.gz as Debian trixie serves it
# (the same sum its signed .dsc lists).
PGVECTOR_SHA256="867a2c328d4928a5a9d6f052cd3bc78c7d60228a9b914ad32aa3db88e9de27b0"
TRIXIE_SRC="deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian trixie main"

TOOLS="${PUMASI_TOOLS:-$HOME/.cache/pumasi/tools}"
WORK="$TOOLS/pgvector"
STAMP="$TOOLS/stamps/pgvector"

log() { printf 'postgres.sh: %s\n' "$*" >&2; }

# sudo_maybe runs a command as root: directly when we are root, else via sudo.
sudo_maybe() {
	if [[ $(id -u) -eq 0 ]]; then "$@"; else sudo "$@"; fi
}

# install_packages apt-installs postgresql-15 and its server headers unless
# present, refreshing the package lists once when apt does not know them.
install_packages() {
	# gcc, libc6-dev and dpkg-dev (dpkg-source, make, patch, xz) build
	# pgvector; --no-install-recommends would leave them out on a bare system.
	local pkgs=(postgresql-$PG_MAJOR postgresql-server-dev-$PG_MAJOR gcc libc6-dev dpkg-dev) p missing=0
	for p in "${pkgs[@]}"; do
		[[ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" == "install ok installed" ]] || missing=1
	done
	if [[ $missing -eq 0 ]]; then
		return 0
	fi
	local start=$SECONDS
	log "installing ${pkgs[*]} with apt-get"
	if ! apt-cache show "${pkgs[@]}" >/dev/null 2>&1; then
		log "apt-get update (package lists lack ${pkgs[*]})"
		sudo_maybe apt-get update -q >&2
	fi
	local apt_install=(env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${pkgs[@]}")
	if ! sudo_maybe "${apt_install[@]}" >&2; then
		# Stale lists name versions the mirror no longer has: refresh once.
		log "apt-get install failed; apt-get update and one more try"
		sudo_maybe apt-get update -q >&2
		sudo_maybe "${apt_install[@]}" >&2
	fi
	log "installed ${pkgs[*]} in $((SECONDS - start))s"
}

# private_apt runs apt-get with its own sources list (trixie deb-src only),
# lists, cache and status, so the system's apt state is neither read nor changed.
private_apt() {
	local apt="$WORK/apt"
	mkdir -p "$apt/etc/sources.list.d" "$apt/etc/preferences.d" "$apt/lists/partial" \
		"$apt/cache/archives/partial" "$apt/state"
	printf '%s\n' "$TRIXIE_SRC" >"$apt/etc/sources.list"
	: >"$apt/state/status"
	apt-get -q \
		-o Dir::Etc::sourcelist="$apt/etc/sources.list" \
		-o Dir::Etc::sourceparts="$apt/etc/sources.list.d" \
		-o Dir::Etc::preferencesparts="$apt/etc/preferences.d" \
		-o Dir::State="$apt/state" \
		-o Dir::State::Lists="$apt/lists" \
		-o Dir::State::status="$apt/state/status" \
		-o Dir::Cache="$apt/cache" \
		-o APT::Sandbox::User=root \
		"$@"
}

# installed reports whether the stamp matches and pgvector's files are still
# where make install put them (a reinstalled postgresql wipes them).
installed() {
	local want="pgvector $PGVECTOR_DEB sha256:$PGVECTOR_SHA256 pg$PG_MAJOR"
	[[ -f "$STAMP" && "$(cat "$STAMP")" == "$want" ]] || return 1
	[[ -f "/usr/include/postgresql/$PG_MAJOR/server/postgres.h" && -x "$PG_BIN/postgres" ]] || return 1
	[[ -f "/usr/share/postgresql/$PG_MAJOR/extension/vector.control" &&
		-f "/usr/lib/postgresql/$PG_MAJOR/lib/vector.so" ]]
}

install_pgvector() {
	local start=$SECONDS
	mkdir -p "$WORK/src" "$(dirname "$STAMP")"
	local orig="$WORK/src/pgvector_$PGVECTOR_VERSION.orig.tar.gz"
	if [[ ! -f "$orig" ]] || ! echo "$PGVECTOR_SHA256  $orig" | sha256sum -c --status; then
		log "reading Debian trixie's source index (private apt configuration)"
		private_apt update >&2
		log "fetching pgvector=$PGVECTOR_DEB source"
		rm -rf "$WORK/src" && mkdir -p "$WORK/src"
		(cd "$WORK/src" && private_apt source --download-only "pgvector=$PGVECTOR_DEB" >&2)
	fi
	local got
	got=$(sha256sum "$orig" | cut -d' ' -f1)
	if [[ "$got" != "$PGVECTOR_SHA256" ]]; then
		log "sha256 of $(basename "$orig") is $got, want $PGVECTOR_SHA256: refusing to build"
		return 1
	fi
	log "unpacking and building pgvector $PGVECTOR_DEB against $("$PG_CONFIG" --version)"
	local build="$WORK/build"
	rm -rf "$build"
	# --no-check: apt already verified the .dsc against trixie's signed
	# index, and the tarball against our pin above.
	dpkg-source --no-check -x "$WORK/src/pgvector_$PGVECTOR_DEB.dsc" "$build" >&2
	# OPTFLAGS= drops -march=native so the build runs on any machine of the arch.
	make -C "$build" -s -j"$(nproc)" PG_CONFIG="$PG_CONFIG" OPTFLAGS= >&2
	sudo_maybe make -C "$build" -s PG_CONFIG="$PG_CONFIG" OPTFLAGS= install >&2
	printf 'pgvector %s sha256:%s pg%s\n' "$PGVECTOR_DEB" "$PGVECTOR_SHA256" "$PG_MAJOR" >"$STAMP"
	rm -rf "$build"
	log "installed pgvector $PGVECTOR_VERSION in $((SECONDS - start))s"
}

cmd_install() {
	if installed; then
		log "postgresql-$PG_MAJOR and pgvector $PGVECTOR_DEB already installed"
		return 0
	fi
	install_packages
	install_pgvector
}

# as_postgres runs a command as the postgres user when we are root (the server
# refuses to run as root), else as ourselves.
as_postgres() {
	if [[ $(id -u) -eq 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi
}

cmd_start() {
	local dir="${1:?usage: $0 start DIR PORT}" port="${2:?usage: $0 start DIR PORT}"
	mkdir -p "$dir"
	dir=$(cd "$dir" && pwd)
	if [[ $(id -u) -eq 0 ]]; then chown postgres: "$dir"; fi
	chmod 0700 "$dir"
	if [[ ! -f "$dir/data/PG_VERSION" ]]; then
		log "initdb in $dir/data"
		as_postgres "$PG_BIN/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log"
		# Only TCP from 127.0.0.1, trusted; no unix-socket or other host lines.
		printf '%s\n' "host all all 127.0.0.1/32 trust" >"$dir/data/pg_hba.conf"
	fi
	as_postgres "$PG_BIN/pg_ctl" -D "$dir/data" -l "$dir/postgres.log" -w -t 30 start \
		-o "-c listen_addresses=127.0.0.1 -p $port -c unix_socket_directories=''" >&2
	log "running: postgres://postgres@127.0.0.1:$port/postgres?sslmode=disable"
}

cmd_stop() {
	local dir="${1:?usage: $0 stop DIR}"
	as_postgres "$PG_BIN/pg_ctl" -D "$dir/data" -m fast -w stop >&2
}

case "${1:-install}" in
install) cmd_install ;;
start) shift && cmd_start "$@" ;;
stop) shift && cmd_stop "$@" ;;
*)
	echo "usage: $0 [install] | start DIR PORT | stop DIR" >&2
	exit 2
	;;
esac
