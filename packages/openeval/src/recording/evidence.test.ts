import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir, writeTree } from "../../../../test/helpers/fixtures.ts";
import { sha256 } from "../util/hash.ts";
import { openEvidence, openSealedEvidence } from "./evidence-reader.ts";
import { createJudgeContext } from "./judge-context.ts";
import { recordEvidence } from "./record-evidence.ts";
import { captureDirectory } from "./snapshot.ts";
import { writeEvidence } from "./evidence-writer.ts";
import { measureConstructed } from "./metrics.ts";
import { MAX_DIFF_BYTES } from "./workspace-diff.ts";

async function constructed() {
  return recordEvidence({
    directory: join(await makeTempDir(), "evidence"),
    prompt: "Fix it",
    response: "Done",
    workspace: { initial: { "src/a.ts": "const a = 1;\n" }, final: { "src/a.ts": "const a = 2;\n" } },
  });
}

describe("the evidence format", () => {
  it("identifies evidence by the sha256 of its manifest and stores blobs by content", async () => {
    const ref = await constructed();
    expect(ref.hash).toBe(sha256(await readFile(join(ref.directory, "manifest.json"))));
    const evidence = await openEvidence(ref.directory, ref.hash);
    const entry = evidence.files("final")[0]!;
    expect(entry).toMatchObject({ kind: "file", path: "src/a.ts", bytes: 13 });
    expect(entry.kind === "file" && existsSync(join(ref.directory, "objects", entry.sha256))).toBe(true);
  });

  it("detects a changed blob and a changed manifest", async () => {
    const ref = await constructed();
    const evidence = await openEvidence(ref.directory, ref.hash);
    const entry = evidence.files("final")[0]!;
    if (entry.kind !== "file") throw new Error("expected a file");
    await writeFile(join(ref.directory, "objects", entry.sha256), "tampered");
    await expect(evidence.text("src/a.ts")).rejects.toThrow(/does not match its recorded sha256/);
    await writeFile(
      join(ref.directory, "manifest.json"),
      (await readFile(join(ref.directory, "manifest.json"), "utf8")).replace("Done", "Fine"),
    );
    await expect(openEvidence(ref.directory, ref.hash)).rejects.toThrow(
      /the recording was changed after it was written/,
    );
  });

  it("opens sealed evidence by its recorded hash alone, and refuses a missing, altered or newer manifest", async () => {
    const ref = await constructed();
    const evidence = await openSealedEvidence(ref.directory, ref.hash);
    expect(await evidence.text("src/a.ts")).toBe("const a = 2;\n");
    await expect(openSealedEvidence(join(ref.directory, "nowhere"), ref.hash)).rejects.toThrow(
      /No evidence manifest at .*nowhere\/manifest\.json/,
    );
    await expect(openSealedEvidence(ref.directory, "0".repeat(64))).rejects.toThrow(
      /hashes to [0-9a-f]{64}, not the recorded 0{64}/,
    );
    const manifest = JSON.parse(await readFile(join(ref.directory, "manifest.json"), "utf8")) as Record<
      string,
      unknown
    >;
    const newer = JSON.stringify({ ...manifest, version: 2 });
    await writeFile(join(ref.directory, "manifest.json"), newer);
    await expect(openSealedEvidence(ref.directory, sha256(newer))).rejects.toThrow(
      /has format version 2; this openeval reads version 1/,
    );
  });

  it("validates a manifest opened without its recorded hash, and says what is wrong with it", async () => {
    const ref = await constructed();
    const manifest = JSON.parse(await readFile(join(ref.directory, "manifest.json"), "utf8")) as Record<
      string,
      unknown
    >;
    await writeFile(join(ref.directory, "manifest.json"), JSON.stringify({ ...manifest, prompt: 42 }));
    await expect(openEvidence(ref.directory)).rejects.toThrow(/manifest\.json is malformed: [\s\S]*prompt/);
    await expect(openEvidence(ref.directory, ref.hash)).rejects.toThrow(
      /the recording was changed after it was written/,
    );
  });

  it("refuses paths that escape: .., absolute, and symlinks pointing outside the snapshot", async () => {
    const workspace = await writeTree({
      "a.txt": "a\n",
      "inner/link": { symlink: "../a.txt" },
      outside: { symlink: "/etc/hostname" },
      up: { symlink: "../../x" },
    });
    const directory = join(await makeTempDir(), "evidence");
    const snapshot = await captureDirectory(workspace, directory);
    const ref = await writeEvidence(directory, {
      kind: "constructed",
      prompt: "p",
      response: { text: "" },
      tools: [],
      initial: null,
      final: snapshot,
      events: null,
      native: null,
      metrics: measureConstructed([]),
    });
    const evidence = await openEvidence(ref.directory, ref.hash);
    expect(await evidence.text("inner/link")).toBe("a\n");
    await expect(evidence.read("../manifest.json")).rejects.toThrow(/leaves the workspace/);
    await expect(evidence.read("/etc/passwd")).rejects.toThrow(/it is absolute/);
    await expect(evidence.read("inner/../../x")).rejects.toThrow(/leaves the workspace/);
    await expect(evidence.read("outside")).rejects.toThrow(/outside the snapshot/);
    await expect(evidence.read("up")).rejects.toThrow(/leaves the workspace/);
    await expect(evidence.read("missing.txt")).rejects.toThrow(/not in the final workspace snapshot/);
  });

  it("rejects constructed workspace paths that escape", async () => {
    await expect(
      recordEvidence({
        directory: await makeTempDir(),
        prompt: "p",
        response: "r",
        workspace: { final: { "../evil.txt": "x" } },
      }),
    ).rejects.toThrow(/leaves the workspace/);
    await expect(recordEvidence({ directory: await makeTempDir(), prompt: "p" } as never)).rejects.toThrow(
      /recordEvidence: response/,
    );
  });
});

