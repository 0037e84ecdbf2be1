// Verilator harness: the host-link test board (hw/common/cmnet_host_link_testtop.v, wrapped as
// cmnet_host_link_sim by sim/core/host_link_rtl.cpp) served on 127.0.0.1 through BoardRtlBridge,
// so the real host driver (BoardClient, sim://127.0.0.1:PORT) talks to the RTL.
//
//   harness [--port N] [--throttle PERCENT] [--seed S] [--stall-timeout-ms N]
//
// Prints the port on stdout (one line) once listening; on SIGTERM/SIGINT stops and prints one
// statistics line, "stats key=value ...", on stdout. Exits 3 at once if the FT245 model sees
// a protocol violation (the line is printed on stderr), so a test's client sees the board go.
// The PHY (bytes, UART, FIFO) is a parameter of the model; the harness reads it from the
// model's cfg_phy / cfg_clks_per_bit ports. --throttle: percent of cycles the host side is not
// ready (bytes PHY) or the FT245 reports empty/full (FIFO PHY).
//
// build_verilated_model() compiles one harness source, so the bridge is compiled into it here.
#include "sim/core/board_rtl_bridge.cpp"  // NOLINT(bugprone-suspicious-include)

#include <sys/prctl.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>

#include "Vcmnet_host_link_sim.h"
#include "sim/core/harness_driver.h"

using cmnet::rtlsim::BoardRtlBridge;
using cmnet::rtlsim::BridgeOptions;
using cmnet::rtlsim::ByteLinkModel;
using cmnet::rtlsim::Ft245Chip;
using cmnet::rtlsim::UartHostLine;

namespace {

std::atomic<bool> g_stop{false};
void on_signal(int) { g_stop = true; }

class TestTopLink : public ByteLinkModel {
 public:
  TestTopLink(int throttle, uint32_t seed) : rng_(seed), throttle_(throttle), chip_(seed, throttle) {
    m_->clk = 0;
    m_->rst = 1;
    m_->host_in_valid = 0;
    m_->host_in_data = 0;
    m_->host_out_ready = 1;
    m_->uart_rxd = 1;
    m_->ft_rxf_n = 1;
    m_->ft_txe_n = 1;
    m_->ft_data_in = 0;
    m_->eval();
    phy_ = m_->cfg_phy;
    uart_ = std::make_unique<UartHostLine>(std::max<int>(4, m_->cfg_clks_per_bit));
    std::deque<uint8_t> none;
    std::vector<uint8_t> ignored;
    for (int i = 0; i < 8; ++i) cycle(none, ignored);
    m_->rst = 0;
    in_reset_ = false;
    m_->eval();
  }

  void cycle(std::deque<uint8_t>& to_board, std::vector<uint8_t>& to_host) override {
    auto& m = m_.top();
    bool took = false, gave = false;
    uint8_t out = 0;
    Ft245Chip::FpgaPins f;
    switch (phy_) {
      case 1:
        m.uart_rxd = uart_->drive(to_board);
        break;
      case 2: {
        const auto p = chip_.outputs(to_board, m.ft_oe_n);
        m.ft_rxf_n = p.rxf_n;
        m.ft_txe_n = p.txe_n;
        m.ft_data_in = p.data;
        break;
      }
      default:
        m.host_in_valid = !to_board.empty();
        m.host_in_data = to_board.empty() ? 0 : to_board.front();
        m.host_out_ready = !(throttle_ > 0 && pct_(rng_) < throttle_);
        break;
    }
    m_.clock(false);
    switch (phy_) {
      case 1:
        uart_->sample(m.uart_txd, to_host);
        break;
      case 2:
        f.rd_n = m.ft_rd_n;
        f.wr_n = m.ft_wr_n;
        f.oe_n = m.ft_oe_n;
        f.data_oe = m.ft_data_oe;
        f.data_out = m.ft_data_out;
        break;
      default:
        took = m.host_in_valid && m.host_in_ready;
        gave = m.host_out_valid && m.host_out_ready;
        out = m.host_out_data;
        break;
    }
    m_.clock(true);
    if (in_reset_) return;  // the pins mean nothing before the first reset edge
    if (phy_ == 2) {
      chip_.edge(f, to_board, to_host);
      if (chip_.violations() > 0) {
        std::fprintf(stderr, "host_link harness: FT245 protocol violation: %s\n", chip_.first_violation().c_str());
        std::fflush(stderr);
        std::_Exit(3);
      }
    } else if (phy_ == 0) {
      if (took) to_board.pop_front();
      if (gave) to_host.push_back(out);
    }
  }

