// eval.ts `workspace` (OpenEval's repository workspaces): the candidate's workspace gets a bare
// `<remote>.git` and a clone of it at `<checkout>/`. From a repository only the pinned commit is fetched (depth 1,
// no tags), so the source's other history never reaches the candidate; from `revisions` a history is built, one
// commit per revision. Nothing in the git metadata names a host path: the bare repository has no remote, the
// checkout's remote is `../<remote>.git`, and reflogs and FETCH_HEAD (which record where things came from) go.
import { cp, mkdtemp, readFile, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { GitWorkspace } from "../load/index.ts";
import { git } from "../util/git.ts";

/** Revisions are authored by a neutral developer (OpenEval's), at pinned dates. */
const REVISION_AUTHOR = {
  GIT_AUTHOR_NAME: "Developer",
  GIT_AUTHOR_EMAIL: "developer@example.invalid",
  GIT_COMMITTER_NAME: "Developer",
  GIT_COMMITTER_EMAIL: "developer@example.invalid",
  GIT_AUTHOR_DATE: "2026-01-01T00:00:00Z",
  GIT_COMMITTER_DATE: "2026-01-01T00:00:00Z",
};
/** The branch a revisions history is built on, removed afterwards (the schema reserves the name). */
const BUILD_BRANCH = "preparation";

/** The root paths the seeded checkout occupies, for the workspace repository to leave out. */
export function checkoutPaths(source: GitWorkspace): string[] {
  return [`/${source.checkout}/`, `/${source.remote}.git/`];
}

/** Seeds `workspace` (already the session's git repository) with the checkout; folders resolve against `evalDirectory`. */
export async function seedCheckout(workspace: string, source: GitWorkspace, evalDirectory: string): Promise<void> {
  const bareName = `${source.remote}.git`;
  const bare = join(workspace, bareName);
  await git(workspace, ["init", "--quiet", "--bare", bareName]);
  if (source.repository !== undefined) {
    if (source.commit === undefined) throw new Error("a repository workspace needs its commit");
    await git(bare, ["fetch", "--quiet", "--depth=1", "--no-tags", source.repository, source.commit]).catch(
      (error: unknown) => {
        throw new Error(
          `commit ${source.commit} could not be fetched from the eval's workspace repository (${(error as Error).message}); check workspace.repository and workspace.commit`,
        );
      },
    );
    await git(bare, ["update-ref", `refs/heads/${source.ref}`, source.commit]);
  } else {
    await buildRevisions(bare, source, evalDirectory);
  }
  await git(bare, ["symbolic-ref", "HEAD", `refs/heads/${source.ref}`]);
  await git(workspace, [
    "clone",
    "--quiet",
    "--no-hardlinks",
    "--origin",
    source.remote,
    "--branch",
    source.ref,
    bareName,
    source.checkout,
  ]);
  const checkout = join(workspace, source.checkout);
  await git(checkout, ["remote", "set-url", source.remote, `../${bareName}`]);
  if (source.commit !== undefined) {
    const head = await git(checkout, ["rev-parse", "HEAD"]);
    if (head !== source.commit) throw new Error(`the checkout is at ${head}, not at workspace.commit ${source.commit}`);
  }
  for (const metadata of [bare, join(checkout, ".git")]) {
    await rm(join(metadata, "logs"), { recursive: true, force: true });
    await rm(join(metadata, "FETCH_HEAD"), { force: true });
  }
  await assertNoHostPaths([join(bare, "config"), join(checkout, ".git", "config")], [workspace, evalDirectory]);
  if (source.overlay)
    await cp(join(evalDirectory, source.overlay), checkout, { recursive: true, verbatimSymlinks: true });
}

/** One commit per revision, each revision's files copied over the previous ones; each ref marks its commit. */
async function buildRevisions(bare: string, source: GitWorkspace, evalDirectory: string): Promise<void> {
  const build = await mkdtemp(join(dirname(dirname(bare)), ".revisions-"));
  try {
    await git(build, ["init", "--quiet", `--initial-branch=${BUILD_BRANCH}`]);
    for (const revision of source.revisions ?? []) {
      await cp(join(evalDirectory, revision.directory), build, { recursive: true, verbatimSymlinks: true });
      await git(build, ["add", "--all"]);
      await git(
        build,
        ["commit", "--quiet", "--allow-empty", "--no-verify", "--message", revision.message],
        REVISION_AUTHOR,
      );
      await git(build, ["update-ref", `refs/heads/${revision.ref}`, "HEAD"]);
    }
    await git(bare, ["fetch", "--quiet", "--no-tags", build, "+refs/heads/*:refs/heads/*"]);
    await git(bare, ["update-ref", "-d", `refs/heads/${BUILD_BRANCH}`]);
  } finally {
    await rm(build, { recursive: true, force: true });
  }
}

/** The candidate must not learn where the harness keeps things: a config naming a host folder is a harness bug. */
async function assertNoHostPaths(files: string[], hostFolders: string[]): Promise<void> {
  for (const file of files) {
    const text = await readFile(file, "utf8");
    const leaked = hostFolders.find((folder) => text.includes(folder));
    if (leaked !== undefined || /url\s*=\s*(\/|file:)/.test(text))
      throw new Error(`the seeded checkout's ${file} names a host path; this is a harness bug`);
  }
}
