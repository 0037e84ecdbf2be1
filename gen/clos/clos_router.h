// Switch settings of a Clos network N(m, n, r), the off-line router that fills them for any
// permutation when m >= n, and an independent tracer that follows data through settings.
//
// Settings are what the crossbars hold (one select register per crossbar output, as in the
// emitted RTL, hw/clos/clos_crossbar.v): every output of a switch names the input it copies,
// or none. A circuit from input port s (input switch s / n, port s % n) through middle switch k
// to output port d (output switch d / n, port d % n) sets in_sel[s/n][k] = s%n,
// mid_sel[k][d/n] = s/n and out_sel[d/n][d%n] = k.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "gen/clos/clos_params.h"

namespace cmnet {

struct ClosSettings {
  std::vector<std::vector<int>> in_sel;   // [r][m]: input port 0..n-1 copied to middle switch j, or -1
  std::vector<std::vector<int>> mid_sel;  // [m][r]: input switch 0..r-1 copied to output switch o, or -1
  std::vector<std::vector<int>> out_sel;  // [r][n]: middle switch 0..m-1 copied to output port p, or -1
  static ClosSettings empty(const ClosParams& p);
  bool operator==(const ClosSettings& o) const = default;
};

// One circuit: data of input port `src` reaches output port `dst` through middle switch `middle`.
struct ClosCircuit {
  int src = 0;
  int dst = 0;
  int middle = 0;
};

// A (partial) permutation: dest[i] is input i's output port, or -1. InputError when it is not
// one-to-one or out of range.
void check_permutation(const ClosParams& p, const std::vector<int>& dest);

// The off-line router (m >= n; InputError otherwise): every (partial) permutation is routed by
// edge-colouring the bipartite multigraph of input switches x output switches (one edge per
// circuit, degree <= n) with n colours, the colours being middle switches 0..n-1 (Koenig's
// theorem; each conflict is resolved by swapping the two colours along an alternating path, the
// "looping" step). Returns the circuits in input order.
std::vector<ClosCircuit> route_permutation(const ClosParams& p, const std::vector<int>& dest);

// First fit, for any m (blocking networks too): circuits in input order, each through the
// lowest-numbered middle switch with both s-links free; middle = -1 when none is (blocked).
std::vector<ClosCircuit> route_first_fit(const ClosParams& p, const std::vector<int>& dest);

// Settings of a set of circuits; InputError when two circuits need the same c-link or s-link.
ClosSettings settings_of(const ClosParams& p, const std::vector<ClosCircuit>& circuits);

// Follows every input port through the settings, independently of how they were made. `reached`
// [i] = the output port input i arrives at (-1: none). `error` names the first fault: an input
// reaching more than one output (fan-out), a link carrying two circuits, an output fed from no
// input through a partial path is not an error (idle outputs read 0).
struct ClosTrace {
  std::vector<int> reached;
  std::string error;  // "" when every link carries at most one circuit and nothing fans out
};
ClosTrace trace(const ClosParams& p, const ClosSettings& s);

// The configuration port's writes for `s`: (address, word) for every crossbar output, in address
// order (ClosParams::cfg_* names the layout); word = {valid, select}.
std::vector<std::pair<uint32_t, uint32_t>> cfg_writes(const ClosParams& p, const ClosSettings& s);

// The Benes network of N = 2^k ports: 2k - 1 stages of N/2 2 x 2 switches, the Clos network
// N(2, 2, N/2) with Benes networks of N/2 ports as its two middle switches, recursively.
// cross[s][w]: switch w of stage s crosses (input 0 -> output 1). Stage 0 switch u takes ports
// 2u, 2u+1 and feeds input u of the upper (output 0) and lower (output 1) half network; the
// last stage's switch v takes output v of the upper half on input 0 and of the lower on input 1
// and drives ports 2v, 2v+1. The halves sit in rows 0..N/4-1 and N/4..N/2-1 of stages
// 1..2k-3, recursively.
struct BenesSettings {
  int k = 1;
  std::vector<std::vector<char>> cross;  // [2k-1][N/2]
};
// Routes a full permutation of 2^k ports (k = 1..16) by the looping algorithm applied
// recursively: the outer N(2, 2, N/2) by route_permutation, then each half's permutation.
BenesSettings route_benes(const std::vector<int>& dest);
// Where every input arrives, following the switch settings stage by stage.
std::vector<int> trace_benes(const BenesSettings& s);

}  // namespace cmnet
