// Writes an evidence manifest. The manifest is written last and atomically, so a directory either has a
// complete recording or none; its sha256 is the evidence identity.
import { join } from "node:path";
import { sha256 } from "../util/hash.ts";
import { writeFileAtomic } from "../util/files.ts";
import type { NativeEvent } from "./native-archive.ts";
import { EVIDENCE_FORMAT, EVIDENCE_VERSION } from "./format.ts";
import type { EvidenceManifest, EvidenceRef } from "./schema.ts";

export const MANIFEST_FILE = "manifest.json";

export async function writeEvidence(
  directory: string,
  content: Omit<EvidenceManifest, "format" | "version" | "createdAt">,
): Promise<EvidenceRef> {
  const manifest: EvidenceManifest = {
    format: EVIDENCE_FORMAT,
    version: EVIDENCE_VERSION,
    createdAt: new Date().toISOString(),
    ...content,
  };
  const text = `${JSON.stringify(manifest, null, 2)}\n`;
  await writeFileAtomic(join(directory, MANIFEST_FILE), text);
  return { directory, hash: sha256(text) };
}

export const EVENTS_FILE = "events.jsonl";

/** Native events, one JSON object a line, in recorded order; returns the manifest's `events` entry. */
export async function writeEventsFile(
  directory: string,
  events: readonly NativeEvent[],
): Promise<NonNullable<EvidenceManifest["events"]>> {
  const text = events.map((event) => JSON.stringify(event)).join("\n") + (events.length > 0 ? "\n" : "");
  await writeFileAtomic(join(directory, EVENTS_FILE), text);
  return { file: EVENTS_FILE, count: events.length, sha256: sha256(text) };
}
