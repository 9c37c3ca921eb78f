#!/usr/bin/env bash
# Starts a mockpoint daemon with a mock file, checks its routes against openapi.yaml with
# `mockpoint verify`, writes JUnit XML, and stops the daemon. Exits as verify does: 0 when the
# mocks fit the API, 1 when they drifted, 2 when it could not tell.
#
#   bash verify.sh [mock file] [junit file]      # defaults: mockpoint.yaml, verify.xml
#
# MOCKPOINT is the command (default `npx mockpoint`), PORT the daemon's port (default 16540).
set -euo pipefail
cd "$(dirname "$0")"
MOCK_FILE=${1:-mockpoint.yaml}
JUNIT=${2:-verify.xml}
MOCKPOINT=${MOCKPOINT:-npx mockpoint}
PORT=${PORT:-16540}
export MOCKPOINT_URL="http://127.0.0.1:$PORT"

log=$(mktemp)
$MOCKPOINT --memory --config "$MOCK_FILE" --host 127.0.0.1 --port "$PORT" >"$log" 2>&1 &
daemon=$!
trap 'kill "$daemon" 2>/dev/null || true; rm -f "$log"' EXIT
for _ in $(seq 1 300); do
  curl -sf "$MOCKPOINT_URL/api/health" >/dev/null && break
  kill -0 "$daemon" 2>/dev/null || { cat "$log" >&2; exit 2; }
  sleep 0.1
done

$MOCKPOINT verify --openapi openapi.yaml --junit "$JUNIT"
