// The reorders that quantize for int8 recurrent primitives, driven by the
// RNN quantization attributes (rnn_quant:*), as oneDNN's int8 RNN examples
// use them: the same attribute that makes the RNN primitive descriptor
// also makes the reorders of its data and weights. What they take, refuse
// and compute is common to the engines (common/rnn_quant_conf.hpp); here
// is the CPU's pass over the elements. The int8 RNN picks plain weights
// for `any`, so its weights reorder lands here rather than on a packed
// format.
#pragma once

#include "common/exec_ctx.hpp"
#include "common/reorder_pd.hpp"
#include "common/rnn_quant_conf.hpp"
#include "cpu/cpu_primitive.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace reorder {

struct rnn_quant_reorder_t : public primitive_t {
    struct pd_t : public cpu_pd_t<reorder_pd_t, rnn_quant_reorder_t> {
        using cpu_pd_t::cpu_pd_t;
        const char *name() const override {
            return conf.weights ? "rnn_quant:weights" : "rnn_quant:data";
        }
        status_t init(engine_t *engine) {
            return init_rnn_quant_conf(*attr(), *src_md(), *dst_md(), conf);
        }

        rnn_quant_conf_t conf;
    };

    using primitive_t::primitive_t;
    status_t execute(const exec_ctx_t &ctx) const override;

private:
    const pd_t *pd_() const { return static_cast<const pd_t *>(pd()); }
};

} // namespace reorder
} // namespace cpu
} // namespace impl
} // namespace dnnl
