#include "host/cli/cm5/cm5_lines.h"

#include "host/cli/cm5ctl/cm5ctl_lines.h"

namespace cmnet {
namespace {

bool same_message(const Cm5MachineMessage& m, const Cm5MachineReceived& x) {
  return m.side == x.side && m.dst == x.leaf && static_cast<uint32_t>(m.tag) == ((x.msg.head >> 20) & 15u) &&
         m.data == x.msg.words;
}

SimRecord message_record(size_t i, const Cm5MachineMessage& m) {
  SimRecord r;
  r.id = i;
  SimEnd from{m.src, m.release, {}, {}, {}};
  from.words.assign(m.data.begin(), m.data.end());
  r.sent.push_back(from);
  r.dst = m.dst;
  r.extra["side"] = m.side == 0 ? "left" : "right";
  r.extra["tag"] = m.tag;
  return r;
}

}  // namespace

std::vector<SimRecord> cm5_machine_records(const Cm5MachineConfig& c, const Cm5MachineWorkload& w,
                                           const Cm5MachineRun& r) {
  std::vector<SimRecord> out;
  for (size_t i = 0; i < w.messages.size(); ++i) out.push_back(message_record(i, w.messages[i]));
  for (const Cm5MachineReceived& x : r.received) {
    size_t again = w.messages.size();
    std::vector<size_t> free;
    for (size_t i = 0; i < w.messages.size(); ++i) {
      if (!same_message(w.messages[i], x)) continue;
      if (out[i].arrived.empty()) free.push_back(i);
      else if (again == w.messages.size()) again = i;
    }
    const size_t pick = free.empty() ? again : free.front();  // a copy of one already read
    if (pick == w.messages.size()) continue;       // not a message of the workload (never, if all is well)
    SimEnd e{x.leaf, x.msg.cycle, {}, {}, {}};
    e.words.assign(x.msg.words.begin(), x.msg.words.end());
    e.flags = {{"crc_ok", ((x.msg.head >> 30) & 1u) != 0}};
    out[pick].arrived.push_back(e);
    out[pick].delivered = true;
    if (free.size() > 1)
      for (size_t i : free)
        out[i].ambiguous = "equal messages (network, source, destination, tag, words) in flight together: the data "
                            "network carries no id, which of them arrived here is a guess";
  }
  if (w.ctl.leaf.empty()) return out;  // no control network operations
  for (SimRecord& x : cm5ctl_records(w.ctl, cm5_topology(c.ctl.p), r.results, {}, expected_results(w.ctl, c.ctl.p.word_bits,
                                                                                                  cm5_topology(c.ctl.p)),
                                     c.ctl.p.word_bits, w.messages.size()))
    out.push_back(std::move(x));
  return out;
}

}  // namespace cmnet
