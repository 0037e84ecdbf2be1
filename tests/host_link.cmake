# Host-link RTL tests (hw/cmnet_frame_engine.v and its PHYs): lint, iCE40 synthesis, and the
# real BoardClient talking to the verilated test board over TCP (sim/host_link_rtl.h).
cmnet_test(host_link_rtl_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/host_link_rtl_test.cpp
           LIBS cmnet_host_link_rtl cmnet_board_server cmnet_host LABELS "rtl;host")
