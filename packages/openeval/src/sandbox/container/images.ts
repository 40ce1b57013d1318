// Images on the engine, without dockerode types past this folder: build one from an in-memory context (labelled,
// pinned by its immutable id), find images by label, inspect one by name or id.
import type { Readable } from "node:stream";
import { SandboxError } from "../errors.ts";
import { ContainerError } from "./errors.ts";
import { errorMessage, statusOf, type Engine } from "./engine.ts";

export interface ImageInfo {
  /** The immutable id (`sha256:…`). */
  id: string;
  labels: Record<string, string>;
  created: number;
  /** Its configured working directory and user (inspect only; empty when it sets none). */
  workdir?: string;
  user?: string;
}

export interface BuildRequest {
  /** A tar of the build context (Dockerfile at its root). */
  context: Uint8Array;
  tag: string;
  labels: Record<string, string>;
  /** The Dockerfile's ARG values. */
  buildArgs?: Record<string, string>;
  /** Past it the build is abandoned (the engine cancels it when the request closes) and fails. */
  timeoutMs?: number;
  onOutput?: (line: string) => void;
}

/** Builds and returns the new image's immutable id; OE_IMAGE_BUILD_FAILED with the build's last lines otherwise. */
export async function buildImage(engine: Engine, request: BuildRequest): Promise<string> {
  let stream: Readable;
  try {
    // A Buffer (typed as a stream in @types/dockerode) is sent with a Content-Length instead of chunked.
    stream = (await engine.docker.buildImage(
      Buffer.from(
        request.context.buffer,
        request.context.byteOffset,
        request.context.length,
      ) as unknown as NodeJS.ReadableStream,
      {
        t: request.tag,
        labels: request.labels,
        ...(request.buildArgs ? { buildargs: request.buildArgs } : {}),
        // Builds fetch Debian packages; a daemon started without a bridge (as .ci/setup-container-engine.sh does)
        // has no other network for them. Sandboxes themselves never get the host network unless a policy asks.
        networkmode: "host",
        rm: true,
        forcerm: true,
      },
    )) as unknown as Readable;
  } catch (error) {
    throw new ContainerError(
      {
        code: "OE_IMAGE_BUILD_FAILED",
        tag: request.tag,
        problem: `the engine refused the build: ${errorMessage(error)}`,
      },
      { cause: error },
    );
  }
  let failure: string | null = null;
  const tail: string[] = [];
  const timer =
    request.timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          failure = `it did not finish within its build timeout of ${Math.round(request.timeoutMs! / 1000)} s`;
          stream.destroy();
        }, request.timeoutMs);
  try {
    for await (const message of readJsonLines(stream)) {
      if (message.error) failure = message.error;
      for (const line of (message.stream ?? "").split("\n")) {
        if (line.trim() === "") continue;
        tail.push(line);
        if (tail.length > 20) tail.shift();
        request.onOutput?.(line);
      }
    }
  } catch (error) {
    // A destroyed stream (the timeout) ends the loop with an error; the failure already says why.
    if (!failure) throw error;
  } finally {
    clearTimeout(timer);
  }
  if (failure)
    throw new ContainerError({ code: "OE_IMAGE_BUILD_FAILED", tag: request.tag, problem: failure, output: tail });
  // Whatever the build printed, the tag now names the image; inspect gives the full immutable id.
  const built = await inspectImage(engine, request.tag);
  if (!built)
    throw new ContainerError({
      code: "OE_IMAGE_BUILD_FAILED",
      tag: request.tag,
      problem: "the build ended without an image",
    });
  return built.id;
}

/** Images carrying every label, newest first. */
export async function findImages(engine: Engine, labels: Record<string, string>): Promise<ImageInfo[]> {
  const filters = { label: Object.entries(labels).map(([key, value]) => (value === "" ? key : `${key}=${value}`)) };
  const images = await engine.docker.listImages({ filters });
  return images
    .map((image) => ({ id: image.Id, labels: image.Labels ?? {}, created: image.Created }))
    .sort((a, b) => b.created - a.created);
}

/** The image a name or id refers to, or null when the engine has none. */
export async function inspectImage(engine: Engine, name: string): Promise<ImageInfo | null> {
  try {
    const image = await engine.docker.getImage(name).inspect();
    return {
      id: image.Id,
      labels: image.Config?.Labels ?? {},
      created: Date.parse(image.Created) / 1000,
      workdir: image.Config?.WorkingDir ?? "",
      user: image.Config?.User ?? "",
    };
  } catch (error) {
    if (statusOf(error) === 404) return null;
    throw new SandboxError(
      "engineRequestFailed",
      { request: `inspect the image ${name}`, address: engine.address, reason: errorMessage(error) },
      { cause: error },
    );
  }
}

async function* readJsonLines(stream: Readable): AsyncGenerator<{ stream?: string; error?: string }> {
  let buffer = "";
  for await (const chunk of stream) {
    buffer += chunk.toString();
    let newline: number;
    while ((newline = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, newline).trim();
      buffer = buffer.slice(newline + 1);
      if (line) yield JSON.parse(line);
    }
  }
  if (buffer.trim()) yield JSON.parse(buffer.trim());
}
