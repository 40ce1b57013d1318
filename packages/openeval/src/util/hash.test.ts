import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { sha256, sha256OfFile } from "./hash.ts";

const directory = mkdtempSync(join(tmpdir(), "openeval-hash-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe("sha256OfFile", () => {
  it("is the sha256 of the file's bytes, for a file smaller and one larger than its read buffer", () => {
    const small = join(directory, "small.json");
    const large = join(directory, "large.bin");
    writeFileSync(small, '{"a":1}\n');
    const bytes = Uint8Array.from({ length: 200_000 }, (_, index) => (index * 31) % 251);
    writeFileSync(large, bytes);
    expect(sha256OfFile(small)).toBe(sha256('{"a":1}\n'));
    expect(sha256OfFile(large)).toBe(sha256(bytes));
    // The buffer and the hasher are reused: hashing the small file again after the large one gives its own hash, not a mix.
    expect(sha256OfFile(small)).toBe(sha256('{"a":1}\n'));
  });

  it("is null for a missing file and throws for one that cannot be read", () => {
    expect(sha256OfFile(join(directory, "missing.json"))).toBeNull();
    expect(() => sha256OfFile(directory)).toThrow(/EISDIR|directory/i);
  });
});
