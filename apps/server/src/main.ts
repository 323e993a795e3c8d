import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { DEMO_ACCOUNTS, DEMO_LEGACY, seedDemoData } from './seed/demo.ts';
import { seedAppConfig } from './features/app-config/app-config.seed.ts';
import { keepHeapsSmall } from './lib/heap.ts';

async function main(): Promise<void> {
  keepHeapsSmall();
  const config = loadConfig();
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
  const seeded = config.demoData ? await seedDemoData(database.db, { partners: true }) : false;
  // The payment reminder texts of every language; fills only what is missing.
  await seedAppConfig(database.db);
  const app = await buildApp({ config, database });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000).unref();
    await app.close();
    await database.close();
    clearTimeout(force);
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  if (seeded && config.ksefSimulator.enabled) {
    // The demo-ksef variant (issue 13): Demo Supplier issues Demo KSeF an invoice in the simulator, once; Demo
    // KSeF's receiving job brings it to its inbox within a period (or at once with "Receive now").
    await app.services.ksef
      .issueDemoPurchaseInvoice()
      .catch((error: unknown) => app.log.warn({ err: error }, 'demo: the KSeF purchase invoice was not issued'));
  }
  const where = database.kind === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${config.dataDir}`;
  const lines = [
    '',
    `  Open EDI Portal is running at ${config.publicUrl}`,
    `  API docs: ${config.publicUrl}/api/docs   Database: ${where}${seeded ? ' (demo data seeded)' : ''}`,
    config.smtpUrl
      ? `  E-mail: sent through ${new URL(config.smtpUrl).host}`
      : '  E-mail: no SMTP_URL, messages are stored and printed in this log',
  ];
  // Without workers here, jobs (e-mail delivery) wait until `npm run worker` runs somewhere.
  if (!config.jobWorkers) lines.push('  Jobs: JOB_WORKERS=false, run them with npm run worker');
  if (config.demoData) {
    lines.push('', '  Demo logins:');
    for (const a of DEMO_ACCOUNTS) lines.push(`    ${a.email.padEnd(26)} ${a.password.padEnd(16)} ${a.what}`);
    lines.push(`    ${DEMO_LEGACY.login.padEnd(26)} ${DEMO_LEGACY.password.padEnd(16)} old EDI account, not yet moved`);
  }
  console.log(lines.join('\n') + '\n');
}

main().catch((error: unknown) => {
  const code = (error as { code?: string } | null)?.code;
  if (error instanceof ConfigError) console.error(error.message);
  else if (code === 'EADDRINUSE')
    console.error(`Port ${process.env.PORT ?? 3000} is already in use: stop the other server or set PORT.`);
  else console.error(error);
  process.exit(1);
});
