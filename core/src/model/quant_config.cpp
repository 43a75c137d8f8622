// quantization_config → ModelArch.quant_* (quant_config.hpp): which linears a checkpoint stores
// quantized, in which format.
//
// Index
//   [SECTION] Work bounds
//   [SECTION] Regular expressions (a Thompson NFA: linear time, no recursion)
//   [SECTION] Module-name patterns (dotted names, globs, "re:" regexes)
//   [SECTION] The linears of one layer, by family
//   [SECTION] Reading typed keys of quantization_config
//   [SECTION] Formats (fp8, fbgemm_fp8, mxfp4, compressed-tensors, gptq, awq, bitsandbytes)
//   [SECTION] Coverage: which layers' attention / MLP / experts are quantized
//   [SECTION] read_quantization_config
//
// Sources (docs/frameworks.md §11, docs/memory-model.md "Checkpoints as stored"): transformers
// quantizers (FineGrainedFP8, FbgemmFp8, Mxfp4, BitsAndBytes, AWQ, GPTQ) and their
// modules_to_not_convert; compressed-tensors config_groups / ignore / format; AutoGPTQ QuantLinear
// buffers (qweight, qzeros, scales fp16, g_idx int32 per input column).
#include "quant_config.hpp"

#include <algorithm>
#include <bitset>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace gpusizer::detail {

namespace {

// [SECTION] Work bounds

constexpr std::size_t k_max_patterns = 4096;       // entries read from one list
constexpr std::size_t k_max_pattern_bytes = 512;   // longer patterns are skipped with a warning
constexpr std::size_t k_max_nfa_states = 4096;     // a regex that compiles larger is not supported
constexpr std::uint64_t k_match_steps = 16000000;  // all matching for one config (~50 ms)
constexpr std::uint64_t k_exact_layers = 512;      // layers evaluated one by one (beyond: by kind)

struct Budget {
    std::uint64_t left = k_match_steps;
    bool exhausted = false;
    bool step(std::uint64_t n = 1) {
        if (left < n) {
            left = 0;
            exhausted = true;
            return false;
        }
        left -= n;
        return true;
    }
};

// [SECTION] Regular expressions
//
// The subset quantizers write (Python `re` syntax): literals, '.', classes [a-z_] [^.] with
// \d \w \s, escapes, groups (…) (?:…) (?P<n>…), alternation |, quantifiers * + ? {m} {m,} {m,n}
// (lazy forms read as greedy: only match / no match matters), anchors ^ $. Look-arounds, back
// references and inline flags are not supported: such a pattern is reported and left out.
// re.match semantics: anchored at the start, a match may end anywhere (unless $).

struct Nfa {
    enum Kind : std::uint8_t { chr, any, cls, split, eps, bol, eol, match };
    struct State {
        Kind kind = eps;
        unsigned char c = 0;
        int set = -1;  // index into classes
        int out = -1, out1 = -1;
    };
    std::vector<State> states;
    std::vector<std::bitset<256>> classes;
    int start = -1;
};

// The parsed pattern: alternatives of sequences of atoms, each with a repetition.
struct RNode {
    enum Kind : std::uint8_t { chr, any, cls, grp, bol, eol };
    Kind kind = chr;
    unsigned char c = 0;
    int set = -1;                          // index into Nfa::classes
    std::vector<std::vector<RNode>> alts;  // grp
    int mn = 1, mx = 1;                    // mx < 0: unbounded
};
using RAlts = std::vector<std::vector<RNode>>;

class RegexParser {
public:
    RegexParser(std::string_view p, std::vector<std::bitset<256>>& classes) : p_(p), classes_(classes) {}
    bool parse(RAlts& out) { return alternation(out) && i_ == p_.size(); }

private:
    std::string_view p_;
    std::vector<std::bitset<256>>& classes_;
    std::size_t i_ = 0;
    int depth_ = 0;
    std::size_t nodes_ = 0;

