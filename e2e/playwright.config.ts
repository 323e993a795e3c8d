import { defineConfig } from '@playwright/test';
import { ettnExpirySeen } from './support.ts';

const port = Number(process.env.E2E_PORT ?? 3210);
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

// Journeys in Debian's Chromium against the real server with a real SMTP receiver (e2e/serve.ts).
export default defineConfig({
  testDir: './tests',
  fullyParallel: false,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  timeout: 90_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json']],
  outputDir: `${process.env.E2E_ARTIFACTS ?? './.artifacts'}/results`,
  use: {
    baseURL: `http://localhost:${port}`,
    locale: 'en-GB',
    storageState: ettnExpirySeen(`http://localhost:${port}`),
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: {
    command: 'node --import tsx e2e/serve.ts',
    cwd: '..',
    url: `http://localhost:${port}/api/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    stderr: 'pipe',
  },
});
