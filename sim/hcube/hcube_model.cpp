#include "sim/hcube/hcube_model.h"

namespace cmnet {

HcubeRunResult run_hcube_model(const HcubeParams& p, const HcubeTraffic& t, const HcubeModelOptions& opt) {
  check_hcube_traffic(t, p, "hcube traffic");
  return p.packet() ? run_hcube_packet_model(p, t, opt) : run_hcube_wormhole_model(p, t, opt);
}

HcubeReassemblyCheck::HcubeReassemblyCheck(const HcubeParams& p, const HcubeTraffic& t, HcubeRunResult& r, bool keep)
    : p_(p), t_(t), r_(r), keep_(keep) {
  for (size_t i = t.messages.size(); i-- > 0;) by_[{t.messages[i].src, t.messages[i].seq & 0xFFFFu}].push_back(i);
  r.deliveries.resize(t.messages.size());
}

void HcubeReassemblyCheck::add(HcubeReceived x) {
  auto it = by_.find({x.src, x.type});
  if (it == by_.end() || it->second.empty()) {
    ++r_.bad_reassembly;  // not a message of the traffic, or one too many
  } else {
    const size_t i = it->second.back();
    it->second.pop_back();
    const HcubeMessage& m = t_.messages[i];
    HcubeDelivery& d = r_.deliveries[i];
    d.delivered = true;
    d.first = x.first;
    d.last = x.last;
    if (x.first_dim >= 0) d.first_dim = x.first_dim;
    d.data_ok = x.dst == m.dst && x.len == m.len && x.data == hcube_payload(p_.seed, m);
    if (!d.data_ok) ++r_.bad_reassembly;
    ++r_.delivered;
  }
  if (keep_) r_.received.push_back(std::move(x));
}

}  // namespace cmnet
