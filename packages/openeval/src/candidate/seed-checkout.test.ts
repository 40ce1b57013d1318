import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir, writeTree } from "../../../../test/helpers/fixtures.ts";
import { createGitWorkspace } from "../opencode/index.ts";
import { git } from "../util/git.ts";
import { checkoutPaths, seedCheckout } from "./seed-checkout.ts";

/** A source repository with two commits; returns it and both commit ids. */
async function sourceRepository() {
  const source = await writeTree({ "app.js": "export const version = 1;\n" });
  await git(source, ["init", "--quiet", "--initial-branch=trunk"]);
  await git(source, ["add", "--all"]);
  await git(source, ["commit", "--quiet", "-m", "first"]);
  const first = await git(source, ["rev-parse", "HEAD"]);
  await writeTree({ "app.js": "export const version = 2;\n", "secret-later.txt": "later\n" }, source);
  await git(source, ["add", "--all"]);
  await git(source, ["commit", "--quiet", "-m", "second"]);
  return { source, first, second: await git(source, ["rev-parse", "HEAD"]) };
}

describe("seedCheckout", () => {
  it("checks out only the pinned commit of a local repository beside a bare remote, naming no host path, with the overlay on top", async () => {
    const { source, first } = await sourceRepository();
    const evalDirectory = await writeTree({ "overlay/NOTES.md": "Fix the version.\n" });
    const workspace = join(await makeTempDir(), "workspace");
    const layout = { ref: "main", checkout: "checkout", remote: "upstream", overlay: "overlay" };
    await createGitWorkspace(workspace, null, { exclude: checkoutPaths(layout) });
    await seedCheckout(workspace, { ...layout, repository: `file://${source}`, commit: first }, evalDirectory);

    const checkout = join(workspace, "checkout");
    expect(await readFile(join(checkout, "app.js"), "utf8")).toBe("export const version = 1;\n");
    expect(existsSync(join(checkout, "secret-later.txt"))).toBe(false);
    expect(await readFile(join(checkout, "NOTES.md"), "utf8")).toBe("Fix the version.\n");
    expect(await git(checkout, ["log", "--all", "--format=%H"])).toBe(first);
    expect(await git(join(workspace, "upstream.git"), ["log", "--all", "--format=%H"])).toBe(first);
    expect(await git(checkout, ["rev-parse", "--abbrev-ref", "HEAD"])).toBe("main");
    expect(await git(checkout, ["remote", "-v"])).toBe(
      "upstream\t../upstream.git (fetch)\nupstream\t../upstream.git (push)",
    );
    for (const file of ["checkout/.git/config", "upstream.git/config"])
      expect(await readFile(join(workspace, file), "utf8")).not.toContain(source);
    expect(existsSync(join(checkout, ".git", "logs"))).toBe(false);
    // The session's own repository leaves the checkout out: its status is clean.
    expect(await git(workspace, ["status", "--porcelain"])).toBe("");
  });

  it("builds a history from revisions, one commit per revision, and checks out the named ref", async () => {
    const evalDirectory = await writeTree({ "v1/app.js": "one\n", "v2/app.js": "two\n", "v2/extra.txt": "x\n" });
    const workspace = join(await makeTempDir(), "workspace");
    const source = {
      ref: "feature",
      checkout: "repo",
      remote: "origin",
      revisions: [
        { ref: "main", directory: "v1", message: "Initial version" },
        { ref: "feature", directory: "v2", message: "Add extra" },
      ],
    };
    await createGitWorkspace(workspace, null, { exclude: checkoutPaths(source) });
    await seedCheckout(workspace, source, evalDirectory);
    const checkout = join(workspace, "repo");
    expect(await git(checkout, ["log", "--format=%s|%an <%ae>"])).toBe(
      "Add extra|Developer <developer@example.invalid>\nInitial version|Developer <developer@example.invalid>",
    );
    expect(await readFile(join(checkout, "app.js"), "utf8")).toBe("two\n");
    expect(await git(join(workspace, "origin.git"), ["branch", "--format=%(refname:short)"])).toBe("feature\nmain");
  });

  it("says which commit could not be fetched", async () => {
    const { source } = await sourceRepository();
    const workspace = join(await makeTempDir(), "workspace");
    await createGitWorkspace(workspace);
    const missing = "0".repeat(40);
    await expect(
      seedCheckout(
        workspace,
        { ref: "main", checkout: "checkout", remote: "upstream", repository: `file://${source}`, commit: missing },
        source,
      ),
    ).rejects.toThrow(`commit ${missing} could not be fetched from the eval's workspace repository`);
  });
});
