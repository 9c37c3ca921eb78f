#!/usr/bin/env bash
# A curl session against the standalone mockpoint daemon:
#   start it (any free port, a fresh data directory), add an endpoint, read it,
#   send it a webhook, read the request journal, stop it, start it again and
#   read the endpoint back from disk, stop it.
#
#   bash session.sh path/to/packages/server/dist/cli.js      (or: mockpoint, once installed)
set -euo pipefail

ARG=${1:?usage: session.sh <path to the mockpoint cli.js, or the mockpoint command>}
if [ -f "$ARG" ]; then
  MOCKPOINT=(node "$(cd "$(dirname "$ARG")" && pwd)/$(basename "$ARG")")
else
  MOCKPOINT=("$ARG")
fi
command -v curl >/dev/null 2>&1 || { echo "session.sh: curl is required but not on PATH" >&2; exit 127; }

DATA_DIR=$(mktemp -d)
LOG="$DATA_DIR/daemon.log"
PID=""
cleanup() {
  if [ -n "$PID" ]; then kill -TERM "$PID" 2>/dev/null || true; fi
  rm -rf "$DATA_DIR"
}
trap cleanup EXIT

# Starts the daemon in the background and sets URL from its start-up line
# ("mockpoint <version> listening on http://127.0.0.1:<port> (store: ...)").
start() {
  # Emptied here, not by the background redirection below: that one runs in the child, so a
  # restart's first look could still read the previous daemon's start-up line (and its port).
  : >"$LOG"
  # Run from the data directory so that no .env of the caller's directory applies.
  (cd "$DATA_DIR" && exec "${MOCKPOINT[@]}" --port 0 --host 127.0.0.1 --data-dir "$DATA_DIR/db") >>"$LOG" 2>&1 &
  PID=$!
  URL=""
  for _ in $(seq 1 100); do # at most 10 s
    URL=$(grep -o 'listening on http://[0-9.:]*' "$LOG" | head -n 1 | sed 's/^listening on //' || true)
    if [ -n "$URL" ]; then
      echo "started: $(head -n 1 "$LOG")"
      return 0
    fi
    if ! kill -0 "$PID" 2>/dev/null; then
      echo "session.sh: the daemon exited:" >&2
      cat "$LOG" >&2
      exit 1
    fi
    sleep 0.1
  done
  echo "session.sh: no start-up line within 10 s" >&2
  exit 1
}

# Stops it with SIGTERM (graceful shutdown) and reports its exit status.
stop() {
  kill -TERM "$PID"
  local status=0
  wait "$PID" || status=$?
  PID=""
  echo "stopped: exit status $status; last line: $(tail -n 1 "$LOG")"
}

# curl that prints the body, then the status on its own line.
call() {
  curl --silent --show-error --write-out '\nstatus: %{http_code}\n' "$@"
}

echo "== start"
start

echo "== add (a bare curl -d: the body is read as JSON whatever its content type)"
call -X PUT "$URL/api/endpoint/add" -d '{"name":"greeting","data":{"hello":"world"},"statusCode":201}'

echo "== read"
call "$URL/endpoint/greeting"

echo "== webhook (any method reads; every request is recorded)"
call -X POST "$URL/endpoint/greeting?source=curl" -H 'content-type: application/json' -d '{"event":"ping"}'

echo "== journal"
call "$URL/api/endpoints/greeting/requests"

echo "== stop"
stop

echo "== restart and read (the endpoint was written to disk)"
start
call "$URL/endpoint/greeting"

echo "== stop"
stop
