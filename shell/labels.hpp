#pragma once
// Display names of scenario values in the current language (the spellings of enums.hpp are
// for files and links; people read these).

#include "gpusizer/enums.hpp"

namespace gpusizer::shell {

const char* label(Task v);
const char* label(WeightDtype v);
const char* label(KvDtype v);
const char* label(Optimizer v);
const char* label(Checkpointing v);
const char* label(Attention v);
const char* label(LoraTargets v);
const char* label(Offload v);
const char* label(Engine v);
const char* label(Region v);
const char* label(SpotPolicy v);
const char* label(Currency v);
const char* label(Framework v);
const char* label(LossImpl v);
const char* label(EngineVersion v);

// A memory term of MemoryBreakdown by its key ("weights", "kv_cache", …).
const char* memory_term_label(const char* key);

}  // namespace gpusizer::shell
