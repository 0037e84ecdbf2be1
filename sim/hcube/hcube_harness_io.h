// What the two hypercube harness mains (hcube_network_main.cpp, packet scheme;
// hcube_worm_main.cpp, wormhole) share: reading their input records (sim/hcube/hcube_rtl.cpp
// writes them), the reset, and the summary they end their output with. Header-only: the mains
// are compiled by Verilator's build (sim/core/rtl_build.h), not by CMake.
#pragma once

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "sim/core/harness_driver.h"

namespace cmnet::hcube_harness {

[[noreturn]] inline void die(const char* harness, const std::string& what) {
  std::fprintf(stderr, "%s: %s\n", harness, what.c_str());
  std::exit(2);
}

// The input: whitespace-separated records "KIND field ...", read field by field; any field that
// does not parse ends the harness naming the record kind.
class Reader {
 public:
  Reader(const char* harness, const char* path) : harness_(harness), in_(std::fopen(path, "r")) {
    if (!in_) die(harness_, std::string("cannot open input ") + path);
  }
  ~Reader() { std::fclose(in_); }
  Reader(const Reader&) = delete;
  Reader& operator=(const Reader&) = delete;

  // The next record's kind; false at the end of the input.
  bool next(std::string& kind) {
    char k[16];
    if (std::fscanf(in_, "%15s", k) != 1) return false;
    kind_ = kind = k;
    return true;
  }
  uint64_t u64() {
    uint64_t v = 0;
    if (std::fscanf(in_, "%" SCNu64, &v) != 1) die(harness_, "bad " + kind_ + " record");
    return v;
  }
  uint32_t u32() { return static_cast<uint32_t>(u64()); }
  int i32() { return static_cast<int>(u64()); }
  // A field of hexadecimal digit pairs as bytes.
  std::vector<uint8_t> hex() {
    std::string s;
    int c = std::fgetc(in_);
    while (c == ' ' || c == '\t' || c == '\n' || c == '\r') c = std::fgetc(in_);
    for (; c != EOF && c != ' ' && c != '\t' && c != '\n' && c != '\r'; c = std::fgetc(in_)) s.push_back(static_cast<char>(c));
    if (s.empty() || s.size() % 2) die(harness_, "bad bytes in a " + kind_ + " record");
    std::vector<uint8_t> b;
    b.reserve(s.size() / 2);
    for (size_t i = 0; i < s.size(); i += 2) b.push_back(static_cast<uint8_t>(hexval(s[i]) * 16 + hexval(s[i + 1])));
    return b;
  }

 private:
  int hexval(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f') return (c | 0x20) - 'a' + 10;
    die(harness_, "bad hex digit in a " + kind_ + " record");
  }
  const char* harness_;
  std::FILE* in_;
  std::string kind_;
};

// Reset for two cycles with every router enabled (the stream board is what holds `en` low), the
// counters unselected; time counts from here.
template <class Top>
void reset(harness::Driver<Top>& top) {
  top->rst = 1;
  top->clear = 0;
  top->en = 1;
  top->cnt_node = 0;
  top->cnt_sel = 0;
  top.tick();
  top.tick();
  top->rst = 0;
  top.set_time_origin();
}

// The end of the output: "done CYCLES COMPLETED", "speed CYCLES SECONDS" and per node
// "cnt NODE v0 v1 ..." (port * 4 + kind), after three idle cycles (a counter shows an event a
// cycle late).
template <class Top>
void write_summary(std::FILE* out, harness::Driver<Top>& top, int nodes, int dims, uint64_t cycles, bool completed,
                   double seconds) {
  for (int k = 0; k < 3; ++k) top.tick();
  std::fprintf(out, "done %" PRIu64 " %d\n", cycles, completed ? 1 : 0);
  std::fprintf(out, "speed %" PRIu64 " %.6f\n", cycles, seconds);
  for (int x = 0; x < nodes; ++x) {
    std::fprintf(out, "cnt %d", x);
    for (int s = 0; s < 4 * dims; ++s) {
      top->cnt_node = static_cast<uint32_t>(x);
      top->cnt_sel = static_cast<uint32_t>(s);
      top.eval();
      std::fprintf(out, " %u", static_cast<unsigned>(top->cnt_value));
    }
    std::fprintf(out, "\n");
  }
}

}  // namespace cmnet::hcube_harness
