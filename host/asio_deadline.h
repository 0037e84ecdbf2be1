// Internal: blocking Asio operations with a deadline, for the host transports. One private
// io_context per transport; an operation runs it until the handler ran or the deadline passed,
// then cancels and drains so nothing is left pending.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/system/error_code.hpp>
#include <chrono>

namespace cmnet::detail {

// start(handler) must start one async operation whose completion calls handler(ec, n).
// Returns true if it completed before the deadline (ec/n set), false on timeout (cancelled).
template <typename Stream, typename Start>
bool run_with_deadline(boost::asio::io_context& io, Stream& stream, Start&& start,
                       std::chrono::steady_clock::time_point deadline,
                       boost::system::error_code& ec, std::size_t& n) {
  bool done = false;
  start([&](const boost::system::error_code& e, std::size_t bytes) {
    ec = e;
    n = bytes;
    done = true;
  });
  io.restart();
  while (!done) {
    if (io.run_one_until(deadline) == 0) break;  // deadline (or out of work, which means done)
  }
  if (done) return true;
  boost::system::error_code ignored;
  stream.cancel(ignored);
  io.restart();
  while (!done) {
    if (io.run_one() == 0) break;
  }
  // A completion that raced the cancel is a real completion.
  return done && ec != boost::asio::error::operation_aborted;
}

}  // namespace cmnet::detail
