/**
 * Text decoding for UNECE directory files: CP437 (the DOS code page the directories were written in, with the
 * box-drawing characters of the EDMD segment tables) unless the bytes are valid UTF-8.
 */

// Code points of CP437 bytes 0x80..0xFF.
const CP437_HIGH =
  'ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u00a0';

/** Decodes CP437 bytes. */
export const decodeCp437 = (bytes: Uint8Array): string => {
  let out = '';
  let start = 0;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i] ?? 0;
    if (byte >= 0x80) {
      if (i > start) out += String.fromCharCode(...bytes.subarray(start, i));
      out += CP437_HIGH[byte - 0x80] ?? '?';
      start = i + 1;
    } else if (i - start >= 4096) {
      out += String.fromCharCode(...bytes.subarray(start, i));
      start = i;
    }
  }
  if (start < bytes.length) out += String.fromCharCode(...bytes.subarray(start));
  return out;
};

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Decodes a directory file: UTF-8 when the bytes are valid UTF-8 (plain ASCII included), CP437 otherwise. */
export const decodeDirectoryText = (bytes: Uint8Array): string => {
  try {
    return utf8.decode(bytes);
  } catch {
    return decodeCp437(bytes);
  }
};
