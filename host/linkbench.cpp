// cmnet-linkbench: host-link round trips and burst throughput of the host driver (BoardClient)
// against the in-process simulated board server (MemoryBackend) over TCP loopback, or against
// any sim:// board with --uri (e.g. the RTL board, cmnet-rtlboard), beside the raw rate of the
// same link: the same request bytes, encoded once, written on a plain blocking socket and the
// known reply length read back, with no encoding, decoding, CRC check or driver logic. The
// driver's cost is 1 - driver/raw; the target is under 10%.
//
// Driver and raw alternate in short slices, test by test, each on a fresh connection (a sim://
// board serves one client at a time), the order switching every round: a pair of adjacent
// slices sees the same load from other processes on the machine. A test's rates are the
// medians over its slices, its cost the median of the pairs' costs.
// Prints a table; --json FILE writes the same numbers.
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <vector>

#include "host/board_client.h"
#include "host/transport_uri.h"
#include "sim/core/board_server.h"

namespace {

using Clock = std::chrono::steady_clock;
namespace proto = cmnet::proto;

constexpr double kTargetCost = 0.10;  // the driver may cost at most this fraction of the raw rate

struct Result {
  uint64_t ops = 0;
  double seconds = 0;
  double ops_per_s = 0;
  double mean_us = 0, p50_us = 0, p99_us = 0;
};

Result measure(double seconds, const std::function<void()>& op) {
  for (int i = 0; i < 50; ++i) op();  // warm-up
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
  r.ops = lat.size();
  r.seconds = std::chrono::duration<double>(now - t0).count();
  r.ops_per_s = r.ops / r.seconds;
  r.mean_us = std::accumulate(lat.begin(), lat.end(), 0.0) / lat.size();
  std::sort(lat.begin(), lat.end());
  r.p50_us = lat[lat.size() / 2];
  r.p99_us = lat[std::min(lat.size() - 1, lat.size() * 99 / 100)];
  return r;
}

// The raw link: a blocking TCP socket. A round trip writes the precomputed request and reads
// exactly the reply length the protocol gives, looking at none of it.
class RawSocket {
 public:
  RawSocket(const std::string& host, uint16_t port) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd_ < 0) throw std::runtime_error("raw link: socket: " + std::string(std::strerror(errno)));
    const int one = 1;
    ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);  // as TcpTransport
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(port);
    if (host != "127.0.0.1" && host != "localhost") throw std::runtime_error("raw link: 127.0.0.1 only");
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
      const std::string e = std::strerror(errno);
      ::close(fd_);
      throw std::runtime_error("raw link: connect to port " + std::to_string(port) + ": " + e);
    }
  }
  ~RawSocket() { ::close(fd_); }
  RawSocket(const RawSocket&) = delete;
  RawSocket& operator=(const RawSocket&) = delete;

  void round_trip(const std::vector<uint8_t>& request, size_t reply_bytes) {
    for (size_t at = 0; at < request.size();) {
      const ssize_t n = ::send(fd_, request.data() + at, request.size() - at, MSG_NOSIGNAL);
      if (n <= 0) throw std::runtime_error("raw link: send: " + std::string(n == 0 ? "closed" : std::strerror(errno)));
      at += static_cast<size_t>(n);
    }
    if (buf_.size() < reply_bytes) buf_.resize(reply_bytes);
    for (size_t at = 0; at < reply_bytes;) {
      const ssize_t n = ::recv(fd_, buf_.data() + at, reply_bytes - at, 0);
      if (n <= 0) throw std::runtime_error("raw link: recv: " + std::string(n == 0 ? "closed" : std::strerror(errno)));
      at += static_cast<size_t>(n);
    }
  }
  const std::vector<uint8_t>& last_reply() const { return buf_; }

 private:
  int fd_ = -1;
  std::vector<uint8_t> buf_;
};

