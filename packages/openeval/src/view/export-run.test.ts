import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { recordRedactions, toRedactionEntries } from "../records/index.ts";
import { makeTempDir } from "../../../../test/helpers/fixtures.ts";
import type { EvalRunDetail } from "./api-types.ts";
import { exportRun, type ExportResult } from "./export-run.ts";
import { createScrubber, hostPaths, REDACTED } from "./scrub.ts";
import { STATIC_CALLBACK, staticDataFile, staticKeys } from "./static-files.ts";
import { writeViewerFixture, type ViewerFixture } from "./fixtures/viewer-run.ts";

// Planted credentials: one only the run's redaction list knows (by hash: the exporting shell does not have it), one
// recognizable by its shape.
const ENV_SECRET = "planted-env-credential-7f3a9c21";
const SHAPED_SECRET = "sk-ant-api03-PLANTEDplanted0123456789";

let fixture: ViewerFixture;
let result: ExportResult;

beforeAll(async () => {
  fixture = await writeViewerFixture(await makeTempDir(), {
    evals: 2,
    models: ["provider/alpha", "control/negative"],
    repetitions: 1,
    secret: `${ENV_SECRET} ${SHAPED_SECRET}`,
    decidedEarly: true,
  });
  await recordRedactions(
    fixture.runDirectory,
    toRedactionEntries([{ value: ENV_SECRET, source: "env SOME_PROVIDER_API_KEY" }]),
  );
  expect(JSON.stringify(process.env)).not.toContain(ENV_SECRET);
  result = await exportRun({ run: fixture.runDirectory, output: join(await makeTempDir(), "export") });
});

function allFiles(directory: string): string[] {
  return readdirSync(directory, { recursive: true, encoding: "utf8" })
    .map((name) => join(directory, name))
    .filter((path) => statSync(path).isFile());
}

function readData(key: string, directory = result.directory): unknown {
  const text = readFileSync(join(directory, staticDataFile(key)), "utf8");
  const prefix = `${STATIC_CALLBACK}(${JSON.stringify(key)},`;
  expect(text.startsWith(prefix)).toBe(true);
  return JSON.parse(text.slice(prefix.length, text.lastIndexOf(");")));
}

describe("openeval export", () => {
  it("writes the app and every answer the viewer asks for, loadable without a server", () => {
    for (const file of ["index.html", "app.js", "app.css", "openeval-export.json"])
      expect(existsSync(join(result.directory, file)), file).toBe(true);
    expect(readFileSync(join(result.directory, "index.html"), "utf8")).toContain('"mode":"static"');
    expect(readData(staticKeys.overview(fixture.runId))).toMatchObject({
      leaderboard: [
        { model: "provider/alpha", score: { value: 100 } },
        { model: "control/negative", score: { value: 50 } },
      ],
    });
    const evalRun = fixture.evalRuns[0]!;
    expect(readData(staticKeys.evalRun(fixture.runId, evalRun.id))).toMatchObject({
      tools: [{ name: "bash" }, { name: "edit" }, { name: "bash" }],
    });
    expect(Object.values(readData(staticKeys.transcripts(fixture.runId, evalRun.id)) as object)).toHaveLength(1);
    const judge = readData(staticKeys.judgeRun(fixture.runId, fixture.judgeRuns[0]!.id)) as {
      verifications: { artifacts: { path: string }[] }[];
    };
    const image = judge.verifications[0]!.artifacts[0]!.path;
    expect(existsSync(join(result.directory, "raw", fixture.runId, fixture.judgeRuns[0]!.id, image))).toBe(true);
  });

  it("leaves workspace file contents out unless --allow-artifact names them, and says what it left out", async () => {
    const evalRun = fixture.evalRuns[0]!;
    const fileKey = staticKeys.workspaceFile(fixture.runId, evalRun.id, "final", "slugify.js");
    expect(existsSync(join(result.directory, staticDataFile(fileKey)))).toBe(false);
    const detail = readData(staticKeys.evalRun(fixture.runId, evalRun.id)) as {
      diff: { path: string; patch: string }[];
    };
    expect(detail.diff.find((file) => file.path === "slugify.js")!.patch).toBe(
      "(the contents of slugify.js are left out: workspace file contents are left out of exports; `openeval export --allow-artifact <path>` includes a file (or a folder))\n",
    );
    expect(result.leftOut[evalRun.id]).toContain("slugify.js");
    const marker = JSON.parse(readFileSync(join(result.directory, "openeval-export.json"), "utf8"));
    expect(marker).toMatchObject({
      allowedArtifacts: [],
      leftOut: { workspaceFiles: { [evalRun.id]: expect.arrayContaining(["slugify.js"]) } },
    });

    const allowed = await exportRun({
      run: fixture.runDirectory,
      output: join(await makeTempDir(), "allowed"),
      allowArtifacts: ["slugify.js"],
    });
    const text = readFileSync(join(allowed.directory, staticDataFile(fileKey)), "utf8");
    expect(text).toContain("/g");
    expect(
      readFileSync(join(allowed.directory, staticDataFile(staticKeys.evalRun(fixture.runId, evalRun.id))), "utf8"),
    ).toContain("+export const slugify = (s) => s.replace(/[^a-z0-9]+/g");
    expect(allowed.leftOut[evalRun.id] ?? []).not.toContain("slugify.js");
    await expect(
      exportRun({
        run: fixture.runDirectory,
        output: join(await makeTempDir(), "bad"),
        allowArtifacts: ["../etc/passwd"],
      }),
    ).rejects.toThrow('--allow-artifact "../etc/passwd" is not a workspace path');
  });

  it("tells the Files tab, per file it does not hold, why: the reason its Diff tab gives", async () => {
    const evalRun = fixture.evalRuns[0]!;
    const detail = readData(staticKeys.evalRun(fixture.runId, evalRun.id)) as EvalRunDetail;
    const note =
      "workspace file contents are left out of exports; `openeval export --allow-artifact <path>` includes a file (or a folder)";
    expect(detail.leftOut).toEqual({ ".env": note, "README.md": note, "slugify.js": note });
    // Each file it does hold has its data file; each it names has none.
    const allowed = await exportRun({
      run: fixture.runDirectory,
      output: join(await makeTempDir(), "allowed"),
      allowArtifacts: ["slugify.js", "README.md"],
    });
    const allowedDetail = readData(staticKeys.evalRun(fixture.runId, evalRun.id), allowed.directory) as EvalRunDetail;
    expect(allowedDetail.leftOut).toEqual({ ".env": note });
    for (const file of allowedDetail.files) {
      const held = existsSync(
        join(
          allowed.directory,
          staticDataFile(staticKeys.workspaceFile(fixture.runId, evalRun.id, "final", file.path)),
        ),
      );
      expect(held, file.path).toBe(allowedDetail.leftOut![file.path] === undefined);
    }
  });

  it("keeps an early decided judgment's rubric archive, not the snapshot beside it", () => {
    const judgeRun = fixture.judgeRuns.at(-1)!;
    expect(judgeRun.decidedEarly).toBeDefined();
    const detail = readData(staticKeys.judgeRun(fixture.runId, judgeRun.id)) as { files: { path: string }[] };
    expect(detail.files.map((file) => file.path)).toEqual(["rubric/job.json", "rubric/submission.json"]);
    expect(readData(staticKeys.judgeRunText(fixture.runId, judgeRun.id, "rubric/submission.json"))).toMatchObject({
      text: expect.stringContaining("focused_fix"),
    });
    expect(
      existsSync(
        join(
          result.directory,
          staticDataFile(staticKeys.judgeRunText(fixture.runId, judgeRun.id, "evidence/manifest.json")),
        ),
      ),
    ).toBe(false);
  });

  it("scrubs planted credentials and host paths from every file", () => {
    const forbidden = [
      ENV_SECRET,
      SHAPED_SECRET,
      fixture.benchmarkDirectory,
      fixture.runDirectory,
      tmpdir(),
      homedir(),
    ].filter((value) => value.length > 1);
    for (const file of allFiles(result.directory).filter((path) => !path.endsWith(".png"))) {
      const text = readFileSync(file, "utf8");
      for (const value of forbidden) expect(text.includes(value), `${value} in ${file}`).toBe(false);
    }
    // Scrubbed, not dropped: the places where they were say so.
    const detail = JSON.stringify(readData(staticKeys.evalRun(fixture.runId, fixture.evalRuns[0]!.id)));
    expect(detail).toContain(REDACTED);
    expect(detail).toContain("<benchmark>/workspace");
  });

  it("refuses to write into a folder that is not an earlier export, and replaces an earlier export", async () => {
    const occupied = await makeTempDir();
    await writeFile(join(occupied, "notes.txt"), "mine");
    await expect(exportRun({ run: fixture.runDirectory, output: occupied })).rejects.toThrow(/not empty/);
    const again = await exportRun({ run: fixture.runDirectory, output: result.directory });
    expect(again.runId).toBe(fixture.runId);
  });
});

