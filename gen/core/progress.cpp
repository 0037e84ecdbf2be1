#include "gen/core/progress.h"

#include <unistd.h>

#include <cstdio>

namespace cmnet {

Progress::Progress(std::string what)
    : what_(std::move(what)), start_(std::chrono::steady_clock::now()), last_(start_),
      tty_(::isatty(2) != 0) {
  if (!tty_) std::fprintf(stderr, "[info] %s ...\n", what_.c_str());
}

Progress::~Progress() {
  if (!ended_ && tty_ && shown_) std::fprintf(stderr, "\n");
}

double Progress::seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void Progress::update(const std::string& detail) {
  const auto now = std::chrono::steady_clock::now();
  const double since = std::chrono::duration<double>(now - last_).count();
  if (since < (tty_ ? 0.5 : 10.0)) return;
  last_ = now;
  shown_ = true;
  if (tty_) std::fprintf(stderr, "\r\033[K[info] %s: %s", what_.c_str(), detail.c_str());
  else std::fprintf(stderr, "[info] %s: %s\n", what_.c_str(), detail.c_str());
  std::fflush(stderr);
}

void Progress::done(const std::string& detail) {
  ended_ = true;
  if (tty_) std::fprintf(stderr, "\r\033[K[info] %s: %s\n", what_.c_str(), detail.c_str());
  else std::fprintf(stderr, "[info] %s: %s\n", what_.c_str(), detail.c_str());
  std::fflush(stderr);
}

std::function<void(double)> Progress::ticker() {
  return [this](double s) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f s", s);
    update(buf);
  };
}

}  // namespace cmnet
