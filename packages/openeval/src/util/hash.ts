// Content identities: sha256 of bytes, and fingerprints of JSON values with object keys sorted so that
// the same value always hashes the same, whatever order its keys were written in. Bun's native hasher, not
// node:crypto: loading that module (and the streams it brings) is a large part of a code-judge worker's start.
import { closeSync, openSync, readSync } from "node:fs";

/** One buffer for every file hashed: reading each file into a Buffer of its own would leave a large run's check
 * with hundreds of MB of external garbage at its peak. Hashing is synchronous, so no two reads share it;
 * made on first use, so a process that hashes no file (a code-judge worker) does not allocate it. */
let fileChunk: Buffer | undefined;
/** One hasher for every file too (digest() resets it): each CryptoHasher holds ~0.5 kB of native memory that the GC
 * does not count until it finalizes the object, and a large runner's summary would make three per slot. */
let fileHasher: Bun.CryptoHasher | undefined;

export function sha256(data: string | Uint8Array): string {
  // One-shot: no hasher object is left for the GC to finalize (see fileHasher).
  return Bun.CryptoHasher.hash("sha256", data, "hex");
}

/** The sha256 of a file's bytes, or null when there is no such file; any other read error throws. */
export function sha256OfFile(path: string): string | null {
  let descriptor: number;
  try {
    descriptor = openSync(path, "r");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  const hasher = (fileHasher ??= new Bun.CryptoHasher("sha256"));
  try {
    const chunk = (fileChunk ??= Buffer.allocUnsafe(64 * 1024));
    for (let read = readSync(descriptor, chunk); read > 0; read = readSync(descriptor, chunk))
      hasher.update(chunk.subarray(0, read));
    return hasher.digest("hex");
  } catch (error) {
    hasher.digest(); // a read that failed halfway leaves nothing of its file for the next one
    throw error;
  } finally {
    closeSync(descriptor);
  }
}

/** JSON with object keys sorted at every depth; `undefined` members are dropped as JSON.stringify does. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

export function fingerprint(value: unknown): string {
  return sha256(canonicalJson(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== "object") return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) sorted[key] = sortKeys((value as Record<string, unknown>)[key]);
  return sorted;
}
