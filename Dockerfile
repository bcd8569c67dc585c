# The Fargate container: the identity provider and the event stream, one Node 24 process.
# Built by `cdk deploy` (arm64, see lib/realtime.ts); at synth the context is only copied.
ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
# Production dependencies only; no install scripts needed at runtime.
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force

FROM ${NODE_IMAGE}
# MALLOC_ARENA_MAX and --max-semi-space-size: what an idle event-stream connection costs
# (shared/local-stack/lean-runtime.ts).
ENV NODE_ENV=production \
    NODE_OPTIONS=--enable-source-maps \
    MALLOC_ARENA_MAX=2 \
    PORT=8080
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY package.json ./
COPY bin ./bin
COPY functions ./functions
COPY shared ./shared
USER node
EXPOSE 8080
# Node 24 runs the TypeScript sources directly (type stripping).
CMD ["node", "--max-semi-space-size=2", "bin/serve-container.ts"]
