// What the user fixed (docs/speed-and-cost.md "The user's layout and wishes"): a key they gave —
// parse_scenario_* and the guided start record those in Scenario::given — or a value other than
// its default, since a share link carries only the values that differ.
#include "plan.hpp"

namespace gpusizer::plan {

Fixed fixed_keys(const Scenario& s) {
    auto given = [&](Key k) { return is_given(s.given, k); };
    Fixed f;
    f.num_gpus = given(Key::num_gpus) || s.num_gpus != 1;
    f.tp = given(Key::tensor_parallel) || s.tensor_parallel != 1;
    f.pp = given(Key::pipeline_parallel) || s.pipeline_parallel != 1;
    f.zero = given(Key::zero_stage) || s.zero_stage != 0;
    f.checkpointing = given(Key::activation_checkpointing) || s.activation_checkpointing != Checkpointing::none;
    f.optimizer = given(Key::optimizer) || s.optimizer != Optimizer::adamw;
    f.loss = given(Key::loss_impl) || s.loss_impl != LossImpl::full;
    f.offload = given(Key::offload) || s.offload != Offload::none;
    f.users = given(Key::batch_size) || s.batch_size != 1;
    return f;
}

}  // namespace gpusizer::plan
