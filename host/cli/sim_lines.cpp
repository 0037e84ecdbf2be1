#include "host/cli/sim_lines.h"

#include <algorithm>
#include <cstdio>

#include "gen/core/errors.h"

namespace cmnet {
namespace {

nlohmann::ordered_json end_json(const SimEnd& e) {
  nlohmann::ordered_json j;
  j["at"] = e.at;
  j["time"] = e.time ? nlohmann::ordered_json(*e.time) : nlohmann::ordered_json(nullptr);
  nlohmann::ordered_json w = nlohmann::ordered_json::array();
  if (e.text_words) {
    for (const std::string& s : *e.text_words) w.push_back(s);
  } else {
    for (uint64_t x : e.words) w.push_back(sim_hex(x));
  }
  j["words"] = w;
  if (!e.flags.is_null()) j["flags"] = e.flags;
  return j;
}

nlohmann::ordered_json ends_json(const std::vector<SimEnd>& ends) {
  nlohmann::ordered_json a = nlohmann::ordered_json::array();
  for (const SimEnd& e : ends) a.push_back(end_json(e));
  return a;
}

std::optional<uint64_t> first_time(const std::vector<SimEnd>& ends) {
  std::optional<uint64_t> t;
  for (const SimEnd& e : ends)
    if (e.time) t = t ? std::min(*t, *e.time) : *e.time;
  return t;
}

}  // namespace

std::string sim_hex(uint64_t w) {
  char b[24];
  std::snprintf(b, sizeof b, "%llx", static_cast<unsigned long long>(w));
  return b;
}

nlohmann::ordered_json sim_record_json(const SimRecord& r) {
  nlohmann::ordered_json j;
  j["id"] = r.id;
  j["kind"] = r.kind;
  j["sent"] = ends_json(r.sent);
  j["dst"] = r.dst;
  j["arrived"] = ends_json(r.arrived);
  j["delivered"] = r.delivered;
  const auto s = first_time(r.sent), a = first_time(r.arrived);
  j["latency"] = r.delivered && s && a && *a >= *s ? nlohmann::ordered_json(*a - *s) : nlohmann::ordered_json(nullptr);
  j["ambiguous"] = !r.ambiguous.empty();
  j["why"] = r.ambiguous.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(r.ambiguous);
  j["extra"] = r.extra.is_null() ? nlohmann::ordered_json::object() : r.extra;
  return j;
}

SimLinesWriter::SimLinesWriter(const std::string& path) : path_(path), out_(path) {
  if (!out_) throw InputError(path + ": cannot write output file");
}

void SimLinesWriter::write(const SimRecord& r) {
  out_ << sim_record_json(r).dump() << '\n';
  ++records_;
  delivered_ += r.delivered;
  ambiguous_ += !r.ambiguous.empty();
}

void SimLinesWriter::finish(const SimSummary& s) {
  nlohmann::ordered_json j;
  j["family"] = s.family;
  j["engine"] = s.engine;
  j["time_unit"] = s.time_unit.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(s.time_unit);
  j["records"] = records_;
  j["delivered"] = delivered_;
  j["ambiguous"] = ambiguous_;
  j["completed"] = s.completed;
  for (const auto& [k, v] : s.extra.items())
    if (!j.contains(k)) j[k] = v;
  out_ << nlohmann::ordered_json{{"summary", j}}.dump() << '\n';
  if (!out_.flush()) throw InputError(path_ + ": cannot write output file");
}

}  // namespace cmnet
