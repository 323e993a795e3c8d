import type { Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import type { JobEnqueuer } from '../../jobs/queue.ts';
import type { JobRun } from '../../jobs/jobs.ts';
import { createMailRepository } from './mail.repository.ts';

export type { EmailListRow } from './mail.repository.ts';
// Mail texts other features render before they send.
export { renderActionMail } from './templates.ts';
export { emailTranslator, type Translate } from './translate.ts';

export type MailAttachment = { filename: string; content: Buffer; contentType?: string };
export type OutgoingMail = {
  kind: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
  language: string;
  userId?: string | null;
  attachments?: MailAttachment[];
};

export type MailService = ReturnType<typeof createMailService>;

/** The http(s) links of an e-mail's text, without a sentence's closing punctuation. */
export function linksIn(text: string): string[] {
  return (text.match(/https?:\/\/\S+/g) ?? []).map((link) => link.replace(/[.,;:!?)\]'"»]+$/, ''));
}

/**
 * Every message is written to `outbound_emails` first. With SMTP_URL a `mail.send` job is written in the same
 * transaction and delivers it (status `sent`, or `failed` once its retries are spent); without it, it stays `stored`
 * and its text, with any links, is logged so a newcomer can follow them.
 */
export function createMailService(deps: {
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  /** Where a stored e-mail's links are printed without SMTP_URL; stdout by default. */
  print?: (text: string) => void;
  smtpUrl: string | undefined;
  from: string;
  jobs: JobEnqueuer;
}) {
  const smtpUrl = deps.smtpUrl;
  // nodemailer is loaded at the first delivery: a server without SMTP_URL, or that has sent nothing yet, never holds it.
  let transporter: Promise<Transporter> | undefined;
  const transporterFor = (url: string) =>
    (transporter ??= import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport({
        url,
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 20_000,
      }),
    )).catch((error: unknown) => {
      transporter = undefined;
      throw error;
    });

  const repo = createMailRepository(deps.db);

  return {
    /** The admin area's e-mail log. */
    list: repo.list,

    /**
     * Stores the message and, with SMTP, its send job. Pass the caller's transaction as `tx` so the message exists
     * exactly when the data that caused it does; without one, the message and its job get a transaction of their own.
     */
    async send(mail: OutgoingMail, options: { tx?: Db } = {}): Promise<{ id: string; status: 'stored' }> {
      const store = async (tx: Db) => {
        const id = await repo.insert(
          {
            kind: mail.kind,
            toAddress: mail.to,
            subject: mail.subject,
            textBody: mail.text,
            htmlBody: mail.html ?? null,
            language: mail.language,
            status: 'stored',
            userId: mail.userId ?? null,
            createdAt: deps.clock.now(),
          },
          smtpUrl && mail.attachments?.length
            ? mail.attachments.map((a) => ({
                filename: a.filename,
                contentType: a.contentType ?? null,
                content: a.content,
              }))
            : [],
          tx,
        );
        if (smtpUrl) await deps.jobs.enqueue(tx, 'mail.send', { emailId: id }, { key: id });
        return id;
      };
      const id = options.tx ? await store(options.tx) : await deps.db.transaction((tx) => store(tx as unknown as Db));
      if (!smtpUrl) {
        const links = linksIn(mail.text);
        deps.log.info({ mailId: id, to: mail.to, subject: mail.subject, links }, 'E-mail stored (no SMTP_URL)');
        // Each link on a line of its own, outside the JSON log, so a person can copy it as it is.
        const lines = [`E-mail to ${mail.to} stored (no SMTP_URL): ${mail.subject}`, ...links];
        (deps.print ?? ((text: string) => process.stdout.write(text)))(`\n${lines.join('\n')}\n\n`);
        return { id, status: 'stored' };
      }
      // Committed (or the caller commits soon): a worker of this process picks it up now rather than at its next poll.
      if (!options.tx) deps.jobs.wake('mail.send');
      return { id, status: 'stored' };
    },

    /**
     * The `mail.send` job: one SMTP attempt. A failure is recorded on the message and thrown, so the queue retries it
     * with backoff; after the last attempt the message is `failed`. A message already sent is not sent again.
     */
    async deliver(emailId: string, run: JobRun): Promise<void> {
      if (!smtpUrl) throw new Error('SMTP_URL is not set: stored e-mails cannot be delivered');
      const row = await repo.find(emailId);
      if (!row) return; // deleted since: nothing to deliver
      if (row.status === 'sent') return;
      const attachments = await repo.attachmentsOf(emailId);
      try {
        await (
          await transporterFor(smtpUrl)
        ).sendMail({
          from: deps.from,
          to: row.toAddress,
          subject: row.subject,
          text: row.textBody,
          ...(row.htmlBody ? { html: row.htmlBody } : {}),
          ...(attachments.length
            ? {
                attachments: attachments.map((a) => ({
                  filename: a.filename,
                  content: a.content,
                  ...(a.contentType ? { contentType: a.contentType } : {}),
                })),
              }
            : {}),
        });
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        deps.log.error({ mailId: emailId, attempt: run.attempt, err: error }, 'E-mail delivery failed');
        await repo.setFailure(emailId, message.slice(0, 500), run.isLastAttempt);
        throw error;
      }
      await repo.markSent(emailId, deps.clock.now());
    },
    close(): void {
      void transporter?.then(
        (t) => t.close(),
        () => undefined,
      );
    },
  };
}
