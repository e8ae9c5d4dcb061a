#!/usr/bin/env bash
# minio.sh runs a throwaway MinIO for localdev and manual tests: a free
# loopback port, a temp data dir, generated credentials and one bucket.
#
# Usage:
#   eval "$(scripts/minio.sh start)"   # start (or reuse) and export its env
#   scripts/minio.sh env               # print the export lines again
#   scripts/minio.sh stop              # kill it and remove its data
#
# Exports AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_REGION and
# PUMASI_STORAGE=s3://<bucket>/<prefix>?endpoint=...&region=us-east-1&path_style=true.
# Env: PUMASI_TOOLS (tool cache), PUMASI_MINIO_STATE (state file),
# PUMASI_MINIO_BUCKET (default pumasi), PUMASI_MINIO_PREFIX (default pumasi).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
TOOLS="${PUMASI_TOOLS:-$HOME/.cache/pumasi/tools}"
STATE="${PUMASI_MINIO_STATE:-${TMPDIR:-/tmp}/pumasi-minio-$(id -u).state}"
BUCKET="${PUMASI_MINIO_BUCKET:-pumasi}"
PREFIX="${PUMASI_MINIO_PREFIX:-pumasi}"
REGION="us-east-1"

log() { printf 'minio.sh: %s\n' "$*" >&2; }
die() { log "$*"; exit 1; }

# alive PID reports whether the process runs.
alive() { [[ -n "${1:-}" ]] && kill -0 "$1" 2>/dev/null; }

# free_port prints a loopback port nobody listens on. The gap between the
# check and MinIO binding it is covered by start retrying on a new port.
free_port() {
	local port
	for _ in $(seq 1 50); do
		port=$((20000 + RANDOM % 40000))
		if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
			echo "$port"
			return 0
		fi
	done
	die "no free port found"
}

rand_hex() { od -An -N"$1" -tx1 /dev/urandom | tr -d ' \n'; }

print_env() {
	# shellcheck disable=SC1090
	source "$STATE"
	local endpoint="http://127.0.0.1:$PORT"
	printf 'export AWS_ACCESS_KEY_ID=%q\n' "$ACCESS_KEY"
	printf 'export AWS_SECRET_ACCESS_KEY=%q\n' "$SECRET_KEY"
	printf 'export AWS_REGION=%q\n' "$REGION"
	printf 'export PUMASI_STORAGE=%q\n' "s3://$BUCKET/$PREFIX?endpoint=$endpoint&region=$REGION&path_style=true"
}

# create_bucket makes the bucket with one SigV4-signed PUT /<bucket> and
# prints what happened: "ok" (created, or an existing bucket of ours),
# "retry" (no answer yet, or 503 while MinIO initialises) or "fail: <why>".
create_bucket() {
	local code
	code=$(curl -sS -m 5 -o "$DIR/bucket.out" -w '%{http_code}' -X PUT \
		--aws-sigv4 "aws:amz:$REGION:s3" --user "$ACCESS_KEY:$SECRET_KEY" \
		"http://127.0.0.1:$PORT/$BUCKET" 2>/dev/null) || true
	case "$code" in
	200) echo ok ;;
	409) if grep -q BucketAlreadyOwnedByYou "$DIR/bucket.out"; then echo ok; else echo "fail: $(cat "$DIR/bucket.out")"; fi ;;
	000 | 503) echo retry ;;
	*) echo "fail: HTTP $code: $(cat "$DIR/bucket.out" 2>/dev/null)" ;;
	esac
}

