// The one writer of a recording of a real OpenCode session: an eval run's final recording
// and an earlyStop checkpoint (host or container, whose live files are first copied out) hand it their snapshots
// and the live database, and it lays out the evidence folder — the database copy, session exports, events and
// manifest — so that NATIVE_LAYOUT is spelled only here.
import { join, relative } from "node:path";
import { readFile } from "node:fs/promises";
import { archiveDatabase, exportSessions, snapshotDatabase, type StreamLedger } from "../opencode/index.ts";
import type { RunMetrics } from "../records/index.ts";
import { sha256 } from "../util/hash.ts";
import { OPENCODE_VERSION } from "../util/versions.ts";
import { writeEventsFile, writeEvidence } from "./evidence-writer.ts";
import type { ExtractOptions, NativeExtract } from "./native-extract.ts";
import { NATIVE_LAYOUT } from "./format.ts";
import { measureSession } from "./measure-session.ts";
import type { StreamComparison } from "./stream-integrity.ts";
import type { EvidenceRef, Snapshot } from "./schema.ts";

export interface NativeRecordingRequest {
  /** The evidence folder (absolute); the initial snapshot's objects are already in it. */
  directory: string;
  /** "candidate": OpenCode has exited (the database is archived, sessions exported). "checkpoint": it is still
   * running (a consistent copy of the database at this moment; no exports). */
  kind: "candidate" | "checkpoint";
  prompt: string;
  initial: Snapshot;
  /** Captures the final workspace, after the database is copied (a running agent keeps changing both). */
  captureFinal: () => Promise<Snapshot>;
  /** The database OpenCode writes. */
  liveDatabase: string;
  secrets: readonly string[];
  elapsedMs: number;
  extract?: ExtractOptions;
  /** The session id OpenCode reported, for a database that never got a root session. */
  reportedSessionID?: string | null;
  /** What the harness saw in OpenCode's event stream: the archived database is checked against it. */
  stream?: { ledger: StreamLedger; killed: boolean };
}

export interface NativeRecording {
  evidence: EvidenceRef;
  native: NativeExtract;
  /** With the usage the database lacks of what the stream saw added back. */
  metrics: RunMetrics;
  /** The check against the stream, and the database it read (relative to the evidence folder); null without one. */
  integrity: (StreamComparison & { database: string }) | null;
}

/** @example const { evidence, metrics } = await writeNativeRecording({ directory, kind: "candidate", prompt, initial, captureFinal, liveDatabase, secrets, elapsedMs }); */
export async function writeNativeRecording(request: NativeRecordingRequest): Promise<NativeRecording> {
  const { directory, secrets } = request;
  const copyDatabase = request.kind === "candidate" ? archiveDatabase : snapshotDatabase;
  const database = await copyDatabase({
    live: request.liveDatabase,
    target: join(directory, NATIVE_LAYOUT.database),
    secrets: [...secrets],
  });
  const final = await request.captureFinal();
  const exported =
    request.kind === "candidate"
      ? await exportSessions({
          databasePath: request.liveDatabase,
          targetDir: join(directory, NATIVE_LAYOUT.sessions),
          secrets,
        })
      : { sessions: [] };
  const { native, metrics, comparison } = measureSession({
    database: database.path,
    elapsedMs: request.elapsedMs,
    ...(request.extract ? { extract: request.extract } : {}),
    ...(request.stream ? { stream: request.stream } : {}),
  });
  const integrity = comparison ? { ...comparison, database: NATIVE_LAYOUT.database } : null;
  const evidence = await writeEvidence(directory, {
    kind: request.kind,
    prompt: request.prompt,
    response: { text: native.response },
    tools: native.tools,
    initial: request.initial,
    final,
    events: await writeEventsFile(directory, native.events),
    native: {
      database: { file: NATIVE_LAYOUT.database, sha256: database.sha256, bytes: database.bytes },
      opencodeVersion: OPENCODE_VERSION,
      rootSessionID: native.rootSessionID ?? request.reportedSessionID ?? null,
      ...(native.stepErrors.length > 0 ? { stepErrors: native.stepErrors } : {}),
      sessions: await Promise.all(
        exported.sessions.map(async (session) => ({
          id: session.id,
          parentID: session.parentID,
          export: relative(directory, session.file).split("\\").join("/"),
          sha256: sha256(await readFile(session.file)),
        })),
      ),
    },
    metrics,
  });
  return { evidence, native, metrics, integrity };
}
