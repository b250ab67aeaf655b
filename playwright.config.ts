import { defineConfig, devices } from '@playwright/test';

// E2E_PORT and E2E_DATA_DIR let two runs share a machine.
const PORT = Number(process.env.E2E_PORT ?? 4399);
export const E2E_DATA_DIR = process.env.E2E_DATA_DIR ?? '.e2e-data';
export const E2E_ADMIN = { email: 'admin@e2e.test', password: 'e2e-admin-password' };

export default defineConfig({
  testDir: 'tests/e2e',
  // Two cores: never more than two browsers at once.
  workers: 2,
  fullyParallel: false,
  retries: process.env.CI ? 1 : 0,
  // Flows with two browsers and a dozen page loads take 30 s and more on a busy two-core machine.
  timeout: 60_000,
  expect: { timeout: 7_000 },
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    locale: 'uk-UA',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
  projects: [
    { name: 'desktop', use: { ...devices['Desktop Chrome'], channel: undefined } },
  ],
  webServer: {
    // A fresh embedded database with demo data for every run.
    command: `rm -rf ${E2E_DATA_DIR} && node scripts/start.ts`,
    url: `http://127.0.0.1:${PORT}/api/health`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR: E2E_DATA_DIR,
      SEED_DEMO: 'true',
      ADMIN_EMAIL: E2E_ADMIN.email,
      ADMIN_PASSWORD: E2E_ADMIN.password,
      DATABASE_URL: '',
      // Playwright plays the TLS proxy in headers.spec.ts (X-Forwarded-Proto: https).
      TRUST_PROXY: 'true',
      ASTRO_TELEMETRY_DISABLED: '1',
      // No test reaches Discord: nothing listens on loopback's discard port, so a post fails at once and waits.
      DISCORD_API_ROOT: 'http://127.0.0.1:9/api',
      // Nor Telegram: no bot unless a spec starts its own instance with a stand-in (telegram.spec.ts).
      TELEGRAM_BOT_TOKEN: '',
      TELEGRAM_API_ROOT: 'http://127.0.0.1:9',
    },
  },
});
