# syntax=docker/dockerfile:1
# The app as a container image: `docker build -t atelier-north .` (README, "Containers"; decision 084).
# Node 24 LTS on Debian 12, the same in every stage, pinned to a release. For a build you must be able to repeat byte
# for byte, pin its digest too: the release workflow (.github/workflows/release.yml) does, and records it in the label
# org.opencontainers.image.base.digest; by hand:
#   docker buildx imagetools inspect node:24.11.1-bookworm-slim      # prints the index digest, sha256:…
#   docker build --build-arg NODE_IMAGE=node:24.11.1-bookworm-slim@sha256:… \
#     --build-arg SOURCE_COMMIT=$(git rev-parse HEAD) --build-arg SOURCE_DATE_EPOCH=$(git log -1 --format=%ct) .
ARG NODE_IMAGE=node:24.11.1-bookworm-slim

# Dependencies exactly as package-lock.json lists them, and the build, with the dev dependencies the build needs.
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
# The commit the build names (build/version.json, /healthz, the log's first line): .git is not copied in.
ARG SOURCE_COMMIT=
ARG SOURCE_DATE_EPOCH
RUN SOURCE_COMMIT="${SOURCE_COMMIT}" npm run build --silent \
 && npm prune --omit=dev --no-audit --no-fund

# Operations' tools, from the same sources with every dependency: `npm run restore FILE`, `npm run backup`,
# `npm run reset-two-factor` against the database (docs/operations/upgrading.md), as the same `node` user. Built only
# when asked for:
#   docker build --target tools -t atelier-north-tools .
FROM ${NODE_IMAGE} AS tools
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
# The app's volume mounted at /data (read-only is enough for a restore) gives it the backups, owned by the same user.
ENV DATA_DIR=/data
USER node
ENTRYPOINT ["npm", "run", "--silent"]

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
# /healthz is 200 once migrations are applied and the database answers (503 otherwise), naming the version.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# The image's version, from the release workflow (a tag v1.2.3 gives 1.2.3) or by hand; "unknown" when not given.
ARG NODE_IMAGE
ARG VERSION=unknown
ARG SOURCE_COMMIT=unknown
ARG SOURCE_URL=unknown
ARG CREATED=unknown
ARG BASE_DIGEST=unknown
ARG SOURCE_DATE_EPOCH
LABEL org.opencontainers.image.title="Atelier North" \
      org.opencontainers.image.description="Website, memberships and back office of an interior-design and SEO agency" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${SOURCE_COMMIT}" \
      org.opencontainers.image.source="${SOURCE_URL}" \
      org.opencontainers.image.created="${CREATED}" \
      org.opencontainers.image.base.name="${NODE_IMAGE}" \
      org.opencontainers.image.base.digest="${BASE_DIGEST}"
# As `npm run serve`: no build step at start. SIGTERM stops it cleanly (open requests and jobs finish).
CMD ["node", "build/server/main.js"]
