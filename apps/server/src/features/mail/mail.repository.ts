import { and, asc, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { likePattern } from '../../db/sql.ts';
import { outboundEmailAttachments, outboundEmails } from './mail.table.ts';

export type EmailRow = typeof outboundEmails.$inferSelect;
export type EmailListRow = EmailRow & { cursorAt: string };
export type NewAttachment = Omit<typeof outboundEmailAttachments.$inferInsert, 'emailId' | 'position'>;

/** The queries of the outbound e-mail tables; others send and list through the mail service. */
export function createMailRepository(db: Db) {
  return {
    /** Stores a message and the copies of its files; returns its id. */
    async insert(
      values: typeof outboundEmails.$inferInsert,
      attachments: readonly NewAttachment[],
      tx: Db,
    ): Promise<string> {
      const [row] = await tx.insert(outboundEmails).values(values).returning({ id: outboundEmails.id });
      const id = row!.id;
      if (attachments.length) {
        await tx
          .insert(outboundEmailAttachments)
          .values(attachments.map((a, position) => ({ ...a, emailId: id, position })));
      }
      return id;
    },
    async find(id: string): Promise<EmailRow | undefined> {
      const [row] = await db.select().from(outboundEmails).where(eq(outboundEmails.id, id));
      return row;
    },
    async attachmentsOf(emailId: string) {
      return db
        .select()
        .from(outboundEmailAttachments)
        .where(eq(outboundEmailAttachments.emailId, emailId))
        .orderBy(asc(outboundEmailAttachments.position));
    },
    async setFailure(id: string, message: string, isLast: boolean): Promise<void> {
      await db
        .update(outboundEmails)
        .set({ error: message, ...(isLast ? { status: 'failed' } : {}) })
        .where(eq(outboundEmails.id, id));
    },
    /** Sent: the copies of the files are no longer needed. */
    async markSent(id: string, at: Date): Promise<void> {
      await db.transaction(async (tx) => {
        await tx
          .update(outboundEmails)
          .set({ status: 'sent', sentAt: at, error: null })
          .where(eq(outboundEmails.id, id));
        await tx.delete(outboundEmailAttachments).where(eq(outboundEmailAttachments.emailId, id));
      });
    },

    /** The admin area's e-mail log, newest first. */
    async list(filter: {
      to?: string | undefined;
      kind?: string | undefined;
      after?: string[] | undefined;
      limit: number;
    }): Promise<EmailListRow[]> {
      const where: SQL[] = [];
      if (filter.to) where.push(sql`${outboundEmails.toAddress} ilike ${likePattern(filter.to)}`);
      if (filter.kind) where.push(eq(outboundEmails.kind, filter.kind));
      if (filter.after) {
        const [at, id] = filter.after;
        where.push(sql`(${outboundEmails.createdAt}, ${outboundEmails.id}) < (${at}::timestamptz, ${id}::uuid)`);
      }
      return db
        .select({
          id: outboundEmails.id,
          kind: outboundEmails.kind,
          toAddress: outboundEmails.toAddress,
          subject: outboundEmails.subject,
          textBody: outboundEmails.textBody,
          htmlBody: outboundEmails.htmlBody,
          language: outboundEmails.language,
          status: outboundEmails.status,
          error: outboundEmails.error,
          userId: outboundEmails.userId,
          createdAt: outboundEmails.createdAt,
          sentAt: outboundEmails.sentAt,
          // The exact stored value (microseconds), so the next page neither skips nor repeats a row.
          cursorAt: sql<string>`${outboundEmails.createdAt}::text`,
        })
        .from(outboundEmails)
        .where(where.length ? and(...where) : undefined)
        .orderBy(desc(outboundEmails.createdAt), desc(outboundEmails.id))
        .limit(filter.limit + 1);
    },
  };
}

export type MailRepository = ReturnType<typeof createMailRepository>;
