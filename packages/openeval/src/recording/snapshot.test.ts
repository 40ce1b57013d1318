import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { appendFile, link, truncate, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir, writeTree } from "../../../../test/helpers/fixtures.ts";
import { sha256 } from "../util/hash.ts";
import { createJudgeContext } from "./judge-context.ts";
import { openEvidence } from "./evidence-reader.ts";
import { writeEvidence } from "./evidence-writer.ts";
import { measureConstructed } from "./metrics.ts";
import { captureDirectory, OBJECTS_DIRECTORY } from "./snapshot.ts";

describe("bounded snapshots", () => {
  it("records a file over the per-file limit, and files past the snapshot total, by size and sha256 without copying them", async () => {
    const workspace = await writeTree({
      "small.txt": "tiny\n",
      "b-big.bin": "x".repeat(2000),
      "c-fits.txt": "y".repeat(600),
      "d-over-total.txt": "z".repeat(600),
    });
    const evidence = await makeTempDir();
    const snapshot = await captureDirectory(workspace, evidence, undefined, {
      maxFileBytes: 1000,
      maxSnapshotBytes: 1000,
    });
    const byPath = Object.fromEntries(snapshot.files.map((file) => [file.path, file]));
    expect(byPath["b-big.bin"]).toMatchObject({
      kind: "file",
      bytes: 2000,
      sha256: sha256("x".repeat(2000)),
      omitted: {
        limit: "file",
        note: expect.stringContaining("1000-byte per-file limit (benchmark.ts evidence.maxFileBytes)"),
      },
    });
    expect(byPath["c-fits.txt"]).not.toHaveProperty("omitted");
    expect(byPath["d-over-total.txt"]).toMatchObject({ bytes: 600, omitted: { limit: "snapshot" } });
    expect(existsSync(join(evidence, OBJECTS_DIRECTORY, sha256("x".repeat(2000))))).toBe(false);
    expect(existsSync(join(evidence, OBJECTS_DIRECTORY, sha256("z".repeat(600))))).toBe(false);
    expect(existsSync(join(evidence, OBJECTS_DIRECTORY, sha256("tiny\n")))).toBe(true);

    // Readers say what happened instead of failing on a missing object.
    const initial = await captureDirectory(await makeTempDir(), evidence);
    const ref = await writeEvidence(evidence, {
      kind: "constructed",
      prompt: "p",
      response: { text: "r" },
      tools: [],
      initial,
      final: snapshot,
      events: null,
      native: null,
      metrics: measureConstructed([]),
    });
    await using context = await createJudgeContext(await openEvidence(ref.directory, ref.hash), null);
    await expect(context.workspace.read("b-big.bin")).rejects.toThrow(
      /"b-big.bin" \(2000 bytes, sha256 [0-9a-f]{64}\) is in the final snapshot by size and hash only: not copied/,
    );
    const diff = await context.workspace.patches("b-big.bin");
    expect(diff[0]).toMatchObject({
      status: "added",
      binary: false,
      tooLarge: true,
      patch: expect.stringContaining("not copied"),
    });
    const copy = await context.workspace.materialize();
    expect(existsSync(join(copy, "small.txt"))).toBe(true);
    expect(existsSync(join(copy, "b-big.bin"))).toBe(false);
  });

  it("streams the hash of a large file instead of reading it whole", async () => {
    const workspace = await makeTempDir();
    const big = Buffer.alloc(3 * 1024 * 1024, 7);
    await writeFile(join(workspace, "big.bin"), big);
    const snapshot = await captureDirectory(workspace, await makeTempDir(), undefined, {
      maxFileBytes: 1024 * 1024,
      maxSnapshotBytes: 10 * 1024 * 1024,
    });
    expect(snapshot.files[0]).toMatchObject({ bytes: big.length, sha256: sha256(big) });
  });

  it("keeps what Linux allows: hard-linked files, backslashes and `..` inside names, a 2 GiB sparse file by size and hash", async () => {
    const workspace = await writeTree({
      "a.txt": "linked\n",
      "x\\..\\..\\y": "one\n",
      "back\\slash..\\..\\x": "two\n",
    });
    await link(join(workspace, "a.txt"), join(workspace, "b.txt"));
    await writeFile(join(workspace, "sparse.bin"), "");
    await truncate(join(workspace, "sparse.bin"), 2 * 1024 ** 3);
    await appendFile(join(workspace, "sparse.bin"), "tail");
    const evidence = await makeTempDir();
    const initial = await captureDirectory(await makeTempDir(), evidence);
    const final = await captureDirectory(workspace, evidence);
    const expected = createHash("sha256");
    const zeros = Buffer.alloc(1024 ** 2);
    for (let index = 0; index < 2048; index++) expected.update(zeros);
    expected.update("tail");
    expect(final.files.map((file) => [file.path, file.kind === "file" ? file.bytes : file.target])).toEqual([
      ["a.txt", 7],
      ["b.txt", 7],
      ["back\\slash..\\..\\x", 4],
      ["sparse.bin", 2 * 1024 ** 3 + 4],
      ["x\\..\\..\\y", 4],
    ]);
    expect(final.files[3]).toMatchObject({ sha256: expected.digest("hex"), omitted: { limit: "file" } });
    const ref = await writeEvidence(evidence, {
      kind: "constructed",
      prompt: "p",
      response: { text: "r" },
      tools: [],
      initial,
      final,
      events: null,
      native: null,
      metrics: measureConstructed([]),
    });
    await using context = await createJudgeContext(await openEvidence(ref.directory, ref.hash), null);
    expect(await context.workspace.text("x\\..\\..\\y")).toBe("one\n");
    expect(await context.workspace.text("b.txt")).toBe("linked\n");
    // Shown escaped (as git quotes such a name), stored as it is.
    const [patch] = await context.workspace.patches("back\\slash..\\..\\x");
    expect(patch).toMatchObject({
      path: "back\\slash..\\..\\x",
      patch: expect.stringContaining('+++ "b/back\\\\slash..\\\\..\\\\x"\n'),
    });
  });

  it("records a name that is not UTF-8 (decoded for display) instead of failing on it", async () => {
    const workspace = await makeTempDir();
    const badName = (name: string) =>
      Buffer.concat([Buffer.from(`${workspace}/bad`), Buffer.from([0xff]), Buffer.from(name)]);
    await writeFile(badName("name.txt"), "odd\n");
    await writeFile(badName("big.bin"), "x".repeat(2000));
    const final = await captureDirectory(workspace, await makeTempDir(), undefined, {
      maxFileBytes: 1000,
      maxSnapshotBytes: 10_000,
    });
    expect(final.files).toEqual([
      {
        kind: "file",
        path: "bad\ufffdbig.bin",
        bytes: 2000,
        sha256: sha256("x".repeat(2000)),
        mode: expect.any(Number),
        omitted: expect.objectContaining({ limit: "file" }),
      },
      { kind: "file", path: "bad\ufffdname.txt", bytes: 4, sha256: sha256("odd\n"), mode: expect.any(Number) },
    ]);
  });

  it("records files a copy-out left behind by size and sha256, with their note, in path order", async () => {
    const workspace = await writeTree({ "a.txt": "a\n", "c.txt": "c\n" });
    const note = "not copied: past the candidate container's 4294967296-byte copy-out limit";
    const snapshot = await captureDirectory(workspace, await makeTempDir(), undefined, undefined, [
      { path: "b\\..\\huge.bin", bytes: 5 * 1024 ** 3, sha256: "ab".repeat(32), mode: 0o644, note },
    ]);
    expect(snapshot.files.map((file) => file.path)).toEqual(["a.txt", "b\\..\\huge.bin", "c.txt"]);
    expect(snapshot.files[1]).toEqual({
      kind: "file",
      path: "b\\..\\huge.bin",
      bytes: 5 * 1024 ** 3,
      sha256: "ab".repeat(32),
      mode: 0o644,
      omitted: { limit: "snapshot", note },
    });
  });
});
