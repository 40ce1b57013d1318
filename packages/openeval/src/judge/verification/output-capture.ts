// Bounded capture of a command's output: demultiplexes the engine's 8-byte-framed stdout/stderr stream and keeps at
// most `limit` bytes of each, counting (never storing) the rest so that truncation is reported, not silent.

/** Keeps the first `limit` bytes written to it. */
export class BoundedBuffer {
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

  constructor(private readonly stdout: BoundedBuffer, private readonly stderr: BoundedBuffer) {}

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
