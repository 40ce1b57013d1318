import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { readTarStream } from "./read-tar-stream.ts";
import { packTar } from "./tar.ts";

const text = (value: string) => new TextEncoder().encode(value);

/** A header for a file of `size` bytes, its data not included (packTar would need the data in memory). */
function fileHeader(path: string, size: number): Uint8Array {
  const block = packTar([{ type: "file", path, data: new Uint8Array(0) }]).slice(0, 512);
  block.set(text(`${size.toString(8).padStart(11, "0")}\0`), 124);
  block.fill(0x20, 148, 156);
  const sum = block.reduce((total, byte) => total + byte, 0);
  block.set(text(`${sum.toString(8).padStart(6, "0")}\0 `), 148);
  return block;
}

/** Splits an archive into chunks of `size` bytes, so headers and data straddle chunk boundaries. */
async function* chunked(archive: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let offset = 0; offset < archive.length; offset += size) yield archive.subarray(offset, offset + size);
}

describe("readTarStream", () => {
  it("reads entries across any chunking: hard links, long names, backslashes and `..` inside one name", async () => {
    const longName = `ws/${"deep/".repeat(30)}${"n".repeat(120)}`;
    const archive = packTar([
      { type: "directory", path: "ws" },
      { type: "file", path: "ws/x\\..\\..\\y", data: text("one") },
      { type: "file", path: longName, data: text("x".repeat(700)) },
      { type: "symlink", path: "ws/link", target: "x\\..\\..\\y" },
    ]);
    for (const size of [1, 7, 512, 100_000]) {
      const seen: [string, string, string][] = [];
      for await (const { header, data } of readTarStream(chunked(archive, size))) {
        const parts: Uint8Array[] = [];
        for await (const chunk of data) parts.push(chunk.slice());
        seen.push([header.type, header.path, new TextDecoder().decode(Buffer.concat(parts))]);
      }
      expect(seen).toEqual([
        ["directory", "ws/", ""],
        ["file", "ws/x\\..\\..\\y", "one"],
        ["file", longName, "x".repeat(700)],
        ["symlink", "ws/link", ""],
      ]);
    }
  });

  it("skips what a consumer leaves unread and stays aligned for the next entry", async () => {
    const archive = packTar([
      { type: "file", path: "a", data: text("a".repeat(5000)) },
      { type: "file", path: "b", data: text("bee") },
    ]);
    const paths: string[] = [];
    let last = "";
    for await (const { header, data } of readTarStream(chunked(archive, 300))) {
      paths.push(header.path);
      for await (const chunk of data) {
        last = new TextDecoder().decode(chunk);
        break;
      }
    }
    expect(paths).toEqual(["a", "b"]);
    expect(last).toBe("bee");
  });

  it("streams a 256 MiB entry one chunk at a time: it hashes without the entry ever being in memory", async () => {
    const size = 256 * 1024 ** 2 + 5;
    const piece = new Uint8Array(1024 ** 2).fill(7);
    let produced = 0;
    let consumed = 0;
    let mostAhead = 0;
    // One reused buffer as the source: the reader can only keep up by passing each chunk on before the next is made.
    async function* source(): AsyncGenerator<Uint8Array> {
      yield fileHeader("big.bin", size);
      for (let left = size; left > 0; left -= piece.length) {
        produced++;
        yield piece.subarray(0, Math.min(piece.length, left));
      }
      yield new Uint8Array(512 - (size % 512));
      yield packTar([{ type: "file", path: "after.txt", data: text("after") }]);
    }
    const expected = createHash("sha256");
    for (let left = size; left > 0; left -= piece.length)
      expected.update(piece.subarray(0, Math.min(piece.length, left)));
    const results: [string, number, string][] = [];
    for await (const { header, data } of readTarStream(source())) {
      const hash = createHash("sha256");
      let bytes = 0;
      for await (const chunk of data) {
        consumed++;
        mostAhead = Math.max(mostAhead, produced - consumed);
        hash.update(chunk);
        bytes += chunk.length;
      }
      results.push([header.path, bytes, hash.digest("hex")]);
    }
    expect(results[0]).toEqual(["big.bin", size, expected.digest("hex")]);
    expect(results[1]![0]).toBe("after.txt");
    // The reader never ran ahead of its consumer: at most the chunk in hand is held.
    expect(mostAhead).toBe(0);
  });

  it("refuses an archive cut short inside an entry", async () => {
    const archive = packTar([{ type: "file", path: "a", data: text("a".repeat(2000)) }]);
    const read = async () => {
      for await (const { data } of readTarStream(chunked(archive.subarray(0, 1200), 100))) for await (const _ of data);
    };
    await expect(read()).rejects.toThrow(/cut short/);
  });
});
