# The reviews server in a container (docs/deploy.md, "Containers"). The image holds the
# code and one build of the content; at start the build is installed into the volume's
# OUT_DIR (a new image's build becomes current, the hub notifies subscribers) and served.
#   podman build -t reviews --build-arg SITE_URL=https://reviews.example.com .
ARG BASE_IMAGE=node:24-bookworm-slim

FROM ${BASE_IMAGE} AS build
WORKDIR /app
ENV ASTRO_TELEMETRY_DISABLED=1 npm_config_update_notifier=false
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
# The public address the documents, feeds and the hub's topics name, and the content built.
ARG SITE_URL=http://127.0.0.1:4321
ARG CONTENT_DIR=content
RUN SITE_URL="$SITE_URL" CONTENT_DIR="$CONTENT_DIR" OUT_DIR=/app/image-build npm run build \
 && rm -rf /app/image-build/cache /app/image-build/node_modules \
 && npm prune --omit=dev --no-audit --no-fund

FROM ${BASE_IMAGE}
WORKDIR /app
ENV NODE_ENV=production HOST=0.0.0.0 PORT=4321 OUT_DIR=/data/out HUB_DB=/data/hub/hub.sqlite
# Code, runtime packages and the build, owned by root: the server cannot change them.
COPY --from=build /app /app
RUN useradd --system --uid 10001 --user-group --home-dir /data --shell /usr/sbin/nologin reviews \
 && mkdir -p /data/out /data/hub && chown -R reviews:reviews /data
USER reviews
VOLUME /data
EXPOSE 4321
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.PORT + '/api/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["/bin/sh", "deploy/container-start.sh"]
