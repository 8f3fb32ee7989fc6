# syntax=docker/dockerfile:1
# Meridian API image. Build: docker build -t meridian .   Run: docker run -p 8080:8080 -v meridian-data:/data meridian
# Stage 1 installs everything from the lockfile and builds the server and the web console; stage 2 keeps
# only production dependencies and the build output, runs as a non-root user under tini (PID 1 that
# forwards SIGTERM to node, which drains HTTP, closes sockets with 1001 and flushes writes within 10 s).

FROM node:20.19-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# The workspaces (the console and the SDK it is built with) install with the root; the SDK builds itself on
# install (its `prepare`), so its sources come before `npm ci`.
COPY console/package.json ./console/
COPY packages/client ./packages/client
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY src ./src
COPY console ./console
RUN node scripts/ensure-build.mjs --force && node scripts/ensure-console.mjs --force

FROM node:20.19-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# The server's production dependencies only: no workspace (the console is static files in console/dist).
RUN npm ci --omit=dev --workspaces=false --no-audit --no-fund && npm cache clean --force

FROM node:20.19-bookworm-slim AS runtime
RUN apt-get update && apt-get install -y --no-install-recommends tini=0.19.* && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    MERIDIAN_DATA_DIR=/data
WORKDIR /app
COPY --from=deps --chown=root:root /app/node_modules ./node_modules
COPY --from=build --chown=root:root /app/dist ./dist
COPY --from=build --chown=root:root /app/console/dist ./console/dist
COPY --chown=root:root package.json ./
# The MCP model-card resource (src/http/mcp/resources.ts).
COPY --chown=root:root docs/forecasting.md ./docs/forecasting.md
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/bin/tini", "--", "node", "dist/main/cli.js"]
CMD ["serve"]
