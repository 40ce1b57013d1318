// Environment images on a real engine (`npm run test:containers`): an eval's environment/ built as written, the
// harness layer over it, each found again by its content hash, a change building a new image, and a failed or slow
// build reported with its step.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openSandboxEngine, engineAddress, isEngineReachable, type ContainerEngine } from "../sandbox/index.ts";
import { DEFAULT_ENVIRONMENT_BUILD_TIMEOUT_MS, type EvalEnvironment } from "../load/index.ts";
import { buildEnvironmentImage, findEnvironmentImage } from "./environment-image.ts";

const reachable = await isEngineReachable();
const folders: string[] = [];

async function environmentOf(dockerfile: string, buildTimeoutMs = DEFAULT_ENVIRONMENT_BUILD_TIMEOUT_MS) {
  const directory = await mkdtemp(join(tmpdir(), "openeval-environment-"));
  folders.push(directory);
  await writeFile(join(directory, "Dockerfile"), dockerfile);
  // A unique file per folder, so no two tests share an image by content.
  await writeFile(join(directory, "marker.txt"), `${directory}\n`);
  return { directory, buildTimeoutMs, limits: {} } satisfies EvalEnvironment;
}

afterAll(async () => {
  await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
});

describe.skipIf(!reachable)(`environment images on ${engineAddress()}`, () => {
  const engine = () => openSandboxEngine("container") as Promise<ContainerEngine>;

  it("builds the base and the harness layer once, finds them again, and builds anew when the Dockerfile changes", async () => {
    const environment = await environmentOf(
      "FROM debian:bookworm-slim\nCOPY marker.txt /app/marker.txt\nWORKDIR /app\n",
    );
    expect(await findEnvironmentImage(await engine(), environment)).toBeNull();
    const phases: string[] = [];
    const built = await buildEnvironmentImage(await engine(), environment, {
      onProgress: (event) => event.kind === "phase" && phases.push(event.message),
    });
    expect(built).toMatchObject({ workdir: "/app", asRoot: true, imageId: expect.stringMatching(/^sha256:/) });
    expect(phases.some((phase) => phase.startsWith("Building openeval-env-base:"))).toBe(true);
    expect(phases.some((phase) => phase.startsWith("Building openeval-env:"))).toBe(true);
    const found = await findEnvironmentImage(await engine(), environment);
    expect(found).toMatchObject({ imageId: built.imageId, workdir: "/app", asRoot: true });

    const again: string[] = [];
    await buildEnvironmentImage(await engine(), environment, {
      onProgress: (event) => event.kind === "phase" && again.push(event.message),
    });
    expect(again.filter((phase) => phase.startsWith("Building"))).toEqual([]);

    await writeFile(join(environment.directory, "Dockerfile"), "FROM debian:bookworm-slim\nWORKDIR /work\nUSER 1000\n");
    expect(await findEnvironmentImage(await engine(), environment)).toBeNull();
    const changed = await buildEnvironmentImage(await engine(), environment);
    expect(changed.imageId).not.toBe(built.imageId);
    expect(changed).toMatchObject({ workdir: "/work", asRoot: false });
  });

  it("runs the agent's commands as the task's agent user when it names one, in an image of its own", async () => {
    const environment = await environmentOf("FROM debian:bookworm-slim\nWORKDIR /app\n");
    const asRoot = await buildEnvironmentImage(await engine(), environment);
    const asNobody = await buildEnvironmentImage(await engine(), { ...environment, agentUser: "nobody" });
    expect(asRoot.asRoot).toBe(true);
    expect(asNobody).toMatchObject({ asRoot: false, workdir: "/app" });
    expect(asNobody.imageId).not.toBe(asRoot.imageId);
    expect(await findEnvironmentImage(await engine(), { ...environment, agentUser: "nobody" })).toMatchObject({
      imageId: asNobody.imageId,
      asRoot: false,
    });
  });

  it("names the failing step and its output; a missing WORKDIR says what to add", async () => {
    const failing = await environmentOf("FROM debian:bookworm-slim\nRUN echo 'step output' && exit 3\n");
    const error = await buildEnvironmentImage(await engine(), failing).catch((caught: Error) => caught);
    expect(error).toMatchObject({ code: "OE_IMAGE_BUILD_FAILED" });
    expect((error as Error).message).toMatch(/openeval-env-base:\w+ did not build: .*returned a non-zero code: 3/);
    expect((error as Error).message).toContain("step output");

    const noWorkdir = await environmentOf("FROM debian:bookworm-slim\n");
    await expect(buildEnvironmentImage(await engine(), noWorkdir)).rejects.toThrow(
      "environment/Dockerfile sets no working directory below /; the candidate's workspace is the image's WORKDIR: add one such as `WORKDIR /app`",
    );
  });

  it("abandons a build past its build timeout", async () => {
    const slow = await environmentOf("FROM debian:bookworm-slim\nRUN sleep 60\nWORKDIR /app\n", 3_000);
    await expect(buildEnvironmentImage(await engine(), slow)).rejects.toThrow(
      /did not build: it did not finish within its build timeout of 3 s/,
    );
  });
});
