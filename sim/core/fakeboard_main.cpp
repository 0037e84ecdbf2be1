// cmnet-fakeboard: a simulated board that serves a MemoryBackend over the host-link protocol on
// 127.0.0.1. Prints the chosen port on stdout (one line) once it is listening, then serves until
// SIGINT/SIGTERM. Used by tests (killed mid-run to simulate a vanished board) and for trying
// the host tools without hardware.
#include <CLI/CLI.hpp>
#include <csignal>
#include <cstdio>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include "sim/core/board_server.h"

int main(int argc, char** argv) {
  CLI::App app{"cmnet-fakeboard: serve a memory-backed register file over the cmnet host-link protocol"};
  unsigned port = 0;
  unsigned idle_ms = 60000;
  unsigned frame_ms = 500;
  uint64_t mem_base = 0, mem_size = uint64_t{1} << 32;
  bool verbose = false;
  app.add_option("--port", port, "TCP port on 127.0.0.1 (0: ephemeral, printed on stdout)")
      ->check(CLI::Range(0u, 65535u));
  app.add_option("--idle-timeout-ms", idle_ms, "close clients idle this long")->check(CLI::Range(1u, 86400000u));
  app.add_option("--frame-timeout-ms", frame_ms, "drop partial frames stalled this long")
      ->check(CLI::Range(1u, 600000u));
  app.add_option("--mem-base", mem_base, "lowest valid register address")->check(CLI::Range(uint64_t{0}, uint64_t{0xFFFFFFFF}));
  app.add_option("--mem-size", mem_size, "size of the register space in bytes (BAD_ADDRESS outside)");
  app.add_flag("-v,--verbose", verbose, "log every connection, framing error and UARTBone command");
  CLI11_PARSE(app, argc, argv);
  spdlog::set_default_logger(spdlog::stderr_color_mt("fakeboard"));  // stdout carries the port only
  if (verbose) spdlog::set_level(spdlog::level::debug);

  // Block the stop signals in every thread; the main thread waits for them.
  sigset_t sigs;
  sigemptyset(&sigs);
  sigaddset(&sigs, SIGINT);
  sigaddset(&sigs, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &sigs, nullptr);

  try {
    cmnet::MemoryBackend mem(static_cast<uint32_t>(mem_base), mem_size);
    cmnet::BoardServerOptions opt;
    opt.port = static_cast<uint16_t>(port);
    opt.idle_timeout = std::chrono::milliseconds(idle_ms);
    opt.frame_timeout = std::chrono::milliseconds(frame_ms);
    cmnet::BoardServer server(mem, opt);
    std::printf("%u\n", server.port());
    std::fflush(stdout);
    server.start();
    int sig = 0;
    sigwait(&sigs, &sig);
    spdlog::info("cmnet-fakeboard: signal {}, stopping", sig);
    server.stop();
    const auto st = server.stats();
    spdlog::info("cmnet-fakeboard: {} connections, {} requests, {} UARTBone commands, {} error replies, "
                 "{} garbage bytes, {} partial frames/commands dropped",
                 st.connections, st.frames, st.uartbone_commands, st.error_replies, st.garbage_bytes,
                 st.dropped_partials);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cmnet-fakeboard: %s\n", e.what());
    return 1;
  }
  return 0;
}
