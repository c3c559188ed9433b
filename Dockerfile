# syntax=docker/dockerfile:1
# MiniQueue broker image: the api compiled to JavaScript (tsc), the dashboard's static build served
# at /, migrations applied at start under an advisory lock, so replicas may start together.
# Configuration comes only from the environment; DATABASE_URL is required in this image.

ARG NODE_IMAGE=node:20-bookworm-slim

# --- build: every workspace's dependencies, then the SDK, the api and the dashboard
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY api/package.json api/
COPY sdk/package.json sdk/
COPY cli/package.json cli/
COPY dashboard/package.json dashboard/
COPY infra/package.json infra/
# Install scripts are skipped: the ones in the tree either fetch tools (refused here) or fix up the
# embedded PostgreSQL, which this image does not use; esbuild's binary comes from its own package.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY openapi.yaml asyncapi.yaml tsconfig.base.json ./
COPY api/tsconfig.build.json api/
COPY api/src api/src
COPY sdk sdk
COPY dashboard dashboard
# The SDK first: the api uses its wire types and tables (stream frames, monitor events).
RUN npm run build --workspace @miniqueue/sdk --if-present \
 && npm run build --workspace @miniqueue/api \
 && npm run build --workspace @miniqueue/dashboard --if-present \
 && mkdir -p dashboard/dist

# --- deps: only what the api needs at run time
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY api/package.json api/
COPY sdk/package.json sdk/
COPY cli/package.json cli/
COPY dashboard/package.json dashboard/
COPY infra/package.json infra/
# Without install scripts the embedded PostgreSQL is not usable in the image (its binaries stay,
# since the api loads the package at start): the image always runs against DATABASE_URL.
# api/node_modules exists for the COPY below even when npm hoists everything.
RUN npm ci --omit=dev --workspace @miniqueue/api --ignore-scripts --no-audit --no-fund \
 && mkdir -p api/node_modules

# --- runtime
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    PORT=8080 \
    HOST=0.0.0.0
WORKDIR /app
COPY --from=deps --chown=root:root /app/node_modules node_modules
COPY --from=deps --chown=root:root /app/api/node_modules api/node_modules
COPY --chown=root:root package.json openapi.yaml asyncapi.yaml ./
COPY --chown=root:root api/package.json api/
COPY --from=build --chown=root:root /app/api/dist api/dist
# The SDK is a run-time dependency of the api (node_modules/@miniqueue/sdk links to sdk/).
COPY --chown=root:root sdk/package.json sdk/
COPY --from=build --chown=root:root /app/sdk/dist sdk/dist
COPY --chown=root:root api/migrations api/migrations
COPY --from=build --chown=root:root /app/dashboard/dist dashboard/dist
# Files stay root-owned and read-only to the process; it runs as the image's unprivileged `node` user.
USER node
EXPOSE 8080
# Node's own fetch: the slim image has no curl or wget.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/actuator/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# node itself is PID 1 (no npm wrapper), so SIGTERM reaches the broker's graceful shutdown.
CMD ["node", "--enable-source-maps", "api/dist/start.js"]
