import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { asClause, asSentence, describeState } from "./words.ts";

const PACKAGES = join(import.meta.dirname, "..", "..", "..");
/**
 * The rubric judge's evidence names run states as recorded: its words are part of what judges read, so changing
 * them would call for a new judge protocol version (util/versions.ts) and regrade every recording.
 */
const JUDGE_FACING = ["openeval/src/judge/rubric/render-evidence.ts"];

function sources(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return entry.name === "fixtures" || entry.name === "node_modules" ? [] : sources(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

describe("message words", () => {
  it("words every recorded state without underscores", () => {
    expect(describeState("timed_out")).toBe("timed out");
    expect(describeState("cost_limited")).toBe("cost limited");
    expect(describeState("failed")).toBe("failed");
  });

  it("ends a sentence once, whether or not the text brought its own period", () => {
    expect(asSentence("the whole process tree was killed.")).toBe("the whole process tree was killed.");
    expect(asSentence("the whole process tree was killed")).toBe("the whole process tree was killed.");
    expect(asSentence("what now? ")).toBe("what now?");
  });

  it("drops the final period of text that a message continues", () => {
    expect(`${asClause("the whole process tree was killed.")}; retry it`).toBe(
      "the whole process tree was killed; retry it",
    );
    expect(asClause("no period")).toBe("no period");
  });

  it("no message interpolates a raw state: each goes through describeState (or describeOutcome)", () => {
    const files = [...sources(join(PACKAGES, "openeval", "src")), ...sources(join(PACKAGES, "viewer", "src"))];
    expect(files.length).toBeGreaterThan(100);
    const raw = files
      .filter((file) => !JUDGE_FACING.includes(relative(PACKAGES, file)))
      .flatMap((file) =>
        [...readFileSync(file, "utf8").matchAll(/\$\{[\w.!?]*\.(?:state|judgeState)\}/g)].map(
          (match) => `${relative(PACKAGES, file)}: ${match[0]}`,
        ),
      );
    expect(raw).toEqual([]);
  });
});