// One test: what the driver does, and the same requests precomputed for the raw link.
struct Test {
  std::string name;
  size_t words = 0;  // payload words per operation (0: single register)
  std::function<void(cmnet::BoardClient&)> driver;
  std::vector<std::vector<uint8_t>> requests;  // the frames of one operation, in order
  std::vector<size_t> reply_bytes;
  std::vector<Result> driver_slices, raw_slices;
};

size_t frame_bytes(size_t words) { return proto::kHeaderBytes + 4 * words + proto::kTrailerBytes; }

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// The medians of a test's slices on one side.
Result summary(const std::vector<Result>& slices) {
  auto m = [&](double Result::*f) {
    std::vector<double> v;
    for (const auto& r : slices) v.push_back(r.*f);
    return median(v);
  };
  Result r;
  for (const auto& x : slices) {
    r.ops += x.ops;
    r.seconds += x.seconds;
  }
  r.ops_per_s = m(&Result::ops_per_s);
  r.mean_us = m(&Result::mean_us);
  r.p50_us = m(&Result::p50_us);
  r.p99_us = m(&Result::p99_us);
  return r;
}

double cost_of(const Test& t) {
  std::vector<double> c;
  for (size_t i = 0; i < t.driver_slices.size(); ++i)
    c.push_back(1.0 - t.driver_slices[i].ops_per_s / t.raw_slices[i].ops_per_s);
  return median(c);
}

struct Options {
  double seconds = 2.0;
  int rounds = 10;
  std::string json_path, uri;
  size_t burst = proto::kMaxWords;
  uint32_t reg_addr = 0x100, burst_addr = 0x10000;
};

// The tests: single registers, then bursts. Their driver operations write `data` and fold what
// they read into `x` (so nothing is optimised away); both must outlive the tests.
std::vector<Test> make_tests(const Options& o, const std::vector<uint32_t>& data, uint32_t& x) {
  const uint32_t reg_addr = o.reg_addr, burst_addr = o.burst_addr;
  const size_t burst = o.burst;
  std::vector<Test> tests;
  auto single = [&](const std::string& name, std::function<void(cmnet::BoardClient&)> f, const proto::Frame& req,
                    size_t reply_words) {
    tests.push_back({name, 0, std::move(f), {proto::encode(req)}, {frame_bytes(reply_words)}, {}, {}});
  };
  single("ping", [&x](cmnet::BoardClient& c) { x ^= c.ping(); }, proto::make_ping(1), 1);
  single("read32", [&x, reg_addr](cmnet::BoardClient& c) { x ^= c.read32(reg_addr); }, proto::make_read(1, reg_addr), 1);
  single("write32", [&x, reg_addr](cmnet::BoardClient& c) { c.write32(reg_addr, ++x); },
         proto::make_write(1, reg_addr, 0x5A5A5A5A), 0);
  // Bursts: the driver splits them into 256-word frames; so do the precomputed requests.
  Test bw{"burst_write", burst, [&data, burst_addr](cmnet::BoardClient& c) { c.burst_write(burst_addr, data); },
          {}, {}, {}, {}};
  Test br{"burst_read", burst, [&x, burst_addr, burst](cmnet::BoardClient& c) { x ^= c.burst_read(burst_addr, burst)[0]; },
          {}, {}, {}, {}};
  for (size_t at = 0; at < burst; at += proto::kMaxWords) {
    const size_t n = std::min(burst - at, proto::kMaxWords);
    const auto addr = static_cast<uint32_t>(burst_addr + 4 * at);
    bw.requests.push_back(proto::encode(proto::make_burst_write(1, addr, std::span(data).subspan(at, n))));
    bw.reply_bytes.push_back(frame_bytes(0));
    br.requests.push_back(proto::encode(proto::make_burst_read(1, addr, static_cast<uint16_t>(n))));
    br.reply_bytes.push_back(frame_bytes(n));
  }
  tests.push_back(std::move(bw));
  tests.push_back(std::move(br));
  return tests;
}

