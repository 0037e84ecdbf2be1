// One driver for the Verilator harness mains: it owns the context and the model, drives the
// clock (`clk`), evaluates, keeps simulated time, and writes an FST trace on demand, so no
// harness re-invents its main loop. Header-only: the harness mains are compiled by Verilator's
// own build (sim/core/rtl_build.h), not by CMake.
//
// Traces: a model built with `--trace-fst` (build_verilated_model's `trace` option) writes one
// when the harness is run with CMNET_TRACE=FILE.fst in its environment, limited to the cycles
// CMNET_TRACE_FROM .. CMNET_TRACE_TO (inclusive, counted from the harness's time origin: the
// CM-1 harnesses set it where the run starts, so the window is in bit-times of the run; without
// a window, everything from reset on is traced). A model built without it
// refuses CMNET_TRACE with a clear message instead of silently writing nothing.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "verilated.h"
#if VM_TRACE_FST
#include "verilated_fst_c.h"
#endif

namespace cmnet::harness {

template <class Top>
class Driver {
 public:
  // `may_trace`: whether this instance writes the requested trace (a harness of many models
  // traces one of them).
  explicit Driver(bool may_trace = true) : ctx_(std::make_unique<VerilatedContext>()) {
    const char* path = may_trace ? std::getenv("CMNET_TRACE") : nullptr;
    if (path && *path) {
#if VM_TRACE_FST
      ctx_->traceEverOn(true);
      trace_path_ = path;
      if (const char* f = std::getenv("CMNET_TRACE_FROM")) from_ = std::strtoll(f, nullptr, 10), windowed_ = true;
      if (const char* t = std::getenv("CMNET_TRACE_TO")) to_ = std::strtoll(t, nullptr, 10), windowed_ = true;
#else
      std::fprintf(stderr, "harness: CMNET_TRACE=%s but this model was built without --trace-fst\n", path);
      std::exit(2);
#endif
    }
    top_ = std::make_unique<Top>(ctx_.get());
#if VM_TRACE_FST
    if (!trace_path_.empty()) {
      fst_ = std::make_unique<VerilatedFstC>();
      top_->trace(fst_.get(), 99);
      fst_->open(trace_path_.c_str());
    }
#endif
  }
  Driver(const Driver&) = delete;
  Driver& operator=(const Driver&) = delete;
  ~Driver() {
    top_->final();
#if VM_TRACE_FST
    if (fst_) fst_->close();
#endif
  }

  Top* operator->() { return top_.get(); }
  Top& top() { return *top_; }
  const Top& top() const { return *top_; }

  // Evaluates the model (inputs changed between clock edges); the trace records the result
  // with the next clock step.
  void eval() { top_->eval(); }
  // Drives clk to `level`, evaluates, records the signals, and advances time by half a clock
  // (one dump per time step: a second dump at the same time would be refused); a rising edge ends
  // a cycle.
  void clock(bool level) {
    top_->clk = level;
    top_->eval();
#if VM_TRACE_FST
    if (fst_ && in_window()) fst_->dump(ctx_->time());
#endif
    ctx_->timeInc(1);
    if (level) ++cycle_;
  }
  // One whole clock cycle: low, then high.
  void tick() {
    clock(false);
    clock(true);
  }
  // Clock cycles (rising edges) so far.
  uint64_t cycle() const { return cycle_; }
  // For harnesses with their own time base (boards on separate oscillators): the trace's time
  // of the next clock step, in the harness's units (it must not go backwards).
  void set_time(uint64_t t) { ctx_->time(t); }
  // Makes the current cycle the origin of the trace window (e.g. where a run starts).
  void set_time_origin() { origin_ = cycle_; }
  bool tracing() const {
#if VM_TRACE_FST
    return fst_ != nullptr;
#else
    return false;
#endif
  }

 private:
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Top> top_;
  bool in_window() const {
    const int64_t c = static_cast<int64_t>(cycle_) - static_cast<int64_t>(origin_);
    return !windowed_ || (c >= from_ && c <= to_);
  }
  uint64_t cycle_ = 0, origin_ = 0;
  int64_t from_ = 0, to_ = INT64_MAX;
  bool windowed_ = false;
  std::string trace_path_;
#if VM_TRACE_FST
  std::unique_ptr<VerilatedFstC> fst_;
#endif
};

}  // namespace cmnet::harness