describe("the scrubber", () => {
  it("removes credential shapes and home folders, keeps ordinary text", async () => {
    const scrubber = createScrubber({
      paths: hostPaths("/srv/results/run-1", "/srv/bench"),
      secrets: ["exact-secret-value"],
    });
    const text = [
      "token ghp_0123456789abcdefghijABCDEFGHIJ0123 and AKIAABCDEFGHIJKLMNOP",
      '{"apiKey":"abcdefgh12345678","tokens":{"input":3}}',
      "Authorization: Bearer abc.def-ghi_jkl.mnopqrstu",
      "-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----",
      "/home/alice/project and /Users/bob/x and C:\\Users\\carol\\y",
      "exact-secret-value at /srv/results/run-1/eval-runs and /srv/bench/evals, not /srv/benchmarks",
    ].join("\n");
    const scrubbed = scrubber.text(text);
    for (const leaked of [
      "ghp_0123",
      "AKIAABCD",
      "abcdefgh12345678",
      "abc.def-ghi",
      "MIIE",
      "alice",
      "bob",
      "carol",
      "exact-secret-value",
      "/srv/results",
      "/srv/bench/",
    ]) {
      expect(scrubbed, leaked).not.toContain(leaked);
    }
    expect(scrubbed).toContain('"tokens":{"input":3}');
    expect(scrubbed).toContain("<run>/eval-runs");
    expect(scrubbed).toContain("<benchmark>/evals");
    expect(scrubbed).toContain("/srv/benchmarks");
    await mkdir(join(await makeTempDir(), "unused"), { recursive: true });
  });
});

describe("the scrubber's redaction list", () => {
  it("finds a secret known only by its hash wherever it stands as a token, and nothing else", () => {
    const secret = "Zq8-planted.value_0042";
    const scrubber = createScrubber({
      paths: [],
      secrets: [],
      redactions: toRedactionEntries([{ value: secret, source: "auth.json x.key" }]),
    });
    const scrubbed = scrubber.text(
      `cat: {"x":{"type":"api","key":"${secret}"}}\nX_KEY=${secret}\nBearer:${secret} (${secret}), ${secret}-suffix`,
    );
    expect(scrubbed).not.toMatch(new RegExp(`${secret}(?!-suffix)`));
    expect(scrubbed.match(/\[REDACTED\]/g)).toHaveLength(4);
    expect(scrubbed).toContain('"type":"api"');
  });
});
