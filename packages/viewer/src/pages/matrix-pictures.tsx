// The matrix tab's pictures: heat map and repetition distribution over one page of evals (a long run is paged, so
// the SVG stays small), with buttons for the previous and next page.
import { useState } from "react";
import { Await } from "../components/common.tsx";
import { HeatMap, ModelLegend, RepetitionPlot } from "../components/matrix-plots.tsx";
import { useApi, useLiveVersion, useLoad } from "../hooks.tsx";

const EVALS_PER_PAGE = 40;

export function MatrixPictures({ run }: { run: string }) {
  const api = useApi();
  const version = useLiveVersion();
  const [offset, setOffset] = useState(0);
  const page = useLoad(() => api.matrix(run, offset, EVALS_PER_PAGE), [run, offset], version);
  return (
    <Await state={page}>
      {(data) => (
        <div className="matrix-pictures">
          <div className="plots plots-wide">
            <HeatMap run={run} page={data} />
            <div>
              <RepetitionPlot page={data} />
              <ModelLegend models={data.candidates} />
            </div>
          </div>
          {data.total > EVALS_PER_PAGE ? (
            <div className="pager">
              <button
                className="button small"
                disabled={offset === 0}
                onClick={() => setOffset(Math.max(0, offset - EVALS_PER_PAGE))}
              >
                ← previous {EVALS_PER_PAGE} evals
              </button>
              <span className="muted small">
                evals {offset + 1}–{offset + data.items.length} of {data.total}
              </span>
              <button
                className="button small"
                disabled={offset + EVALS_PER_PAGE >= data.total}
                onClick={() => setOffset(offset + EVALS_PER_PAGE)}
              >
                next {EVALS_PER_PAGE} evals →
              </button>
            </div>
          ) : null}
        </div>
      )}
    </Await>
  );
}
