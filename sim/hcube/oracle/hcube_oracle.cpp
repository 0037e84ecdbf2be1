// hcube's oracle: the paper's packetization, its bounds and its delivery promises (the header
// says which); nothing here comes from the family's other code.
#include "sim/hcube/oracle/hcube_oracle.h"

#include <algorithm>
#include <map>
#include <sstream>
#include <utility>

namespace cmnet::hcube_oracle {
namespace {

constexpr size_t kRouteHeader = 4;     // destination, source: in every packet
constexpr size_t kMessageHeader = 10;  // + length (4), type (2): the first packet, the worm

void put(std::vector<uint8_t>& b, uint64_t v, int bytes, ByteOrder order) {
  for (int i = 0; i < bytes; ++i) {
    const int k = order == ByteOrder::kLittleEndian ? i : bytes - 1 - i;
    b.push_back(static_cast<uint8_t>(v >> (8 * k)));
  }
}

uint64_t get(const std::vector<uint8_t>& b, size_t at, int bytes, ByteOrder order) {
  uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) {
    const int k = order == ByteOrder::kLittleEndian ? i : bytes - 1 - i;
    v |= static_cast<uint64_t>(b[at + static_cast<size_t>(i)]) << (8 * k);
  }
  return v;
}

int hops(uint32_t a, uint32_t b) {
  int h = 0;
  for (uint32_t x = a ^ b; x; x >>= 1) h += static_cast<int>(x & 1u);
  return h;
}

int lowest_differing(uint32_t a, uint32_t b) {
  for (int d = 0; d < 32; ++d)
    if (((a ^ b) >> d) & 1u) return d;
  return -1;
}

std::string name(const std::vector<Message>& sent, size_t i) {
  const Message& m = sent[i];
  std::ostringstream s;
  s << "message " << i << " (" << m.src << " -> " << m.dst << ", " << m.data.size() << " bytes, gen " << m.gen
    << ", type " << m.type << ")";
  return s.str();
}

// The source's hands against the paper's packetization (and its own reassembly of them).
void check_wire(const Net& net, const std::vector<Message>& sent, size_t i, const Options& o,
                std::vector<std::string>& out) {
  const Message& m = sent[i];
  if (m.wire.empty()) return;
  const auto want = wire_of(net, m, o);
  const char* unit = net.scheme == Scheme::kPacket ? "packet" : "worm";
  if (m.wire.size() != want.size()) {
    out.push_back(name(sent, i) + ": handed over as " + std::to_string(m.wire.size()) + " " + unit +
                  "(s), the paper's packetization gives " + std::to_string(want.size()));
  } else {
    for (size_t k = 0; k < want.size(); ++k) {
      const auto& a = m.wire[k];
      const auto& b = want[k];
      if (a.size() != b.size()) {
        out.push_back(name(sent, i) + ": " + unit + " " + std::to_string(k) + " has " + std::to_string(a.size()) +
                      " bytes, the paper's packetization gives " + std::to_string(b.size()));
        return;
      }
      const auto d = std::mismatch(a.begin(), a.end(), b.begin());
      if (d.first != a.end()) {
        out.push_back(name(sent, i) + ": " + unit + " " + std::to_string(k) + " byte " +
                      std::to_string(d.first - a.begin()) + " is " + std::to_string(*d.first) +
                      ", the paper's packetization gives " + std::to_string(*d.second));
        return;
      }
    }
  }
  if (reassemble(m.wire, o) != m.data) out.push_back(name(sent, i) + ": its " + unit + "s do not reassemble to its data");
}

// One delivery of message i against the paper: where, what, which first hop, how soon.
void check_delivery(const Net& net, const std::vector<Message>& sent, size_t i, const Delivery& g, const Options& o,
                    std::vector<std::string>& out) {
  const Message& m = sent[i];
  const std::string who = name(sent, i);
  if (g.at != m.dst) out.push_back(who + ": arrived at node " + std::to_string(g.at));
  if (g.len != m.data.size()) out.push_back(who + ": arrived with length " + std::to_string(g.len));
  if (g.data != m.data) {
    const size_t n = std::min(g.data.size(), m.data.size());
    size_t k = 0;
    while (k < n && g.data[k] == m.data[k]) ++k;
    out.push_back(who + ": data differs from byte " + std::to_string(k) + " (" + std::to_string(g.data.size()) +
                  " bytes arrived)");
  }
  if (g.first_dim >= net.dims) {
    out.push_back(who + ": first hop in dimension " + std::to_string(g.first_dim) + ", not a dimension of the cube");
  } else if (g.first_dim >= 0) {
    const bool ecube = net.scheme == Scheme::kWormhole || net.routing == Routing::kFixed;
    const int want = lowest_differing(m.src, m.dst);
    if (ecube ? g.first_dim != want : !(((m.src ^ m.dst) >> g.first_dim) & 1u))
      out.push_back(who + ": first hop in dimension " + std::to_string(g.first_dim) +
                    (ecube ? ", e-cube takes " + std::to_string(want) : ", which does not take it closer"));
  }
  const uint64_t f = earliest_first(net, m, o), l = earliest_last(net, m, o);
  if (g.first < f) out.push_back(who + ": first arrival at " + std::to_string(g.first) + ", before the earliest " + std::to_string(f));
  if (g.last < l) out.push_back(who + ": last byte at " + std::to_string(g.last) + ", before the earliest " + std::to_string(l));
  if (g.first > g.last)
    out.push_back(who + ": first arrival at " + std::to_string(g.first) + " after its last byte at " + std::to_string(g.last));
}

// Worms of one source to one destination: one path, not interleaved on a channel.
void check_worm_order(const std::vector<Message>& sent, const std::vector<const Delivery*>& of,
                      std::vector<std::string>& out) {
  std::map<std::pair<uint32_t, uint32_t>, size_t> prev;
  for (size_t j = 0; j < sent.size(); ++j) {
    if (!of[j]) continue;
    const auto key = std::make_pair(sent[j].src, sent[j].dst);
    const auto it = prev.find(key);
    if (it != prev.end() && of[j]->first <= of[it->second]->last)
      out.push_back(name(sent, j) + ": its first data arrived at " + std::to_string(of[j]->first) + ", not after the last byte of " +
                    name(sent, it->second) + " at " + std::to_string(of[it->second]->last));
    prev[key] = j;
  }
}

}  // namespace

