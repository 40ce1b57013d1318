// Recordings the viewer has open: readRecording() verifies hashes and copies the native database, so a few
// recently viewed ones stay open (least recently used closed first) and their transcripts are converted once.
import { readRecording, type JudgeContext } from "../recording/index.ts";
import type { EventRow, TranscriptMessage } from "./api-types.ts";
import { CONSTRUCTED_SESSION, constructedTranscript, toTranscripts } from "./transcript.ts";

const KEEP_OPEN = 8;
const MAX_EVENT_DATA = 4_000;

export interface OpenRecording {
  context: JudgeContext;
  /** Session id → its messages, root session first; a constructed recording has one synthetic session. */
  transcripts(): Promise<Map<string, TranscriptMessage[]>>;
  events(): Promise<EventRow[]>;
}

export class RecordingCache {
  private readonly open = new Map<string, Promise<OpenRecording>>();

  /** `key` must change when the recording does (use the evidence hash). */
  get(runDirectory: string, evalRunId: string, key: string): Promise<OpenRecording> {
    const id = `${runDirectory}\u0000${evalRunId}\u0000${key}`;
    const existing = this.open.get(id);
    if (existing) {
      this.open.delete(id);
      this.open.set(id, existing);
      return existing;
    }
    const opening = openRecording(runDirectory, evalRunId);
    this.open.set(id, opening);
    opening.catch(() => this.open.delete(id));
    while (this.open.size > KEEP_OPEN) {
      const [oldest, recording] = this.open.entries().next().value!;
      this.open.delete(oldest);
      void recording.then((entry) => entry.context[Symbol.asyncDispose]()).catch(() => {});
    }
    return opening;
  }

  async close(): Promise<void> {
    const all = [...this.open.values()];
    this.open.clear();
    await Promise.allSettled(all.map(async (recording) => (await recording).context[Symbol.asyncDispose]()));
  }
}

async function openRecording(runDirectory: string, evalRunId: string): Promise<OpenRecording> {
  const context = await readRecording(runDirectory, evalRunId);
  let transcripts: Promise<Map<string, TranscriptMessage[]>> | null = null;
  let events: Promise<EventRow[]> | null = null;
  return {
    context,
    transcripts: () => (transcripts ??= readTranscripts(context)),
    events: () => (events ??= readEvents(context)),
  };
}

async function readTranscripts(context: JudgeContext): Promise<Map<string, TranscriptMessage[]>> {
  const sessions = await context.recording.sessions();
  if (sessions.length === 0) {
    return new Map([
      [CONSTRUCTED_SESSION, constructedTranscript(context.prompt, context.recording.tools(), context.response.text)],
    ]);
  }
  return toTranscripts(sessions, (sessionID) => context.recording.messages(sessionID));
}

async function readEvents(context: JudgeContext): Promise<EventRow[]> {
  return context.recording.events().map((event) => {
    const data = JSON.stringify(event.event.data) ?? "null";
    const truncated = data.length > MAX_EVENT_DATA;
    return {
      sessionID: event.sessionID,
      sequence: event.sequence,
      type: event.event.type,
      time: event.time === null ? null : Date.parse(event.time),
      data: truncated ? data.slice(0, MAX_EVENT_DATA) : data,
      truncated,
    };
  });
}
