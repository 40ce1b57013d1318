// Carrying an image between two engines without a registry: `docker save` of the image by id on one engine streamed
// straight into `docker load` on the other (never held in memory or on disk here), then the id checked on arrival.
// An image id is the hash of its configuration, so the same id on both engines is the same image.
import type { Readable } from "node:stream";
import { ContainerError } from "./errors.ts";
import { errorMessage, type Engine } from "./engine.ts";

/** Loads the image `id` of `from` into `to`; OE_IMAGE_CARRY_FAILED saying where it stopped. */
export async function carryImage(from: Engine, to: Engine, id: string): Promise<void> {
  const fail = (problem: string, cause?: unknown): never => {
    throw new ContainerError(
      { code: "OE_IMAGE_CARRY_FAILED", image: id, from: from.address, to: to.address, problem },
      { cause },
    );
  };
  let saved: Readable;
  try {
    saved = (await from.docker.getImage(id).get()) as unknown as Readable;
  } catch (error) {
    return fail(`saving it failed: ${errorMessage(error)}`, error);
  }
  try {
    const answer = (await to.docker.loadImage(saved as unknown as NodeJS.ReadableStream, {
      quiet: true,
    })) as unknown as Readable;
    const problem = await loadProblem(answer);
    if (problem) fail(`loading it failed: ${problem}`);
  } catch (error) {
    if (error instanceof ContainerError) throw error;
    saved.destroy();
    return fail(`loading it failed: ${errorMessage(error)}`, error);
  }
  const arrived = await to.docker
    .getImage(id)
    .inspect()
    .catch(() => null);
  if (arrived?.Id !== id) fail("it was loaded, but the engine does not hold an image of that id afterwards");
}

/** The load answer is a stream of JSON messages; an `error` in any of them is the load's failure. */
async function loadProblem(answer: Readable): Promise<string | null> {
  let text = "";
  for await (const chunk of answer) text += chunk.toString();
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    try {
      const message = JSON.parse(line) as { error?: string; errorDetail?: { message?: string } };
      if (message.error) return message.errorDetail?.message ?? message.error;
    } catch {
      // Not JSON (an older engine's plain answer): nothing to read an error from.
    }
  }
  return null;
}
