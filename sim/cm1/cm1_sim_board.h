// The simulated CM-1 board as a server process: builds (or finds in the cache) the Verilator
// model of the generated board top with sim/cm1/cm1_board_main.cpp, starts it on 127.0.0.1 with an
// ephemeral port, and stops it on destruction. `cmnet run` starts one when no board URI is
// given; tests use it to drive the real host driver against the RTL.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <string>

#include "gen/cm1/cm1_host_board_emitter.h"
#include "sim/core/harness_process.h"
#include "sim/core/rtl_build.h"

namespace cmnet {

std::string build_cm1_board_model(const Cm1Config& cfg, const HostBoardOptions& opt = {}, bool trace = false);
// The same from Verilog already on disk (e.g. the rtl/ directory `cmnet build` synthesized):
// `opt` must be the options it was emitted with (the UART clocks per bit).
std::string build_cm1_board_model(const GeneratedDesign& design, const HostBoardOptions& opt, bool trace = false);

class Cm1SimBoard {
 public:
  // `trace`: an FST waveform of the board, its window in clock cycles after the power-on reset.
  explicit Cm1SimBoard(const Cm1Config& cfg, const HostBoardOptions& opt = {}, const TraceWindow& trace = {});
  // Runs the given board top (cm1_host_board) instead of emitting one.
  Cm1SimBoard(const GeneratedDesign& design, const HostBoardOptions& opt, const TraceWindow& trace = {});

  std::string uri() const { return "sim://127.0.0.1:" + std::to_string(port()); }
  uint16_t port() const { return proc_->port(); }
  pid_t pid() const { return proc_->pid(); }
  const std::string& log_path() const { return proc_->log_path(); }
  // SIGTERM, wait; returns the harness's last stdout line (its statistics). Idempotent.
  std::string stop() { return proc_->stop(); }
  // SIGKILL without waiting for statistics (a board that vanishes).
  void kill_now() { proc_->kill_now(); }
  // LiteX's csr.csv of this board top (its registers and identifier_mem), written beside the
  // model's Verilog: litex_client --csr-csv FILE --regs / --ident against this board.
  const std::string& csr_csv_path() const { return csr_csv_; }

 private:
  std::string csr_csv_;
  std::unique_ptr<HarnessProcess> proc_;
};

}  // namespace cmnet
