// The JSON lines `cmnet sim` writes: one schema for every family and both engines, described
// here once (README.md, "What `cmnet sim` writes", shows it with real output).
//
// One line per record of the input, in the input's order, then one summary line:
//
//   {"id", "kind", "sent", "dst", "arrived", "delivered", "latency", "ambiguous", "why", "extra"}
//   {"summary": {"family", "engine", "time_unit", "records", "delivered", "ambiguous", "completed", ...}}
//
//  - id: the record's stable number: its index in the input (the traffic file's message line,
//    the pattern's message, the workload's operation, the connection set's circuit), the same on
//    both engines;
//  - kind: "message" (one source, one destination), "operation" (a control network operation:
//    every leaf sends, every leaf gets a result), "circuit" (a Clos circuit: source port,
//    destination port, words over it), "globals" (the control network's global ORs);
//  - sent: one end per sender, {"at": leaf or port, "time": when it was offered (null: untimed),
//    "words": what it sent (hex strings)};
//  - dst: where it should arrive (a leaf or port, or an array of them);
//  - arrived: one end per arrival, in the same shape (a copy that arrived twice is two ends),
//    "words" what the receiver got; an end may carry "flags" (a result's overflow, error, ...);
//  - delivered: it arrived wherever it should (every leaf, for an operation);
//  - latency: first arrival's time - first send's time (null: not delivered or untimed);
//  - ambiguous / why: true when the engine cannot tell this record's arrival from another's
//    (equal messages in flight, OR-combined data) and the credit is a guess; why says which;
//  - extra: what only this family has (CM-1's VP, cm5data's CRC, hcube's first packet, ...),
//    always an object.
// Every key but "extra" is one the RTL and the model must agree on for the same input: their
// lines compare line by line (extra may hold what one engine alone knows).
#pragma once

#include <cstdint>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace cmnet {

// One end of a record: where, when, which words.
struct SimEnd {
  uint64_t at = 0;                // leaf, port, processor
  std::optional<uint64_t> time;   // in the summary's time unit; none = untimed
  std::vector<uint64_t> words;    // written as hex strings
  std::optional<std::vector<std::string>> text_words;  // instead of `words`, already written (hcube's bytes)
  nlohmann::ordered_json flags;   // null = none; else an object
};

struct SimRecord {
  uint64_t id = 0;
  std::string kind = "message";
  std::vector<SimEnd> sent;
  nlohmann::ordered_json dst;     // a number or an array
  std::vector<SimEnd> arrived;
  bool delivered = false;
  std::string ambiguous;          // "" = not; else why the credit is a guess
  nlohmann::ordered_json extra = nlohmann::ordered_json::object();
};

struct SimSummary {
  std::string family, engine;
  std::string time_unit;          // "cycles", "petit cycles", "ticks"; "" = none
  bool completed = false;
  nlohmann::ordered_json extra = nlohmann::ordered_json::object();  // the family's own figures, after the common ones
};

// The record as its JSON line (no newline); latency from the first send and first arrival.
nlohmann::ordered_json sim_record_json(const SimRecord& r);
// A word as the lines write it: lowercase hex, no leading zeros.
std::string sim_hex(uint64_t w);

// Writes a sim's lines to `path` (InputError when it cannot), counting what the summary says.
class SimLinesWriter {
 public:
  explicit SimLinesWriter(const std::string& path);
  void write(const SimRecord& r);
  // The summary line; records, delivered and ambiguous counted from the records written.
  void finish(const SimSummary& s);
  uint64_t records() const { return records_; }
  uint64_t delivered() const { return delivered_; }
  uint64_t ambiguous() const { return ambiguous_; }

 private:
  std::string path_;
  std::ofstream out_;
  uint64_t records_ = 0, delivered_ = 0, ambiguous_ = 0;
};

}  // namespace cmnet
