import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** The SDK from its sources (its `dist/` is built only for publishing); the same alias is in vitest.config.ts. */
export const sdkSource = fileURLToPath(new URL('../packages/client/src/index.ts', import.meta.url));

// The console is served by the API server itself (same origin): in development, proxy the API to it.
const api = process.env.MERIDIAN_API ?? 'http://127.0.0.1:8080';

export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  plugins: [react()],
  resolve: { alias: { '@meridian/client': sdkSource } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // No inline scripts or styles: the Content-Security-Policy allows files from this origin only.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    sourcemap: false,
  },
  server: {
    proxy: {
      '/api': api,
      '/auth': api,
      '/predictions': { target: api.replace(/^http/, 'ws'), ws: true },
      '/market': { target: api.replace(/^http/, 'ws'), ws: true },
    },
  },
});
