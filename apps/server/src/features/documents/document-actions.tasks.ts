/**
 * The export's XLSX, on the CPU pool's threads (src/cpu): building the workbook's XML and deflating it is work
 * linear in the rows (at most DOCUMENT_EXPORT_MAX_ROWS) that would otherwise hold the event loop. Cells are text:
 * an XLSX string cell is never run as a formula, so unlike the CSV nothing needs a guard.
 */
import writeXlsxFile from 'write-excel-file/node';

export type XlsxTask = { header: string[]; rows: (string | null)[][] };

export async function xlsxTask(task: XlsxTask): Promise<Uint8Array> {
  const bold = task.header.map((value) => ({ value, fontWeight: 'bold' as const }));
  const rows = task.rows.map((row) => row.map((value) => (value === null ? null : { value, type: String })));
  const buffer = await writeXlsxFile([bold, ...rows], { stickyRowsCount: 1 }).toBuffer();
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.length);
}
