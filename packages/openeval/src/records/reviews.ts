// Reviews on disk and in the store: each is a file `reviews/<id>.json` and a store row holding the same text and its
// sha256, under triggers that refuse to change or delete it. The row is the record; the file is what a person reads
// and what `verify` compares with it, so an edited, deleted or hand-added review file is reported and not used.
//
// A kill at any moment leaves either no review or a whole one: the file is written as `<id>.json.pending` first, the
// row is inserted, then the file is renamed. A pending file without a row was never recorded (it is ignored); a row whose
// file is still pending is whole (the next review finishes the rename).
import { existsSync, readdirSync, readFileSync, renameSync } from "node:fs";
import { join } from "node:path";
import { sha256 } from "../util/hash.ts";
import { writeFileAtomicSync } from "../util/files.ts";
import type { IntegrityProblem } from "./integrity.ts";
import { ReviewSchema, type Review } from "./review-schema.ts";
import type { ResultsStore, ReviewRow } from "./store.ts";

export const REVIEWS_DIRECTORY = "reviews";
/** Appended with each review: a summary recorded before it no longer holds (summary/recorded-summary.ts). */
export const REVIEW_RECORDED_EVENT = "review.recorded";
const PENDING = ".pending";

/** The review's file, relative to the run directory. */
export function reviewFile(id: string): string {
  return `${REVIEWS_DIRECTORY}/${id}.json`;
}

/** Appends `review` to the run: its file and its sealed row (see above for why in this order). */
export function recordReview(store: ResultsStore, review: Review): void {
  const text = `${JSON.stringify(ReviewSchema.parse(review), null, 2)}\n`;
  const file = join(store.directory, reviewFile(review.id));
  finishPendingReviews(store);
  writeFileAtomicSync(`${file}${PENDING}`, text);
  const { id, evalRunId, criterion } = review;
  store.transaction(() => {
    store.saveReview({ id, evalRunId, criterion, value: text, valueSha256: sha256(text) });
    store.appendEvent(REVIEW_RECORDED_EVENT, { id, evalRunId, criterion });
  });
  finishRename(`${file}${PENDING}`);
}

/** The run's reviews that check out, in the order they were recorded, and a problem for each that does not. */
export function readReviews(store: ResultsStore): { reviews: Review[]; problems: IntegrityProblem[] } {
  const rows = store.reviewRows();
  const reviews: Review[] = [];
  const problems: IntegrityProblem[] = [];
  for (const row of rows) {
    const problem = checkReviewRow(store.directory, row);
    if (problem !== null) {
      problems.push({ kind: "review", id: row.id, message: problem });
      continue;
    }
    const parsed = ReviewSchema.safeParse(JSON.parse(row.value));
    if (parsed.success) reviews.push(parsed.data);
    else
      problems.push({
        kind: "review",
        id: row.id,
        message: `review ${row.id} is not a review: ${parsed.error.message}`,
      });
  }
  const recorded = new Set(rows.map((row) => row.id));
  for (const id of reviewFileIds(store.directory).filter((id) => !recorded.has(id))) {
    problems.push({
      kind: "review",
      id,
      message: `${reviewFile(id)} is not recorded in the run's store: it was added by hand, and is not used (record a review with \`openeval review\`)`,
    });
  }
  if (rows.length > 0 && !store.reviewsImmutable()) {
    problems.push({
      kind: "review",
      id: "reviews",
      message: "the store's triggers that keep reviews append-only were removed: a review row may have been changed",
    });
  }
  return { reviews, problems };
}

function checkReviewRow(runDirectory: string, row: ReviewRow): string | null {
  const file = reviewFile(row.id);
  if (sha256(row.value) !== row.valueSha256)
    return `review ${row.id}: its row in the store was changed after it was recorded (its sha256 does not match)`;
  const path = join(runDirectory, file);
  const text = readText(path) ?? readText(`${path}${PENDING}`);
  if (text === null)
    return `review ${row.id}: ${file} was deleted; its score is not used (restore the file, or record the review again)`;
  if (sha256(text) !== row.valueSha256)
    return `review ${row.id}: ${file} was changed after it was recorded (sha256 differs from the store's); its score is not used (restore the file, or record a new review with \`openeval review\`)`;
  return null;
}

/**
 * Renames the files of recorded reviews that a kill left pending. A pending file with no row is left alone: it may be
 * another `openeval review` between its two writes.
 */
function finishPendingReviews(store: ResultsStore): void {
  const directory = join(store.directory, REVIEWS_DIRECTORY);
  if (!existsSync(directory)) return;
  const recorded = new Set(store.reviewRows().map((row) => row.id));
  for (const name of readdirSync(directory).filter((entry) => entry.endsWith(`.json${PENDING}`))) {
    if (recorded.has(name.slice(0, -`.json${PENDING}`.length))) finishRename(join(directory, name));
  }
}

/** Renames a recorded review's pending file; another review may have finished it first. */
function finishRename(pending: string): void {
  const file = pending.slice(0, -PENDING.length);
  try {
    renameSync(pending, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT" || !existsSync(file)) throw error;
  }
}

function reviewFileIds(runDirectory: string): string[] {
  const directory = join(runDirectory, REVIEWS_DIRECTORY);
  if (!existsSync(directory)) return [];
  return readdirSync(directory)
    .filter((name) => name.endsWith(".json"))
    .map((name) => name.slice(0, -".json".length));
}

function readText(path: string): string | null {
  return existsSync(path) ? readFileSync(path, "utf8") : null;
}
