// The adapter between hcube's runs and its oracle (sim/hcube/oracle/, issue 26): the config,
// the traffic (with what the RTL harness hands each source: hcube_packet_bytes / hcube_worm_bytes)
// and a run's reassembled messages in the oracle's terms; every disagreement one sentence.
#pragma once

#include <string>
#include <vector>

#include "gen/hcube/hcube_config.h"
#include "sim/hcube/hcube_model.h"
#include "sim/hcube/hcube_rtl.h"
#include "sim/hcube/oracle/hcube_oracle.h"

namespace cmnet {

inline hcube_oracle::Net hcube_oracle_net(const HcubeParams& p) {
  hcube_oracle::Net n;
  n.dims = p.dims;
  n.scheme = p.packet() ? hcube_oracle::Scheme::kPacket : hcube_oracle::Scheme::kWormhole;
  n.routing = p.quasi() ? hcube_oracle::Routing::kQuasi : hcube_oracle::Routing::kFixed;
  n.packet_bytes = p.packet_bytes;
  n.ticks_per_byte = p.ticks_per_byte;
  n.arb_ticks = p.arb_ticks;
  return n;
}

inline std::vector<hcube_oracle::Message> hcube_oracle_messages(const HcubeParams& p, const HcubeTraffic& t) {
  std::vector<hcube_oracle::Message> out;
  for (const HcubeMessage& m : t.messages) {
    hcube_oracle::Message o;
    o.src = m.src;
    o.dst = m.dst;
    o.gen = m.gen;
    o.type = static_cast<uint16_t>(m.seq);
    o.data = hcube_payload(p.seed, m);
    if (p.packet()) {
      for (uint64_t k = 0; k < p.packets_of(m.len); ++k) o.wire.push_back(hcube_packet_bytes(p, m, k));
    } else {
      o.wire.push_back(hcube_worm_bytes(p, m));
    }
    out.push_back(std::move(o));
  }
  return out;
}

// The run's reassembled messages (HcubeModelOptions / HcubeRtlOptions keep_received).
inline std::vector<hcube_oracle::Delivery> hcube_oracle_deliveries(const HcubeRunResult& r) {
  std::vector<hcube_oracle::Delivery> out;
  for (const HcubeReceived& x : r.received) {
    hcube_oracle::Delivery d;
    d.at = x.dst;  // the harnesses write the ejecting node; the models eject a packet where it is addressed
    d.src = x.src;
    d.type = static_cast<uint16_t>(x.type);
    d.len = x.len;
    d.first_dim = x.first_dim;
    d.first = x.first;
    d.last = x.last;
    d.data = x.data;
    out.push_back(std::move(d));
  }
  return out;
}

inline std::vector<std::string> hcube_oracle_check(const HcubeParams& p, const HcubeTraffic& t, const HcubeRunResult& r) {
  return hcube_oracle::disagreements(hcube_oracle_net(p), hcube_oracle_messages(p, t), hcube_oracle_deliveries(r));
}

}  // namespace cmnet
