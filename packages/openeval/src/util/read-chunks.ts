// A file's bytes in chunks, whatever its size, by a path given as text or as bytes: Linux allows names that are not
// UTF-8, which only a byte path can open (Bun's createReadStream takes text paths only).
import { open } from "node:fs/promises";

const CHUNK_BYTES = 1024 * 1024;

/**
 * Yields the file's bytes; each chunk is valid until the next one is asked for (one buffer is reused).
 * @example for await (const chunk of readChunks(path)) hash.update(chunk);
 */
export async function* readChunks(path: string | Buffer): AsyncGenerator<Uint8Array> {
  const handle = await open(path, "r");
  try {
    const buffer = Buffer.alloc(CHUNK_BYTES);
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, null);
      if (bytesRead === 0) return;
      yield buffer.subarray(0, bytesRead);
    }
  } finally {
    await handle.close();
  }
}
