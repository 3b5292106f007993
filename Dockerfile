# Signet's container: a build stage compiles TypeScript, the runtime stage holds only the
# production dependencies, the compiled code and the pages, and runs as a non-root user.
# `npm install`, not `npm ci`: the lock does not list every platform's optional binaries.
# CI runs these same steps outside Docker (scripts/production_check.mjs).

FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY scripts/write_entry_before_layers.mjs scripts/copy_lua_scripts.mjs ./scripts/
RUN npm run build

FROM node:22-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --omit=dev --no-audit --no-fund
COPY --from=build /app/dist ./dist
COPY views ./views
COPY locales ./locales
COPY public ./public
COPY config ./config
COPY bin ./bin
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# `signet serve`, the one documented production command (docs/operations.md).
CMD ["node", "bin/signet.js", "serve"]
