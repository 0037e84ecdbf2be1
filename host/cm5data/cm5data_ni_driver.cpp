#include "host/cm5data/cm5data_ni_driver.h"

#include <chrono>
#include <deque>
#include <map>
#include <string>
#include <thread>

#include "gen/cm5data/cm5data_ni_regmap.h"
#include "gen/cm5data/cm5data_stream.h"
#include "host/errors.h"

namespace cmnet {

Cm5NiAccess cm5_ni_write(uint32_t leaf, int side, std::string_view reg, uint32_t value) {
  return {leaf, side, cm5nimap::reg_index(reg), true, value, false};
}
Cm5NiAccess cm5_ni_read(uint32_t leaf, int side, std::string_view reg) {
  return {leaf, side, cm5nimap::reg_index(reg), false, 0, false};
}
Cm5NiAccess cm5_bridge_write(uint32_t leaf, std::string_view reg, uint32_t value) {
  return {leaf, 0, cm5nimap::bridge_index(reg), true, value, true};
}
Cm5NiAccess cm5_bridge_read(uint32_t leaf, std::string_view reg) {
  return {leaf, 0, cm5nimap::bridge_index(reg), false, 0, true};
}

StreamUnit cm5_ni_unit(const Cm5NiAccess& a) {
  return StreamUnit{a.leaf, cm5_stream_access_unit(a.reg, a.side, a.write, a.data, a.bridge)};
}

Cm5NiDriver::Cm5NiDriver(StreamBoard& board, double timeout_s) : b_(board), timeout_s_(timeout_s) {}

std::vector<uint32_t> Cm5NiDriver::access(const std::vector<Cm5NiAccess>& accesses) {
  using clock = std::chrono::steady_clock;
  std::vector<uint32_t> values;
  std::map<uint32_t, std::deque<std::pair<size_t, Cm5NiAccess>>> waiting;  // per leaf: (value index, access)
  size_t reads = 0;
  for (const Cm5NiAccess& a : accesses)
    if (!a.write) waiting[a.leaf].push_back({reads++, a});
  values.assign(reads, 0);
  b_.set_run(true);
  size_t next = 0, got = 0;
  auto last = clock::now();
  while (next < accesses.size() || got < reads) {
    bool moved = false;
    uint32_t free = b_.tx_free();
    std::vector<StreamUnit> batch;
    while (next < accesses.size()) {
      StreamUnit u = cm5_ni_unit(accesses[next]);
      if (u.words.size() > free) break;
      free -= static_cast<uint32_t>(u.words.size());
      batch.push_back(std::move(u));
      ++next;
    }
    if (!batch.empty()) {
      b_.send(batch);
      moved = true;
    }
    for (StreamUnit& u : b_.receive()) {
      moved = true;
      if (u.words.empty() || !cm5_stream_is_reply(u.words[0])) {
        messages_.push_back(std::move(u));
        continue;
      }
      auto& q = waiting[u.leaf];
      if (q.empty())
        throw HostError(HostErrorKind::ProtocolError, "cm5data NI: a reply from leaf " + std::to_string(u.leaf) + " that no read asked for");
      const auto [i, a] = q.front();
      q.pop_front();
      const uint32_t w0 = u.words[0];
      // The reply's head {0, 0, side[29], bridge[28], addr[3:0]} names the read it answers.
      const uint32_t asked = (a.reg & 15u) | (a.side ? 1u << 29 : 0u) | (a.bridge ? 1u << 28 : 0u);
      if (u.words.size() != 2 || w0 != asked)
        throw HostError(HostErrorKind::ProtocolError, "cm5data NI: leaf " + std::to_string(u.leaf) + "'s reply does not answer its read of register " +
                                                     std::to_string(a.reg) + " on side " + std::to_string(a.side));
      values[i] = u.words[1];
      ++got;
    }
    if (moved) last = clock::now();
    else if (std::chrono::duration<double>(clock::now() - last).count() > timeout_s_)
      throw HostError(HostErrorKind::Timeout, "cm5data NI: " + std::to_string(reads - got) + " of " + std::to_string(reads) +
                                                  " register reads not answered in " + std::to_string(timeout_s_) + " s (" +
                                                  std::to_string(accesses.size() - next) + " accesses not sent)");
    else std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  if (!keep_running) b_.set_run(false);
  return values;
}

void Cm5NiDriver::write(uint32_t leaf, int side, std::string_view reg, uint32_t value) {
  access({cm5_ni_write(leaf, side, reg, value)});
}
uint32_t Cm5NiDriver::read(uint32_t leaf, int side, std::string_view reg) {
  return access({cm5_ni_read(leaf, side, reg)}).at(0);
}
void Cm5NiDriver::write_bridge(uint32_t leaf, std::string_view reg, uint32_t value) {
  access({cm5_bridge_write(leaf, reg, value)});
}
uint32_t Cm5NiDriver::read_bridge(uint32_t leaf, std::string_view reg) {
  return access({cm5_bridge_read(leaf, reg)}).at(0);
}

bool Cm5NiDriver::send(uint32_t leaf, int side, uint32_t dst, int tag, const std::vector<uint32_t>& data, bool mark) {
  std::vector<Cm5NiAccess> a;
  a.push_back(cm5_ni_write(leaf, side, "STATUS", 0));  // clear the flags: STATUS then tells of this SEND
  for (uint32_t w : data) a.push_back(cm5_ni_write(leaf, side, "SEND_DATA", w));
  a.push_back(cm5_ni_write(leaf, side, "SEND",
                           (mark ? 1u << 24 : 0u) | (static_cast<uint32_t>(tag & 15) << 20) | (dst & 0xFFFFu)));
  a.push_back(cm5_ni_read(leaf, side, "STATUS"));
  const uint32_t st = access(a).at(0);
  return (st >> 29) == 0;  // neither refused nor an address error nor an overflow
}

std::optional<Cm5NiReceived> Cm5NiDriver::receive(uint32_t leaf, int side) {
  const uint32_t head = read(leaf, side, "RECV_HEAD");
  if (!(head >> 31)) return std::nullopt;
  Cm5NiReceived m;
  m.crc_ok = (head >> 30) & 1u;
  m.fell = (head >> 24) & 1u;
  m.tag = static_cast<int>((head >> 20) & 15u);
  m.len = static_cast<int>((head >> 16) & 7u);
  const int done = static_cast<int>(head & 15u);
  std::vector<Cm5NiAccess> a;
  for (int i = done; i < m.len; ++i) a.push_back(cm5_ni_read(leaf, side, "RECV_DATA"));
  m.data = access(a);
  return m;
}

std::vector<Cm5NiCounterSet> Cm5NiDriver::all_counters(uint32_t leaves) {
  std::vector<Cm5NiAccess> a;
  for (uint32_t x = 0; x < leaves; ++x)
    for (int side = 0; side < 2; ++side)
      for (const char* r : kCm5NiCounterRegs) a.push_back(cm5_ni_read(x, side, r));
  const std::vector<uint32_t> v = access(a);
  std::vector<Cm5NiCounterSet> out;
  for (size_t i = 0; i + 7 <= v.size(); i += 7)
    out.push_back(Cm5NiCounterSet{v[i], v[i + 1], v[i + 2], v[i + 3], v[i + 4], v[i + 5], v[i + 6]});
  return out;
}

Cm5NiCounterSet Cm5NiDriver::counters(uint32_t leaf, int side) {
  std::vector<Cm5NiAccess> a;
  for (const char* r : kCm5NiCounterRegs) a.push_back(cm5_ni_read(leaf, side, r));
  const std::vector<uint32_t> v = access(a);
  return Cm5NiCounterSet{v[0], v[1], v[2], v[3], v[4], v[5], v[6]};
}

void Cm5NiDriver::run_until(const std::function<bool()>& done) {
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  b_.set_run(true);
  const bool keep = keep_running;
  keep_running = true;  // the reads in `done` leave the board running
  for (;;) {
    for (StreamUnit& u : b_.receive()) messages_.push_back(std::move(u));
    if (done ? done() : !b_.busy()) break;
    if (std::chrono::duration<double>(clock::now() - t0).count() > timeout_s_) {
      keep_running = keep;
      throw HostError(HostErrorKind::Timeout, "cm5data NI: the board did not get there in " + std::to_string(timeout_s_) + " s");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  keep_running = keep;
  if (!keep_running) b_.set_run(false);
}

std::vector<StreamUnit> Cm5NiDriver::take_messages() {
  std::vector<StreamUnit> m;
  m.swap(messages_);
  return m;
}

}  // namespace cmnet
