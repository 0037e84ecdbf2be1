// What the two hypercube harness mains (hcube_network_main.cpp, packet scheme;
// hcube_worm_main.cpp, wormhole) share: reading their input records (sim/hcube/hcube_rtl.cpp
// writes them), the nodes' message queues, and the run: reset, cycle loop and the summary they
// end their output with. Header-only: the mains
// are compiled by Verilator's build (sim/core/rtl_build.h), not by CMake.
#pragma once

#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <string>
#include <vector>

#include "sim/core/harness_driver.h"
#include "sim/core/harness_io.h"
#include "sim/core/verilator_ports.h"

namespace cmnet::hcube_harness {

using harness::die;

// The "params" fields both harnesses have: "params NODES N MAX_CYCLES ...".
struct Params {
  int nodes = 0, dims = 0;
  uint64_t max_cycles = 0;
};

// The fields every "msg" record starts with: "msg SRC DST GEN ...".
struct MsgHead {
  uint32_t src = 0, dst = 0;
  uint64_t gen = 0;
};

// The input: whitespace-separated records "KIND field ...", read field by field; any field that
// does not parse ends the harness naming the record kind.
class Reader {
 public:
  explicit Reader(std::FILE* in) : in_(in) {}

  // Every record: the fields of "params" and "msg" that both harnesses have, then
  // `params_rest()` or `msg(head)` reads the rest of the record; any other kind ends the harness,
  // and so does an input without its params.
  template <class ParamsRest, class Msg>
  Params read(ParamsRest&& params_rest, Msg&& msg) {
    Params p;
    std::string kind;
    while (next(kind)) {
      if (kind == "params") {
        p.nodes = i32();
        p.dims = i32();
        p.max_cycles = u64();
        params_rest();
      } else if (kind == "msg") {
        MsgHead h;
        h.src = u32();
        h.dst = u32();
        h.gen = u64();
        msg(h);
      } else {
        die("unknown record");
      }
    }
    if (p.nodes <= 0 || p.dims <= 0) die("missing params");
    return p;
  }

  // The next record's kind; false at the end of the input.
  bool next(std::string& kind) {
    char k[16];
    if (std::fscanf(in_, "%15s", k) != 1) return false;
    kind_ = kind = k;
    return true;
  }
  uint64_t u64() {
    uint64_t v = 0;
    if (std::fscanf(in_, "%" SCNu64, &v) != 1) die("bad " + kind_ + " record");
    return v;
  }
  uint32_t u32() { return static_cast<uint32_t>(u64()); }
  int i32() { return static_cast<int>(u64()); }
  // A field of hexadecimal digit pairs as bytes.
  std::vector<uint8_t> hex() {
    std::string s;
    int c = std::fgetc(in_);
    while (c == ' ' || c == '\t' || c == '\n' || c == '\r') c = std::fgetc(in_);
    for (; c != EOF && c != ' ' && c != '\t' && c != '\n' && c != '\r'; c = std::fgetc(in_)) s.push_back(static_cast<char>(c));
    if (s.empty() || s.size() % 2) die("bad bytes in a " + kind_ + " record");
    std::vector<uint8_t> b;
    b.reserve(s.size() / 2);
    for (size_t i = 0; i < s.size(); i += 2) b.push_back(static_cast<uint8_t>(hexval(s[i]) * 16 + hexval(s[i + 1])));
    return b;
  }

 private:
  int hexval(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f') return (c | 0x20) - 'a' + 10;
    die("bad hex digit in a " + kind_ + " record");
  }
  std::FILE* in_;
  std::string kind_;
};

// The nodes' hosts: each node's message queue (indices into the harness's list of messages, in
// the order the node sends them) and the run that offers them and collects what arrives.
class Hosts {
 public:
  template <class Msg>
  Hosts(int nodes, int dims, const std::vector<Msg>& msgs)
      : dims_(dims), messages_(msgs.size()), queue_(static_cast<size_t>(nodes)), head_(static_cast<size_t>(nodes), 0) {
    for (size_t i = 0; i < msgs.size(); ++i) queue_.at(msgs[i].src).push_back(i);
  }

  // The message at the head of node x's queue; false when the queue is empty.
  bool head(int x, size_t& msg) const {
    const auto& q = queue_[static_cast<size_t>(x)];
    const size_t h = head_[static_cast<size_t>(x)];
    if (h >= q.size()) return false;
    msg = q[h];
    return true;
  }

  // The run, after a reset of two cycles with every router enabled (the stream board is what holds
  // `en` low) from which time counts: cycle t by cycle t, until every message has arrived or
  // max_cycles, `offer(t)` drives the sources, the clock falls, the heads the nodes took move on,
  // `eject(t)` reads what the nodes eject and returns how many messages it completed, the clock
  // rises. Then "done CYCLES COMPLETED", "speed CYCLES SECONDS" and per node "cnt NODE v0 v1 ..."
  // (port * 4 + kind), after three idle cycles (a counter shows an event a cycle late).
  template <class Top, class Offer, class Eject>
  void run(harness::Driver<Top>& top, uint64_t max_cycles, std::FILE* out, Offer&& offer, Eject&& eject) {
    top->clear = 0;
    top->en = 1;
    top->cnt_node = 0;
    top->cnt_sel = 0;
    top.reset();
    top.set_time_origin();
    const int nodes = static_cast<int>(queue_.size());
    size_t arrived = 0;
    uint64_t cycles = 0;
    const auto t0 = std::chrono::steady_clock::now();
    for (uint64_t t = 0; t < max_cycles && arrived < messages_; ++t) {
      offer(t);
      top.clock(false);
      for (int x = 0; x < nodes; ++x)
        if (vport::get_bit(top->src_take, x)) ++head_[static_cast<size_t>(x)];
      arrived += eject(t);
      top.clock(true);
      cycles = t + 1;
    }
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    for (int x = 0; x < nodes; ++x) vport::set_bit(top->src_valid, x, false);
    for (int k = 0; k < 3; ++k) top.tick();
    std::fprintf(out, "done %" PRIu64 " %d\n", cycles, arrived >= messages_ ? 1 : 0);
    std::fprintf(out, "speed %" PRIu64 " %.6f\n", cycles, secs);
    for (int x = 0; x < nodes; ++x) {
      std::fprintf(out, "cnt %d", x);
      for (int s = 0; s < 4 * dims_; ++s) {
        top->cnt_node = static_cast<uint32_t>(x);
        top->cnt_sel = static_cast<uint32_t>(s);
        top.eval();
        std::fprintf(out, " %u", static_cast<unsigned>(top->cnt_value));
      }
      std::fprintf(out, "\n");
    }
  }

 private:
  const int dims_;
  const size_t messages_;
  std::vector<std::vector<size_t>> queue_;
  std::vector<size_t> head_;
};

}  // namespace cmnet::hcube_harness
