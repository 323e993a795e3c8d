import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { outboundEmails } from './mail.table.ts';

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

/**
 * Every message is written to `outbound_emails` first. With SMTP_URL it is then sent at once (status `sent` or
 * `failed`); without it, it stays `stored` and its text, with any links, is logged so a newcomer can follow them.
 */
export function createMailService(deps: {
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  smtpUrl: string | undefined;
  from: string;
}) {
  const transport = deps.smtpUrl
    ? nodemailer.createTransport({
        url: deps.smtpUrl,
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 20_000,
      })
    : undefined;

  return {
    async send(mail: OutgoingMail): Promise<{ id: string; status: 'stored' | 'sent' | 'failed' }> {
      const [row] = await deps.db
        .insert(outboundEmails)
        .values({
          kind: mail.kind,
          toAddress: mail.to,
          subject: mail.subject,
          textBody: mail.text,
          htmlBody: mail.html ?? null,
          language: mail.language,
          status: 'stored',
          userId: mail.userId ?? null,
          createdAt: deps.clock.now(),
        })
        .returning({ id: outboundEmails.id });
      const id = row!.id;
      if (!transport) {
        deps.log.info({ mailId: id, to: mail.to, subject: mail.subject }, `E-mail stored (no SMTP_URL):\n${mail.text}`);
        return { id, status: 'stored' };
      }
      try {
        await transport.sendMail({
          from: deps.from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          ...(mail.html ? { html: mail.html } : {}),
          ...(mail.attachments ? { attachments: mail.attachments } : {}),
        });
        await deps.db
          .update(outboundEmails)
          .set({ status: 'sent', sentAt: deps.clock.now() })
          .where(eq(outboundEmails.id, id));
        return { id, status: 'sent' };
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        deps.log.error({ mailId: id, err: error }, 'E-mail delivery failed');
        await deps.db
          .update(outboundEmails)
          .set({ status: 'failed', error: message.slice(0, 500) })
          .where(eq(outboundEmails.id, id));
        return { id, status: 'failed' };
      }
    },
    close(): void {
      transport?.close();
    },
  };
}
