// A finished rubric judge's own OpenCode session, read back from its `rubric/` archive for the viewer: the database,
// and the errors its event stream reported for the steps the database keeps none for (a rejected request).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { readSessionDatabase, type SessionDatabase } from "../../recording/index.ts";
import { RUBRIC_FILES } from "./grade-rubric.ts";
import { SessionFileSchema } from "./schema.ts";

/**
 * Null when OpenCode left no database (it never started). Throws when the database cannot be read.
 * @example readJudgeSession(join(runDirectory, judgeRun.directory, "rubric"))?.messages
 */
export function readJudgeSession(rubricFolder: string): SessionDatabase | null {
  const database = join(rubricFolder, RUBRIC_FILES.database);
  if (!existsSync(database)) return null;
  return readSessionDatabase(database, readStreamErrors(join(rubricFolder, RUBRIC_FILES.session)));
}

/** A session file that is missing or unreadable names no step errors: the database still shows every step. */
function readStreamErrors(file: string) {
  if (!existsSync(file)) return [];
  try {
    return SessionFileSchema.parse(JSON.parse(readFileSync(file, "utf8"))).stepErrors;
  } catch {
    return [];
  }
}