    bool alternation(RAlts& out) {
        if (++depth_ > 16) return false;
        out.emplace_back();
        if (!sequence(out.back())) return false;
        while (i_ < p_.size() && p_[i_] == '|') {
            ++i_;
            out.emplace_back();
            if (!sequence(out.back())) return false;
        }
        --depth_;
        return true;
    }
    bool sequence(std::vector<RNode>& out) {
        while (i_ < p_.size() && p_[i_] != '|' && p_[i_] != ')') {
            if (++nodes_ > 1024) return false;
            RNode n;
            if (!atom(n) || !quantifier(n)) return false;
            out.push_back(std::move(n));
        }
        return true;
    }
    bool atom(RNode& n) {
        const char c = p_[i_];
        if (c == '(') {
            ++i_;
            if (i_ < p_.size() && p_[i_] == '?') {
                if (i_ + 1 < p_.size() && p_[i_ + 1] == ':') {
                    i_ += 2;
                } else if (i_ + 2 < p_.size() && p_[i_ + 1] == 'P' && p_[i_ + 2] == '<') {
                    const std::size_t close = p_.find('>', i_);
                    if (close == std::string_view::npos) return false;
                    i_ = close + 1;
                } else {
                    return false;  // look-around, inline flags, conditionals
                }
            }
            n.kind = RNode::grp;
            if (!alternation(n.alts) || i_ >= p_.size() || p_[i_] != ')') return false;
            ++i_;
            return true;
        }
        if (c == '[') {
            std::bitset<256> set;
            if (!char_class(set)) return false;
            n.kind = RNode::cls;
            n.set = static_cast<int>(classes_.size());
            classes_.push_back(set);
            return true;
        }
        if (c == '\\') {
            std::bitset<256> set;
            unsigned char lit = 0;
            if (!escape(set, lit)) return false;
            if (set.any()) {
                n.kind = RNode::cls;
                n.set = static_cast<int>(classes_.size());
                classes_.push_back(set);
            } else {
                n.kind = RNode::chr;
                n.c = lit;
            }
            return true;
        }
        if (c == '*' || c == '+' || c == '?') return false;  // nothing to repeat
        ++i_;
        if (c == '.') n.kind = RNode::any;
        else if (c == '^') n.kind = RNode::bol;
        else if (c == '$') n.kind = RNode::eol;
        else n.kind = RNode::chr, n.c = static_cast<unsigned char>(c);
        return true;
    }
    bool quantifier(RNode& n) {
        if (i_ >= p_.size()) return true;
        const char c = p_[i_];
        if (c == '*') {
            n.mn = 0, n.mx = -1, ++i_;
        } else if (c == '+') {
            n.mn = 1, n.mx = -1, ++i_;
        } else if (c == '?') {
            n.mn = 0, n.mx = 1, ++i_;
        } else if (c == '{') {
            std::size_t j = i_ + 1;
            auto number = [&](int& v) {
                const std::size_t s = j;
                v = 0;
                while (j < p_.size() && p_[j] >= '0' && p_[j] <= '9' && v <= 1000) v = v * 10 + (p_[j++] - '0');
                return j > s;
            };
            int a = 0, b = 0;
            if (!number(a)) return true;  // a literal '{' (Python reads it so)
            if (j < p_.size() && p_[j] == '}') {
                b = a;
            } else if (j < p_.size() && p_[j] == ',') {
                ++j;
                if (!number(b)) b = -1;
                if (j >= p_.size() || p_[j] != '}') return true;
            } else {
                return true;
            }
            if (a > 1000 || b > 1000 || (b >= 0 && b < a)) return false;
            n.mn = a, n.mx = b;
            i_ = j + 1;
        } else {
            return true;
        }
        if (i_ < p_.size() && (p_[i_] == '?' || p_[i_] == '+')) ++i_;  // lazy / possessive: same language
        if (i_ < p_.size() && (p_[i_] == '*' || p_[i_] == '+' || p_[i_] == '?')) return false;
        return true;
    }
    static void add_range(std::bitset<256>& set, unsigned char a, unsigned char b) {
        for (unsigned v = a; v <= b; ++v) set.set(v);
    }
    static void add_shorthand(std::bitset<256>& set, char k) {
        std::bitset<256> s;
        const char lower = static_cast<char>(k | 0x20);
        if (lower == 'd') add_range(s, '0', '9');
        if (lower == 'w') add_range(s, '0', '9'), add_range(s, 'a', 'z'), add_range(s, 'A', 'Z'), s.set('_');
        if (lower == 's') s.set(' '), s.set('\t'), s.set('\n'), s.set('\r'), s.set('\f'), s.set('\v');
        if (k >= 'A' && k <= 'Z') s.flip();
        set |= s;
    }
    // '\' at i_: a shorthand class (set filled) or a literal (lit).
    bool escape(std::bitset<256>& set, unsigned char& lit) {
        if (i_ + 1 >= p_.size()) return false;
        const char k = p_[i_ + 1];
        i_ += 2;
        if (k == 'd' || k == 'D' || k == 'w' || k == 'W' || k == 's' || k == 'S') {
            add_shorthand(set, k);
            return true;
        }
        if (k == 'n') return lit = '\n', true;
        if (k == 't') return lit = '\t', true;
        if ((k >= '0' && k <= '9') || (k >= 'a' && k <= 'z') || (k >= 'A' && k <= 'Z')) return false;  // \b \1 \A …
        lit = static_cast<unsigned char>(k);
        return true;
    }
    bool char_class(std::bitset<256>& set) {
        ++i_;  // '['
        bool negate = false;
        if (i_ < p_.size() && p_[i_] == '^') negate = true, ++i_;
        bool first = true;
        while (i_ < p_.size() && (p_[i_] != ']' || first)) {
            first = false;
            unsigned char a = 0;
            if (p_[i_] == '\\') {
                std::bitset<256> sh;
                if (!escape(sh, a)) return false;
                if (sh.any()) {
                    set |= sh;
                    continue;
                }
            } else {
                a = static_cast<unsigned char>(p_[i_++]);
            }
            if (i_ + 1 < p_.size() && p_[i_] == '-' && p_[i_ + 1] != ']') {
                ++i_;
                unsigned char b = 0;
                if (p_[i_] == '\\') {
                    std::bitset<256> sh;
                    if (!escape(sh, b) || sh.any()) return false;
                } else {
                    b = static_cast<unsigned char>(p_[i_++]);
                }
                if (b < a) return false;
                add_range(set, a, b);
            } else {
                set.set(a);
            }
        }
        if (i_ >= p_.size()) return false;
        ++i_;  // ']'
        if (negate) set.flip();
        return true;
    }
};

// Thompson construction; every fragment adds at least one state, so the state cap bounds the work.
class NfaBuilder {
public:
    explicit NfaBuilder(Nfa& nfa) : nfa_(nfa) {}
    bool build(const RAlts& top) {
        Frag f = alternation(top);
        const int m = add({Nfa::match});
        if (!ok_ || m < 0) return false;
        patch(f.outs, m);
        nfa_.start = f.start;
        return true;
    }

private:
    struct Slot {
        int state;
        bool second;
    };
    struct Frag {
        int start = -1;
        std::vector<Slot> outs;
    };
    Nfa& nfa_;
    bool ok_ = true;

