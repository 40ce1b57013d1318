// Journey: `openeval engines` lists the pool a run would place work on, says which engine does not answer (exit 1),
// and refuses an engine list it cannot use (exit 2). No engine answers at these sockets: nothing is dialled.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";
import { makeTempDir } from "../helpers/fixtures.ts";

const ROOT = join(import.meta.dirname, "..", "..");

describe("openeval engines", () => {
  it("lists each engine of OPENEVAL_ENGINES with its capacity, and exits 1 naming the one that does not answer", async () => {
    const socket = join(await makeTempDir(), "no-engine.sock");
    const engines = [{ name: "away", host: `unix://${socket}`, capacity: 3 }];
    const listed = await runCli(["engines", "--json"], {
      cwd: ROOT,
      env: { OPENEVAL_ENGINES: JSON.stringify(engines) },
    });
    expect(listed.exitCode, listed.stderr).toBe(1);
    const { engines: described } = JSON.parse(listed.stdout);
    expect(described).toEqual([
      expect.objectContaining({ name: "away", address: `unix://${socket}`, capacity: 3, answers: false, images: {} }),
    ]);
    expect(described[0].problem).toContain(`No container engine answers at unix://${socket}`);
    const text = await runCli(["engines"], { cwd: ROOT, env: { OPENEVAL_ENGINES: JSON.stringify(engines) } });
    expect(text.stdout).toContain(`away  unix://${socket}  3 at once  does not answer: No container engine answers`);
  });

  it("refuses an OPENEVAL_ENGINES that is not an engine list, saying what is wrong (exit 2)", async () => {
    const refused = await runCli(["engines"], {
      cwd: ROOT,
      env: { OPENEVAL_ENGINES: JSON.stringify([{ name: "far", host: "tcp://10.66.0.2:2375", capacity: 1 }]) },
    });
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain("OE_ENGINES_INVALID");
    expect(refused.stderr).toContain(
      '[0].host: engine "far" at tcp://10.66.0.2:2375 is plain TCP on an address other than loopback',
    );
  });
});