std::vector<std::vector<uint8_t>> wire_of(const Net& net, const Message& m, const Options& o) {
  const size_t len = m.data.size();
  const size_t first = net.scheme == Scheme::kWormhole ? len : std::min(len, static_cast<size_t>(net.packet_bytes) - kMessageHeader);
  const size_t later = static_cast<size_t>(net.packet_bytes) - kRouteHeader;
  std::vector<std::vector<uint8_t>> w;
  for (size_t off = 0; w.empty() || off < len;) {
    std::vector<uint8_t> b;
    put(b, m.dst, 2, o.byte_order);
    put(b, m.src, 2, o.byte_order);
    if (w.empty()) {
      put(b, len, 4, o.byte_order);
      put(b, m.type, 2, o.byte_order);
    }
    const size_t n = std::min(len - off, w.empty() ? first : later);
    b.insert(b.end(), m.data.begin() + static_cast<std::ptrdiff_t>(off), m.data.begin() + static_cast<std::ptrdiff_t>(off + n));
    off += n;
    w.push_back(std::move(b));
  }
  return w;
}

std::vector<uint8_t> reassemble(const std::vector<std::vector<uint8_t>>& wire, const Options& o) {
  if (wire.empty() || wire[0].size() < kMessageHeader) return {};
  const uint64_t route = get(wire[0], 0, 4, ByteOrder::kLittleEndian);  // destination and source, as bytes
  const uint64_t len = get(wire[0], 4, 4, o.byte_order);
  std::vector<uint8_t> data(wire[0].begin() + kMessageHeader, wire[0].end());
  for (size_t k = 1; k < wire.size(); ++k) {
    if (wire[k].size() < kRouteHeader || get(wire[k], 0, 4, ByteOrder::kLittleEndian) != route) return {};
    data.insert(data.end(), wire[k].begin() + kRouteHeader, wire[k].end());
  }
  if (data.size() != len) return {};
  return data;
}