// The slices of the tests, driver and raw, each on a fresh connection; the client's counters summed.
struct Slicer {
  const Options& o;
  const cmnet::TransportUri& where;
  const std::vector<uint32_t>& data;
  cmnet::BoardClientOptions opt;
  double slice = 0;
  cmnet::BoardClientStats st{};

  void driver_slice(Test& t) {
    auto client = cmnet::BoardClient::open(o.uri, opt);
    t.driver_slices.push_back(measure(slice, [&] { t.driver(client); }));
    if (t.name == "burst_read" && client.burst_read(o.burst_addr, o.burst) != data)
      throw std::runtime_error("burst data mismatch");  // the data survived the trip
    const auto& s = client.stats();
    st.requests += s.requests;
    st.retries += s.retries;
    st.timeouts += s.timeouts;
    st.crc_errors += s.crc_errors;
    client.close();
  }

  void raw_slice(Test& t) {
    RawSocket raw(where.host, where.port);
    t.raw_slices.push_back(measure(slice, [&] {
      for (size_t i = 0; i < t.requests.size(); ++i) raw.round_trip(t.requests[i], t.reply_bytes[i]);
    }));
    // The raw link really talked to the board: a burst read brought the data back.
    const auto& last = raw.last_reply();
    const size_t first = o.burst > proto::kMaxWords ? (o.burst - 1) / proto::kMaxWords * proto::kMaxWords : 0;
    if (t.name == "burst_read" &&
        (last[0] != proto::kSync ||
         (last[14] | last[15] << 8 | last[16] << 16 | static_cast<uint32_t>(last[17]) << 24) != data[first]))
      throw std::runtime_error("raw link: the burst read's reply is not the data");
  }

  void run(std::vector<Test>& tests) {
    for (int r = 0; r < o.rounds; ++r) {
      for (auto& t : tests) {
        if (r % 2 == 0) {
          driver_slice(t);
          raw_slice(t);
        } else {
          raw_slice(t);
          driver_slice(t);
        }
      }
    }
  }
};

// Prints the table; returns whether every test's driver cost is under the target.
bool print_results(const Options& o, const std::vector<Test>& tests, const cmnet::BoardClientStats& st) {
  std::printf("cmnet-linkbench: %s, protocol v%u, %.2f s per test and side in %d slices (medians)\n",
              o.uri.c_str(), proto::kVersion, o.seconds, o.rounds);
  std::printf("%-12s %12s %9s %9s %12s %12s %9s %11s  %s\n", "test", "driver op/s", "p50 us", "p99 us",
              "payload MB/s", "raw op/s", "raw p50", "driver cost", "under 10%");
  bool all_under = true;
  for (const auto& t : tests) {
    const Result d = summary(t.driver_slices), w = summary(t.raw_slices);
    char mbs[32] = "-";
    if (t.words) std::snprintf(mbs, sizeof mbs, "%.1f", d.ops_per_s * t.words * 4 / 1e6);
    const double cost = cost_of(t);
    all_under = all_under && cost < kTargetCost;
    std::printf("%-12s %12.0f %9.1f %9.1f %12s %12.0f %9.1f %10.1f%%  %s\n", t.name.c_str(), d.ops_per_s,
                d.p50_us, d.p99_us, mbs, w.ops_per_s, w.p50_us, 100 * cost, cost < kTargetCost ? "yes" : "NO");
  }
  std::printf("client: %llu requests, %llu retries, %llu timeouts, %llu CRC errors\n",
              static_cast<unsigned long long>(st.requests), static_cast<unsigned long long>(st.retries),
              static_cast<unsigned long long>(st.timeouts), static_cast<unsigned long long>(st.crc_errors));
  return all_under;
}

