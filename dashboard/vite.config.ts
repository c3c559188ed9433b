import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

// The broker the dev server forwards to; the built dashboard is served by the broker itself.
const broker = process.env.MINIQUEUE_URL ?? 'http://localhost:8080';

export default defineConfig({
  plugins: [react(), tailwindcss()],
  build: { outDir: 'dist', emptyOutDir: true },
  server: {
    port: 5173,
    strictPort: true,
    proxy: {
      '/api': { target: broker },
      '/actuator': { target: broker },
      '/ws': { target: broker, ws: true },
    },
  },
});