    int add(Nfa::State s) {
        if (!ok_ || nfa_.states.size() >= k_max_nfa_states) {
            ok_ = false;
            return -1;
        }
        nfa_.states.push_back(s);
        return static_cast<int>(nfa_.states.size() - 1);
    }
    void patch(const std::vector<Slot>& outs, int to) {
        if (!ok_) return;
        for (const Slot& s : outs) (s.second ? nfa_.states[s.state].out1 : nfa_.states[s.state].out) = to;
    }
    Frag single(Nfa::State st) {
        Frag f;
        f.start = add(st);
        if (f.start >= 0) f.outs.push_back({f.start, false});
        return f;
    }
    Frag alternation(const RAlts& alts) {
        Frag acc = sequence(alts.front());
        for (std::size_t k = 1; k < alts.size() && ok_; ++k) {
            Frag next = sequence(alts[k]);
            const int s = add({Nfa::split});
            if (s < 0) return acc;
            nfa_.states[s].out = acc.start;
            nfa_.states[s].out1 = next.start;
            acc.start = s;
            acc.outs.insert(acc.outs.end(), next.outs.begin(), next.outs.end());
        }
        return acc;
    }
    Frag sequence(const std::vector<RNode>& seq) {
        Frag acc = single({Nfa::eps});
        for (const RNode& n : seq) {
            if (!ok_) break;
            Frag r = repeat(n);
            patch(acc.outs, r.start);
            acc.outs = r.outs;
        }
        return acc;
    }
    Frag once(const RNode& n) {
        switch (n.kind) {
            case RNode::grp: return alternation(n.alts);
            case RNode::cls: { Nfa::State s{Nfa::cls}; s.set = n.set; return single(s); }
            case RNode::any: return single({Nfa::any});
            case RNode::bol: return single({Nfa::bol});
            case RNode::eol: return single({Nfa::eol});
            case RNode::chr: { Nfa::State s{Nfa::chr}; s.c = n.c; return single(s); }
        }
        return single({Nfa::eps});
    }
    Frag repeat(const RNode& n) {
        Frag acc = single({Nfa::eps});
        for (int k = 0; k < n.mn && ok_; ++k) {
            Frag f = once(n);
            patch(acc.outs, f.start);
            acc.outs = f.outs;
        }
        if (n.mx < 0) {  // star: split → atom → back to the split | on
            Frag f = once(n);
            const int s = add({Nfa::split});
            if (s < 0) return acc;
            nfa_.states[s].out = f.start;
            patch(f.outs, s);
            patch(acc.outs, s);
            acc.outs = {{s, true}};
        } else {
            for (int k = n.mn; k < n.mx && ok_; ++k) {  // optional copies: split → atom | on
                Frag f = once(n);
                const int s = add({Nfa::split});
                if (s < 0) return acc;
                nfa_.states[s].out = f.start;
                patch(acc.outs, s);
                acc.outs = f.outs;
                acc.outs.push_back({s, true});
            }
        }
        return acc;
    }
};

bool compile_regex(std::string_view pattern, Nfa& nfa) {
    RAlts top;
    RegexParser parser(pattern, nfa.classes);
    if (!parser.parse(top)) return false;
    NfaBuilder builder(nfa);
    return builder.build(top);
}

// re.match: true when some prefix of `s` matches.
bool nfa_matches(const Nfa& nfa, std::string_view s, Budget& budget) {
    const std::size_t n = nfa.states.size();
    std::vector<std::uint32_t> mark(n, 0);
    std::uint32_t gen = 0;
    std::vector<int> cur, next, stack;
    bool matched = false;
    auto closure = [&](int start, std::size_t pos, std::vector<int>& into) {
        stack.assign(1, start);
        while (!stack.empty()) {
            const int st = stack.back();
            stack.pop_back();
            if (st < 0 || mark[static_cast<std::size_t>(st)] == gen) continue;
            if (!budget.step()) return;
            mark[static_cast<std::size_t>(st)] = gen;
            const Nfa::State& x = nfa.states[static_cast<std::size_t>(st)];
            switch (x.kind) {
                case Nfa::split: stack.push_back(x.out1), stack.push_back(x.out); break;
                case Nfa::eps: stack.push_back(x.out); break;
                case Nfa::bol: if (pos == 0) stack.push_back(x.out); break;
                case Nfa::eol: if (pos == s.size()) stack.push_back(x.out); break;
                case Nfa::match: matched = true; break;
                default: into.push_back(st); break;
            }
        }
    };
    ++gen;
    closure(nfa.start, 0, cur);
    for (std::size_t pos = 0; pos < s.size() && !matched && !cur.empty() && !budget.exhausted; ++pos) {
        const unsigned char ch = static_cast<unsigned char>(s[pos]);
        ++gen;
        next.clear();
        for (const int st : cur) {
            const Nfa::State& x = nfa.states[static_cast<std::size_t>(st)];
            const bool takes = (x.kind == Nfa::chr && x.c == ch) || (x.kind == Nfa::any && ch != '\n') ||
                               (x.kind == Nfa::cls && nfa.classes[static_cast<std::size_t>(x.set)][ch]);
            if (takes) closure(x.out, pos + 1, next);
        }
        cur.swap(next);
    }
    return matched && !budget.exhausted;
}

// [SECTION] Module-name patterns

// Language-model prefixes, so that "model.language_model.layers.3.mlp" and "layers.3.mlp" name
// the same module as "model.layers.3.mlp" (vision towers keep their own prefixes and never match).
constexpr const char* k_layer_prefixes[] = {"model.language_model.model.layers.", "model.language_model.layers.",
                                            "language_model.model.layers.", "model.model.layers.", "model.layers.",
                                            "transformer.layers."};

std::string canonical(std::string_view name) {
    while (!name.empty() && name.front() == '.') name.remove_prefix(1);
    while (!name.empty() && name.back() == '.') name.remove_suffix(1);
    constexpr std::string_view weight = ".weight";
    if (name.size() > weight.size() && name.substr(name.size() - weight.size()) == weight)
        name.remove_suffix(weight.size());
    for (const char* p : k_layer_prefixes) {
        const std::string_view pre(p);
        if (name.substr(0, pre.size()) == pre) return "layers." + std::string(name.substr(pre.size()));
    }
    if (name.substr(0, 15) == "language_model.") name.remove_prefix(15);  // language_model.lm_head
    return std::string(name);
}

bool glob_matches(std::string_view p, std::string_view s, Budget& budget) {
    std::size_t pi = 0, si = 0, star = std::string_view::npos, mark = 0;
    while (si < s.size()) {
        if (!budget.step()) return false;
        if (pi < p.size() && p[pi] != '*' && p[pi] == s[si]) {
            ++pi, ++si;
        } else if (pi < p.size() && p[pi] == '*') {
            star = pi++;
            mark = si;
        } else if (star != std::string_view::npos) {
            pi = star + 1;
            si = ++mark;
        } else {
            return false;
        }
    }
    while (pi < p.size() && p[pi] == '*') ++pi;
    return pi == p.size();
}

// Runs of whole segments of a dotted name: "a.b.c" → a, a.b, a.b.c, b, b.c, c.
std::vector<std::string_view> segment_runs(std::string_view name) {
    std::vector<std::size_t> starts{0}, ends;
    for (std::size_t i = 0; i < name.size(); ++i)
        if (name[i] == '.') ends.push_back(i), starts.push_back(i + 1);
    ends.push_back(name.size());
    std::vector<std::string_view> runs;
    for (std::size_t a = 0; a < starts.size(); ++a)
        for (std::size_t b = a; b < ends.size(); ++b) runs.push_back(name.substr(starts[a], ends[b] - starts[a]));
    return runs;
}

// Why a pattern cannot be used, in English and Chinese.
struct Why {
    const char* en = "";
    const char* zh = "";
};

class PatternSet {
public:
    // False (and a reason) when the pattern cannot be used.
    bool add(std::string_view pattern, Why* why) {
        if (pattern.size() > k_max_pattern_bytes) return *why = {"longer than 512 bytes", "超过 512 字节"}, false;
        if (pattern.substr(0, 3) == "re:") {
            Nfa nfa;
            if (!compile_regex(pattern.substr(3), nfa)) return *why = {"a regular expression this reader does not support", "是本读取器不支持的正则表达式"}, false;
            regexes_.push_back(std::move(nfa));
            return true;
        }
        if (pattern == "Linear") {  // compressed-tensors: a module class, every nn.Linear
            any_linear_ = true;
            return true;
        }
        const std::string c = canonical(pattern);
        if (c.empty()) return *why = {"empty", "为空"}, false;
        if (c.find('*') != std::string::npos) globs_.push_back(c);
        else exact_.insert(c);
        return true;
    }
    bool add_regex(std::string_view regex, Why* why) { return add("re:" + std::string(regex), why); }

    bool empty() const { return !any_linear_ && exact_.empty() && globs_.empty() && regexes_.empty(); }
    bool any_linear() const { return any_linear_; }

