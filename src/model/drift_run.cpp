#include "lumen/model/drift_run.hpp"

#include <algorithm>

#include "lumen/model/model_run.hpp"

namespace lumen::model {

DriftRun run_drift(const DriftRequest& r) {
  return measure_model(
      r.checkpoint, r.tokenizer, r.output,
      [&](OpenedModel& o) {
        const std::size_t k = std::min(r.k, o.model.shape().V);
        Drift d = drift(o.model, *o.tokenizer, r.token, r.contexts, k, r.threads);
        return DriftRun{std::move(o.model), std::move(o.report), std::move(o.tokenizer), k, std::move(d)};
      },
      [](const DriftRun& run, project::PlotFormat f) { return render_drift(run.drift, *run.tokenizer, f); });
}

}  // namespace lumen::model
