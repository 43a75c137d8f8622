// Fuzz target: a pasted Hugging Face config.json (parse_hf_config, core/src/model/hf_config.cpp).
// Invariants: never a crash or hang; errors carry a code and a short message; an accepted
// config becomes a scenario that prints, re-parses and travels in a share link unchanged
// (the page re-reads exactly what it wrote), and the same text given as a scenario's
// hf_config gives the same architecture.
#include "fuzz_check.hpp"
#include "gpusizer/link.hpp"
#include "gpusizer/model.hpp"
#include "gpusizer/scenario.hpp"

using namespace gpusizer;

extern "C" int LLVMFuzzerTestOneInput(const unsigned char* data, std::size_t size) {
    const std::string_view text = gpusizer_fuzz::as_text(data, size);
    Result<ModelArch> a = parse_hf_config(text);
    gpusizer_fuzz::check_error_shape(a);
    if (!a.ok()) return 0;
    for (const auto& w : a.warnings.en())
        GPUSIZER_FUZZ_CHECK(w.size() < 2048, "warning of " + std::to_string(w.size()) + " bytes: " + w.substr(0, 200));

    // K3 (docs/limits.md, fixed): a long model_type is cut at a character boundary, so it is UTF-8.
    GPUSIZER_FUZZ_CHECK(gpusizer_fuzz::valid_utf8(a->model_type), "model_type is not UTF-8: " + a->model_type.substr(0, 80));
    Scenario s;
    s.source = ModelSource::hf_config;
    s.model.clear();
    s.hf_config = *a;
    const std::string j = scenario_to_json(s);
    Result<Scenario> p = parse_scenario_json(j);
    GPUSIZER_FUZZ_CHECK(p.ok(), "an accepted config.json prints as a scenario that does not parse: " + format_error(p.error) +
                                    "\n  " + j.substr(0, 800));
    GPUSIZER_FUZZ_CHECK(p->hf_config == *a, "the normalised hf_config does not read back equal:\n  " + j.substr(0, 800));

    const std::string l = encode_link(s);
    Result<Scenario> d = decode_link(l);
    GPUSIZER_FUZZ_CHECK(d.ok() && d->source == ModelSource::hf_config && d->hf_config == *a,
                        "an accepted config.json does not survive the share link: " + l.substr(0, 400));

    // The same text inside a scenario (the CLI's --hf_config, the page's paste box). A text
    // with a "gpusizer_arch" key is gpusizer's own normalised form there, so it is skipped.
    if (text.find("gpusizer_arch") != std::string_view::npos) return 0;
    Result<Scenario> o = parse_scenario_overrides("{}", {{"hf_config", std::string(text)}});
    GPUSIZER_FUZZ_CHECK(o.ok() && o->hf_config == *a,
                        "--hf_config with an accepted config.json gives another result: " + format_error(o.error));
    return 0;
}