    // `name` in canonical form ("layers.3.mlp.down_proj", "lm_head"); `full` the spellings a
    // regex is tried on ("model.layers.3.mlp.down_proj", …). Class targets ("Linear") not included.
    bool has_regexes() const { return !regexes_.empty(); }
    bool names(const std::string& name, const std::vector<std::string>& full, Budget& budget) const {
        if (budget.exhausted) return false;
        const std::vector<std::string_view> runs = segment_runs(name);
        if (!exact_.empty())
            for (std::string_view r : runs) {
                if (!budget.step()) return false;
                if (exact_.find(r) != exact_.end()) return true;
            }
        for (const std::string& g : globs_)
            for (std::string_view r : runs)
                if (glob_matches(g, r, budget)) return true;
        for (const Nfa& re : regexes_)
            for (const std::string& f : full)
                if (nfa_matches(re, f, budget)) return true;
        return false;
    }

private:
    bool any_linear_ = false;
    std::set<std::string, std::less<>> exact_;  // looked up by string_view, no copy
    std::vector<std::string> globs_;
    std::vector<Nfa> regexes_;
};

// [SECTION] The linears of one layer, by family

struct Proj {
    const char* name;
    double size;  // weights (for a part quantized only in part: the share quantized)
};
struct LayerLinears {
    std::string attn_prefix, mlp_prefix, expert_prefix, shared_prefix;
    std::vector<Proj> attn, mlp, expert, shared;
};

LayerLinears layer_linears(const ModelArch& a, ModuleNaming naming) {
    LayerLinears l;
    const double h = static_cast<double>(a.hidden_size), H = static_cast<double>(a.num_heads),
                 k = static_cast<double>(a.num_kv_heads), d = static_cast<double>(a.head_dim);
    l.attn_prefix = "self_attn.";
    if (a.kv_lora_rank > 0) {
        const double ql = static_cast<double>(a.q_lora_rank), kvr = static_cast<double>(a.kv_lora_rank);
        const double dq = static_cast<double>(a.qk_nope_head_dim + a.qk_rope_head_dim);
        if (a.q_lora_rank > 0) {
            l.attn.push_back({"q_a_proj", h * ql});
            l.attn.push_back({"q_b_proj", ql * H * dq});
        } else {
            l.attn.push_back({"q_proj", h * H * dq});
        }
        l.attn.push_back({"kv_a_proj_with_mqa", h * (kvr + static_cast<double>(a.qk_rope_head_dim))});
        l.attn.push_back({"kv_b_proj", kvr * H * static_cast<double>(a.qk_nope_head_dim + a.v_head_dim)});
        l.attn.push_back({"o_proj", H * static_cast<double>(a.v_head_dim) * h});
    } else if (naming == ModuleNaming::phi3) {
        l.attn = {{"qkv_proj", h * (H + 2 * k) * d}, {"o_proj", H * d * h}};
    } else {
        l.attn = {{"q_proj", h * H * d}, {"k_proj", h * k * d}, {"v_proj", h * k * d}, {"o_proj", H * d * h}};
    }
    auto mlp = [&](double w, bool fused) {
        if (fused) return std::vector<Proj>{{"gate_up_proj", 2 * h * w}, {"down_proj", w * h}};
        if (a.gated_mlp) return std::vector<Proj>{{"gate_proj", h * w}, {"up_proj", h * w}, {"down_proj", w * h}};
        return std::vector<Proj>{{"up_proj", h * w}, {"down_proj", w * h}};
    };
    l.mlp_prefix = "mlp.";
    l.mlp = mlp(static_cast<double>(a.intermediate_size), naming == ModuleNaming::phi3);
    const double wi = static_cast<double>(a.moe_intermediate_size);
    switch (naming) {
        case ModuleNaming::mixtral:
            l.expert_prefix = "block_sparse_moe.experts.0.";
            l.expert = {{"w1", h * wi}, {"w3", h * wi}, {"w2", wi * h}};
            break;
        case ModuleNaming::gpt_oss:
            l.expert_prefix = "mlp.experts.";
            l.expert = mlp(wi, true);
            break;
        default:
            l.expert_prefix = "mlp.experts.0.";
            l.expert = mlp(wi, false);
            break;
    }
    l.shared_prefix = naming == ModuleNaming::qwen_moe ? "mlp.shared_expert." : "mlp.shared_experts.";
    l.shared = mlp(static_cast<double>(a.shared_intermediate_size), false);
    return l;
}

// Layer l has routed experts (the rule of params.cpp count_moe_layers).
bool is_moe_layer(const ModelArch& a, std::uint64_t l) {
    const std::uint64_t freq = a.moe_layer_freq ? a.moe_layer_freq : 1;
    return a.num_experts > 0 && l >= a.first_dense_layers && (l + 1) % freq == 0;
}
// MoE layers among [lo, hi).
std::uint64_t moe_layers_in(const ModelArch& a, std::uint64_t lo, std::uint64_t hi) {
    if (a.num_experts == 0) return 0;
    const std::uint64_t freq = a.moe_layer_freq ? a.moe_layer_freq : 1;
    lo = std::max(lo, a.first_dense_layers);
    if (lo >= hi) return 0;
    return hi / freq - lo / freq;  // multiples of freq in (lo, hi]
}

// [SECTION] Reading typed keys of quantization_config

struct Scheme {
    std::uint64_t bits = 0, group = 0, rows = 1, scale = 0, zero = 0, scale2 = 0, index = 0;
    bool operator==(const Scheme& o) const {
        return bits == o.bits && group == o.group && rows == o.rows && scale == o.scale && zero == o.zero &&
               scale2 == o.scale2 && index == o.index;
    }
};

class QReader {
public:
    QReader(std::string path, Notes& warnings) : path_(std::move(path)), w_(warnings) {}
    bool bad() const { return bad_; }
    const std::string& path() const { return path_; }

