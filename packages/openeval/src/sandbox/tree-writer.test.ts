import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, linkSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../../../test/helpers/fixtures.ts";
import { packTar } from "./tar.ts";
import { writeArchive } from "./tree-writer.ts";

const text = (value: string) => new TextEncoder().encode(value);

async function* chunked(archive: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let offset = 0; offset < archive.length; offset += size) yield archive.subarray(offset, offset + size);
}

describe("writeArchive", () => {
  it.each(["gnu", "pax"])(
    "writes what GNU tar archived (%s): hard links as links, names kept as they are",
    async (format) => {
      const directory = await makeTempDir("openeval-tree-writer-");
      const source = join(directory, "src", "ws");
      const longName = "n".repeat(200);
      mkdirSync(join(source, "sub"), { recursive: true });
      writeFileSync(join(source, "a.txt"), "linked");
      linkSync(join(source, "a.txt"), join(source, "sub", "b.txt"));
      writeFileSync(join(source, "x\\..\\..\\y"), "one");
      writeFileSync(join(source, "back\\slash..\\..\\x"), "two");
      writeFileSync(join(source, longName), "long");
      const archive = execFileSync("tar", [`--format=${format}`, "-C", join(directory, "src"), "-cf", "-", "ws"]);
      const target = join(directory, "out");
      expect(await writeArchive(chunked(new Uint8Array(archive), 333), target, 1024, true)).toEqual({
        kind: "copied",
        type: "directory",
        target: "",
        skipped: [],
        omitted: [],
      });
      expect(readdirSync(target).sort()).toEqual(
        ["a.txt", "back\\slash..\\..\\x", longName, "sub", "x\\..\\..\\y"].sort(),
      );
      expect(statSync(join(target, "sub", "b.txt")).ino).toBe(statSync(join(target, "a.txt")).ino);
      expect(readFileSync(join(target, "x\\..\\..\\y"), "utf8")).toBe("one");
      expect(readFileSync(join(target, "back\\slash..\\..\\x"), "utf8")).toBe("two");
    },
  );

  it("keeps zero runs as holes and the file's full length", async () => {
    const directory = await makeTempDir("openeval-tree-writer-");
    const data = new Uint8Array(8 * 1024 * 1024);
    data.set(text("head"), 0);
    data.set(text("tail"), data.length - 4);
    await writeArchive(
      chunked(packTar([{ type: "file", path: "sparse.bin", data }]), 65_536),
      join(directory, "sparse.bin"),
      data.length,
      false,
    );
    const written = statSync(join(directory, "sparse.bin"));
    expect(written.size).toBe(data.length);
    expect(written.blocks * 512).toBeLessThan(1024 * 1024);
    expect(Buffer.from(readFileSync(join(directory, "sparse.bin"))).equals(Buffer.from(data))).toBe(true);
  });

  it("says what it skipped: a hard link to a file the archive did not bring", async () => {
    const directory = await makeTempDir("openeval-tree-writer-");
    mkdirSync(join(directory, "ws", "inside"), { recursive: true });
    writeFileSync(join(directory, "ws", "outside.txt"), "x");
    linkSync(join(directory, "ws", "outside.txt"), join(directory, "ws", "inside", "link.txt"));
    // ws/outside.txt comes second with its data (one header block, one data block); cut out, link.txt links to nothing.
    const whole = execFileSync("tar", [
      "--format=gnu",
      "-C",
      directory,
      "-cf",
      "-",
      "--no-recursion",
      "ws",
      "ws/outside.txt",
      "--recursion",
      "ws/inside",
    ]);
    const archive = Buffer.concat([whole.subarray(0, 512), whole.subarray(1536)]);
    const result = await writeArchive(chunked(new Uint8Array(archive), 4096), join(directory, "out"), 1024, true);
    expect(result).toMatchObject({
      kind: "copied",
      skipped: ["inside/link.txt: a hard link to outside.txt, which was not copied"],
    });
  });

  it("refuses `..` as a name, and a path below a symlink the archive made, naming the path", async () => {
    const directory = await makeTempDir("openeval-tree-writer-");
    const dotdot = packTar([
      { type: "directory", path: "ws" },
      { type: "file", path: "ws/../escaped.txt", data: text("x") },
    ]);
    await expect(writeArchive(chunked(dotdot, 512), join(directory, "a"), 1024, true)).rejects.toThrow(
      "The engine's archive names an unsafe path ../escaped.txt; copy-out refused it",
    );
    const throughLink = packTar([
      { type: "directory", path: "ws" },
      { type: "symlink", path: "ws/link", target: directory },
      { type: "file", path: "ws/link/planted.txt", data: text("x") },
    ]);
    await expect(writeArchive(chunked(throughLink, 512), join(directory, "b"), 1024, true)).rejects.toThrow(
      "The engine's archive names link/planted.txt below a symlink; copy-out refused it",
    );
    expect(existsSync(join(directory, "planted.txt"))).toBe(false);
  });

  it("lists a file past the cap by size and sha256 instead of writing it, and refuses a single file past it", async () => {
    const directory = await makeTempDir("openeval-tree-writer-");
    const archive = packTar([
      { type: "directory", path: "ws" },
      { type: "file", path: "ws/a", data: text("a".repeat(600)) },
      { type: "file", path: "ws/b\\..\\c", data: text("b".repeat(600)), mode: 0o640 },
    ]);
    expect(await writeArchive(chunked(archive, 512), join(directory, "out"), 1000, true)).toEqual({
      kind: "copied",
      type: "directory",
      target: "",
      skipped: [],
      omitted: [
        {
          path: "b\\..\\c",
          bytes: 600,
          sha256: createHash("sha256").update("b".repeat(600)).digest("hex"),
          mode: 0o640,
        },
      ],
    });
    expect(readdirSync(join(directory, "out"))).toEqual(["a"]);
    const single = packTar([{ type: "file", path: "big", data: text("b".repeat(600)) }]);
    expect(await writeArchive(chunked(single, 512), join(directory, "big"), 100, false)).toEqual({
      kind: "over-limit",
      bytes: null,
      directory: false,
    });
    expect(existsSync(join(directory, "big"))).toBe(false);
  });
});
