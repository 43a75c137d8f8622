// An offer's words: its checks' messages and its why, in English and Chinese. recommend() words the
// offers it keeps when asked (the CLI prints every one); the page words only the offers it shows
// (word_offer), from the offer alone: its figures and facts, the scenario and the model's kind.
#include "plan.hpp"

namespace gpusizer {
namespace plan {

void word(const Scenario& s, const std::string& model_kind, Offer& o) {
    add_checks(s, o, /*words=*/true);
    describe(s, model_kind, o);
}

}  // namespace plan

void word_offer(const Recommendation& rec, Offer& o) {
    if (o.why.empty()) plan::word(rec.scenario, rec.model_kind, o);
}

}  // namespace gpusizer
