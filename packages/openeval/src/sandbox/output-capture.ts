// Bounded capture of a command's output: demultiplexes the engine's 8-byte-framed stdout/stderr stream and keeps at
// most `limit` bytes of each, counting (never storing) the rest so that truncation is reported, not silent.
import type { OutputSink, RunOptions, RunOutcome } from "./sandbox.ts";

/** A sink that passes on at most `limit` bytes, counting the rest. */
export interface CappedSink extends OutputSink {
  readonly total: number;
  readonly truncated: boolean;
}

export function cappedSink(sink: OutputSink | undefined, limit = Number.POSITIVE_INFINITY): CappedSink {
  let total = 0;
  let passed = 0;
  return {
    get total() {
      return total;
    },
    get truncated() {
      return total > passed;
    },
    write(chunk) {
      total += chunk.length;
      const room = limit - passed;
      if (room <= 0) return;
      const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
      passed += part.length;
      sink?.write(part);
    },
  };
}

/** One run's capped output streams, and its outcome from them: what both engines return from `run`. */
export function captureRun(options: Pick<RunOptions, "stdout" | "stderr" | "maxOutputBytes">) {
  const started = performance.now();
  const stdout = cappedSink(options.stdout, options.maxOutputBytes);
  const stderr = cappedSink(options.stderr, options.maxOutputBytes);
  const outcome = (exitCode: number | null, timedOut: boolean): RunOutcome => ({
    exitCode,
    timedOut,
    elapsedMs: Math.round(performance.now() - started),
    stdoutBytes: stdout.total,
    stderrBytes: stderr.total,
    truncated: stdout.truncated || stderr.truncated,
  });
  return { stdout, stderr, outcome };
}

/** Copies a byte stream into a sink until it ends (or errors: what arrived is kept). */
export async function pumpStream(stream: ReadableStream<Uint8Array>, sink: OutputSink): Promise<void> {
  const reader = stream.getReader();
  try {
    for (let read = await reader.read(); !read.done; read = await reader.read()) sink.write(read.value);
  } catch {
    // The process was killed mid-write; the bytes so far are what it said.
  }
}

/** Keeps the first `limit` bytes written to it. */
export class BoundedBuffer implements OutputSink {
  private readonly chunks: Uint8Array[] = [];
  private kept = 0;
  total = 0;

  constructor(readonly limit: number) {}

  write(data: Uint8Array): void {
    this.total += data.length;
    const room = this.limit - this.kept;
    if (room <= 0) return;
    const part = data.length > room ? data.subarray(0, room) : data;
    this.chunks.push(part.slice());
    this.kept += part.length;
  }

  get truncated(): boolean {
    return this.total > this.kept;
  }

  bytes(): Uint8Array {
    return Buffer.concat(this.chunks);
  }

  text(): string {
    return new TextDecoder().decode(this.bytes());
  }
}

/** Splits the engine's multiplexed stream (header: stream type, 3 zero bytes, big-endian length) as chunks arrive. */
export class StreamDemuxer {
  private pending = new Uint8Array(0);

  constructor(
    private readonly stdout: OutputSink,
    private readonly stderr: OutputSink,
  ) {}

  push(chunk: Uint8Array): void {
    let data = this.pending.length > 0 ? Buffer.concat([this.pending, chunk]) : chunk;
    while (data.length >= 8) {
      const size = ((data[4]! << 24) >>> 0) + (data[5]! << 16) + (data[6]! << 8) + data[7]!;
      if (data.length < 8 + size) break;
      const payload = data.subarray(8, 8 + size);
      (data[0] === 2 ? this.stderr : this.stdout).write(payload);
      data = data.subarray(8 + size);
    }
    this.pending = data.slice();
  }
}
