// resolve_model and estimate: the memory model's entry points (first cut, being filled in).
#include "gpusizer/estimate.hpp"

namespace gpusizer {

Result<ModelArch> resolve_model(const Catalog& catalog, const Scenario& s) {
    switch (s.source) {
        case ModelSource::preset: {
            const ModelPreset* p = catalog.find_model(s.model);
            if (!p)
                return Result<ModelArch>::failure(
                    {"unknown_id", "model: unknown preset '" + s.model + "' (see `gpusizer catalog list models`)", "model"});
            return Result<ModelArch>::success(p->arch);
        }
        case ModelSource::hf_config:
            return Result<ModelArch>::success(s.hf_config);
        case ModelSource::params_b: {
            ModelArch a = infer_dense_arch(s.params_b);
            return Result<ModelArch>::success(
                a, {"params_b: architecture inferred as a Llama-like dense decoder (h=" + std::to_string(a.hidden_size) +
                        ", L=" + std::to_string(a.num_layers) + "); give a config.json for exact numbers"});
        }
    }
    return Result<ModelArch>::failure({"internal", "unknown model source", "model"});
}

Result<Estimate> estimate(const Catalog& catalog, const Scenario& s) {
    Result<ModelArch> arch = resolve_model(catalog, s);
    if (!arch.ok()) return Result<Estimate>::failure(arch.error, arch.warnings);
    Estimate e;
    e.scenario = s;
    e.warnings = arch.warnings;
    return Result<Estimate>::success(e, arch.warnings);
}

}  // namespace gpusizer
