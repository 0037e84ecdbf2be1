#include "tests/core/fst_check.h"

#include <set>
#include <stdexcept>

#include "fstapi.h"

namespace cmnet::test {

FstSummary read_fst(const std::string& path) {
  void* ctx = fstReaderOpen(path.c_str());
  if (!ctx) throw std::runtime_error(path + ": not a readable FST file");
  FstSummary s;
  s.start = fstReaderGetStartTime(ctx);
  s.end = fstReaderGetEndTime(ctx);
  s.vars = fstReaderGetVarCount(ctx);
  std::set<uint64_t> times;
  fstReaderSetFacProcessMaskAll(ctx);
  fstReaderIterBlocks(
      ctx, [](void* user, uint64_t time, fstHandle, const unsigned char*) { static_cast<std::set<uint64_t>*>(user)->insert(time); },
      &times, nullptr);
  fstReaderClose(ctx);
  s.steps = times.size();
  if (!times.empty() && (*times.begin() != s.start || *times.rbegin() != s.end))
    throw std::runtime_error(path + ": value changes outside the file's time range");
  return s;
}

namespace {

::testing::AssertionResult check(const std::string& path, uint64_t t0, const uint64_t* t1, uint64_t* last) {
  FstSummary s;
  try {
    s = read_fst(path);
  } catch (const std::exception& e) {
    return ::testing::AssertionFailure() << e.what();
  }
  const auto fail = [&] {
    return ::testing::AssertionFailure() << path << ": times " << s.start << ".." << s.end << ", " << s.steps
                                         << " time steps, " << s.vars << " signals; ";
  };
  if (s.vars == 0 || s.steps == 0) return fail() << "expected signals and value changes";
  if (s.start != 2 * t0) return fail() << "expected the first time stamp at cycle " << t0 << " (time " << 2 * t0 << ")";
  if (s.end % 2 != 1) return fail() << "expected the last time stamp on a clock's high half";
  if (t1 && s.end != 2 * *t1 + 1) return fail() << "expected the last at cycle " << *t1 << " (time " << 2 * *t1 + 1 << ")";
  if (s.steps != s.end - s.start + 1) return fail() << "expected every half clock in between";
  if (last) *last = s.end / 2;
  return ::testing::AssertionSuccess();
}

}  // namespace

::testing::AssertionResult fst_holds_cycles(const std::string& path, uint64_t t0, uint64_t t1) {
  return check(path, t0, &t1, nullptr);
}

::testing::AssertionResult fst_holds_cycles_from(const std::string& path, uint64_t t0, uint64_t* last) {
  return check(path, t0, nullptr, last);
}

}  // namespace cmnet::test
