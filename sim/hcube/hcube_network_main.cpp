// Verilator harness of the emitted hypercube network of packet-scheme chips (hcube_network).
// Built per design by sim/core/rtl_build.cpp and run as a child process by sim/hcube/hcube_rtl.cpp,
// on the shared driver (sim/core/harness_driver.h: CMNET_TRACE=F.fst writes a trace).
// The harness is every node's host: it offers the head of each node's message queue (once
// generated) with its first packet, gives each port taking a message the packet it asks for,
// and reassembles what the nodes eject by source and first-hop dimension (the source field's top
// 4 bits), from the bytes alone.
//
// Input (one record per line):
//   params NODES N MAX_CYCLES P
//   msg SRC DST GEN NPK                  (each node's messages in order; the tag is the record number)
//   pkt W HEX                            (NPK of them after each msg: wire bytes and the bytes, hex)
// Output:
//   rx DST SRC FDIM TYPE LEN FIRST LAST HEX  (a reassembled message: first-hop dim, data bytes in hex)
//   done CYCLES COMPLETED
//   speed CYCLES SECONDS
//   cnt NODE v0 v1 ...                   (the node's counters, port * 4 + kind)
#include <cinttypes>
#include <cstdio>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "Vhcube_network.h"
#include "sim/core/harness_driver.h"
#include "sim/core/harness_io.h"
#include "sim/core/verilator_ports.h"
#include "sim/hcube/hcube_harness_io.h"

using namespace cmnet::vport;
using cmnet::harness::die;

namespace {

struct Pkt {
  int w = 0;
  std::vector<uint8_t> bytes;
};

struct Msg : cmnet::hcube_harness::MsgHead {
  std::vector<Pkt> pkts;
};

struct Open {
  uint32_t len = 0, type = 0;
  uint64_t first = 0;
  std::vector<uint8_t> data;
};

}  // namespace

int main(int argc, char** argv) {
  const cmnet::harness::Files io("hcube harness", argc, argv);
  FILE* out = io.out();
  int P = 0;
  std::vector<Msg> msgs;
  cmnet::hcube_harness::Reader in(io.in());
  const cmnet::hcube_harness::Params params = in.read(
      [&] { P = in.i32(); },
      [&](const cmnet::hcube_harness::MsgHead& head) {
        Msg m{head, {}};
        const int npk = in.i32();
        std::string kind;
        for (int k = 0; k < npk; ++k) {
          Pkt p;
          if (!in.next(kind) || kind != "pkt") die("bad pkt");
          p.w = in.i32();
          p.bytes = in.hex();
          p.bytes.resize(static_cast<size_t>(P), 0);
          m.pkts.push_back(p);
        }
        msgs.push_back(m);
      });
  if (P <= 0) die("missing params");
  const int NN = params.nodes, N = params.dims;
  const int TW = 16, KW = 16, WL = [&] { int b = 0; while ((1 << b) < P + 1) ++b; return b; }();
  cmnet::hcube_harness::Hosts hosts(NN, N, msgs);
  // Per (node, incoming dimension): the packet arriving; per (node, source, first dim): the message.
  std::vector<std::vector<uint8_t>> arriving(static_cast<size_t>(NN * N));
  std::map<std::tuple<uint32_t, uint32_t, uint32_t>, Open> open;

  cmnet::harness::Driver<Vhcube_network> top(cmnet::harness::Origin::kRun);
  auto put_pkt = [&](auto& port, int lsb, const Pkt& p) {
    for (int i = 0; i < P; ++i) set_field(port, lsb + 8 * i, 8, p.bytes[static_cast<size_t>(i)]);
  };
  // The sources: the heads (once generated) and the packets the ports ask for (registered).
  auto offer = [&](uint64_t t) {
    for (int x = 0; x < NN; ++x) {
      size_t h = 0;
      const bool v = hosts.head(x, h) && msgs[h].gen <= t;
      set_bit(top->src_valid, x, v);
      if (v) {
        const Msg& m = msgs[h];
        set_field(top->src_dst, x * N, N, m.dst);
        set_field(top->src_tag, x * TW, TW, h);
        set_field(top->src_npk, x * KW, KW, m.pkts.size());
        put_pkt(top->src_pkt, x * P * 8, m.pkts[0]);
        set_field(top->src_w, x * WL, WL, static_cast<uint64_t>(m.pkts[0].w));
      }
      for (int d = 0; d < N; ++d) {
        const int f = x * N + d;
        if (!get_bit(top->fd_active, f)) continue;
        const size_t tag = get_field(top->fd_tag, f * TW, TW);
        const size_t k = get_field(top->fd_k, f * KW, KW);
        if (tag >= msgs.size() || k >= msgs[tag].pkts.size()) die("a port asked for a packet that does not exist");
        put_pkt(top->fd_pkt, f * P * 8, msgs[tag].pkts[k]);
        set_field(top->fd_w, f * WL, WL, static_cast<uint64_t>(msgs[tag].pkts[k].w));
      }
    }
  };
  // Ejection: bytes by incoming dimension; at a packet's end, its place in a message.
  auto eject = [&](uint64_t t) {
    size_t done = 0;
    for (int f = 0; f < NN * N; ++f) {
      auto& a = arriving[static_cast<size_t>(f)];
      if (get_bit(top->ej_bvalid, f)) a.push_back(static_cast<uint8_t>(get_field(top->ej_byte, f * 8, 8)));
      if (!get_bit(top->ej_end, f)) continue;
      const uint32_t x = static_cast<uint32_t>(f / N);
      if (a.size() < 4) die("a packet shorter than its header");
      const uint32_t field = a[2] | (static_cast<uint32_t>(a[3]) << 8);
      const auto key = std::make_tuple(x, field & 0xFFFu, field >> 12);
      auto it = open.find(key);
      size_t from = 4;
      if (it == open.end()) {  // no message open from there: this is a first packet
        if (a.size() < 10) die("a first packet shorter than its header");
        Open o;
        o.len = a[4] | (a[5] << 8) | (a[6] << 16) | (static_cast<uint32_t>(a[7]) << 24);
        o.type = a[8] | (a[9] << 8);
        o.first = t;
        it = open.emplace(key, o).first;
        from = 10;
      }
      it->second.data.insert(it->second.data.end(), a.begin() + static_cast<std::ptrdiff_t>(from), a.end());
      if (it->second.data.size() >= it->second.len) {
        const Open& o = it->second;
        std::fprintf(out, "rx %u %u %u %u %u %" PRIu64 " %" PRIu64 " ", x, field & 0xFFFu, field >> 12, o.type, o.len,
                     o.first, t);
        for (uint8_t b : o.data) std::fprintf(out, "%02x", b);
        std::fprintf(out, "\n");
        open.erase(it);
        ++done;
      }
      a.clear();
    }
    return done;
  };
  hosts.run(top, params.max_cycles, out, offer, eject);
  return 0;
}
