// Starts what the journeys run against, like `npm start` but on a fresh data folder: a real SMTP receiver that
// writes every message it gets to e2e/.artifacts/mail/*.json, and the server sending to it.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { SERVER_NODE_ARGS, serverEnv } from '../scripts/server-runtime.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
// E2E_ARTIFACTS lets several runs on one machine keep their mail and data apart.
const artifacts = `${process.env.E2E_ARTIFACTS ?? fileURLToPath(new URL('./.artifacts', import.meta.url))}/`;
const port = Number(process.env.E2E_PORT ?? 3210);
const smtpPort = Number(process.env.E2E_SMTP_PORT ?? 2526);
rmSync(artifacts, { recursive: true, force: true });
mkdirSync(`${artifacts}mail`, { recursive: true });

let n = 0;
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData(stream, _session, callback) {
    simpleParser(stream)
      .then((mail) => {
        const to = [mail.to].flat().flatMap((a) => (a ? a.value.map((v) => (v.address ?? '').toLowerCase()) : []));
        const file = `${artifacts}mail/${String(++n).padStart(4, '0')}.json`;
        writeFileSync(
          file,
          JSON.stringify({
            to,
            subject: mail.subject,
            text: mail.text,
            attachments: mail.attachments.map((a) => a.filename),
          }),
        );
        callback();
      })
      .catch((e: Error) => callback(e));
  },
});
smtp.listen(smtpPort, '127.0.0.1');

// The compiled server, as `npm start` runs it (decision 0044), built into the artifacts folder.
execFileSync(process.execPath, ['scripts/build-server.mjs', `${artifacts}server`], { cwd: root, stdio: 'inherit' });
const server = spawn(process.execPath, [...SERVER_NODE_ARGS, `${artifacts}server/main.js`], {
  cwd: root,
  stdio: 'inherit',
  env: serverEnv({
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: `${artifacts}data`,
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    PUBLIC_URL: `http://localhost:${port}`,
    ACCESS_TOKEN_TTL_SECONDS: process.env.E2E_ACCESS_TTL ?? '20',
    LOG_LEVEL: 'warn',
    // Nothing about directories here: like `npm start`, the server imports the shipped D96A and D01B on first start,
    // and the Document validation journeys check against them.
  }),
});
const stop = () => {
  server.kill('SIGTERM');
  smtp.close();
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
server.on('exit', (code) => {
  smtp.close();
  process.exit(code ?? 0);
});