uint64_t earliest_first(const Net& net, const Message& m, const Options& o) {
  const uint64_t A = static_cast<uint64_t>(net.arb_ticks), T = static_cast<uint64_t>(net.ticks_per_byte);
  const uint64_t h = static_cast<uint64_t>(hops(m.src, m.dst)), len = m.data.size();
  const uint64_t data = net.scheme == Scheme::kWormhole
                            ? std::min<uint64_t>(len, o.worm_first_data_bytes)
                            : std::min<uint64_t>(len, static_cast<uint64_t>(net.packet_bytes) - kMessageHeader);
  // The header's destination bytes cut through hop by hop; the rest up to those data bytes follows.
  return m.gen + o.inject_ticks + h * (A + 2 * T) + (kMessageHeader - 2 + data) * T;
}

uint64_t earliest_last(const Net& net, const Message& m, const Options& o) {
  const uint64_t A = static_cast<uint64_t>(net.arb_ticks), T = static_cast<uint64_t>(net.ticks_per_byte);
  const uint64_t h = static_cast<uint64_t>(hops(m.src, m.dst));
  if (net.scheme == Scheme::kWormhole) return m.gen + o.inject_ticks + h * (A + 2 * T) + (kMessageHeader - 2 + m.data.size()) * T;
  // Every packet crosses the first channel after the one before it; the last then cuts through
  // the other h - 1 hops.
  uint64_t first_channel = 0;
  const auto packets = wire_of(net, m, o);
  for (const auto& b : packets) first_channel += b.size() * T;
  first_channel += (o.arbitration_per_packet ? packets.size() : 1) * A;
  return m.gen + o.inject_ticks + first_channel + (h > 0 ? h - 1 : 0) * (A + 2 * T);
}

std::vector<std::string> disagreements(const Net& net, const std::vector<Message>& sent,
                                       const std::vector<Delivery>& got, const Options& o) {
  std::vector<std::string> out;
  const uint64_t nodes = uint64_t{1} << net.dims;
  // The messages a (source, type) names, in the source's order.
  std::map<std::pair<uint32_t, uint16_t>, std::vector<size_t>> named;
  for (size_t i = 0; i < sent.size(); ++i) {
    const Message& m = sent[i];
    if (m.src >= nodes || m.dst >= nodes) out.push_back(name(sent, i) + ": not a node of the " + std::to_string(net.dims) + "-cube");
    if (m.src == m.dst) out.push_back(name(sent, i) + ": to itself (the paper: a node does not send to itself)");
    check_wire(net, sent, i, o, out);
    named[{m.src, m.type}].push_back(i);
  }
  std::vector<const Delivery*> of(sent.size(), nullptr);
  for (const Delivery& g : got) {
    auto it = named.find({g.src, g.type});
    size_t k = 0;
    while (it != named.end() && k < it->second.size() && of[it->second[k]]) ++k;
    if (it == named.end() || k == it->second.size()) {
      out.push_back("an extra message arrived at node " + std::to_string(g.at) + " (source " + std::to_string(g.src) + ", type " +
                    std::to_string(g.type) + ", " + std::to_string(g.len) + " bytes" +
                    (it == named.end() ? ": no such message was sent)" : ": it had arrived already)"));
      continue;
    }
    of[it->second[k]] = &g;
    check_delivery(net, sent, it->second[k], g, o, out);
  }
  for (size_t i = 0; i < sent.size(); ++i)
    if (!of[i]) out.push_back(name(sent, i) + ": never arrived");
  if (net.scheme == Scheme::kWormhole && o.worm_pair_order) check_worm_order(sent, of, out);
  return out;
}

}  // namespace cmnet::hcube_oracle
