// `gpusizer link`: the share link of a scenario ("#v=1&…").
#include "cli.hpp"
#include "gpusizer/link.hpp"

namespace gpusizer::cli {

int cmd_link(const Catalog& catalog, const std::vector<std::string>& args, Io& io) {
    auto in = parse_scenario_args(args, io);
    if (!in) return k_exit_bad_input;
    if (in->scenario.source == ModelSource::preset && !catalog.find_model(in->scenario.model)) {
        io.err += "gpusizer: model: unknown model preset '" + in->scenario.model + "' (see `gpusizer catalog list models`)\n";
        return k_exit_bad_input;
    }
    for (const auto& w : in->warnings.en()) io.err += "warning: " + w + "\n";
    io.out += "#" + encode_link(in->scenario) + "\n";
    return k_exit_ok;
}

}  // namespace gpusizer::cli
