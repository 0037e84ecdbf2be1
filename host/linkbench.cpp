// cmnet-linkbench: host-link round trips and burst throughput against the in-process simulated
// board server (MemoryBackend) over TCP loopback, or against any board with --uri.
// Prints a table; --json FILE writes the same numbers.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <numeric>
#include <optional>
#include <vector>

#include "host/board_client.h"
#include "sim/board_server.h"

namespace {

using Clock = std::chrono::steady_clock;

struct Result {
  std::string name;
  uint64_t ops = 0;
  double seconds = 0;
  double ops_per_s = 0;
  double mean_us = 0, p50_us = 0, p99_us = 0;
  double payload_mb_per_s = 0;  // 0 for single-register tests
  size_t words_per_op = 0;
};

Result measure(const std::string& name, double seconds, size_t words, const std::function<void()>& op) {
  // Warm-up.
  for (int i = 0; i < 50; ++i) op();
  std::vector<double> lat;
  lat.reserve(1 << 16);
  const auto t0 = Clock::now();
  const auto end = t0 + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  auto now = t0;
  while (now < end) {
    const auto a = Clock::now();
    op();
    now = Clock::now();
    lat.push_back(std::chrono::duration<double, std::micro>(now - a).count());
  }
  Result r;
  r.name = name;
  r.ops = lat.size();
  r.seconds = std::chrono::duration<double>(now - t0).count();
  r.ops_per_s = r.ops / r.seconds;
  r.mean_us = std::accumulate(lat.begin(), lat.end(), 0.0) / lat.size();
  std::sort(lat.begin(), lat.end());
  r.p50_us = lat[lat.size() / 2];
  r.p99_us = lat[std::min(lat.size() - 1, lat.size() * 99 / 100)];
  r.words_per_op = words;
  r.payload_mb_per_s = words ? r.ops_per_s * words * 4 / 1e6 : 0;
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"cmnet-linkbench: host-link round trips and burst throughput"};
  double seconds = 1.0;
  std::string json_path, uri;
  size_t burst = cmnet::proto::kMaxWords;
  app.add_option("--seconds", seconds, "duration of each measurement")->check(CLI::Range(0.01, 600.0));
  app.add_option("--burst-words", burst, "words per burst (split into 256-word frames)")
      ->check(CLI::Range(size_t{1}, size_t{1} << 20));
  app.add_option("--json", json_path, "write results as JSON to this file");
  app.add_option("--uri", uri, "benchmark this board instead of the in-process server (e.g. sim://127.0.0.1:PORT)");
  CLI11_PARSE(app, argc, argv);

  try {
    cmnet::MemoryBackend mem;
    std::optional<cmnet::BoardServer> server;
    if (uri.empty()) {
      server.emplace(mem);
      server->start();
      uri = "sim://127.0.0.1:" + std::to_string(server->port());
    }
    cmnet::BoardClientOptions opt;
    opt.timeout = std::chrono::milliseconds(2000);
    auto client = cmnet::BoardClient::open(uri, opt);

    std::vector<uint32_t> data(burst);
    std::iota(data.begin(), data.end(), 0x1000u);
    uint32_t x = 0;
    std::vector<Result> results;
    results.push_back(measure("ping", seconds, 0, [&] { x ^= client.ping(); }));
    results.push_back(measure("read32", seconds, 0, [&] { x ^= client.read32(0x100); }));
    results.push_back(measure("write32", seconds, 0, [&] { client.write32(0x100, ++x); }));
    results.push_back(measure("burst_write", seconds, burst, [&] { client.burst_write(0x10000, data); }));
    results.push_back(measure("burst_read", seconds, burst, [&] { x ^= client.burst_read(0x10000, burst)[0]; }));
    // Check the data survived the trip.
    if (client.burst_read(0x10000, burst) != data) {
      std::fprintf(stderr, "cmnet-linkbench: burst data mismatch\n");
      return 1;
    }

    std::printf("cmnet-linkbench: %s, protocol v%u, %.2f s per test\n", uri.c_str(), cmnet::proto::kVersion, seconds);
    std::printf("%-12s %10s %12s %9s %9s %9s %12s\n", "test", "ops", "ops/s", "mean us", "p50 us", "p99 us",
                "payload MB/s");
    for (const auto& r : results) {
      char mbs[32] = "-";
      if (r.words_per_op) std::snprintf(mbs, sizeof mbs, "%.1f", r.payload_mb_per_s);
      std::printf("%-12s %10llu %12.0f %9.1f %9.1f %9.1f %12s\n", r.name.c_str(),
                  static_cast<unsigned long long>(r.ops), r.ops_per_s, r.mean_us, r.p50_us, r.p99_us, mbs);
    }
    const auto& st = client.stats();
    std::printf("client: %llu requests, %llu retries, %llu timeouts, %llu CRC errors\n",
                static_cast<unsigned long long>(st.requests), static_cast<unsigned long long>(st.retries),
                static_cast<unsigned long long>(st.timeouts), static_cast<unsigned long long>(st.crc_errors));

    if (!json_path.empty()) {
      nlohmann::json j;
      j["uri"] = uri;
      j["protocol_version"] = cmnet::proto::kVersion;
      j["seconds_per_test"] = seconds;
      j["burst_words"] = burst;
      for (const auto& r : results) {
        j["results"].push_back({{"test", r.name},
                                {"ops", r.ops},
                                {"seconds", r.seconds},
                                {"ops_per_s", r.ops_per_s},
                                {"mean_us", r.mean_us},
                                {"p50_us", r.p50_us},
                                {"p99_us", r.p99_us},
                                {"words_per_op", r.words_per_op},
                                {"payload_mb_per_s", r.payload_mb_per_s}});
      }
      j["client"] = {{"requests", st.requests}, {"retries", st.retries}, {"timeouts", st.timeouts},
                     {"crc_errors", st.crc_errors}};
      std::ofstream f(json_path);
      if (!f) {
        std::fprintf(stderr, "cmnet-linkbench: cannot write %s\n", json_path.c_str());
        return 1;
      }
      f << j.dump(2) << "\n";
    }
    client.close();
    if (server) server->stop();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cmnet-linkbench: %s\n", e.what());
    return 1;
  }
  return 0;
}
