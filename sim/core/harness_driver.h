// One driver for the Verilator harness mains: it owns the context and the model, drives the
// clock (`clk`), evaluates, keeps simulated time, and writes an FST trace on demand, so no
// harness re-invents its main loop. Header-only: the harness mains are compiled by Verilator's
// own build (sim/core/rtl_build.h), not by CMake.
//
// Traces: a model built with `--trace-fst` (build_verilated_model's `trace` option) writes one
// when the harness is run with CMNET_TRACE=FILE.fst in its environment, limited to the cycles
// CMNET_TRACE_FROM .. CMNET_TRACE_TO (inclusive, counted from the driver's origin; without a
// window, every cycle from the origin on). The origin is the first clock (Origin::kReset), or,
// for a harness with a run (Origin::kRun), the cycle where it calls set_time_origin(): nothing
// before it is traced (reset, loading), so a window T0..T1 holds cycles T0..T1 of the run and
// nothing else. The trace's time axis starts at the origin too: cycle c is at times 2c (clock
// low) and 2c + 1 (clock high). A model built without `--trace-fst` refuses CMNET_TRACE with a
// clear message instead of silently writing nothing.
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

// Where a trace window's cycle 0 is.
enum class Origin {
  kReset,  // the first clock of the model
  kRun,    // where the harness calls set_time_origin() (the start of its run)
};

template <class Top>
class Driver {
 public:
  // `may_trace`: whether this instance writes the requested trace (a harness of many models
  // traces one of them).
  explicit Driver(Origin origin = Origin::kReset, bool may_trace = true)
      : ctx_(std::make_unique<VerilatedContext>()), origin_kind_(origin) {
    const char* path = may_trace ? std::getenv("CMNET_TRACE") : nullptr;
    if (path && *path) {
#if VM_TRACE_FST
      ctx_->traceEverOn(true);
      trace_path_ = path;
      if (const char* f = std::getenv("CMNET_TRACE_FROM")) from_ = std::strtoll(f, nullptr, 10);
      if (const char* t = std::getenv("CMNET_TRACE_TO")) to_ = std::strtoll(t, nullptr, 10);
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
    if (fst_ && in_window()) fst_->dump(ctx_->time() - origin_time_);
#endif
    ctx_->timeInc(1);
    if (level) ++cycle_;
  }
  // One whole clock cycle: low, then high.
  void tick() {
    clock(false);
    clock(true);
  }
  // Reset: `rst` high for `cycles` whole clock cycles, then low (the other inputs set first).
  void reset(int cycles = 2) {
    top_->rst = 1;
    for (int i = 0; i < cycles; ++i) tick();
    top_->rst = 0;
  }
  // For a top with several clocks (boards on their own oscillators, in the harness's own time
  // base): evaluates at time t (never going backwards) and records the signals, once per time
  // (two clock edges at the same instant are one step of the trace). No window: the whole run.
  void eval_at(uint64_t t) {
    ctx_->time(t);
    top_->eval();
#if VM_TRACE_FST
    if (fst_ && (!dumped_ || t != last_dump_)) fst_->dump(t);
    dumped_ = true;
    last_dump_ = t;
#endif
  }
  // Clock cycles (rising edges) so far.
  uint64_t cycle() const { return cycle_; }
  // For harnesses with their own time base (boards on separate oscillators): the trace's time
  // of the next clock step, in the harness's units (it must not go backwards).
  void set_time(uint64_t t) { ctx_->time(t); }
  // Makes the current cycle the origin of the trace window and of its time axis (where the run
  // starts). Only for a driver made with Origin::kRun, and once: a window counted from
  // anywhere else would silently hold other cycles than the ones asked for.
  void set_time_origin() {
    if (origin_kind_ != Origin::kRun || origin_set_) {
      std::fprintf(stderr, "harness: set_time_origin() %s\n",
                   origin_set_ ? "called twice" : "on a driver whose origin is its reset (make it with Origin::kRun)");
      std::exit(2);
    }
    origin_ = cycle_;
    origin_time_ = ctx_->time();
    origin_set_ = true;
  }
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
    if (origin_kind_ == Origin::kRun && !origin_set_) return false;  // before the run
    const int64_t c = static_cast<int64_t>(cycle_) - static_cast<int64_t>(origin_);
    return c >= from_ && c <= to_;
  }
  const Origin origin_kind_;
  bool origin_set_ = false;
  uint64_t cycle_ = 0, origin_ = 0, origin_time_ = 0;
  bool dumped_ = false;
  uint64_t last_dump_ = 0;
  int64_t from_ = 0, to_ = INT64_MAX;
  std::string trace_path_;
#if VM_TRACE_FST
  std::unique_ptr<VerilatedFstC> fst_;
#endif
};

}  // namespace cmnet::harness
