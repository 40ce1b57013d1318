// Content identities: sha256 of bytes, and fingerprints of JSON values with object keys sorted so that
// the same value always hashes the same, whatever order its keys were written in. Bun's native hasher, not
// node:crypto: loading that module (and the streams it brings) was a quarter of a code-judge worker's start.

export function sha256(data: string | Uint8Array): string {
  return new Bun.CryptoHasher("sha256").update(data).digest("hex");
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
