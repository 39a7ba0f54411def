#include "lumen/model/drift_run.hpp"

#include <algorithm>

#include "lumen/core/atomic_file.hpp"
#include "lumen/model/model_run.hpp"

namespace lumen::model {

DriftRun run_drift(const DriftRequest& r) {
  const auto format = picture_format(r.output);
  OpenedModel o = open_model(r.checkpoint, r.tokenizer, r.output);
  const std::size_t k = std::min(r.k, o.model.shape().V);
  Drift d = drift(o.model, *o.tokenizer, r.token, r.contexts, k, r.threads);
  if (format) write_file_atomic(r.output, render_drift(d, *o.tokenizer, *format));
  return DriftRun{std::move(o.model), std::move(o.report), std::move(o.tokenizer), k, std::move(d)};
}

}  // namespace lumen::model
