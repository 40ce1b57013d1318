// JudgeContext: everything a judge may know about one recording, read lazily and verified. judge.ts receives
// it; readRecording() returns the same object to scripts. Disposal removes every copy it made. Its members follow
// OpenEval 0.5's public contract where OpenCode 1.x has the data (judge-shapes.ts); docs/guide/openeval-compatibility.md lists the rest.
import { mkdtemp, mkdir, writeFile, symlink } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { Database } from "bun:sqlite";
import type { OpenCodeClient } from "../opencode/index.ts";
import type { EvalRun } from "../records/index.ts";
import { createScratchDir, removeScratchDir } from "../util/scratch-dir.ts";
import { EvidenceError } from "./errors.ts";
import type { Evidence } from "./evidence-reader.ts";
import {
  openNativeArchive,
  readEvents,
  type NativeArchiveReader,
  type NativeMessage,
  type NativeSession,
} from "./native-archive.ts";
import type { Revision } from "./schema.ts";
import type { VerificationApi } from "./verification-contract.ts";
import { HARNESS_VERSION } from "../util/versions.ts";
import {
  judgeMetrics,
  toJudgeTool,
  toRecordedEvent,
  toRecordedFile,
  type JudgeMetrics,
  type JudgeToolCall,
  type RecordedEvent,
  type RecordedFile,
} from "./judge-shapes.ts";
import { diffContents, diffWorkspace, type FileDiff } from "./workspace-diff.ts";

export interface EventFilter {
  sessionID?: string;
  /** Exact type, or a prefix ending in "." (e.g. "message."). */
  type?: string;
}

export interface ToolFilter {
  sessionID?: string;
  name?: string;
}

/** The case an eval run was for: its id, typed input, expected value (null when none) and tags. */
export interface JudgeCase {
  id: string;
  input: Record<string, unknown>;
  expected: unknown;
  tags: string[];
}

export interface JudgeContext extends AsyncDisposable {
  /** The final root answer; "" when the candidate gave none. */
  response: { text: string };
  /** The exact task prompt. */
  prompt: string;
  /** The eval run (model, repetition, state, timing, inputs); null for constructed evidence. */
  run: Readonly<EvalRun> | null;
  /**
   * The case this eval run was for, from the eval's case files; null for an eval without cases. An addition of this
   * openeval to OpenEval's JudgeContext.
   */
  case: Readonly<JudgeCase> | null;
  metrics: Readonly<JudgeMetrics>;
  recording: {
    evidence: { directory: string; hash: string };
    /** The root OpenCode session; null for constructed evidence. */
    sessionID: string | null;
    /** `recorded-prefix` for an earlyStop checkpoint of a session still running. */
    coverage: "recorded-session" | "recorded-prefix";
    events(filter?: EventFilter): RecordedEvent[];
    tools(filter?: ToolFilter): JudgeToolCall[];
    sessions(): Promise<NativeSession[]>;
    messages(sessionID?: string): Promise<NativeMessage[]>;
    export(sessionID?: string): Promise<unknown>;
  };
  workspace: {
    files(revision?: Revision): RecordedFile[];
    read(path: string, revision?: Revision): Promise<Uint8Array>;
    text(path: string, revision?: Revision): Promise<string>;
    /** One file's text before and after the candidate (OpenEval's shape); null where it does not exist. */
    diff(path: string): Promise<{ initial: string | null; final: string | null }>;
    /** Every changed file (or only `path`) as a unified diff; binary and too-large files summarized. */
    patches(path?: string): Promise<FileDiff[]>;
    /** A disposable copy on disk, removed with the context. Not a sandbox: never execute candidate code here. */
    materialize(revision?: Revision): Promise<string>;
  };
  /** Sandboxed checks over the reconstructed workspace in the pinned verification image. */
  verification: VerificationApi;
  native: {
    /** Read-only bun:sqlite handle on a verified copy of the archived OpenCode database. */
    database(): Promise<Database>;
    /** The pinned OpenCode SDK (v2 client) over a disposable copy of the database, served on 127.0.0.1. */
    sdk(): Promise<OpenCodeClient>;
    /** The OpenAPI schema of that pinned OpenCode server. */
    schema(): Promise<unknown>;
    /** The OpenCode version that recorded this evidence. */
    version: string | null;
    /** The version of this harness, which read the recording. */
    readerVersion: string;
  };
}

