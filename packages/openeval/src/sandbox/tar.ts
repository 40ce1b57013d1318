// A small tar writer and reader (POSIX ustar + pax long names), enough for the engine's archive API and npm
// tarballs. Own code rather than a transitive dependency: we choose every owner and mode that enters a container.
const BLOCK = 512;

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
      chunks.push(header({ name: "././@PaxHeader", mode: 0o644, uid: 0, gid: 0, size: records.length, mtime, type: "x", link: "" }), ...padded(records));
    }
    const mode = entry.type === "symlink" ? 0o777 : (entry.mode ?? (entry.type === "directory" ? 0o755 : 0o644));
    const type = entry.type === "file" ? "0" : entry.type === "directory" ? "5" : "2";
    chunks.push(header({ name: path, mode, uid: entry.uid ?? 0, gid: entry.gid ?? 0, size: data.length, mtime, type, link: target }), ...padded(data));
  }
  chunks.push(new Uint8Array(BLOCK * 2));
  return concat(chunks);
}

/** Reads every entry of a tar archive; pax and GNU long names are applied, global pax headers ignored. */
export function unpackTar(archive: Uint8Array): ReadTarEntry[] {
  const entries: ReadTarEntry[] = [];
  let offset = 0;
  let pending: Record<string, string> = {};
  while (offset + BLOCK <= archive.length) {
    const block = archive.subarray(offset, offset + BLOCK);
    if (block.every((byte) => byte === 0)) break;
    verifyChecksum(block, offset);
    const size = readNumber(block, 124, 12);
    const type = String.fromCharCode(block[156] ?? 0);
    const data = archive.subarray(offset + BLOCK, offset + BLOCK + size);
    if (data.length < size) throw new Error(`tar: entry at byte ${offset} is cut short (${data.length} of ${size} bytes)`);
    offset += BLOCK + Math.ceil(size / BLOCK) * BLOCK;
    if (type === "x") { pending = { ...pending, ...decodePax(data) }; continue; }
    if (type === "g") continue;
    if (type === "L") { pending.path = readString(data, 0, data.length); continue; }
    if (type === "K") { pending.linkpath = readString(data, 0, data.length); continue; }
    const prefix = decoder.decode(block.subarray(257, 262)) === "ustar" ? readString(block, 345, 155) : "";
    const name = readString(block, 0, 100);
    const path = pending.path ?? (prefix ? `${prefix}/${name}` : name);
    const target = pending.linkpath ?? readString(block, 157, 100);
    pending = {};
    entries.push({ type: entryType(type), path, mode: readNumber(block, 100, 8), size, target, data: data.slice() });
  }
  return entries;
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

function header(fields: { name: string; mode: number; uid: number; gid: number; size: number; mtime: number; type: string; link: string }): Uint8Array {
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