describe("JudgeContext over constructed evidence", () => {
  it("diffs, materializes a disposable copy, and says clearly what constructed evidence lacks", async () => {
    const ref = await constructed();
    let materialized = "";
    {
      await using context = await createJudgeContext(await openEvidence(ref.directory, ref.hash), null);
      const [diff] = await context.workspace.patches();
      expect(diff).toMatchObject({ path: "src/a.ts", status: "modified", additions: 1, deletions: 1 });
      expect(diff!.patch).toContain("-const a = 1;\n+const a = 2;");
      materialized = await context.workspace.materialize("initial");
      expect(await readFile(join(materialized, "src/a.ts"), "utf8")).toBe("const a = 1;\n");
      expect(context.recording.events()).toEqual([]);
      await expect(context.native.database()).rejects.toThrow(/no native OpenCode archive/);
      expect(context.metrics.cost.usd).toBeNull();
    }
    expect(existsSync(materialized)).toBe(false);
  });
});

describe("workspace diffs that scale", () => {
  it("adds a 20,000-line file on the fast path, and summarizes binary and too-large files with sizes and hashes", async () => {
    const lockfile = Array.from({ length: 20_000 }, (_, index) => `dependency-${index}@1.0.${index}`).join("\n") + "\n";
    const huge = "x".repeat(MAX_DIFF_BYTES + 1);
    const ref = await recordEvidence({
      directory: join(await makeTempDir(), "evidence"),
      prompt: "p",
      response: "r",
      workspace: {
        initial: { "blob.bin": "a\0b", "big.txt": "small\n" },
        final: { "blob.bin": "a\0c", "big.txt": huge, "lock.txt": lockfile },
      },
    });
    await using context = await createJudgeContext(await openEvidence(ref.directory, ref.hash), null);
    const diffs = await context.workspace.patches();
    expect(diffs.find((diff) => diff.path === "lock.txt")).toMatchObject({
      status: "added",
      additions: 20_000,
      deletions: 0,
      binary: false,
      tooLarge: false,
    });
    const big = diffs.find((diff) => diff.path === "big.txt")!;
    expect(big).toMatchObject({ status: "modified", tooLarge: true, additions: 0 });
    expect(big.patch).toBe(
      `Files too large to diff (over ${MAX_DIFF_BYTES} bytes): a/big.txt and b/big.txt differ (before: 6 bytes, sha256 ${sha256(Buffer.from("small\n"))}; after: ${huge.length} bytes, sha256 ${sha256(Buffer.from(huge))})\n`,
    );
    const blob = diffs.find((diff) => diff.path === "blob.bin")!;
    expect(blob).toMatchObject({ binary: true, tooLarge: false });
    expect(blob.patch).toMatch(
      /^Binary files a\/blob.bin and b\/blob.bin differ \(before: 3 bytes, sha256 [0-9a-f]{64}; after: 3 bytes, sha256 [0-9a-f]{64}\)\n$/,
    );
  });
});
