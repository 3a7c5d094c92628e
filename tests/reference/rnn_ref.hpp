// Naive reference of the recurrent primitives (vanilla RNN, LSTM with
// optional peephole and projection, GRU, LBR-GRU, AUGRU, LBR-AUGRU) on
// logical tensors (row-major doubles): forward by the cell equations
// written out per element, backward by back-propagation through time of
// the same equations (checked against finite differences in the tests).
//
// Layouts: src_layer / dst_layer [T][N][C]; src_iter / dst_iter
// [L][D][N][C]; weights_layer [L][D][SLC][G][DHC]; weights_iter
// [L][D][SIC][G][DHC]; peephole [L][D][3][DHC]; projection
// [L][D][DHC][DIC]; bias [L][D][G (+1 for LBR)][DHC]; attention [T][N].
// Gates: LSTM i, f, c~, o; GRU u, r, o. Empty vectors are absent tensors
// (zero initial states, no peephole, ...).
#pragma once

#include <cstdint>
#include <vector>

namespace rnn_ref {

enum class cell_t { vanilla, lstm, gru, lbr_gru, augru, lbr_augru };
enum class dir_t { l2r, r2l, concat, sum };
enum class act_t { relu, tanh, logistic };

struct problem_t {
    cell_t cell = cell_t::lstm;
    dir_t dir = dir_t::l2r;
    act_t act = act_t::tanh;
    double alpha = 0; // relu negative slope
    int64_t L = 1, T = 1, N = 1, SLC = 1, SIC = 1, DHC = 1, DIC = 1;
    bool peephole = false, projection = false;
    int64_t D() const { return dir == dir_t::l2r || dir == dir_t::r2l ? 1 : 2; }
    int64_t G() const {
        return cell == cell_t::vanilla ? 1 : cell == cell_t::lstm ? 4 : 3;
    }
    bool lbr() const { return cell == cell_t::lbr_gru || cell == cell_t::lbr_augru; }
    bool augru() const { return cell == cell_t::augru || cell == cell_t::lbr_augru; }
    int64_t DLC() const { return dir == dir_t::concat ? 2 * DIC : DIC; }
};

struct tensors_t {
    std::vector<double> src_layer, src_iter, src_iter_c, attention;
    std::vector<double> weights_layer, weights_iter, peephole, projection, bias;
    std::vector<double> dst_layer, dst_iter, dst_iter_c;
};

struct diffs_t {
    // inputs
    std::vector<double> dst_layer, dst_iter, dst_iter_c;
    // outputs
    std::vector<double> src_layer, src_iter, src_iter_c, attention;
    std::vector<double> weights_layer, weights_iter, peephole, projection, bias;
};

// Fills t.dst_* (dst_iter / dst_iter_c always computed, L*D*N*C).
void forward(const problem_t &p, tensors_t &t);

// Fills the output fields of `d` (every diff, for present tensors and
// the absent initial states alike).
void backward(const problem_t &p, const tensors_t &t, diffs_t &d);

} // namespace rnn_ref
