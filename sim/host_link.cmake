# Host-link RTL as a simulated board (owned by the host-link RTL area): design assembly, the
# cached Verilator harness (sim/host_link_main.cpp, which compiles board_rtl_bridge.cpp in),
# and RtlBoard, the harness as a child process serving sim://127.0.0.1:PORT.
add_library(cmnet_host_link_rtl STATIC
  ${CMAKE_CURRENT_SOURCE_DIR}/host_link_rtl.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/board_rtl_bridge.cpp
)
target_link_libraries(cmnet_host_link_rtl PUBLIC cmnet_sim cmnet_options Boost::headers Threads::Threads)

# cmnet-rtlboard: the RTL test board served on 127.0.0.1 (prints its port), like cmnet-fakeboard.
add_executable(cmnet-rtlboard ${CMAKE_CURRENT_SOURCE_DIR}/rtlboard_main.cpp)
target_link_libraries(cmnet-rtlboard PRIVATE cmnet_options cmnet_host_link_rtl CLI11::CLI11)
