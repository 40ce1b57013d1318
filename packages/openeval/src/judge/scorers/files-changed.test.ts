import { describe, expect, it } from "vitest";
import { workspaceContext } from "./fixtures/context.ts";
import { filesChanged } from "./files-changed.ts";

const INITIAL = { "src/rates.js": "r\n", "src/cart.js": "c\n", "test/cart.test.js": "t\n", "README.md": "# x\n" };
// rates.js modified, README.md deleted, src/new.js added; cart.js and the test untouched.
const FINAL = { "src/rates.js": "r2\n", "src/cart.js": "c\n", "test/cart.test.js": "t\n", "src/new.js": "n\n" };

describe("filesChanged", () => {
  it("passes when something changed and no option restricts it, listing added, modified and deleted paths", async () => {
    await using ctx = await workspaceContext(INITIAL, FINAL);
    expect(await filesChanged(ctx)).toEqual({
      value: true,
      reason: "changed README.md, src/new.js, src/rates.js",
      measurements: { changed: ["README.md", "src/new.js", "src/rates.js"], missing: [], forbidden: [], outside: [] },
    });
  });

  it("checks only, include and exclude with exact paths and globs", async () => {
    await using ctx = await workspaceContext(INITIAL, FINAL);
    expect((await filesChanged(ctx, { only: ["src/**", "README.md"] })).value).toBe(true);
    expect((await filesChanged(ctx, { include: ["src/rates.js", "*.md"], exclude: ["test/**"] })).value).toBe(true);
    expect(await filesChanged(ctx, { only: ["src/*.js"] })).toMatchObject({
      value: false,
      reason: "changed outside src/*.js: README.md",
      measurements: { outside: ["README.md"] },
    });
    expect(await filesChanged(ctx, { include: ["src/cart.js"] })).toMatchObject({
      value: false,
      reason: "not changed: src/cart.js",
      measurements: { missing: ["src/cart.js"] },
    });
    expect(await filesChanged(ctx, { exclude: ["**/new.js"] })).toMatchObject({
      value: false,
      reason: "changed though excluded: src/new.js",
    });
  });

  it("fails when nothing changed, even if every listed condition holds vacuously", async () => {
    await using ctx = await workspaceContext(INITIAL, INITIAL);
    expect(await filesChanged(ctx, { exclude: ["test/**"] })).toMatchObject({
      value: false,
      reason: "no file changed",
    });
  });
});
