import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { and, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { BlobStore } from '../../storage/blob-store.ts';
import { companies } from '../companies/companies.table.ts';
import { users } from '../users/users.table.ts';
import { issueReportFiles, issueReports } from './issue-reports.table.ts';

export type IssueReportRow = typeof issueReports.$inferSelect;
export type NewIssueReport = typeof issueReports.$inferInsert;
export type NewIssueReportFile = { filename: string; contentType: string; data: Buffer };
export type IssueReportListRow = IssueReportRow & {
  cursorAt: string;
  companyName: string | null;
  userEmail: string | null;
  userFirstName: string | null;
  userLastName: string | null;
};
export type IssueReportFileMeta = { id: string; reportId: string; filename: string; contentType: string; size: number };

/** Where a file's bytes live in the BlobStore. */
const blobKeyOf = (reportId: string, fileId: string) => `issue-reports/${reportId}/${fileId}`;

/** Reports and their files' metadata in the database; the files' bytes in the BlobStore. */
export function createIssueReportsRepository(db: Db, blobs: BlobStore) {
  /** Reports with their company and reporter, as lists show them. */
  const selectReports = () =>
    db
      .select({
        report: issueReports,
        // The exact stored value (microseconds), so the next page neither skips nor repeats a row.
        cursorAt: sql<string>`${issueReports.createdAt}::text`,
        companyName: companies.name,
        userEmail: users.email,
        userFirstName: users.firstName,
        userLastName: users.lastName,
      })
      .from(issueReports)
      .leftJoin(companies, eq(companies.id, issueReports.companyId))
      .leftJoin(users, eq(users.id, issueReports.userId));
  const toListRow = ({ report, ...rest }: Awaited<ReturnType<typeof selectReports>>[number]): IssueReportListRow => ({
    ...report,
    ...rest,
  });

  return {
    /**
     * A report and its files. The bytes go to the BlobStore first, then the rows in one transaction: a report never
     * names a file that is not stored. A failure on the way removes the blobs already written; a crash can leave a
     * blob no row names (unreachable, and swept with the store's other leftovers).
     */
    async create(report: NewIssueReport, files: NewIssueReportFile[]): Promise<IssueReportRow> {
      const reportId = report.id ?? randomUUID();
      const stored = files.map((f) => ({ ...f, id: randomUUID() }));
      const written: string[] = [];
      try {
        for (const f of stored) {
          const key = blobKeyOf(reportId, f.id);
          await blobs.put(key, f.data, { contentType: f.contentType });
          written.push(key);
        }
        return await db.transaction(async (txRaw) => {
          const tx = txRaw as unknown as Db;
          const [row] = await tx
            .insert(issueReports)
            .values({ ...report, id: reportId })
            .returning();
          if (stored.length) {
            await tx.insert(issueReportFiles).values(
              stored.map((f) => ({
                id: f.id,
                reportId,
                filename: f.filename,
                contentType: f.contentType,
                size: f.data.length,
                blobKey: blobKeyOf(reportId, f.id),
              })),
            );
          }
          return row!;
        });
      } catch (error) {
        await Promise.allSettled(written.map((key) => blobs.delete(key)));
        throw error;
      }
    },

    /** Newest first, by (created_at, id). */
    async list(filter: {
      type?: string | undefined;
      priority?: string | undefined;
      companyId?: string | undefined;
      after?: string[] | undefined;
      limit: number;
    }): Promise<IssueReportListRow[]> {
      const where: SQL[] = [];
      if (filter.type) where.push(eq(issueReports.type, filter.type));
      if (filter.priority) where.push(eq(issueReports.priority, filter.priority));
      if (filter.companyId) where.push(eq(issueReports.companyId, filter.companyId));
      if (filter.after) {
        const [at, id] = filter.after;
        where.push(sql`(${issueReports.createdAt}, ${issueReports.id}) < (${at}::timestamptz, ${id}::uuid)`);
      }
      const rows = await selectReports()
        .where(where.length ? and(...where) : undefined)
        .orderBy(desc(issueReports.createdAt), desc(issueReports.id))
        .limit(filter.limit + 1);
      return rows.map(toListRow);
    },

    async find(id: string): Promise<IssueReportListRow | undefined> {
      const [row] = await selectReports().where(eq(issueReports.id, id)).limit(1);
      return row ? toListRow(row) : undefined;
    },

    async setStatus(id: string, status: string): Promise<void> {
      await db.update(issueReports).set({ status }).where(eq(issueReports.id, id));
    },

    /** The files of some reports, without their bytes. */
    async filesOf(reportIds: string[]): Promise<IssueReportFileMeta[]> {
      if (reportIds.length === 0) return [];
      return db
        .select({
          id: issueReportFiles.id,
          reportId: issueReportFiles.reportId,
          filename: issueReportFiles.filename,
          contentType: issueReportFiles.contentType,
          size: issueReportFiles.size,
        })
        .from(issueReportFiles)
        .where(inArray(issueReportFiles.reportId, reportIds))
        .orderBy(issueReportFiles.filename, issueReportFiles.id);
    },

    /** A file with its bytes as a stream from the BlobStore (read as they are sent). */
    async findFile(reportId: string, fileId: string): Promise<(IssueReportFileMeta & { data: Readable }) | undefined> {
      const [row] = await db
        .select()
        .from(issueReportFiles)
        .where(and(eq(issueReportFiles.id, fileId), eq(issueReportFiles.reportId, reportId)))
        .limit(1);
      if (!row) return undefined;
      const { blobKey, ...meta } = row;
      return { ...meta, data: (await blobs.get(blobKey)).body };
    },
  };
}

export type IssueReportsRepository = ReturnType<typeof createIssueReportsRepository>;