/** What a context can run verification with; without it, `ctx.verification` explains how to get it. */
export interface JudgeContextOptions {
  verification?: (evidence: Evidence) => VerificationApi;
  /** ctx.case (default null: no case). */
  case?: JudgeCase | null;
}

const NO_VERIFICATION: VerificationApi = {
  run: async () => {
    throw new EvidenceError("verificationOutsideGrading");
  },
  read: async () => {
    throw new EvidenceError("noVerificationRan");
  },
  text: async () => {
    throw new EvidenceError("noVerificationRan");
  },
};

export async function createJudgeContext(
  evidence: Evidence,
  run: EvalRun | null,
  options: JudgeContextOptions = {},
): Promise<JudgeContext> {
  const manifest = evidence.manifest;
  let scratch: string | null = null;
  let native: NativeArchiveReader | null = null;
  const scratchDirectory = async () => (scratch ??= await createScratchDir("context"));
  const nativeArchive = async () => {
    if (!manifest.native) {
      throw new EvidenceError("noNativeArchive");
    }
    return (native ??= await openNativeArchive(evidence, manifest.native, await scratchDirectory()));
  };

  // Read now so that events() can be synchronous, as OpenEval's is.
  const events = manifest.native ? (await readEvents(evidence)).map(toRecordedEvent) : [];
  const tools = manifest.tools.map(toJudgeTool);

  return {
    response: { text: manifest.response.text ?? "" },
    prompt: manifest.prompt,
    run,
    case: options.case ?? null,
    metrics: judgeMetrics(evidence, events),
    recording: {
      evidence: { directory: evidence.directory, hash: evidence.hash },
      sessionID: manifest.native?.rootSessionID ?? null,
      coverage: manifest.kind === "checkpoint" ? "recorded-prefix" : "recorded-session",
      events: (filter) =>
        events.filter(
          (event) =>
            (!filter?.sessionID || event.sessionID === filter.sessionID) &&
            (!filter?.type ||
              (filter.type.endsWith(".")
                ? event.event.type.startsWith(filter.type)
                : event.event.type === filter.type)),
        ),
      tools: (filter) =>
        tools.filter(
          (tool) =>
            (!filter?.name || tool.name === filter.name) && (!filter?.sessionID || tool.sessionID === filter.sessionID),
        ),
      sessions: async () => (manifest.native ? (await nativeArchive()).sessions() : []),
      messages: async (sessionID) => (manifest.native ? (await nativeArchive()).messages(sessionID) : []),
      export: async (sessionID) => (await nativeArchive()).export(sessionID),
    },
    workspace: {
      files: (revision) => evidence.files(revision).map(toRecordedFile),
      read: (path, revision) => evidence.read(path, revision),
      text: (path, revision) => evidence.text(path, revision),
      diff: (path) => diffContents(evidence, path),
      patches: (path) => diffWorkspace(evidence, path),
      materialize: async (revision = "final") => materialize(evidence, revision, await scratchDirectory()),
    },
    verification: options.verification?.(evidence) ?? NO_VERIFICATION,
    native: {
      database: async () => (await nativeArchive()).database(),
      sdk: async () => (await nativeArchive()).sdk(),
      schema: async () => (await nativeArchive()).schema(),
      version: manifest.native?.opencodeVersion ?? null,
      readerVersion: HARNESS_VERSION,
    },
    async [Symbol.asyncDispose]() {
      await native?.close();
      if (scratch) await removeScratchDir(scratch);
    },
  };
}

async function materialize(evidence: Evidence, revision: Revision, scratch: string): Promise<string> {
  const root = await mkdtemp(join(scratch, `workspace-${revision}-`));
  for (const entry of evidence.files(revision)) {
    const target = join(root, entry.path);
    await mkdir(dirname(target), { recursive: true });
    if (entry.kind === "symlink") await symlink(entry.target, target);
    // Recorded by hash only: there are no contents to restore.
    else if (entry.omitted) continue;
    else await writeFile(target, await evidence.read(entry.path, revision), { mode: entry.mode });
  }
  return root;
}
