import { DEFAULT_SNAPSHOT_LIMITS } from "../util/evidence-limits.ts";
import { Database } from "bun:sqlite";
import { statSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir, writeTree } from "../../../../test/helpers/fixtures.ts";
import { captureDirectory, openEvidence } from "../recording/index.ts";
import {
  assistantMessage,
  part,
  stepFinish,
  userMessage,
  writeNativeDatabase,
} from "../recording/fixtures/native-database.ts";
import { checkpointOf } from "./checkpoint.ts";

const SECRET = "sk-checkpoint-secret-2f9a61";

describe("checkpointOf", () => {
  it("records a running candidate as a verified checkpoint: live database, current workspace, initial snapshot, all redacted", async () => {
    const scratch = await makeTempDir();
    const workspace = await writeTree({ "README.md": "# start\n" }, join(scratch, "workspace"));
    const evidenceDirectory = join(scratch, "evidence");
    const initial = await captureDirectory(workspace, evidenceDirectory);
    await writeFile(join(workspace, "notes.txt"), `token ${SECRET}\n`);

    // The live database, in WAL mode with a writer still holding it open, as OpenCode does while it runs.
    const databasePath = join(scratch, "opencode.db");
    const answer = assistantMessage({ id: "msg_a1", sessionID: "ses_root", created: 2_000, completed: 3_000 });
    writeNativeDatabase(databasePath, {
      sessions: [{ id: "ses_root", created: 1_000 }],
      messages: [userMessage("msg_u1", "ses_root", 1_500), answer],
      parts: [
        part("prt_text", answer, 2_500, { type: "text", text: `Working; my key is ${SECRET}` }),
        stepFinish("prt_finish", answer, 2_900),
      ],
    });
    const writer = new Database(databasePath);
    writer.run("PRAGMA journal_mode = WAL");

    const target = join(scratch, "checks", "1", "evidence");
    const take = checkpointOf({
      workspace,
      databasePath,
      prompt: "Keep notes.",
      initial,
      evidenceDirectory,
      secrets: [SECRET],
      limits: DEFAULT_SNAPSHOT_LIMITS,
      startedAt: Date.now() - 5_000,
    });
    const ref = await take(target);
    writer.close();

    const evidence = await openEvidence(target, ref.hash);
    expect(evidence.manifest).toMatchObject({
      kind: "checkpoint",
      prompt: "Keep notes.",
      native: { rootSessionID: "ses_root", sessions: [] },
    });
    expect(evidence.manifest.response.text).toBe("Working; my key is [REDACTED]");
    expect(await evidence.text("README.md", "initial")).toBe("# start\n");
    expect(await evidence.text("notes.txt")).toBe("token [REDACTED]\n");
    expect(evidence.manifest.metrics.timing.elapsedMs).toBeGreaterThanOrEqual(5_000);
    // The unchanged README's object is shared with the eval run's evidence, not stored twice.
    const readme = initial.files.find((file) => file.path === "README.md")!;
    if (readme.kind !== "file") throw new Error("README.md is a file");
    expect(statSync(join(target, "objects", readme.sha256)).ino).toBe(
      statSync(join(evidenceDirectory, "objects", readme.sha256)).ino,
    );
  });
});