    static const json* find(const json& obj, const char* key) {
        if (!obj.is_object()) return nullptr;
        auto it = obj.find(key);
        if (it == obj.end() || it->is_null()) return nullptr;
        return &*it;
    }
    // What a value should be, in English and Chinese ("an integer between 2 and 8").
    struct Expected {
        std::string en, zh;
    };
    static Expected between(std::int64_t lo, std::int64_t hi) {
        const std::string a = std::to_string(lo), b = std::to_string(hi);
        return {"an integer between " + a + " and " + b, a + " 到 " + b + " 之间的整数"};
    }
    void fail(const std::string& key, const Expected& expected, const json& v) {
        if (bad_) return;
        bad_ = true;
        w_.add("hf_config: " + path_ + "." + key + ": expected " + expected.en + ", got " + show(v) +
                   "; the quantization_config is ignored and weights are sized from weight_dtype",
               "hf_config:" + path_ + "." + key + " 应为" + expected.zh + ",实际为 " + show(v) +
                   ";已忽略 quantization_config,权重按 weight_dtype 计算");
    }
    std::optional<std::int64_t> integer(const json& obj, const std::string& at, const char* key, std::int64_t lo,
                                        std::int64_t hi) {
        const json* v = find(obj, key);
        if (!v) return std::nullopt;
        const auto i = as_int(*v, lo, hi);
        if (!i) fail(at + key, between(lo, hi), *v);
        return i;
    }
    std::optional<bool> boolean(const json& obj, const std::string& at, const char* key) {
        const json* v = find(obj, key);
        if (!v) return std::nullopt;
        if (!v->is_boolean()) {
            fail(at + key, {"true or false", " true 或 false"}, *v);
            return std::nullopt;
        }
        return v->get<bool>();
    }
    std::optional<std::string> text(const json& obj, const std::string& at, const char* key) {
        const json* v = find(obj, key);
        if (!v) return std::nullopt;
        if (!v->is_string()) {
            fail(at + key, {"a string", "字符串"}, *v);
            return std::nullopt;
        }
        return v->get<std::string>();
    }
    // A list of module names / patterns (null or absent: none).
    void patterns(const json& obj, const std::string& at, const char* key, PatternSet& into) {
        const json* v = find(obj, key);
        if (!v) return;
        if (!v->is_array()) return fail(at + key, {"a list of module names", "模块名列表"}, *v);
        std::size_t i = 0;
        for (const json& e : *v) {
            if (!e.is_string()) return fail(at + key + "[" + std::to_string(i) + "]", {"a module name (string)", "模块名(字符串)"}, e);
            if (i == k_max_patterns) {
                note("hf_config: " + path_ + "." + at + key + ": more than " + std::to_string(k_max_patterns) +
                         " entries; the rest are not read",
                     "hf_config:" + path_ + "." + at + key + " 多于 " + std::to_string(k_max_patterns) + " 项;其余未读取");
                break;
            }
            add_pattern(into, e.get<std::string>(), at + key + "[" + std::to_string(i) + "]");
            ++i;
        }
    }
    void add_pattern(PatternSet& into, const std::string& pattern, const std::string& where) {
        Why why;
        if (!into.add(pattern, &why))
            note("hf_config: " + path_ + "." + where + ": '" + printable(pattern) + "' is " + why.en + "; that entry is left out",
                 "hf_config:" + path_ + "." + where + ":'" + printable(pattern) + "' " + why.zh + ";该项已略过");
    }
    void note(std::string en, std::string zh) { w_.add(std::move(en), std::move(zh)); }

private:
    std::string path_;
    Notes& w_;
    bool bad_ = false;
};

// A group size: -1 (per output channel) or 1 … 2^20 → 0 for per channel.
std::optional<std::uint64_t> group_size(QReader& r, const json& obj, const std::string& at, const char* key,
                                        std::uint64_t fallback) {
    const json* v = QReader::find(obj, key);
    if (!v) return fallback;
    if (const auto i = as_int(*v, -1, 1 << 20); i && *i != 0) return *i < 0 ? 0 : static_cast<std::uint64_t>(*i);
    r.fail(at + key, {"-1 (per channel) or an integer between 1 and 1048576", " -1(按通道)或 1 到 1048576 之间的整数"}, *v);
    return std::nullopt;
}

// [SECTION] Formats

// What one format implies beyond its scheme.
struct Format {
    Scheme scheme;
    PatternSet skip;      // modules left unquantized (modules_to_not_convert, ignore, llm_int8_skip_modules)
    bool experts_only = false;  // mxfp4: transformers converts only the MoE experts
    bool targets = false;       // compressed-tensors: only modules a config group targets
    std::vector<std::pair<PatternSet, Scheme>> groups;  // compressed-tensors config_groups, in key order
    std::vector<std::string> group_names;
    bool lm_head = false;       // gptq "lm_head": true
};

void read_fp8(QReader& r, const json& qc, Format& f) {
    // FineGrainedFP8 / DeepSeek-V3: e4m3 + float32 weight_scale_inv per weight_block_size block;
    // without a block size, one scale per tensor (AutoFP8 / vLLM per-tensor fp8).
    f.scheme = {8, 0, 0, 32, 0, 0, 0};
    if (const json* b = QReader::find(qc, "weight_block_size")) {
        const bool ok = b->is_array() && b->size() == 2 && as_int((*b)[0], 1, 65536) && as_int((*b)[1], 1, 65536);
        if (!ok) return r.fail("weight_block_size", {"[rows, columns], two integers between 1 and 65536", " [行, 列],两个 1 到 65536 之间的整数"}, *b);
        f.scheme.rows = static_cast<std::uint64_t>(*as_int((*b)[0], 1, 65536));
        f.scheme.group = static_cast<std::uint64_t>(*as_int((*b)[1], 1, 65536));
    }
    r.text(qc, "", "fmt");
    r.text(qc, "", "activation_scheme");
    r.patterns(qc, "", "modules_to_not_convert", f.skip);
}

void read_fbgemm_fp8(QReader& r, const json& qc, Format& f) {
    // FbgemmFp8Linear: e4m3 weight [out, in] + float32 weight_scale [out, 1].
    f.scheme = {8, 0, 1, 32, 0, 0, 0};
    if (const json* v = QReader::find(qc, "activation_scale_ub"); v && !v->is_number())
        r.fail("activation_scale_ub", {"a number", "数字"}, *v);
    r.patterns(qc, "", "modules_to_not_convert", f.skip);
}

void read_mxfp4(QReader& r, const json& qc, Format& f) {
    // gpt-oss: *_blocks (two e2m1 per byte) + *_scales (one e8m0 byte per 32 weights); only the
    // experts (Mxfp4GptOssExperts); attention, router, embeddings, lm_head stay bf16.
    f.scheme = {4, 32, 1, 8, 0, 0, 0};
    f.experts_only = true;
    r.patterns(qc, "", "modules_to_not_convert", f.skip);
}

void read_gptq(QReader& r, const json& qc, Format& f) {
    // AutoGPTQ / GPTQModel QuantLinear: qweight int32 [in·bits/32, out], qzeros int32
    // [in/g, out·bits/32], scales fp16 [in/g, out], g_idx int32 [in] (always stored).
    const auto bits = r.integer(qc, "", "bits", 2, 8);
    if (r.bad()) return;
    if (!bits) return r.fail("bits", QReader::between(2, 8), json());
    const auto g = group_size(r, qc, "", "group_size", 128);
    if (!g) return;
    r.boolean(qc, "", "desc_act");
    r.boolean(qc, "", "sym");
    r.text(qc, "", "checkpoint_format");
    if (const auto lm = r.boolean(qc, "", "lm_head")) f.lm_head = *lm;
    f.scheme = {static_cast<std::uint64_t>(*bits), *g, 1, 16, static_cast<std::uint64_t>(*bits), 0, 32};
    r.patterns(qc, "", "modules_to_not_convert", f.skip);
    // GPTQModel "dynamic": "-:<regex>" keys leave modules unquantized; "+:" / plain keys change
    // bits or group size per module (not sized: the base scheme is used).
    if (const json* dyn = QReader::find(qc, "dynamic")) {
        if (!dyn->is_object()) return r.fail("dynamic", {"an object of module patterns", "由模块匹配模式组成的对象"}, *dyn);
        bool overrides = false;
        std::size_t n = 0;
        for (auto it = dyn->begin(); it != dyn->end() && n < k_max_patterns; ++it, ++n) {
            const std::string& key = it.key();
            if (key.rfind("-:", 0) == 0) r.add_pattern(f.skip, "re:" + key.substr(2), "dynamic");
            else overrides = true;
        }
        if (overrides)
            r.note("hf_config: " + r.path() + ".dynamic: per-module bit or group overrides are not sized; every "
                   "quantized linear is sized at " + std::to_string(*bits) + " bits",
                   "hf_config:" + r.path() + ".dynamic:不计算按模块覆盖的位数或分组;所有量化线性层都按 " +
                       std::to_string(*bits) + " 位计算");
    }
}

void read_awq(QReader& r, const json& qc, Format& f) {
    // AutoAWQ GEMM: qweight int32 [in, out·bits/32], qzeros int32 [in/g, out·bits/32], scales
    // fp16 [in/g, out]; no g_idx. AutoAWQ's own quant_config spells bits/group w_bit/q_group_size.
    auto bits = r.integer(qc, "", "bits", 2, 8);
    if (!bits && !r.bad()) bits = r.integer(qc, "", "w_bit", 2, 8);
    if (r.bad()) return;
    if (!bits) return r.fail("bits", QReader::between(2, 8), json());
    std::optional<std::uint64_t> g = QReader::find(qc, "group_size") || !QReader::find(qc, "q_group_size")
                                         ? group_size(r, qc, "", "group_size", 128)
                                         : group_size(r, qc, "", "q_group_size", 128);
    if (!g) return;
    const bool zero_point = r.boolean(qc, "", "zero_point").value_or(true);
    r.text(qc, "", "version");
    f.scheme = {static_cast<std::uint64_t>(*bits), *g, 1, 16, zero_point ? static_cast<std::uint64_t>(*bits) : 0, 0, 0};
    r.patterns(qc, "", "modules_to_not_convert", f.skip);
}

void read_bitsandbytes(QReader& r, const json& qc, Format& f) {
    // bitsandbytes Params4bit: two 4-bit codes per byte, absmax per 64 weights: float32, or with
    // double quantization uint8 + a float32 per 256 absmax (QLoRA §3); Int8Params: int8 + float32
    // SCB per row. transformers never converts lm_head.
    bool in4 = r.boolean(qc, "", "load_in_4bit").value_or(false);
    bool in8 = r.boolean(qc, "", "load_in_8bit").value_or(false);
    if (!in4 && !in8) in4 = r.boolean(qc, "", "_load_in_4bit").value_or(false), in8 = r.boolean(qc, "", "_load_in_8bit").value_or(false);
    if (r.bad()) return;
    if (in4 && in8) return r.fail("load_in_8bit", {"false when load_in_4bit is true", " false(load_in_4bit 为 true 时)"}, json(true));
    if (!in4 && !in8) return r.fail("load_in_4bit", {"true (or load_in_8bit true) for a bitsandbytes checkpoint", " true(或 load_in_8bit 为 true),bitsandbytes 检查点需要"}, json(false));
    if (in4) {
        if (const auto t = r.text(qc, "", "bnb_4bit_quant_type"); t && *t != "nf4" && *t != "fp4")
            return r.fail("bnb_4bit_quant_type", {"\"nf4\" or \"fp4\"", " \"nf4\" 或 \"fp4\""}, json(*t));
        const bool dq = r.boolean(qc, "", "bnb_4bit_use_double_quant").value_or(false);
        f.scheme = dq ? Scheme{4, 64, 1, 8, 0, 256, 0} : Scheme{4, 64, 1, 32, 0, 0, 0};
    } else {
        f.scheme = {8, 0, 1, 32, 0, 0, 0};
    }
    r.patterns(qc, "", "llm_int8_skip_modules", f.skip);
}

// compressed-tensors: config_groups { name: { targets, weights {num_bits, type, strategy,
// group_size, block_structure, symmetric, actorder}, format } }, ignore, format.
void read_compressed_tensors(QReader& r, const json& qc, Format& f) {
    f.targets = true;
    const std::string top_format = r.text(qc, "", "format").value_or("");
    r.patterns(qc, "", "ignore", f.skip);
    const json* groups = QReader::find(qc, "config_groups");
    if (!groups) return r.fail("config_groups", {"an object of quantization groups", "由量化组组成的对象"}, json());
    if (!groups->is_object()) return r.fail("config_groups", {"an object of quantization groups", "由量化组组成的对象"}, *groups);
    for (auto it = groups->begin(); it != groups->end() && !r.bad(); ++it) {
        const std::string at = "config_groups." + it.key() + ".";
        const json& g = it.value();
        if (!g.is_object()) return r.fail("config_groups." + it.key(), {"an object", "对象"}, g);
        const json* wts = QReader::find(g, "weights");
        if (!wts) continue;  // activation-only group: weights not quantized by it
        if (!wts->is_object()) return r.fail(at + "weights", {"an object", "对象"}, *wts);
        const std::string wat = at + "weights.";
        const auto nb = r.integer(*wts, wat, "num_bits", 1, 16);
        if (r.bad()) return;
        if (!nb) return r.fail(wat + "num_bits", QReader::between(1, 16), json());
        const std::string type = r.text(*wts, wat, "type").value_or("int");
        const std::string strategy = r.text(*wts, wat, "strategy").value_or("tensor");
        const bool symmetric = r.boolean(*wts, wat, "symmetric").value_or(true);
        const auto gs = group_size(r, *wts, wat, "group_size", 0);
        std::string format = r.text(g, at, "format").value_or(top_format);
        const json* actorder = QReader::find(*wts, "actorder");
        if (r.bad() || !gs) return;
        const std::uint64_t bits = static_cast<std::uint64_t>(*nb);
        Scheme s;
        // Storage: pack-quantized packs num_bits into int32; nvfp4/mxfp4 pack two per byte;
        // int-/float-/naive-quantized keep one int8/fp8 byte per weight.
        if (format == "pack-quantized" || format == "marlin-24") s.bits = bits;
        else if (format == "nvfp4-pack-quantized" || format == "mxfp4-pack-quantized") s.bits = 4;
        else if (format == "int-quantized" || format == "float-quantized" || format == "naive-quantized") s.bits = std::max<std::uint64_t>(bits, 8);
        else if (format == "dense") s.bits = 0;
        else s.bits = bits;  // mixed-precision without a group format, sparse formats: the packed bits
        // Scales follow the weights' dtype (bf16) except the fp8 scales of NVFP4 and e8m0 of MXFP4.
        s.scale = format == "nvfp4-pack-quantized" || strategy == "tensor_group" ? 8 : format == "mxfp4-pack-quantized" ? 8 : 16;
        s.zero = symmetric ? 0 : (format == "pack-quantized" ? bits : 8);
        s.index = actorder && actorder->is_string() && actorder->get<std::string>() == "group" ? 32 : 0;
        if (strategy == "tensor") {
            s.group = 0, s.rows = 0;
        } else if (strategy == "channel") {
            s.group = 0, s.rows = 1;
        } else if (strategy == "group" || strategy == "tensor_group") {
            if (*gs == 0) return r.fail(wat + "group_size", {"a group size for strategy \"" + strategy + "\"", "策略 \"" + strategy + "\" 的组大小"}, json());
            s.group = *gs, s.rows = 1;
        } else if (strategy == "block") {
            const json* b = QReader::find(*wts, "block_structure");
            const bool ok = b && b->is_array() && b->size() == 2 && as_int((*b)[0], 1, 65536) && as_int((*b)[1], 1, 65536);
            if (!ok) return r.fail(wat + "block_structure", {"[rows, columns], two integers between 1 and 65536", " [行, 列],两个 1 到 65536 之间的整数"}, b ? *b : json());
            s.rows = static_cast<std::uint64_t>(*as_int((*b)[0], 1, 65536));
            s.group = static_cast<std::uint64_t>(*as_int((*b)[1], 1, 65536));
        } else {
            return r.fail(wat + "strategy", {"tensor, channel, group, block or tensor_group", " tensor、channel、group、block 或 tensor_group"}, json(strategy));
        }
        if (type != "int" && type != "float") return r.fail(wat + "type", {"\"int\" or \"float\"", " \"int\" 或 \"float\""}, json(type));
        PatternSet targets;
        r.patterns(g, at, "targets", targets);
        if (r.bad()) return;
        if (s.bits == 0) {
            r.note("hf_config: " + r.path() + "." + at + "format: \"dense\" stores the weights unquantized",
                   "hf_config:" + r.path() + "." + at + "format:\"dense\" 表示权重未量化存储");
            continue;
        }
        f.groups.emplace_back(std::move(targets), s);
        f.group_names.push_back(it.key());
    }
    if (!r.bad() && f.groups.empty())
        r.note("hf_config: " + r.path() + ".config_groups: no group quantizes weights; weights are stored 16-bit",
               "hf_config:" + r.path() + ".config_groups:没有量化权重的组;权重以 16 位存储");
}

// [SECTION] Coverage

struct Coverage {
    double attn = 0, mlp = 0, moe = 0, shared = 0;  // layers (weighted) with that part quantized
    bool lm_head = false;
    bool partial = false;  // some part had only some of its linears quantized
    std::vector<double> group_mass;
};

class CoverageWalker {
public:
    CoverageWalker(const ModelArch& a, ModuleNaming naming, bool nested, const Format& f)
        : a_(a), nested_(nested), f_(f), lin_(layer_linears(a, naming)) {
        cov_.group_mass.assign(f.groups.size(), 0.0);
    }

