# The app as a container image: `docker build -t atelier-north .` (README, "Containers").
# Node 24 LTS on Debian 12, the same in both stages; pin a digest (node:24-bookworm-slim@sha256:…) for builds you
# must be able to repeat.
ARG NODE_IMAGE=node:24-bookworm-slim

# Dependencies and the build, with the dev dependencies the build needs.
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build --silent \
 && npm prune --omit=dev --no-audit --no-fund

# What runs: the build, the production dependencies and the files read at run time, owned by root and read-only to
# the app, which runs as the unprivileged `node` user and writes only to /data.
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/build ./build
# Migrations, the catalogue's template files and the demo images are read from disk at run time.
COPY --from=build /app/drizzle ./drizzle
COPY --from=build /app/server/catalogue/categories ./server/catalogue/categories
COPY --from=build /app/public ./public
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
# /healthz is 200 once migrations are applied and the database answers (503 otherwise).
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# As `npm run serve`: no build step at start. SIGTERM stops it cleanly (open requests and jobs finish).
CMD ["node", "build/server/main.js"]
