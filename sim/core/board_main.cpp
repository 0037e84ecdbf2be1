// A simulated board: a Verilator model of the very board top that is flashed (any family's
// <family>_host_board, gen/core/host_board.h: PHY pins, frame engine, register block, network;
// built with -DCMNET_TOP=V<family>_host_board), its UART pins driven by
// a host-side UART line model, or (built with -DCMNET_FIFO_PHY=1) its FT245 FIFO pins by a model
// of the FIFO chip, bridged to a TCP socket on 127.0.0.1 (sim/core/board_rtl_bridge.h).
//   harness [--port N] [--stall-timeout-ms N]
// Built with +define+CMNET_SIMULATED_BOARD: the top's sim_link_stalled / sim_stall_expired ports
// let the bridge wait for the host's bytes without clocking and drop a partial frame or UARTBone
// command after stall-timeout-ms of wall time (sim/core/board_rtl_bridge.h).
// Prints the port on stdout once listening; stops on SIGTERM/SIGINT and prints one line
// "stats cycles=... bytes_to_board=... bytes_to_host=...".
#include "sim/core/board_rtl_bridge.cpp"  // NOLINT(bugprone-suspicious-include): one harness binary

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

#ifndef CMNET_TOP
#error "build with -DCMNET_TOP=V<family>_host_board (the Verilated board top's class)"
#endif
#define CMNET_STR2(x) #x
#define CMNET_STR(x) CMNET_STR2(x)
#include CMNET_STR(CMNET_TOP.h)
#include "sim/core/harness_driver.h"

using cmnet::rtlsim::BoardRtlBridge;
using cmnet::rtlsim::BridgeOptions;
using cmnet::rtlsim::ByteLinkModel;
using cmnet::rtlsim::Ft245Chip;
using cmnet::rtlsim::UartHostLine;

#ifndef CMNET_RESET_BUTTON
#define CMNET_RESET_BUTTON 1  // the top has a btn_n port (HostBoardOptions::reset_button)
#endif

#ifndef CMNET_FIFO_PHY
#define CMNET_FIFO_PHY 0
#endif

#if !CMNET_FIFO_PHY && !defined(CMNET_CLKS_PER_BIT)
#error "build with -DCMNET_CLKS_PER_BIT=<the board top's UART clocks per bit>"
#endif

namespace {

std::atomic<bool> g_stop{false};
void on_signal(int) { g_stop = true; }

class BoardLink : public ByteLinkModel {
 public:
#if CMNET_FIFO_PHY
  // The FIFO chip reports empty/full at random on 10% of the cycles, as USB packets do.
  BoardLink() : chip_(1, 10) {
    m_->ft_rxf_n = 1;
    m_->ft_txe_n = 1;
#else
  BoardLink() : uart_(CMNET_CLKS_PER_BIT) {
    m_->uart_rx = 1;
#endif
    m_->clk = 0;
    m_->sim_stall_expired = 0;
#if CMNET_RESET_BUTTON
    m_->btn_n = 1;
#endif
    m_.eval();
    std::deque<uint8_t> none;
    std::vector<uint8_t> ignored;
    // The board's power-on reset lasts 16 cycles.
    for (int i = 0; i < 40; ++i) cycle(none, ignored);
    out_of_reset_ = true;
    m_.set_time_origin();  // trace windows count clock cycles after the power-on reset
  }

#if CMNET_FIFO_PHY
  void cycle(std::deque<uint8_t>& to_board, std::vector<uint8_t>& to_host) override {
    auto& m = m_.top();
    const auto p = chip_.outputs(to_board, m.ft_oe_n);
    m.ft_rxf_n = p.rxf_n;
    m.ft_txe_n = p.txe_n;
    m.ft_data_in = p.data;
    m_.clock(false);
    Ft245Chip::FpgaPins f;
    f.rd_n = m.ft_rd_n;
    f.wr_n = m.ft_wr_n;
    f.oe_n = m.ft_oe_n;
    f.data_oe = m.ft_data_oe;
    f.data_out = m.ft_data_out;
    m_.clock(true);
    if (!out_of_reset_) return;  // the FIFO pins mean nothing before the power-on reset is over
    chip_.edge(f, to_board, to_host);
    if (chip_.violations() > 0) {
      std::fprintf(stderr, "simulated board: FT245 protocol violation: %s\n", chip_.first_violation().c_str());
      std::fflush(stderr);
      std::_Exit(3);
    }
  }
  uint64_t framing_errors() const { return 0; }
  bool phy_busy() const { return false; }
#else
  void cycle(std::deque<uint8_t>& to_board, std::vector<uint8_t>& to_host) override {
    auto& m = m_.top();
    m.uart_rx = uart_.drive(to_board);
    m_.clock(false);
    uart_.sample(m.uart_tx, to_host);
    m_.clock(true);
  }
  uint64_t framing_errors() const { return uart_.framing_errors(); }
  bool phy_busy() const { return uart_.busy(); }
#endif

  // led = {rst, heartbeat, link busy, running}; sim_link_stalled: only a partial frame or
  // command waits for bytes (the top's PHY and network idle).
  Activity activity() const override {
    const auto led = m_.top().led;
    if (phy_busy() || (led & 0x8)) return Activity::Busy;
    if (m_.top().sim_link_stalled) return Activity::Waiting;
    if (led & 0x3) return Activity::Busy;
    return Activity::Idle;
  }
  // The stall timeout passed (wall time): one cycle with sim_stall_expired drops the partial.
  void expire_stall(std::deque<uint8_t>& to_board, std::vector<uint8_t>& to_host) override {
    m_.top().sim_stall_expired = 1;
    cycle(to_board, to_host);
    m_.top().sim_stall_expired = 0;
  }

 private:
  cmnet::harness::Driver<CMNET_TOP> m_{cmnet::harness::Origin::kRun};
  bool out_of_reset_ = false;
#if CMNET_FIFO_PHY
  Ft245Chip chip_;
#else
  UartHostLine uart_;
#endif
};

}  // namespace

int main(int argc, char** argv) {
  BridgeOptions opt;
  for (int i = 1; i < argc; ++i) {
    auto value = [&]() -> unsigned long long {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "simulated board: %s needs a value\n", argv[i]);
        std::exit(2);
      }
      return std::strtoull(argv[++i], nullptr, 10);
    };
    if (!std::strcmp(argv[i], "--port")) opt.port = static_cast<uint16_t>(value());
    else if (!std::strcmp(argv[i], "--stall-timeout-ms")) opt.stall_timeout_ms = value();
    else {
      std::fprintf(stderr, "usage: harness [--port N] [--stall-timeout-ms N]\n");
      return 2;
    }
  }
  std::signal(SIGTERM, on_signal);
  std::signal(SIGINT, on_signal);
  try {
    BoardLink link;
    BoardRtlBridge bridge(link, opt);
    std::printf("%u\n", bridge.port());
    std::fflush(stdout);
    bridge.run(g_stop);
    const auto& s = bridge.stats();
    std::printf("stats cycles=%llu bytes_to_board=%llu bytes_to_host=%llu connections=%llu "
                "framing_errors=%llu\n",
                static_cast<unsigned long long>(s.cycles),
                static_cast<unsigned long long>(s.bytes_to_board),
                static_cast<unsigned long long>(s.bytes_to_host),
                static_cast<unsigned long long>(s.connections),
                static_cast<unsigned long long>(link.framing_errors()));
    std::fflush(stdout);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "simulated board: %s\n", e.what());
    return 1;
  }
  return 0;
}