    Coverage walk() {
        const std::uint64_t L = a_.num_layers;
        if (L <= k_exact_layers) {
            for (std::uint64_t l = 0; l < L; ++l) layer(l, 1, is_moe_layer(a_, l) ? 1 : 0);
        } else {
            const std::uint64_t edge = k_exact_layers / 2;
            for (std::uint64_t l = 0; l < edge; ++l) layer(l, 1, is_moe_layer(a_, l) ? 1 : 0);
            for (std::uint64_t l = L - edge; l < L; ++l) layer(l, 1, is_moe_layer(a_, l) ? 1 : 0);
            // The middle layers, one representative of each kind (names there differ only by index).
            const std::uint64_t lo = edge, hi = L - edge;
            const std::uint64_t moe = moe_layers_in(a_, lo, hi), dense = (hi - lo) - moe;
            if (moe > 0) {
                const std::uint64_t freq = a_.moe_layer_freq ? a_.moe_layer_freq : 1;
                const std::uint64_t from = std::max(lo, a_.first_dense_layers);
                layer((from + 1 + freq - 1) / freq * freq - 1, static_cast<double>(moe), 1);
            }
            if (dense > 0) {
                std::uint64_t l = lo;
                while (l < hi && is_moe_layer(a_, l)) ++l;
                layer(l, static_cast<double>(dense), 0);
            }
        }
        if (f_.experts_only) {
            cov_.lm_head = false;
        } else {
            // transformers' quantizers always keep the output layer (get_keys_to_not_convert); GPTQModel
            // quantizes it with "lm_head": true; compressed-tensors when a group targets it.
            const double head = static_cast<double>(a_.vocab_size) * static_cast<double>(a_.hidden_size);
            cov_.lm_head = f_.lm_head || (f_.targets && quantized("lm_head", head));
        }
        return cov_;
    }

