# Innera: the app and, unless PROVIDER_API_URL is set, its embedded provider, in one image.
#
#   docker build -t innera .
#   docker run -p 3000:3000 -v innera-data:/data innera
#
# `npm test` builds and runs this file with Podman (scripts/container.mjs; README, "The container";
# docs/decisions/container.md): keep `--format docker` with Podman or Buildah, or the HEALTHCHECK is dropped.

# Node 24 LTS (supported until April 2028; decision 0016). scripts/node24.mjs runs the tests and
# the built app on the same version: change both together.
ARG NODE_VERSION=24.21.0

# Node and npm, nothing else: slim images have no curl and no compilers, and need neither.
FROM node:${NODE_VERSION}-bookworm-slim AS base
WORKDIR /app
ENV npm_config_update_notifier=false \
    npm_config_fund=false \
    npm_config_audit=false

# Every dependency, for the build. `npm install`, not `npm ci`: the lock file omits other
# platforms' optional binaries and npm 11's ci rejects it (STACK.md, pitfall 1); install still
# installs exactly the locked versions. --ignore-scripts: no install script runs, so none can
# download a binary (esbuild and Rollup find their platform's binary in their optional packages).
# Behind a proxy with its own certificate authority, hand it in as a secret (never stored in the
# image): `--secret id=npm_ca,src=/path/to/ca.pem`; without it the step uses Node's own CAs.
FROM base AS deps
COPY package.json package-lock.json ./
RUN --mount=type=secret,id=npm_ca,required=false \
    if [ -s /run/secrets/npm_ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/npm_ca; fi; \
    npm install --ignore-scripts --no-audit --no-fund

# Production dependencies: the same tree with the development packages pruned (offline: nothing is
# downloaded again). npm keeps the development packages that a production package names only as an
# optional peer (the lock file marks them devOptional: typescript, @types/* and the like,
# about 30 MB); nothing loads them at run time, so they are removed too, with the scope folders
# left empty.
FROM deps AS production-deps
RUN npm prune --omit=dev --ignore-scripts --offline --no-audit --no-fund \
 && node -e "const { packages } = require('./package-lock.json'); for (const [folder, entry] of Object.entries(packages)) if (entry.devOptional) require('node:fs').rmSync(folder, { recursive: true, force: true })" \
 && find node_modules -mindepth 1 -maxdepth 1 -type d -empty -delete

# The build: build/client (with public/), build/server, build/http/server.js, build/provider/index.js.
# The stamp tells scripts/start.mjs that the build is complete.
FROM deps AS build
COPY . .
RUN npm run build && touch build/.stamp

# The app's own files, gathered for one layer: the build, package.json (the provider walks up to it
# to find its migrations), the start script and what it imports, the backup command's launcher
# (`npm run backup` / `npm run restore` run build/provider/backup.js here; decision 0090), the SQL migrations and the media.
# No sources, no tests, no development packages.
FROM scratch AS app
COPY --from=build /app/build /app/build
COPY --from=build /app/package.json /app/package.json
COPY --from=build /app/scripts/start.mjs /app/scripts/backup.mjs /app/scripts/
COPY --from=build /app/scripts/lib/build.mjs /app/scripts/lib/runtime.mjs /app/scripts/lib/
COPY --from=build /app/server/db/migrations /app/server/db/migrations
COPY --from=build /app/server/media/materials /app/server/media/materials
COPY --from=build /app/server/media/lessons /app/server/media/lessons

# What runs: two layers on the base, the production node_modules (changes with the lock file) and
# the app (changes with every release), both owned by root and read-only to the app's user.
FROM base AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data \
    NO_BUILD=1 \
    METRICS_PORT=9464 \
    PROVIDER_METRICS_PORT=9465
# An unprivileged system user that owns /data, and nothing else.
RUN groupadd --system --gid 10001 innera \
 && useradd --system --uid 10001 --gid innera --home-dir /nonexistent --no-create-home --shell /usr/sbin/nologin innera \
 && mkdir -p /data \
 && chown innera:innera /data
COPY --from=production-deps /app/node_modules ./node_modules
COPY --from=app /app ./

# Secrets generated on first start (session-secret, provider-jwt-secret) and the embedded
# provider's PGlite database (/data/provider) live here: mount a volume to keep them. A backup while
# it runs: `docker exec <container> npm run backup -- --out /data/backups/<name>` (docs/operations.md).
VOLUME ["/data"]
USER innera
EXPOSE 3000
# The embedded provider listens on 127.0.0.1:8000 inside the container only (PROVIDER_PORT, PROVIDER_HOST).
# /metrics (decision 0089): the app's on 9464, the provider's on 9465, both on the container's
# loopback, so nothing outside reaches them (not even with -P) until the operator says where:
# `-e METRICS_HOST=0.0.0.0 -p 127.0.0.1:9464:9464` (PROVIDER_METRICS_HOST likewise for 9465).

# Readiness: 200 once the app serves and the provider says it is ready (migrated, its database
# answering); 503 before and while not. /healthz stays the cheap liveness answer.
# Node's fetch, because slim images have no curl.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/readyz', { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

# node is PID 1: scripts/start.mjs handles SIGTERM and SIGINT itself (PID 1 gets no default
# handlers) and forwards them to its children (the provider and the app), which drain in-flight
# requests and exit; it waits for both. With NO_BUILD=1 it never builds (there are no development
# packages here): it starts the embedded provider when PROVIDER_API_URL is unset, then the app.
STOPSIGNAL SIGTERM
CMD ["node", "scripts/start.mjs"]
