// Reads a tar archive as it arrives (an engine's copy-out), entry by entry, each entry's data handed on in the chunks
// it came in: memory stays at about one chunk whatever the archive's size. Shares its header parsing with tar.ts.
import { BLOCK, headerSize, isEndBlock, isRecordHeader, paddedSize, TarHeaders, type TarHeader } from "./tar.ts";

/** Pax records and GNU long names describe one name; anything larger is not an archive an engine made. */
const MAX_RECORD_BYTES = 1024 * 1024;
const EMPTY = new Uint8Array(0);

export interface TarStreamEntry {
  header: TarHeader;
  /** The entry's bytes; whatever is left unread is skipped before the next entry. */
  data: AsyncIterable<Uint8Array>;
}

/**
 * Yields each entry of a tar stream, in order.
 * @example for await (const { header, data } of readTarStream(response)) for await (const chunk of data) hash.update(chunk);
 */
export async function* readTarStream(source: AsyncIterable<Uint8Array>): AsyncGenerator<TarStreamEntry> {
  const input = new ByteQueue(source[Symbol.asyncIterator]());
  const headers = new TarHeaders();
  for (;;) {
    const offset = input.offset;
    const block = await input.take(BLOCK);
    if (block === null || isEndBlock(block)) return;
    const size = headerSize(block, offset);
    if (isRecordHeader(block)) {
      if (size > MAX_RECORD_BYTES)
        throw new Error(`tar: a ${size}-byte name record at byte ${offset} is over ${MAX_RECORD_BYTES} bytes`);
      const record = (await input.take(paddedSize(size))) ?? EMPTY;
      headers.next(block, record.subarray(0, size));
      continue;
    }
    const header = headers.next(block, EMPTY)!;
    const body = input.body(size);
    yield { header, data: body.chunks };
    await input.skip(body.left() + paddedSize(size) - size);
  }
}

/** The bytes of an async source, taken a block at a time or passed on in its own chunks. */
class ByteQueue {
  private rest: Uint8Array = EMPTY;
  /** Bytes consumed so far (for messages). */
  offset = 0;

  constructor(private readonly source: AsyncIterator<Uint8Array>) {}

  /** Exactly `length` bytes (copied only when they span chunks); null at a clean end of the source. */
  async take(length: number): Promise<Uint8Array | null> {
    while (this.rest.length < length) {
      const next = await this.source.next();
      if (next.done) {
        if (this.rest.length === 0) return null;
        throw new Error(`tar: the archive is cut short at byte ${this.offset + this.rest.length}`);
      }
      this.rest = this.rest.length === 0 ? next.value : Buffer.concat([this.rest, next.value]);
    }
    const taken = this.rest.subarray(0, length);
    this.rest = this.rest.subarray(length);
    this.offset += length;
    return taken;
  }

  /** The next `length` bytes as they arrive, without copying; `left()` says how many were not read. */
  body(length: number): { chunks: AsyncIterable<Uint8Array>; left: () => number } {
    let left = length;
    const chunks = async function* (this: ByteQueue) {
      while (left > 0) {
        if (this.rest.length === 0) {
          const next = await this.source.next();
          if (next.done) throw new Error(`tar: the archive is cut short at byte ${this.offset}`);
          this.rest = next.value;
        }
        const piece = this.rest.subarray(0, Math.min(left, this.rest.length));
        this.rest = this.rest.subarray(piece.length);
        this.offset += piece.length;
        left -= piece.length;
        yield piece;
      }
    }.call(this);
    return { chunks, left: () => left };
  }

  async skip(length: number): Promise<void> {
    for await (const _ of this.body(length).chunks) {
      // Only moving past them.
    }
  }
}