  Activity activity() const override {
    if (phy_ == 1 && uart_->busy()) return Activity::Busy;
    if (m_.top().link_idle) return Activity::Idle;
    if (m_.top().link_stalled) return Activity::Waiting;
    return Activity::Busy;
  }

  // The stall timeout passed in wall time: the engine's own FRAME_TIMEOUT drops the partial
  // frame, clocked out now (the test board is small: 50,000 cycles take milliseconds). A model
  // built with FRAME_TIMEOUT = 0 never drops one; the clocking gives up after 2^24 cycles.
  void expire_stall(std::deque<uint8_t>& to_board, std::vector<uint8_t>& to_host) override {
    for (uint32_t i = 0; i < (1u << 24) && activity() == Activity::Waiting; ++i) {
      cycle(to_board, to_host);
      ++expire_cycles_;
    }
  }
  uint64_t expire_cycles() const { return expire_cycles_; }

  int phy() const { return phy_; }
  unsigned overruns() const { return m_.top().overruns; }
  unsigned frame_errors() const { return m_.top().frame_errors; }
  unsigned ring_full() const { return m_.top().ring_full; }
  uint64_t host_framing_errors() const { return uart_->framing_errors(); }
  uint64_t fifo_stalls() const { return chip_.stalls(); }

 private:
  cmnet::harness::Driver<Vcmnet_host_link_sim> m_;
  std::mt19937 rng_;
  std::uniform_int_distribution<int> pct_{0, 99};
  int throttle_;
  int phy_ = 0;
  bool in_reset_ = true;
  uint64_t expire_cycles_ = 0;
  std::unique_ptr<UartHostLine> uart_;
  Ft245Chip chip_;
};

[[noreturn]] void usage() {
  std::fprintf(stderr, "usage: harness [--port N] [--throttle PERCENT] [--seed S] [--stall-timeout-ms N]\n");
  std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
  BridgeOptions opt;
  int throttle = 0;
  uint32_t seed = 1;
  for (int i = 1; i < argc; ++i) {
    auto value = [&]() -> unsigned long {
      if (i + 1 >= argc) usage();
      char* end = nullptr;
      const unsigned long v = std::strtoul(argv[++i], &end, 0);
      if (!end || *end) usage();
      return v;
    };
    if (!std::strcmp(argv[i], "--port")) opt.port = static_cast<uint16_t>(value());
    else if (!std::strcmp(argv[i], "--throttle")) throttle = static_cast<int>(std::min(value(), 90ul));
    else if (!std::strcmp(argv[i], "--seed")) seed = static_cast<uint32_t>(value());
    else if (!std::strcmp(argv[i], "--stall-timeout-ms")) opt.stall_timeout_ms = value();
    else usage();
  }
  ::prctl(PR_SET_PDEATHSIG, SIGTERM);  // do not outlive the test that started us
  std::signal(SIGTERM, on_signal);
  std::signal(SIGINT, on_signal);
  std::signal(SIGPIPE, SIG_IGN);

  try {
    TestTopLink link(throttle, seed);
    BoardRtlBridge bridge(link, opt);
    std::printf("%u\n", bridge.port());
    std::fflush(stdout);
    bridge.run(g_stop);
    const auto& s = bridge.stats();
    std::printf("stats phy=%d cycles=%llu bytes_to_board=%llu bytes_to_host=%llu connections=%llu "
                "dropped=%llu overruns=%u frame_errors=%u ring_full=%u host_framing_errors=%llu fifo_stalls=%llu "
                "expired_stalls=%llu\n",
                link.phy(), static_cast<unsigned long long>(s.cycles + link.expire_cycles()),
                static_cast<unsigned long long>(s.bytes_to_board), static_cast<unsigned long long>(s.bytes_to_host),
                static_cast<unsigned long long>(s.connections),
                static_cast<unsigned long long>(s.dropped_bytes), link.overruns(), link.frame_errors(), link.ring_full(),
                static_cast<unsigned long long>(link.host_framing_errors()),
                static_cast<unsigned long long>(link.fifo_stalls()),
                static_cast<unsigned long long>(s.expired_stalls));
    std::fflush(stdout);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "host_link harness: %s\n", e.what());
    return 1;
  }
  return 0;
}
