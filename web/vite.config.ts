// The web console's build (decision 0092): `npm run build:web` writes
// web/dist, which the API process serves at `/`. The console's API types are
// the generated code in shared/gen (one generation for server and browser),
// reached through the `@gen` alias.
import react from "@vitejs/plugin-react";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const web = fileURLToPath(new URL(".", import.meta.url));
const gen = fileURLToPath(new URL("../shared/gen", import.meta.url));
// `npm run dev:web` proxies the API to a server started with `npm start`.
const api = process.env.SVC_CONSOLE_API ?? "http://127.0.0.1:8080";

export default defineConfig({
  root: web,
  plugins: [react()],
  resolve: { alias: { "@gen": gen } },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // Hashed file names under assets/ are cached for ever by the server.
    assetsDir: "assets",
    sourcemap: true,
    rolldownOptions: {
      // The libraries every page loads, in one chunk named for what it holds;
      // the SQL editor's (CodeMirror, Lezer) in one of their own, loaded only
      // by the pages that edit SQL.
      output: {
        codeSplitting: {
          groups: [
            { name: "editor", test: /node_modules[\\/](@codemirror|@lezer|style-mod|w3c-keyname|crelt)[\\/]/, priority: 2 },
            { name: "vendor", test: /node_modules/, priority: 1 },
          ],
        },
      },
    },
  },
  server: {
    fs: { allow: [web, gen] },
    proxy: Object.fromEntries(["/v1", "/svc.v1.", "/healthz", "/readyz"].map((path) => [path, api])),
  },
  test: {
    root: web,
    environment: "happy-dom",
    include: ["src/**/*.test.{ts,tsx}"],
  },
});
