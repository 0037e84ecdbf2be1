# FPGA flow tests (bitstreams/, constraints/, gen/cm1_board_emitter.*, gen/cli/build_cmd.cpp).
# The builds (yosys, nextpnr-ice40, icepack, icetime) take a few minutes: label "flow".
cmnet_test(flow_test SOURCES flow_test.cpp LIBS cmnet_flow cmnet_cm1_board LABELS flow)
target_compile_definitions(flow_test PRIVATE CMNET_CLI="$<TARGET_FILE:cmnet>")
add_dependencies(flow_test cmnet)
# The multi-board top: lint, 2^c boards simulated together, faults, its bitstream's rtl/.
cmnet_test(cm1_cube_test SOURCES cm1_cube_test.cpp LIBS cmnet_flow LABELS flow)
target_compile_definitions(cm1_cube_test PRIVATE CMNET_CLI="$<TARGET_FILE:cmnet>")
add_dependencies(cm1_cube_test cmnet)
