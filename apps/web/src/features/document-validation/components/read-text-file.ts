/** The text of a file and the encoding it was read with. */
export type FileText = { text: string; encoding: 'utf-8' | 'latin-1' };

/**
 * Reads a dropped or chosen file as text: UTF-8 when the bytes are valid UTF-8 (a byte-order mark is kept, so the
 * validator can report it), otherwise Latin-1, the usual single-byte set of UNOC files.
 */
export async function readTextFile(file: Blob): Promise<FileText> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  try {
    return { text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes), encoding: 'utf-8' };
  } catch {
    let text = '';
    // ISO 8859-1 maps each byte to the code point of the same number (TextDecoder's 'latin1' would be windows-1252).
    for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return { text, encoding: 'latin-1' };
  }
}

/** The size of a text as UTF-8, the way the server measures it. */
export function utf8ByteLength(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** `10 MB`, `512 kB`, in the reader's locale. */
export function formatBytes(bytes: number, locale: string): string {
  const [value, unit] =
    bytes >= 1024 * 1024
      ? [bytes / (1024 * 1024), 'megabyte']
      : bytes >= 1024
        ? [bytes / 1024, 'kilobyte']
        : [bytes, 'byte'];
  return new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay: 'short', maximumFractionDigits: 1 }).format(
    value,
  );
}
