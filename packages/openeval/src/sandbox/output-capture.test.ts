import { describe, expect, it } from "vitest";
import { BoundedBuffer, StreamDemuxer } from "./output-capture.ts";

function frame(stream: 1 | 2, payload: string): Uint8Array {
  const data = new TextEncoder().encode(payload);
  const header = new Uint8Array(8);
  header[0] = stream;
  new DataView(header.buffer).setUint32(4, data.length);
  return new Uint8Array([...header, ...data]);
}

describe("output capture", () => {
  it("separates stdout from stderr even when frames are split across chunks", () => {
    const stdout = new BoundedBuffer(1000);
    const stderr = new BoundedBuffer(1000);
    const demuxer = new StreamDemuxer(stdout, stderr);
    const bytes = new Uint8Array([...frame(1, "out one "), ...frame(2, "err"), ...frame(1, "out two")]);
    for (let offset = 0; offset < bytes.length; offset += 3) demuxer.push(bytes.subarray(offset, offset + 3));
    expect(stdout.text()).toBe("out one out two");
    expect(stderr.text()).toBe("err");
    expect(stdout.truncated || stderr.truncated).toBe(false);
  });

  it("keeps the first `limit` bytes, counts the rest and flags the truncation", () => {
    const buffer = new BoundedBuffer(10);
    buffer.write(new TextEncoder().encode("0123456"));
    buffer.write(new TextEncoder().encode("789abcdef"));
    expect(buffer.text()).toBe("0123456789");
    expect(buffer.total).toBe(16);
    expect(buffer.truncated).toBe(true);
  });
});
