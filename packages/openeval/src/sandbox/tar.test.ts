import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { packTar, unpackTar } from "./tar.ts";
import { makeTempDir as makeTempDirectory } from "../../../../test/helpers/fixtures.ts";

const text = (value: string) => new TextEncoder().encode(value);
const longName = `${"deep/".repeat(30)}file-with-a-long-name.txt`;

describe("tar", () => {
  it("reads back what it wrote: files, folders, symlinks, long and non-ASCII names, modes", () => {
    const archive = packTar([
      { type: "directory", path: "src", uid: 10001, gid: 10001 },
      { type: "file", path: "src/main.py", data: text("print(1)\n"), mode: 0o755 },
      { type: "file", path: longName, data: text("x".repeat(1000)) },
      { type: "file", path: "naïve-ünïcode.txt", data: text("ü") },
      { type: "symlink", path: "link", target: "src/main.py" },
    ]);
    expect(archive.length % 512).toBe(0);
    const entries = unpackTar(archive);
    expect(entries.map((entry) => [entry.type, entry.path])).toEqual([
      ["directory", "src/"],
      ["file", "src/main.py"],
      ["file", longName],
      ["file", "naïve-ünïcode.txt"],
      ["symlink", "link"],
    ]);
    expect(entries[1]!.mode).toBe(0o755);
    expect(new TextDecoder().decode(entries[2]!.data)).toBe("x".repeat(1000));
    expect(entries[4]!.target).toBe("src/main.py");
  });

  it("writes archives GNU tar reads, with the owners given", async () => {
    const directory = await makeTempDirectory("openeval-tar-");
    writeFileSync(
      join(directory, "a.tar"),
      packTar([{ type: "file", path: longName, data: text("hello"), uid: 10001, gid: 10002 }]),
    );
    const listing = execFileSync("tar", ["--numeric-owner", "-tvf", join(directory, "a.tar")], { encoding: "utf8" });
    expect(listing).toContain("10001/10002");
    expect(listing).toContain(longName);
    execFileSync("tar", ["-xf", "a.tar"], { cwd: directory });
    expect(readFileSync(join(directory, longName), "utf8")).toBe("hello");
  });

  it.each(["gnu", "pax", "ustar"])("reads archives GNU tar writes (%s format)", async (format) => {
    const directory = await makeTempDirectory("openeval-tar-");
    const name = format === "ustar" ? `${"d/".repeat(40)}f.txt` : longName;
    mkdirSync(join(directory, "tree", name, ".."), { recursive: true });
    writeFileSync(join(directory, "tree", name), "content");
    symlinkSync("f.txt", join(directory, "tree", name, "..", "link"));
    const archive = execFileSync("tar", [`--format=${format}`, "-C", join(directory, "tree"), "-cf", "-", "."]);
    const entries = unpackTar(new Uint8Array(archive));
    const file = entries.find((entry) => entry.path === `./${name}`);
    expect(file?.type).toBe("file");
    expect(new TextDecoder().decode(file!.data)).toBe("content");
    expect(entries.find((entry) => entry.path.endsWith("/link"))).toMatchObject({ type: "symlink", target: "f.txt" });
  });

  it("refuses a damaged header", () => {
    const archive = packTar([{ type: "file", path: "a.txt", data: text("a") }]);
    archive[10] = 0x41;
    expect(() => unpackTar(archive)).toThrow(/bad header checksum/);
  });
});
