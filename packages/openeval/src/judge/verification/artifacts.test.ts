import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sha256 } from "../../util/hash.ts";
import { readVerificationArtifact } from "./artifacts.ts";
import { makeTempDirectory } from "./fixtures/engine.ts";

async function keptResult() {
  const directory = await makeTempDirectory("openeval-artifacts-");
  const data = new TextEncoder().encode("PNG-ish bytes");
  await mkdir(join(directory, "v_1", "artifacts", "out"), { recursive: true });
  await writeFile(join(directory, "v_1", "artifacts", "out", "shot.png"), data);
  const result = {
    id: "v_1",
    artifacts: [{ path: "out/shot.png", bytes: data.length, sha256: sha256(data) }],
    missingArtifacts: ["never.txt"],
    refusedArtifacts: [{ path: "big.bin", reason: "is 9000 bytes, over the 100-byte artifact limit", bytes: 9000 }],
  };
  return { directory, data, result };
}

describe("readVerificationArtifact", () => {
  it("returns a kept artifact after checking its sha256", async () => {
    const { directory, data, result } = await keptResult();
    expect(await readVerificationArtifact(result, "out/shot.png", directory)).toEqual(data);
  });

  it("refuses an artifact changed after the run", async () => {
    const { directory, result } = await keptResult();
    await writeFile(join(directory, "v_1", "artifacts", "out", "shot.png"), "tampered");
    await expect(readVerificationArtifact(result, "out/shot.png", directory)).rejects.toMatchObject({
      code: "OE_ARTIFACT_CORRUPT",
    });
  });

  it("says why an artifact is not there: refused, not created, or not requested; and never leaves the folder", async () => {
    const { directory, result } = await keptResult();
    await expect(readVerificationArtifact(result, "big.bin", directory)).rejects.toThrow(
      /refused: it is 9000 bytes, over the 100-byte artifact limit/,
    );
    await expect(readVerificationArtifact(result, "never.txt", directory)).rejects.toThrow(/did not create it/);
    await expect(readVerificationArtifact(result, "other.txt", directory)).rejects.toThrow(/not requested/);
    await expect(readVerificationArtifact(result, "../receipt.json", directory)).rejects.toThrow(
      /leaves the workspace/,
    );
  });
});
