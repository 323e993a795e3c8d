import { and, count, desc, eq, gt, isNull, min, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { companies } from '../companies/companies.table.ts';
import { users } from '../users/users.table.ts';
import { chatConversations, chatFeedback, chatMessages } from './chat.table.ts';

export type ChatConversationRow = typeof chatConversations.$inferSelect;
export type ChatMessageRow = typeof chatMessages.$inferSelect;
export type NewChatMessage = typeof chatMessages.$inferInsert;
export type ChatFeedbackRow = typeof chatFeedback.$inferSelect;
export type AdminChatRow = {
  message: ChatMessageRow;
  cursorAt: string;
  userEmail: string | null;
  companyName: string | null;
  feedback: ChatFeedbackRow | null;
};

/** Conversations, their exchanges and the feedback on them. */
export function createChatRepository(db: Db) {
  return {
    async findConversation(id: string): Promise<ChatConversationRow | undefined> {
      const [row] = await db.select().from(chatConversations).where(eq(chatConversations.id, id)).limit(1);
      return row;
    },

    async createConversation(values: { userId: string; companyId: string | null; createdAt: Date }) {
      const [row] = await db.insert(chatConversations).values(values).returning();
      return row!;
    },

    /** The last exchanges of a conversation, oldest first (the model sees them as the conversation so far). */
    async recentMessages(conversationId: string, limit: number): Promise<ChatMessageRow[]> {
      const rows = await db
        .select()
        .from(chatMessages)
        .where(eq(chatMessages.conversationId, conversationId))
        .orderBy(desc(chatMessages.createdAt), desc(chatMessages.id))
        .limit(limit);
      return rows.reverse();
    },

    async insertMessage(values: NewChatMessage): Promise<ChatMessageRow> {
      const [row] = await db.insert(chatMessages).values(values).returning();
      return row!;
    },

    /** A user's exchanges since a moment: how many, and when the oldest of them was (the rate limit). */
    async countSince(userId: string, since: Date): Promise<{ count: number; oldest: Date | null }> {
      const [row] = await db
        .select({ count: count(), oldest: min(chatMessages.createdAt) })
        .from(chatMessages)
        .where(and(eq(chatMessages.userId, userId), gt(chatMessages.createdAt, since)));
      return { count: row?.count ?? 0, oldest: row?.oldest ?? null };
    },

    /** A message with the owner of its conversation. */
    async findMessage(id: string): Promise<(ChatMessageRow & { ownerId: string }) | undefined> {
      const [row] = await db
        .select({ message: chatMessages, ownerId: chatConversations.userId })
        .from(chatMessages)
        .innerJoin(chatConversations, eq(chatConversations.id, chatMessages.conversationId))
        .where(eq(chatMessages.id, id))
        .limit(1);
      return row ? { ...row.message, ownerId: row.ownerId } : undefined;
    },

    /** The feedback, unless the message has one already (then false: one per answer, by the primary key). */
    async insertFeedback(values: typeof chatFeedback.$inferInsert): Promise<boolean> {
      const rows = await db
        .insert(chatFeedback)
        .values(values)
        .onConflictDoNothing({ target: chatFeedback.messageId })
        .returning({ id: chatFeedback.messageId });
      return rows.length === 1;
    },

    /** Newest first by (created_at, id), with the asker, the company and the feedback. */
    async list(filter: {
      feedback?: 'negative' | 'positive' | 'none' | undefined;
      unanswered?: boolean | undefined;
      after?: string[] | undefined;
      limit: number;
    }): Promise<AdminChatRow[]> {
      const where: SQL[] = [];
      if (filter.feedback === 'negative') where.push(eq(chatFeedback.isPositive, false));
      if (filter.feedback === 'positive') where.push(eq(chatFeedback.isPositive, true));
      if (filter.feedback === 'none') where.push(isNull(chatFeedback.messageId));
      if (filter.unanswered !== undefined) where.push(eq(chatMessages.answered, !filter.unanswered));
      if (filter.after) {
        const [at, id] = filter.after;
        where.push(sql`(${chatMessages.createdAt}, ${chatMessages.id}) < (${at}::timestamptz, ${id}::uuid)`);
      }
      const rows = await db
        .select({
          message: chatMessages,
          // The exact stored value (microseconds), so the next page neither skips nor repeats a row.
          cursorAt: sql<string>`${chatMessages.createdAt}::text`,
          userEmail: users.email,
          companyName: companies.name,
          feedback: chatFeedback,
        })
        .from(chatMessages)
        .innerJoin(chatConversations, eq(chatConversations.id, chatMessages.conversationId))
        .leftJoin(users, eq(users.id, chatMessages.userId))
        .leftJoin(companies, eq(companies.id, chatConversations.companyId))
        .leftJoin(chatFeedback, eq(chatFeedback.messageId, chatMessages.id))
        .where(where.length ? and(...where) : undefined)
        .orderBy(desc(chatMessages.createdAt), desc(chatMessages.id))
        .limit(filter.limit + 1);
      return rows;
    },
  };
}

export type ChatRepository = ReturnType<typeof createChatRepository>;
