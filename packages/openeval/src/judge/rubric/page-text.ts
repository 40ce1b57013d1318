// Cuts a long evidence text into pages that stay well under OpenCode's tool-output cap (51,200 bytes or 2,000
// lines; past it OpenCode truncates and points at Grep/Read, which the judge does not have).

/** Bytes and lines of one page of evidence, leaving room for the header and footer lines around it. */
export const PAGE_MAX_BYTES = 32_000;
export const PAGE_MAX_LINES = 1_000;

export interface Page {
  text: string;
  /** Character offsets (UTF-16 units) of the page within the whole text. */
  start: number;
  end: number;
  total: number;
  /** The offset to ask for next; null on the last page. */
  next: number | null;
}

/**
 * The page of `text` that starts at `offset` and holds at most `limit` characters, PAGE_MAX_BYTES UTF-8 bytes and
 * PAGE_MAX_LINES lines. A page never splits a surrogate pair.
 * @example pageText("a\nb\nc", 2, 100) // → { text: "b\nc", start: 2, end: 5, total: 5, next: null }
 */
export function pageText(text: string, offset = 0, limit = Number.POSITIVE_INFINITY): Page {
  const start = Math.min(offset, text.length);
  let end = start;
  let bytes = 0;
  let lines = 1;
  while (end < text.length && end - start < limit) {
    const code = text.charCodeAt(end);
    const pair = isHighSurrogate(text, end);
    const width = pair ? 4 : code < 0x80 ? 1 : code < 0x800 ? 2 : 3;
    const nextLines = lines + (code === 0x0a ? 1 : 0);
    if (bytes + width > PAGE_MAX_BYTES || nextLines > PAGE_MAX_LINES) break;
    if (pair && end + 2 - start > limit) break;
    bytes += width;
    lines = nextLines;
    end += pair ? 2 : 1;
  }
  // A limit below one code point still moves forward, so paging always ends.
  if (end === start && start < text.length) end += isHighSurrogate(text, start) ? 2 : 1;
  return { text: text.slice(start, end), start, end, total: text.length, next: end < text.length ? end : null };
}

function isHighSurrogate(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  return code >= 0xd800 && code <= 0xdbff && index + 1 < text.length;
}
