#pragma once
// Internal: the tensors one layer keeps (layer_activations.cpp), used by the memory steps.
#include "gpusizer/memory.hpp"

namespace gpusizer::detail {

struct LayerActivations {
    double replicated = 0;  // bytes kept whole on every TP rank unless sequence parallel
    double split = 0;       // bytes divided by TP (attention heads, MLP columns)
    double quadratic = 0;   // eager attention's s² terms (also divided by TP); dropped by selective recompute
    double checkpoint = 0;  // the layer input, which full recompute keeps
    double total(double tp, bool sp) const { return (sp ? replicated / tp : replicated) + (split + quadratic) / tp; }
};

// What one decoder layer saves for backward for a micro-batch of b sequences of S tokens.
LayerActivations layer_activations_training(const ModelArch& a, const Scenario& s, double b, double S, bool moe,
                                            double tp);

// Peak live bytes inside one layer's forward pass with no autograd (prefill of b × S tokens).
double layer_peak_inference(const ModelArch& a, const Scenario& s, double b, double S);

}  // namespace gpusizer::detail
