// The preamble every batch harness main shares (`harness INPUT OUTPUT`, run by
// sim/core/harness_run.h): the argument check, its two files, and how it ends on an error.
// Header-only: the harness mains are compiled by Verilator's build (sim/core/rtl_build.h), not
// by CMake.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

namespace cmnet::harness {

// The prefix of the harness's error messages. A process is one harness: Files names it.
inline std::string& harness_name() {
  static std::string name = "harness";
  return name;
}

// Ends the harness: "NAME: WHAT" on stderr and exit status 2 (run_harness reports the log).
[[noreturn]] inline void die(const std::string& what) {
  std::fprintf(stderr, "%s: %s\n", harness_name().c_str(), what.c_str());
  std::exit(2);
}

// The files of `harness INPUT OUTPUT`, open for the harness's life (or of `harness INPUT` with
// `output_file` false, for a harness that reports on stdout). A wrong argument count, or a file
// that does not open, ends the harness.
class Files {
 public:
  Files(const char* name, int argc, char** argv, bool output_file = true) {
    harness_name() = name;
    if (argc != (output_file ? 3 : 2)) die(output_file ? "usage: harness INPUT OUTPUT" : "usage: harness INPUT");
    in_ = std::fopen(argv[1], "r");
    if (!in_) die(std::string("cannot open input ") + argv[1]);
    out_ = output_file ? std::fopen(argv[2], "w") : stdout;
    if (!out_) die(std::string("cannot open output ") + argv[2]);
  }
  ~Files() {
    std::fclose(in_);
    if (out_ != stdout) std::fclose(out_);
  }
  Files(const Files&) = delete;
  Files& operator=(const Files&) = delete;

  std::FILE* in() const { return in_; }
  std::FILE* out() const { return out_; }

 private:
  std::FILE* in_ = nullptr;
  std::FILE* out_ = nullptr;
};

}  // namespace cmnet::harness