    bool budget_exhausted() const { return budget_.exhausted; }

private:
    const ModelArch& a_;
    bool nested_;
    const Format& f_;
    LayerLinears lin_;
    Coverage cov_;
    Budget budget_;

    std::vector<std::string> full_names(const std::string& canonical_name) const {
        if (canonical_name.rfind("layers.", 0) != 0) {
            if (!nested_) return {canonical_name};
            return {canonical_name, "language_model." + canonical_name, "model.language_model." + canonical_name};
        }
        if (!nested_) return {"model." + canonical_name};
        return {"model." + canonical_name, "model.language_model." + canonical_name.substr(0),
                "language_model.model." + canonical_name};
    }

    // Quantized (targeted, not skipped); `mass` adds to the group that targets it.
    bool quantized(const std::string& name, double mass) {
        // The spellings regexes are tried on, made only when some pattern is a regex.
        bool regexes = f_.skip.has_regexes();
        for (const auto& g : f_.groups) regexes = regexes || g.first.has_regexes();
        const std::vector<std::string> full = regexes ? full_names(name) : std::vector<std::string>{};
        if (f_.skip.names(name, full, budget_)) return false;
        if (!f_.targets) return true;
        // compressed-tensors: a group naming the module (name or regex) wins over a class target.
        for (std::size_t g = 0; g < f_.groups.size(); ++g)
            if (f_.groups[g].first.names(name, full, budget_)) return cov_.group_mass[g] += mass, true;
        for (std::size_t g = 0; g < f_.groups.size(); ++g)
            if (f_.groups[g].first.any_linear()) return cov_.group_mass[g] += mass, true;
        return false;
    }

    // Share of a part's weights that are quantized in layer l.
    double share(std::uint64_t l, const std::string& prefix, const std::vector<Proj>& projs, double weight) {
        double total = 0, q = 0;
        const std::string base = "layers." + std::to_string(l) + "." + prefix;
        for (const Proj& p : projs) {
            total += p.size;
            if (quantized(base + p.name, p.size * weight)) q += p.size;
        }
        if (!(total > 0)) return 0;
        const double s = q / total;
        if (s > 0 && s < 1) cov_.partial = true;
        return s;
    }

