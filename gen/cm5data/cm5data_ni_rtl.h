// The network interface as a memory-mapped RTL block (section 2 of the paper): cm5data_ni, one
// side of a processing node on one network (a node with left and right networks has two), with
// the register bus of gen/cm5data/cm5data_ni_regmap.h on the processor side and a leaf link of
// cm5data_network on the other (the message format of the router's leaf ports: head word with
// the routing instructions, data words, CRC word, LSB first in flits of W bits, credits).
//
// As built (the same choices as the model's NI, sim/cm5data/cm5data_ni.h, one side):
//  - the data words go into a staging buffer of max_words words; a SEND write builds the head
//    (U from this leaf's number and dst, the digits of dst, the tag, the length) and puts head,
//    data and (the room of) the CRC into the send FIFO (the config's ni.send_words) in one cycle, if
//    all of them fit (else refused); the FIFO frees a message's words when its last flit has left.
//    The CRC word is made as the message leaves, W bits per flit of each word (MSB first: the word
//    is in hand while its flits go LSB first), not by a word-wide chain at SEND: the same words
//    leave, about a quarter of the NI's logic less (and its longest path gone);
//  - a flit leaves per cycle while the NI holds a credit (the credit arriving in the same cycle
//    counts); the receive FIFO (ni.recv_words) returns a credit in the cycle a flit
//    arrives while every flit the network may still send has room (flits held + credits out
//    <= the FIFO), the model's rule; a message leaves the FIFO when its last data word is read;
//  - CRC checked on arrival (ok or not; the chips tell primary from secondary; each finished word
//    stepped into the CRC W bits a cycle while the next word arrives), tag mask and
//    sticky interrupt, counters (sent, received, refused, interrupts, CRC errors, address errors);
//  - leaves mapped out of the address space (mapped_out_leaves) are straps: a SEND to one, or
//    any SEND at one, is an address error.
#pragma once

#include "gen/cm5data/cm5data_config.h"
#include "gen/core/design.h"

#include "gen/core/verilog_writer.h"

namespace cmnet {

constexpr int kCm5NiSendWords = 8;   // send FIFO words (the model NI's default)
constexpr int kCm5NiRecvWords = 16;  // receive FIFO words (the default of the config's ni.recv_words)
// The NI's send FIFO words where no board sets them: the config's ni.send_words, else kCm5NiSendWords.
inline int cm5_ni_send_words(const Cm5DataParams& p) { return p.ni_send_words ? p.ni_send_words : kCm5NiSendWords; }

// The network head word as a Verilog expression: {digits of dst[12 +: 2h], tag[11:8], U[7:4] =
// climb(me, dst), mark[3], len[2:0]} (climb from emit_cm5data_functions). The one place the RTL
// builds it: the NI's SEND; the stream board's messages go through its NIs.
std::string cm5_head_word_verilog(int height, const std::string& me, const std::string& dst, const std::string& tag,
                                  const std::string& mark, const std::string& len);
// The module cm5data_ni (parameter LEAF: the leaf it sits at), its send FIFO of `send_words`
// words (a power of 2, 8..64; the stream board's holds several messages), its receive FIFO of
// p.ni_recv_words words.
std::string emit_cm5data_ni_module(const Cm5DataParams& p, int send_words = kCm5NiSendWords);
// A node's data network as a board or machine top wires it: the left and right networks
// (cm5data_network, cm5data_network_r) on the vectors leaf_tx_valid, leaf_tx_data,
// leaf_tx_credit, leaf_rx_valid, leaf_rx_data, leaf_rx_credit (side s of leaf g at s*N + g,
// declared by the caller), and a cm5data_ni per leaf and side on them (generate blocks
// g_ni_side[s].g_ni[g], inside the caller's generate with genvars g and s; its bus on ni_addr,
// ni_wdata, ni_we, ni_re, ni_rdata, ni_irq and its events on ev_accept and ev_recv, at s*N + g).
// What the tops wire differently is in the hooks: per-NI vectors are indexed the same way.
struct Cm5NiBankHooks {
  std::string clear = "1'b0";           // the networks' counter clear
  std::string cnt_chip, cnt_sel;        // the networks' counter select (expressions)
  std::string cnt_left, cnt_right;      // the networks' counter values (wires)
  std::string tx_start;                 // per NI (1 bit); "" = always 1'b1
  std::string send_free;                // per NI, 8 bits
  std::string ev_sent, ev_taken, ev_intr, ev_addr;  // per NI, 1 bit each
};
void emit_cm5data_networks(VerilogWriter& v, const Cm5DataParams& p, const Cm5NiBankHooks& h);
void emit_cm5data_ni_bank(VerilogWriter& v, const Cm5NiBankHooks& h);
// The network's design (emit_cm5data) with cm5data_ni.v and cm5data_ni_net.v (the network's
// leaves each behind a cm5data_ni, every NI's bus a port: addr[x*4 +: 4], wdata[x*32 +: 32],
// we[x], re[x], rdata[x*32 +: 32], irq[x]); top cm5data_ni_net.
GeneratedDesign emit_cm5data_ni(const Cm5DataConfig& cfg);

}  // namespace cmnet