// --json: the same numbers; false if the file cannot be written.
bool write_json(const Options& o, const std::vector<Test>& tests, const cmnet::BoardClientStats& st, bool all_under) {
  nlohmann::json j;
  j["uri"] = o.uri;
  j["protocol_version"] = proto::kVersion;
  j["seconds_per_test"] = o.seconds;
  j["slices"] = o.rounds;
  j["burst_words"] = o.burst;
  j["target_cost"] = kTargetCost;
  j["all_under_target"] = all_under;
  auto side = [](const Result& r) {
    return nlohmann::json{{"ops", r.ops},         {"seconds", r.seconds}, {"ops_per_s", r.ops_per_s},
                          {"mean_us", r.mean_us}, {"p50_us", r.p50_us},   {"p99_us", r.p99_us}};
  };
  for (const auto& t : tests) {
    const Result d = summary(t.driver_slices), w = summary(t.raw_slices);
    const double cost = cost_of(t);
    nlohmann::json e = side(d);  // the driver's numbers at the top level, as before
    e["test"] = t.name;
    e["words_per_op"] = t.words;
    e["payload_mb_per_s"] = t.words ? d.ops_per_s * t.words * 4 / 1e6 : 0.0;
    e["raw"] = side(w);
    e["driver_cost"] = cost;
    e["under_target"] = cost < kTargetCost;
    j["results"].push_back(e);
  }
  j["client"] = {{"requests", st.requests}, {"retries", st.retries}, {"timeouts", st.timeouts},
                 {"crc_errors", st.crc_errors}};
  std::ofstream f(o.json_path);
  if (!f) {
    std::fprintf(stderr, "cmnet-linkbench: cannot write %s\n", o.json_path.c_str());
    return false;
  }
  f << j.dump(2) << "\n";
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"cmnet-linkbench: host-link round trips and burst throughput, driver against the raw link"};
  Options o;
  app.add_option("--seconds", o.seconds, "time per test and side, split over the rounds")
      ->check(CLI::Range(0.01, 600.0));
  app.add_option("--rounds", o.rounds, "slices per test and side, driver and raw alternating")
      ->check(CLI::Range(1, 1000));
  app.add_option("--burst-words", o.burst, "words per burst (split into 256-word frames)")
      ->check(CLI::Range(size_t{1}, size_t{1} << 20));
  app.add_option("--reg-addr", o.reg_addr, "the register of the single-register tests (default 0x100)");
  app.add_option("--burst-addr", o.burst_addr,
                 "where the bursts go (default 0x10000; the RTL demo board: --reg-addr 0x1000 --burst-addr 0x1000, "
                 "bursts of at most 1024 words)");
  app.add_option("--json", o.json_path, "write results as JSON to this file");
  app.add_option("--uri", o.uri,
                 "benchmark this sim:// board instead of the in-process server (e.g. cmnet-rtlboard's "
                 "sim://127.0.0.1:PORT)");
  CLI11_PARSE(app, argc, argv);

  try {
    cmnet::MemoryBackend mem;
    std::optional<cmnet::BoardServer> server;
    if (o.uri.empty()) {
      server.emplace(mem);
      server->start();
      o.uri = "sim://127.0.0.1:" + std::to_string(server->port());
    }
    const cmnet::TransportUri where = cmnet::parse_transport_uri(o.uri);
    if (where.scheme != cmnet::UriScheme::Sim)
      throw std::runtime_error("the raw baseline needs a sim:// (TCP) board, not " + o.uri);

    std::vector<uint32_t> data(o.burst);
    std::iota(data.begin(), data.end(), 0x1000u);
    uint32_t x = 0;
    std::vector<Test> tests = make_tests(o, data, x);
    cmnet::BoardClientOptions opt;
    opt.timeout = std::chrono::milliseconds(2000);
    Slicer slicer{o, where, data, opt, o.seconds / o.rounds, {}};
    slicer.run(tests);

    const bool all_under = print_results(o, tests, slicer.st);
    if (!o.json_path.empty() && !write_json(o, tests, slicer.st, all_under)) return 1;
    if (server) server->stop();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cmnet-linkbench: %s\n", e.what());
    return 1;
  }
  return 0;
}
