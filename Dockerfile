# Innera: the app and, unless PROVIDER_API_URL is set, its embedded provider, in one image.
#
#   docker build -t innera .
#   docker run -p 3000:3000 -v innera-data:/data innera
#
# Docker cannot run where this project is developed: `npm test` checks this file with
# scripts/check-dockerfile.mjs, which interprets it without Docker (see docs/decisions/container.md).
# Keep RUN steps that need the image's operating system (users, packages, system paths) few and
# in one place: the check cannot run them and lists them as not verified.

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
FROM base AS deps
COPY package.json package-lock.json ./
RUN npm install --ignore-scripts --no-audit --no-fund

# Production dependencies only: the full tree, with the development packages removed.
FROM base AS production-deps
COPY --from=deps /app/node_modules ./node_modules
COPY package.json package-lock.json ./
RUN npm install --omit=dev --ignore-scripts --no-audit --no-fund

# The build: build/client (with public/), build/server, build/http/server.js, build/provider/index.js.
# The stamp tells scripts/start.mjs that the build is complete.
FROM deps AS build
COPY . .
RUN npm run build && touch build/.stamp

# What runs: production node_modules, the build, package.json (the provider walks up to it to find
# its migrations), the start script and the SQL migrations. No sources, no development packages.
FROM base AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data \
    NO_BUILD=1
# The only step that needs the image's system tools: an unprivileged system user that owns /data.
RUN groupadd --system --gid 10001 innera \
 && useradd --system --uid 10001 --gid innera --home-dir /nonexistent --no-create-home --shell /usr/sbin/nologin innera \
 && mkdir -p /data \
 && chown innera:innera /data
# Owned by root and read-only to the app's user: the app writes only to /data.
COPY --from=production-deps /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/scripts/start.mjs ./scripts/start.mjs
COPY --from=build /app/scripts/lib/build.mjs ./scripts/lib/build.mjs
COPY --from=build /app/scripts/lib/runtime.mjs ./scripts/lib/runtime.mjs
COPY --from=build /app/server/db/migrations ./server/db/migrations
COPY --from=build /app/server/media/materials ./server/media/materials
COPY --from=build /app/server/media/lessons ./server/media/lessons

# Secrets generated on first start (session-secret, provider-jwt-secret) and the embedded
# provider's PGlite database (/data/provider) live here: mount a volume to keep them.
VOLUME ["/data"]
USER innera
EXPOSE 3000
# The embedded provider listens on 127.0.0.1:8000 inside the container only (PROVIDER_PORT, PROVIDER_HOST).

# 200 with a JSON body while the app serves; its body says whether the provider answers.
# Node's fetch, because slim images have no curl.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz', { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

# node is PID 1: scripts/start.mjs handles SIGTERM and SIGINT itself (PID 1 gets no default
# handlers) and forwards them to its children (the provider and the app), which drain in-flight
# requests and exit; it waits for both. With NO_BUILD=1 it never builds (there are no development
# packages here): it starts the embedded provider when PROVIDER_API_URL is unset, then the app.
STOPSIGNAL SIGTERM
CMD ["node", "scripts/start.mjs"]
