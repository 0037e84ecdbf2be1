// What the five Clos harness mains (sim/clos/*_main.cpp) share: reading their input records
// (sim/clos/*_rtl.cpp write them), the replay of a model's operations one clock each (hnode; the
// leaf status two, its status read a clock ahead), the per-port message queues offered to a top (engines and tree) and their
// "TAG CYCLE PORT HEX" log lines. Header-only: the mains are compiled by Verilator's build
// (sim/core/rtl_build.h), not by CMake.
#pragma once

#include <cctype>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <string>
#include <vector>

#include "sim/core/harness_driver.h"
#include "sim/core/harness_io.h"
#include "sim/core/verilator_ports.h"

namespace cmnet::clos_harness {

using harness::die;

// The input: whitespace-separated records "KIND field ...", read field by field; a field that
// does not parse ends the harness naming its record's kind.
class Reader {
 public:
  explicit Reader(std::FILE* in) : in_(in) {}

  // The next record's kind; false at the end of the input.
  bool next(std::string& kind) {
    kind = kind_ = token();
    return !kind.empty();
  }
  // The next record, which must be `kind` (the params record every input starts with).
  void expect(const char* kind) {
    std::string k;
    if (!next(k) || k != kind) die(std::string("expected a ") + kind + " record");
  }
  int i32() { return scan<int>("%d"); }
  uint64_t u64() { return scan<uint64_t>("%" SCNu64); }
  uint64_t hex() { return scan<uint64_t>("%" SCNx64); }
  // A field as it is written (a bit string).
  std::string word() {
    std::string w = token();
    if (w.empty()) die("missing field in a " + kind_ + " record");
    return w;
  }
  // Whether the rest of the record's line holds `flag` (an optional trailing word).
  bool line_has(const char* flag) {
    std::string rest;
    for (int c = std::fgetc(in_); c != EOF && c != '\n'; c = std::fgetc(in_)) rest.push_back(static_cast<char>(c));
    return rest.find(flag) != std::string::npos;
  }

 private:
  template <class T>
  T scan(const char* format) {
    T v{};
    if (std::fscanf(in_, format, &v) != 1) die("bad " + kind_ + " record");
    return v;
  }
  // The next whitespace-separated word; empty at the end of the input.
  std::string token() {
    std::string t;
    int c = std::fgetc(in_);
    while (c != EOF && std::isspace(c)) c = std::fgetc(in_);
    for (; c != EOF && !std::isspace(c); c = std::fgetc(in_)) t.push_back(static_cast<char>(c));
    if (c != EOF) std::ungetc(c, in_);  // the separator: line_has() reads up to the line's end
    return t;
  }
  std::FILE* in_;
  std::string kind_;
};

// One top's operations replayed one clock each, the reference model's decisions compared with
// the top's: "reset" starts a new hnode (rst high for one clock), "op FIELDS" is one operation
// (op_valid high for one clock, after `lead` clocks with its inputs set and op_valid low: the leaf
// status reads the operation's leaf a clock ahead). The first differences are written as "mismatch OPNO WHAT GOT
// WANT"; write_result() ends the output with "result OPS MISMATCHES [MORE ...]". The trace counts
// from the first clock.
template <class Top>
class OpReplay {
 public:
  OpReplay(Reader& in, std::FILE* out, int lead = 0) : in_(in), out_(out), lead_(lead) {}

  // `drive(top)` reads an op record's fields and sets the top's op inputs; `check(top)` compares
  // the top's decisions, evaluated with the operation's inputs before the clock edge.
  template <class Drive, class Check>
  void run(Drive&& drive, Check&& check) {
    std::string kind;
    while (in_.next(kind)) {
      if (kind == "reset") {
        top_->op_valid = 0;
        top_.reset(1);
        continue;
      }
      if (kind != "op") die("unknown record '" + kind + "'");
      drive(top_.top());
      for (int i = 0; i < lead_; ++i) top_.tick();
      top_->op_valid = 1;
      top_.clock(false);
      check(top_.top());
      top_.clock(true);
      top_->op_valid = 0;
      ++ops_;
    }
  }
  // A decision that differs from the model's (the first 8 are written).
  void bad(const char* what, long got, long want) {
    if (mismatches_++ < 8)
      std::fprintf(out_, "mismatch %llu %s %ld %ld\n", static_cast<unsigned long long>(ops_), what, got, want);
  }
  void write_result(const std::vector<uint64_t>& more = {}) const {
    std::fprintf(out_, "result %llu %llu", static_cast<unsigned long long>(ops_),
                 static_cast<unsigned long long>(mismatches_));
    for (uint64_t v : more) std::fprintf(out_, " %llu", static_cast<unsigned long long>(v));
    std::fprintf(out_, "\n");
  }

 private:
  Reader& in_;
  std::FILE* out_;
  int lead_;
  harness::Driver<Top> top_;
  uint64_t ops_ = 0, mismatches_ = 0;
};

// Per-port message queues offered to a top: each cycle the head of each queue on its port (a
// VALID bit and MW bits of MSG), until the top takes it (its TAKE bit, read after evaluation).
class MsgQueues {
 public:
  MsgQueues(int ports, int mw) : q_(static_cast<size_t>(ports)), mw_(mw) {}

  void push(int port, uint64_t msg) { q_[static_cast<size_t>(port)].push_back(msg); }
  template <class Valid, class Msg>
  void offer(Valid& valid, Msg& msg) const {
    for (size_t p = 0; p < q_.size(); ++p) {
      const int i = static_cast<int>(p);
      vport::set_bit(valid, i, !q_[p].empty());
      vport::set_field(msg, i * mw_, mw_, q_[p].empty() ? 0 : q_[p].front());
    }
  }
  template <class Take>
  void take(const Take& take) {
    for (size_t p = 0; p < q_.size(); ++p)
      if (vport::get_bit(take, static_cast<int>(p))) q_[p].pop_front();
  }

 private:
  std::vector<std::deque<uint64_t>> q_;
  int mw_;
};

// A log line "TAG CYCLE PORT HEX": a message a port handled, sent, kept or delivered.
inline void write_msg(std::FILE* out, char tag, uint64_t cycle, int port, uint64_t msg) {
  std::fprintf(out, "%c %llu %d %llx\n", tag, static_cast<unsigned long long>(cycle), port,
               static_cast<unsigned long long>(msg));
}

}  // namespace cmnet::clos_harness
