#include "host/cm1/cm1_runner.h"

#include <spdlog/spdlog.h>

#include <chrono>

#include "gen/core/errors.h"
#include "host/errors.h"
#include "sim/cm1/cm1_counters.h"

namespace cmnet {

namespace {

// The mean bin of a delivery petit cycle histogram (its last bin holds "15 or later").
double mean_bin(const std::array<uint32_t, 16>& h) {
  double sum = 0, n = 0;
  for (size_t k = 0; k < h.size(); ++k) sum += static_cast<double>(k) * h[k], n += h[k];
  return n > 0 ? sum / n : 0;
}

}  // namespace

BoardRun execute(Cm1Board& board, const Cm1Params& p, const Traffic& traffic, EjectMode mode,
                 double timeout_s, const std::string& uri, int gen, uint32_t gen_seed,
                 uint32_t gen_count) {
  BoardRun r;
  const auto t0 = std::chrono::steady_clock::now();
  board.clear();
  if (gen >= 0) board.generate(static_cast<uint32_t>(gen), gen_count, gen_seed);
  else board.load(traffic);
  r.load_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  board.start(mode);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  uint32_t last_petit = ~0u;
  do {
    r.st = board.status();
    if (r.st.petit != last_petit) {
      spdlog::info("running: petit cycle {}, {} bit-times", r.st.petit, r.st.cycles);
      last_petit = r.st.petit;
    }
    if (std::chrono::steady_clock::now() > deadline)
      throw HostError(HostErrorKind::Timeout, uri + ": the run did not finish within " +
                                                  std::to_string(timeout_s) + " s");
  } while (r.st.running);
  r.run_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() - r.load_s;
  r.chips = board.counters();
  r.rx = board.receptions();
  r.hist = board.histogram();
  r.ep_hist = board.endpoint_histograms();

  // The reference model, same pattern.
  r.model = run_cm1_model(p, traffic, mode);
  r.want_rx = expected_rx_checks(p, traffic, r.model);
  r.want_ep_hist = expected_endpoint_histograms(p, traffic, r.model);
  for (size_t g = 0; g < r.ep_hist.size(); ++g) r.ep_hist_mismatch += r.ep_hist[g] != r.want_ep_hist[g];
  if (r.st.hist_overrun) spdlog::error("{}: an endpoint histogram missed a batch (hist_overrun)", uri);
  r.tot = cm1_totals(p, r.chips);
  for (size_t n = 0; n < r.chips.size(); ++n) {
    const auto& b = r.chips[n];
    const auto& m = r.model.chips[n];
    r.counter_mismatch += b.injected != m.injected || b.delivered != m.delivered ||
                          b.desperation != m.desperation || b.petit_cycles != m.petit_cycles ||
                          b.dim_busy != m.dim_busy;
  }
  for (size_t g = 0; g < r.rx.size(); ++g) r.rx_mismatch += !(r.rx[g] == r.want_rx[g]);
  r.oracle = cm1_oracle_disagreements(p, traffic, mode, r.rx, r.st.petit);
  for (const auto& x : r.rx) r.received += x.count;
  r.bit_times = r.st.cycles;
  r.util = cm1_wire_utilization(p, r.tot, r.bit_times);
  // The run has ended: nothing may be left in the endpoints' queues or the routers' buffers.
  // CM-1 counts per chip but messages cross chips, so the regions are the endpoint queues
  // (loaded -> injected into the routers) and the network (injected -> delivered).
  // (The board reports whether anything is left, not how much: in flight is 0 here, and the
  // status flags are checked beside it.)
  r.conservation = check_conservation({{"endpoint queues", traffic.messages.size(), r.tot.injected, 0},
                                       {"network", r.tot.injected, r.tot.delivered, 0}});
  r.conserved = r.conservation.ok && !r.st.pending && !r.st.buffered;
  r.agree = r.counter_mismatch == 0 && r.rx_mismatch == 0 && r.ep_hist_mismatch == 0 && r.oracle.empty() &&
            !r.st.hist_overrun && r.st.petit == r.model.petit_cycles;
  // The model's histogram is the sum of its processors' (the board's global one counts the same).
  std::array<uint32_t, 16> want_hist{};
  for (const auto& h : r.want_ep_hist)
    for (size_t k = 0; k < h.size(); ++k) want_hist[k] += h[k];
  r.mean_petit = mean_bin(r.hist);
  r.model_mean_petit = mean_bin(want_hist);
  return r;
}

std::unique_ptr<Cm1SimBoard> start_cm1_sim_board(const Cm1Config& cfg, const std::string& sim_link,
                                                 const TraceWindow& trace, uint16_t port) {
  HostBoardOptions h;
  h.phy = parse_sim_link(sim_link);
  if (h.phy == HostLinkPhy::Fifo) {
    h.clock_hz = 60000000;  // the FT2232H's CLKOUT in synchronous FIFO mode
  }
  return std::make_unique<Cm1SimBoard>(cfg, h, trace, port);
}

Connection connect_board(const Cm1Config& cfg, const std::string& board_uri,
                   const std::string& sim_link, const std::string& rtl, const TraceWindow& trace) {
  BoardSource src;
  src.uri = board_uri;
  src.rtl_dir = rtl;
  src.top = "cm1_host_board";
  src.trace = trace;
  src.start = [&] { return start_cm1_sim_board(cfg, sim_link, trace); };
  Connection c;
  static_cast<BoardConnection&>(c) = connect_board_source(src);
  c.board = std::make_unique<Cm1Board>(*c.port);
  c.board->check_matches(cfg.cm1);
  const Cm1BoardInfo& info = c.board->info();
  spdlog::info("found a CM-1 network: c = {}, P = {}, b = {}, l = {}, clock {} Hz, config id {:08x}",
               info.params.cube_dims, info.params.procs_per_chip, info.params.rows, info.msg_len,
               info.clock_hz, info.config_id);
  return c;
}


}  // namespace cmnet
