# The mockpoint daemon as a container image.
#
#   docker build -t mockpoint .
#   docker run -p 16540:16540 -v mockpoint-data:/data mockpoint
#
# Two stages: `build` installs the workspace with pnpm (from the npm registry) and
# builds the server; the runtime stage holds only the built server and its
# production dependencies, on the same Node 20 base, run as the base's non-root
# `node` user. Tested without a Docker engine by scripts/container-test.sh.

FROM node:20-bookworm-slim AS build
ENV CI=true
# pnpm from the npm registry, the version the repository pins (package.json).
RUN npm install --global --no-fund --no-audit --no-update-notifier pnpm@10.34.9
WORKDIR /src
# Packages from the lockfile alone: this layer is reused until the lockfile changes.
COPY pnpm-lock.yaml pnpm-workspace.yaml ./
RUN pnpm fetch
COPY . .
RUN pnpm install --offline --frozen-lockfile
# A Sentry DSN for the web page may be baked in at build time (SPEC §3); the
# daemon's CLIENT_REPORTING_DSN at start time wins over it.
ARG CLIENT_REPORTING_DSN=
RUN pnpm --filter "@mockpoint/server..." --filter @mockpoint/twins run build
# The server and its production dependencies only. MOCKPOINT_REDIS_URL needs
# @redis/client, an optional peer of the server that its npm package leaves out
# (docs/packages.md); the image carries it: pnpm deploy brings it as the core's peer
# (resolved in the lockfile), and should it not, it is installed in a folder of its own,
# the version the lockfile has for the core. Server error reporting (SERVER_REPORTING_DSN)
# needs @sentry/node, an optional peer of the server: it is added, in a folder of its
# own, only when WITH_REPORTING=true. The providers' twins (@mockpoint/twins, another optional
# peer: docs/twins.md) are copied in, their published files only: the built dist/ (the flows,
# a chunk per provider) and each provider folder's data files.
ARG WITH_REPORTING=false
RUN pnpm --filter @mockpoint/server deploy --prod --legacy /out \
 && if [ ! -e /out/node_modules/@redis/client ]; then \
      npm install --prefix /out/redis --omit=dev --no-audit --no-fund \
        "@redis/client@$(node -p "require('./packages/core/node_modules/@redis/client/package.json').version")" \
      && mkdir -p /out/node_modules/@redis \
      && ln -s ../../redis/node_modules/@redis/client /out/node_modules/@redis/client; \
    fi \
 && if [ "$WITH_REPORTING" = true ]; then \
      npm install --prefix /out/reporting --omit=dev --no-audit --no-fund @sentry/node@11 \
      && ln -s ../reporting/node_modules/@sentry /out/node_modules/@sentry; \
    fi \
 && mkdir -p /out/node_modules/@mockpoint/twins \
 && (cd packages/twins && cp -r package.json index.d.ts README.md THIRD_PARTY_NOTICES.md dist \
      /out/node_modules/@mockpoint/twins/ \
      && for profile in */profile.json; do \
           provider="${profile%/profile.json}" \
           && mkdir -p "/out/node_modules/@mockpoint/twins/$provider" \
           && cp "$provider"/*.json "$provider"/*.json.gz "/out/node_modules/@mockpoint/twins/$provider/"; \
         done) \
 && mkdir /out-data

FROM node:20-bookworm-slim
ENV NODE_ENV=production MOCKPOINT_HOST=0.0.0.0 MOCKPOINT_PORT=16540 MOCKPOINT_DATA_DIR=/data
WORKDIR /app
COPY --from=build /out /app
# A new named volume starts as a copy of /data, so it is writable by `node`.
COPY --from=build --chown=node:node /out-data /data
USER node
EXPOSE 16540
VOLUME /data
# Node itself, no curl: healthy when /api/health answers 2xx with status `ok`; a
# store that is `degraded` (a read hit damaged data) is unhealthy. It asks the
# port in MOCKPOINT_PORT, so set the port with `-e MOCKPOINT_PORT=…` (a `--port` flag is not seen here).
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.MOCKPOINT_PORT||16540)+'/api/health').then(async r=>{const h=await r.json();process.exit(r.ok&&h.status==='ok'?0:1)},()=>process.exit(1))"]
# Node is PID 1 (no shell in between): the daemon's own SIGTERM handler closes
# the server and the store, then exits 0. Arguments after the image are flags.
ENTRYPOINT ["node", "/app/dist/cli.js"]
CMD []
