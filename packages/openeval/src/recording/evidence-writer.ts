// Writes an evidence manifest. The manifest is written last and atomically, so a directory either has a
// complete recording or none; its sha256 is the evidence identity.
import { join } from "node:path";
import { sha256 } from "../util/hash.ts";
import { writeFileAtomic } from "../util/files.ts";
import { EVIDENCE_FORMAT, EVIDENCE_VERSION, type EvidenceManifest, type EvidenceRef } from "./schema.ts";

export const MANIFEST_FILE = "manifest.json";

export async function writeEvidence(
  directory: string,
  content: Omit<EvidenceManifest, "format" | "version" | "createdAt">,
): Promise<EvidenceRef> {
  const manifest: EvidenceManifest = { format: EVIDENCE_FORMAT, version: EVIDENCE_VERSION, createdAt: new Date().toISOString(), ...content };
  const text = `${JSON.stringify(manifest, null, 2)}\n`;
  await writeFileAtomic(join(directory, MANIFEST_FILE), text);
  return { directory, hash: sha256(text) };
}