# wait_ready creates the bucket, retried with backoff for at most 30 s:
# MinIO is ready when a real S3 call succeeds, not when
# /minio/health/live answers (it does so before the object layer is up, and
# the first CreateBucket then gets 503 XMinioServerNotInitialized).
# Returns 1 when MinIO exited or never became ready (the caller retries on a
# new port); dies on an answer no retry can fix.
wait_ready() {
	local delay=0.05 deadline=$((SECONDS + 30)) got
	while ((SECONDS < deadline)); do
		alive "$PID" || return 1
		got="$(create_bucket)"
		case "$got" in
		ok) log "bucket $BUCKET ready"; return 0 ;;
		retry) ;;
		*) log "create bucket $BUCKET: ${got#fail: }"; return 2 ;;
		esac
		sleep "$delay"
		delay=$(awk -v d="$delay" 'BEGIN { d *= 2; if (d > 1) d = 1; print d }')
	done
	return 1
}

start() {
	if [[ -f "$STATE" ]]; then
		# shellcheck disable=SC1090
		source "$STATE"
		if alive "$PID"; then
			log "already running (pid $PID, port $PORT)"
			print_env
			return 0
		fi
		log "stale state file (pid $PID gone); starting afresh"
		rm -rf "$DIR" "$STATE"
	fi
	"$here/tools.sh" minio
	local bin="$TOOLS/bin/minio"
	[[ -x "$bin" ]] || die "$bin missing; run scripts/tools.sh minio"

	DIR="$(mktemp -d "${TMPDIR:-/tmp}/pumasi-minio.XXXXXX")"
	ACCESS_KEY="pumasi$(rand_hex 6)"
	SECRET_KEY="$(rand_hex 20)"
	for attempt in 1 2 3 4 5; do
		PORT="$(free_port)"
		local console
		console="$(free_port)"
		MINIO_ROOT_USER="$ACCESS_KEY" MINIO_ROOT_PASSWORD="$SECRET_KEY" \
			MINIO_BROWSER=off MINIO_UPDATE=off \
			nohup "$bin" server --quiet --address "127.0.0.1:$PORT" --console-address "127.0.0.1:$console" \
			"$DIR/data" >"$DIR/minio.log" 2>&1 </dev/null &
		PID=$!
		log "started minio (pid $PID) on 127.0.0.1:$PORT, data in $DIR/data"
		local rc=0
		wait_ready || rc=$?
		((rc == 0)) && break
		if ((rc == 2)); then
			kill "$PID" 2>/dev/null || true
			rm -rf "$DIR"
			die "minio answered but refused the bucket"
		fi
		log "minio did not come up (attempt $attempt):"
		tail -n 20 "$DIR/minio.log" >&2 || true
		kill "$PID" 2>/dev/null || true
		wait "$PID" 2>/dev/null || true
		PID=""
	done
	[[ -n "$PID" ]] || { rm -rf "$DIR"; die "minio failed to start"; }
	umask 077
	cat >"$STATE" <<STATE
PID=$PID
PORT=$PORT
DIR=$DIR
ACCESS_KEY=$ACCESS_KEY
SECRET_KEY=$SECRET_KEY
BUCKET=$BUCKET
PREFIX=$PREFIX
STATE
	log "ready; state in $STATE"
	print_env
}

stop() {
	if [[ ! -f "$STATE" ]]; then
		log "not running (no $STATE)"
		return 0
	fi
	# shellcheck disable=SC1090
	source "$STATE"
	if alive "$PID"; then
		kill "$PID"
		for _ in $(seq 1 50); do
			alive "$PID" || break
			sleep 0.2
		done
		if alive "$PID"; then
			log "pid $PID ignored SIGTERM; killing"
			kill -9 "$PID" 2>/dev/null || true
		fi
		log "stopped minio (pid $PID)"
	fi
	[[ -n "${DIR:-}" && "$DIR" == */pumasi-minio.* ]] && rm -rf "$DIR"
	rm -f "$STATE"
}

case "${1:-}" in
start) start ;;
stop) stop ;;
env)
	[[ -f "$STATE" ]] || die "not running; use: $0 start"
	print_env
	;;
*)
	echo "usage: $0 start|stop|env" >&2
	exit 2
	;;
esac
