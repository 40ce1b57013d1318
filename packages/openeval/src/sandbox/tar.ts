// A small tar writer and reader (POSIX ustar + pax long names), enough for the engine's archive API and npm
// tarballs. Own code rather than a transitive dependency: we choose every owner and mode that enters a container.
export const BLOCK = 512;

export type TarEntry =
  | { type: "file"; path: string; data: Uint8Array; mode?: number; uid?: number; gid?: number }
  | { type: "directory"; path: string; mode?: number; uid?: number; gid?: number }
  | { type: "symlink"; path: string; target: string; uid?: number; gid?: number };

export interface ReadTarEntry {
  type: "file" | "directory" | "symlink" | "hardlink" | "other";
  path: string;
  mode: number;
  size: number;
  target: string;
  data: Uint8Array;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Packs entries into one tar archive (uncompressed), owners and modes as given (default root, 0644/0755).
 * `mtime` (seconds) defaults to 0 so that the same entries always give the same bytes. */
export function packTar(entries: Iterable<TarEntry>, options: { mtime?: number } = {}): Uint8Array {
  const mtime = Math.floor(options.mtime ?? 0);
  const chunks: Uint8Array[] = [];
  for (const entry of entries) {
    const path = entry.type === "directory" && !entry.path.endsWith("/") ? `${entry.path}/` : entry.path;
    const target = entry.type === "symlink" ? entry.target : "";
    const data = entry.type === "file" ? entry.data : new Uint8Array(0);
    const pax: Record<string, string> = {};
    if (!fitsUstar(path, 100)) pax.path = path;
    if (!fitsUstar(target, 100)) pax.linkpath = target;
    if (Object.keys(pax).length > 0) {
      const records = encodePax(pax);
      chunks.push(
        header({
          name: "././@PaxHeader",
          mode: 0o644,
          uid: 0,
          gid: 0,
          size: records.length,
          mtime,
          type: "x",
          link: "",
        }),
        ...padded(records),
      );
    }
    const mode = entry.type === "symlink" ? 0o777 : (entry.mode ?? (entry.type === "directory" ? 0o755 : 0o644));
    const type = entry.type === "file" ? "0" : entry.type === "directory" ? "5" : "2";
    chunks.push(
      header({
        name: path,
        mode,
        uid: entry.uid ?? 0,
        gid: entry.gid ?? 0,
        size: data.length,
        mtime,
        type,
        link: target,
      }),
      ...padded(data),
    );
  }
  chunks.push(new Uint8Array(BLOCK * 2));
  return concat(chunks);
}

/** Reads every entry of a tar archive held in memory (npm tarballs); pax and GNU long names are applied, global pax
 * headers ignored. Copy-out reads the engine's archives with readTarStream instead, never whole. */
export function unpackTar(archive: Uint8Array): ReadTarEntry[] {
  const entries: ReadTarEntry[] = [];
  const headers = new TarHeaders();
  let offset = 0;
  while (offset + BLOCK <= archive.length) {
    const block = archive.subarray(offset, offset + BLOCK);
    if (isEndBlock(block)) break;
    const size = headerSize(block, offset);
    const data = archive.subarray(offset + BLOCK, offset + BLOCK + size);
    if (data.length < size)
      throw new Error(`tar: entry at byte ${offset} is cut short (${data.length} of ${size} bytes)`);
    offset += BLOCK + paddedSize(size);
    const header = headers.next(block, data);
    if (header) entries.push({ ...header, data: data.slice() });
  }
  return entries;
}

/** One entry's header, its data not included. */
export type TarHeader = Omit<ReadTarEntry, "data">;

/**
 * Turns header blocks into entries, applying the pax and GNU long-name records that come before them; `next` returns
 * null for such a record (its data, always small, is what it records). Shared by the in-memory and streaming readers.
 */
export class TarHeaders {
  private pending: Record<string, string> = {};