    void layer(std::uint64_t l, double weight, int moe) {
        if (!f_.experts_only && share(l, lin_.attn_prefix, lin_.attn, weight) >= 0.5) cov_.attn += weight;
        if (moe) {
            if (share(l, lin_.expert_prefix, lin_.expert, weight * static_cast<double>(a_.num_experts)) >= 0.5)
                cov_.moe += weight;
            if (!f_.experts_only && a_.num_shared_experts > 0 &&
                share(l, lin_.shared_prefix, lin_.shared, weight * static_cast<double>(a_.num_shared_experts)) >= 0.5)
                cov_.shared += weight;
        } else if (!f_.experts_only && share(l, lin_.mlp_prefix, lin_.mlp, weight) >= 0.5) {
            cov_.mlp += weight;
        }
    }
};

std::uint64_t rounded(double v) { return v > 0 ? static_cast<std::uint64_t>(v + 0.5) : 0; }

std::string scheme_text(const Scheme& s, bool zh = false) {
    const std::string sb = std::to_string(s.scale) + (zh ? " 位缩放因子" : "-bit scale");
    std::string t = std::to_string(s.bits) + (zh ? " 位" : "-bit");
    if (s.group == 0 && s.rows == 0) t += zh ? ",每个张量一个缩放因子" : ", one scale per tensor";
    else if (s.rows > 1)
        t += zh ? ",每 " + std::to_string(s.rows) + "×" + std::to_string(s.group) + " 块一个 " + sb
                : ", one " + sb + " per " + std::to_string(s.rows) + "×" + std::to_string(s.group) + " block";
    else if (s.group == 0) t += zh ? ",每行一个 " + sb : ", one " + sb + " per row";
    else t += zh ? ",每 " + std::to_string(s.group) + " 个权重一个 " + sb : ", one " + sb + " per " + std::to_string(s.group) + " weights";
    return t;
}

}  // namespace

bool module_pattern_matches(std::string_view pattern, std::string_view module_name, bool* unsupported) {
    PatternSet set;
    Why why;
    if (!set.add(pattern, &why)) {
        if (unsupported) *unsupported = true;
        return false;
    }
    if (unsupported) *unsupported = false;
    Budget budget;
    const std::string c = canonical(module_name);
    return set.names(c, {std::string(module_name)}, budget) || set.any_linear();
}

// [SECTION] read_quantization_config

void read_quantization_config(const json& qc, std::string_view path, ModuleNaming naming, bool nested, ModelArch& a,
                              Notes& warnings) {
    const std::string p(path);
    if (!qc.is_object()) {
        warnings.add("hf_config: " + p + ": expected an object, got " + show(qc) + "; ignored, weights are sized from weight_dtype",
                     "hf_config:" + p + " 应为对象,实际为 " + show(qc) + ";已忽略,权重按 weight_dtype 计算");
        return;
    }
    QReader r(p, warnings);
    std::string method = r.text(qc, "", "quant_method").value_or("");
    if (r.bad()) return;
    if (method.empty() && (QReader::find(qc, "load_in_4bit") || QReader::find(qc, "load_in_8bit"))) method = "bitsandbytes";
    if (method.empty() && QReader::find(qc, "config_groups")) method = "compressed-tensors";
    if (method.empty()) {
        warnings.add("hf_config: " + p + ".quant_method: missing; the quantization_config is ignored and "
                     "weights are sized from weight_dtype",
                     "hf_config:缺少 " + p + ".quant_method;已忽略 quantization_config,权重按 weight_dtype 计算");
        return;
    }
    std::string lower;
    for (char c : method) lower += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    if (lower == "compressed_tensors") lower = "compressed-tensors";
    Format f;
    if (lower == "fp8") read_fp8(r, qc, f);
    else if (lower == "fbgemm_fp8") read_fbgemm_fp8(r, qc, f);
    else if (lower == "mxfp4") read_mxfp4(r, qc, f);
    else if (lower == "gptq") read_gptq(r, qc, f);
    else if (lower == "awq") read_awq(r, qc, f);
    else if (lower == "bitsandbytes") read_bitsandbytes(r, qc, f);
    else if (lower == "compressed-tensors") read_compressed_tensors(r, qc, f);
    else {
        a.quant_method = printable(method);  // kept (and printed); quant_bits 0: sized from weight_dtype
        if (a.quant_method.size() > 64) a.quant_method.resize(64);
        while (!a.quant_method.empty() && !valid_utf8(a.quant_method)) a.quant_method.pop_back();
        warnings.add("hf_config: " + p + ".quant_method '" + printable(method) +
                         "' is not a format gpusizer can size (fp8, fbgemm_fp8, mxfp4, compressed-tensors, gptq, "
                         "awq, bitsandbytes); weights are sized from weight_dtype",
                     "hf_config:" + p + ".quant_method '" + printable(method) +
                         "' 不是 gpusizer 能计算大小的格式(fp8、fbgemm_fp8、mxfp4、compressed-tensors、gptq、awq、"
                         "bitsandbytes);权重按 weight_dtype 计算");
        return;
    }
    if (r.bad()) return;

    CoverageWalker walker(a, naming, nested, f);
    const Coverage cov = walker.walk();
    if (walker.budget_exhausted())
        warnings.add("hf_config: " + p + ": the module patterns take too long to evaluate; modules not yet "
                     "checked are taken as quantized",
                     "hf_config:" + p + ":模块匹配模式求值耗时过长;尚未检查的模块按已量化处理");
    Scheme s = f.scheme;
    if (f.targets) {
        if (f.groups.empty()) return;  // nothing quantized: stored as weight_dtype says
        std::size_t best = 0;
        for (std::size_t g = 1; g < f.groups.size(); ++g)
            if (cov.group_mass[g] > cov.group_mass[best]) best = g;
        s = f.groups[best].second;
        for (std::size_t g = 0; g < f.groups.size(); ++g)
            if (g != best && cov.group_mass[g] > 0 && !(f.groups[g].second == s)) {
                warnings.add("hf_config: " + p + ".config_groups: groups store weights differently; every "
                             "quantized linear is sized as " + f.group_names[best] + " (" + scheme_text(s) + ")",
                             "hf_config:" + p + ".config_groups:各组的权重存储方式不同;所有量化线性层都按 " +
                                 f.group_names[best] + "(" + scheme_text(s, true) + ")计算");
                break;
            }
    }
    if (cov.partial)
        warnings.add("hf_config: " + p + ": some layers have only part of their attention or MLP quantized; "
                     "each part is sized as quantized when most of its weights are",
                     "hf_config:" + p + ":部分层的注意力或 MLP 只有一部分被量化;某部分的大多数权重已量化时,按量化计算");
    a.quant_method = lower;
    a.quant_bits = s.bits;
    a.quant_group = s.group;
    a.quant_group_rows = s.rows;
    a.quant_scale_bits = s.scale;
    a.quant_zero_bits = s.zero;
    a.quant_scale2_group = s.scale2;
    a.quant_index_bits = s.index;
    a.quant_attn_layers = rounded(cov.attn);
    a.quant_mlp_layers = rounded(cov.mlp);
    a.quant_moe_layers = rounded(cov.moe);
    a.quant_shared_layers = rounded(cov.shared);
    a.quant_lm_head = cov.lm_head;
    if (f.experts_only && a.num_experts == 0)
        warnings.add("hf_config: " + p + ": " + lower + " quantizes only MoE experts and this model has none; "
                     "its weights are stored 16-bit",
                     "hf_config:" + p + ":" + lower + " 只量化 MoE 专家,而该模型没有专家;其权重以 16 位存储");
}

}  // namespace gpusizer::detail
