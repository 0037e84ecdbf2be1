// Parameters of a three-stage Clos circuit network N(m, n, r) (Clos 1953; CONNECT, Li and Rishe
// 1991): r input switches n x m, m intermediary ("middle") switches r x r, r output switches
// m x n, circuits `width` bits wide; and of its parallel circuit set-up (hnodes on a hypercube).
// One struct drives the emitter, the off-line router, the set-up model and the reports.
#pragma once

#include <cstdint>
#include <string>

namespace cmnet {

// The case the generator names: m >= 2n - 1 strictly non-blocking (Clos), m >= n
// rearrangeable (Slepian-Duguid / Benes), blocking otherwise.
enum class ClosKind { kStrictlyNonBlocking, kRearrangeable, kBlocking };
const char* to_string(ClosKind k);

struct ClosParams {
  int m = 3;       // middle switches (= outputs of an input switch)
  int n = 2;       // inputs of an input switch (= outputs of an output switch)
  int r = 4;       // input switches = output switches (= ports of a middle switch)
  int width = 8;   // circuit width in bits (c-links and s-links)
  // The control hypercube of the set-up model: 2^hnode_dims hnodes (at most r). Input and output
  // switch i and middle switch k belong to hnodes i mod 2^M and k mod 2^M.
  int hnode_dims = 1;
  int cancel_limit = 3;  // CANCELs of one connection before h_d sends RESEND (paper: "say three")
  // Where h_d's search for a free middle switch starts (then upwards, wrapping), in the RTL and
  // the model alike: false = at h_d's own first middle switch (the paper's reference order,
  // "ascending ... starting from h_d"), true = at (input switch + output switch) mod m (a Latin
  // square: config "select": "pair"), which spreads one input switch's CRs over the middle switches.
  bool select_pair = false;
  // A CR that waited in the destination's WaitingQueue carries an InputVector as old as its wait:
  // true = h_d answers it, when it takes the leaf, with the paper's RESEND (h_o sends the CR again
  // with its current InputVector) instead of selecting with the old vector.
  bool resend_after_wait = false;

  int ports() const { return n * r; }  // N: data processors (c-links each side)
  int hnodes() const { return 1 << hnode_dims; }
  ClosKind kind() const {
    if (m >= 2 * n - 1) return ClosKind::kStrictlyNonBlocking;
    if (m >= n) return ClosKind::kRearrangeable;
    return ClosKind::kBlocking;
  }
  // Crosspoints: r*n*m + m*r*r + r*m*n (a full N x N crossbar has N^2).
  int64_t crosspoints() const {
    return 2ll * r * n * m + static_cast<int64_t>(m) * r * r;
  }
  int64_t crossbar_crosspoints() const { return static_cast<int64_t>(ports()) * ports(); }
  int s_links() const { return 2 * r * m; }  // input s-links + output s-links
  int switches() const { return 2 * r + m; }
  // The configuration port: one select register per crossbar output, addressed flat:
  // input switch i output j at i*m + j, middle switch k output o at r*m + k*r + o, output
  // switch i output p at 2*r*m + i*n + p.
  int cfg_entries() const { return 2 * r * m + r * n; }
  int cfg_addr_bits() const;
  int cfg_sel_bits() const;  // enough for the widest crossbar's input count
  int in_cfg_base() const { return 0; }
  int mid_cfg_base() const { return r * m; }
  int out_cfg_base() const { return 2 * r * m; }
};

// Throws cmnet::ConfigError naming `where`, the field, its value and the allowed range.
void validate(const ClosParams& p, const std::string& where);

// "N(3, 2, 4)".
std::string clos_name(const ClosParams& p);

}  // namespace cmnet