  /** `data` is needed only for a record (pax, long name): an entry's own data is never passed here. */
  next(block: Uint8Array, data: Uint8Array): TarHeader | null {
    const flag = String.fromCharCode(block[156] ?? 0);
    if (isRecordHeader(block)) {
      if (flag === "x") this.pending = { ...this.pending, ...decodePax(data) };
      if (flag === "L") this.pending.path = readString(data, 0, data.length);
      if (flag === "K") this.pending.linkpath = readString(data, 0, data.length);
      return null;
    }
    const prefix = decoder.decode(block.subarray(257, 262)) === "ustar" ? readString(block, 345, 155) : "";
    const name = readString(block, 0, 100);
    const path = this.pending.path ?? (prefix ? `${prefix}/${name}` : name);
    const target = this.pending.linkpath ?? readString(block, 157, 100);
    this.pending = {};
    return { type: entryType(flag), path, mode: readNumber(block, 100, 8), size: readNumber(block, 124, 12), target };
  }
}

/** Pax records (`x`, global `g`) and GNU long names (`L`, `K`) describe the next entry; they are not entries. */
export function isRecordHeader(block: Uint8Array): boolean {
  const flag = String.fromCharCode(block[156] ?? 0);
  return flag === "x" || flag === "g" || flag === "L" || flag === "K";
}

export function isEndBlock(block: Uint8Array): boolean {
  return block.every((byte) => byte === 0);
}

/** The data size a header announces, after its checksum is verified (`offset` is for the message). */
export function headerSize(block: Uint8Array, offset: number): number {
  verifyChecksum(block, offset);
  return readNumber(block, 124, 12);
}

export function paddedSize(size: number): number {
  return Math.ceil(size / BLOCK) * BLOCK;
}

function entryType(flag: string): ReadTarEntry["type"] {
  if (flag === "0" || flag === "\0" || flag === "7") return "file";
  if (flag === "5") return "directory";
  if (flag === "2") return "symlink";
  if (flag === "1") return "hardlink";
  return "other";
}

function fitsUstar(value: string, length: number): boolean {
  return encoder.encode(value).length < length && /^[\x20-\x7e]*$/.test(value);
}

function header(fields: {
  name: string;
  mode: number;
  uid: number;
  gid: number;
  size: number;
  mtime: number;
  type: string;
  link: string;
}): Uint8Array {
  const block = new Uint8Array(BLOCK);
  writeString(block, 0, 100, fields.name);
  writeOctal(block, 100, 8, fields.mode & 0o7777);
  writeOctal(block, 108, 8, fields.uid);
  writeOctal(block, 116, 8, fields.gid);
  writeOctal(block, 124, 12, fields.size);
  writeOctal(block, 136, 12, fields.mtime);
  block[156] = fields.type.charCodeAt(0);
  writeString(block, 157, 100, fields.link);
  writeString(block, 257, 6, "ustar");
  writeString(block, 263, 2, "00");
  block.fill(0x20, 148, 156);
  const sum = block.reduce((total, byte) => total + byte, 0);
  writeString(block, 148, 8, `${sum.toString(8).padStart(6, "0")}\0 `);
  return block;
}

function verifyChecksum(block: Uint8Array, offset: number): void {
  const stored = readNumber(block, 148, 8);
  let sum = 0;
  for (let index = 0; index < BLOCK; index++) sum += index >= 148 && index < 156 ? 0x20 : block[index]!;
  if (sum !== stored) throw new Error(`tar: bad header checksum at byte ${offset}`);
}

function writeString(block: Uint8Array, offset: number, length: number, value: string): void {
  block.set(encoder.encode(value).subarray(0, length), offset);
}

function writeOctal(block: Uint8Array, offset: number, length: number, value: number): void {
  writeString(block, offset, length, `${value.toString(8).padStart(length - 1, "0")}\0`);
}

function readString(block: Uint8Array, offset: number, length: number): string {
  const field = block.subarray(offset, offset + length);
  const end = field.indexOf(0);
  return decoder.decode(end === -1 ? field : field.subarray(0, end));
}

function readNumber(block: Uint8Array, offset: number, length: number): number {
  const field = block.subarray(offset, offset + length);
  if ((field[0]! & 0x80) !== 0) {
    // GNU base-256 for values that do not fit in octal.
    let value = field[0]! & 0x7f;
    for (let index = 1; index < field.length; index++) value = value * 256 + field[index]!;
    return value;
  }
  const text = readString(block, offset, length).trim();
  return text === "" ? 0 : Number.parseInt(text, 8);
}

function encodePax(records: Record<string, string>): Uint8Array {
  let text = "";
  for (const [key, value] of Object.entries(records)) {
    const body = ` ${key}=${value}\n`;
    const bodyLength = encoder.encode(body).length;
    // The length counts its own digits: "186 path=…\n" is 186 bytes in all.
    let length = bodyLength + String(bodyLength).length;
    if (String(length).length !== String(bodyLength).length) length = bodyLength + String(length).length;
    text += `${length}${body}`;
  }
  return encoder.encode(text);
}

function decodePax(data: Uint8Array): Record<string, string> {
  const records: Record<string, string> = {};
  let offset = 0;
  while (offset < data.length) {
    const space = data.indexOf(0x20, offset);
    if (space === -1) break;
    const length = Number(decoder.decode(data.subarray(offset, space)));
    if (!Number.isInteger(length) || length <= 0) break;
    const record = decoder.decode(data.subarray(space + 1, offset + length - 1));
    const equals = record.indexOf("=");
    if (equals > 0) records[record.slice(0, equals)] = record.slice(equals + 1);
    offset += length;
  }
  return records;
}

function padded(data: Uint8Array): Uint8Array[] {
  const rest = data.length % BLOCK;
  return rest === 0 ? [data] : [data, new Uint8Array(BLOCK - rest)];
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const total = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}
