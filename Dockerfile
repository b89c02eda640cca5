# docsync as a container: `docker compose up` runs it next to a Redis and the local service (see
# docker-compose.yml); `docker run <image>` alone runs the embedded demo of `npm start`, whose Redis
# is the redis-server installed below. test/integration/deploy/ reads this file.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# The sources are not here yet: build after copying them, not in npm's prepare step.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src src
COPY jobs jobs
RUN npm run build && npm prune --omit=dev --ignore-scripts

FROM node:20-bookworm-slim
# git: docsync reads and writes repositories with the git command line. redis-server: the embedded
# Redis docsync starts when none is configured (the demo, or a configuration without redis.url).
RUN apt-get update \
  && apt-get install -y --no-install-recommends git ca-certificates redis-server \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
ENV NODE_ENV=production
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/dist dist
COPY package.json ./
COPY config config
RUN mkdir -p /app/.docsync && chown node:node /app/.docsync
USER node
EXPOSE 8787
HEALTHCHECK --interval=10s --timeout=3s --retries=5 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:8787/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["node", "dist/bundle/bin.js"]
CMD ["start"]
