import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { makeTempDir } from "../../../../test/helpers/fixtures.ts";
import { sha256 } from "../util/hash.ts";
import { readRedactionList, recordRedactions, REDACTION_LIST_FILE, toRedactionEntries } from "./redaction-list.ts";

describe("the run's redaction list", () => {
  test("holds hashes and sources, never the values, and only grows", async () => {
    const directory = await makeTempDir();
    await recordRedactions(
      directory,
      toRedactionEntries([{ value: "svc-token-0123456789", source: "env MY_SERVICE_TOKEN" }]),
    );
    await recordRedactions(
      directory,
      toRedactionEntries([
        { value: "other-secret-0123456789", source: "auth.json x.key" },
        { value: "svc-token-0123456789", source: "env MY_SERVICE_TOKEN" },
      ]),
    );
    expect(readRedactionList(directory)).toEqual([
      { sha256: sha256("svc-token-0123456789"), bytes: 20, source: "env MY_SERVICE_TOKEN" },
      { sha256: sha256("other-secret-0123456789"), bytes: 23, source: "auth.json x.key" },
    ]);
    const text = readFileSync(join(directory, REDACTION_LIST_FILE), "utf8");
    expect(text).not.toContain("svc-token-0123456789");
    expect(text).not.toContain("other-secret-0123456789");
  });
});
