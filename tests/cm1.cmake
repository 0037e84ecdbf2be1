# CM-1 generator, config and RTL tests (gen/cm1_emitter.*, gen/config.*, sim/cm1_rtl.*).
cmnet_test(config_test SOURCES config_test.cpp LIBS cmnet_gen LABELS gen)
cmnet_test(cm1_emitter_test SOURCES cm1_emitter_test.cpp LIBS cmnet_sim LABELS gen)
cmnet_test(cm1_rtl_test SOURCES cm1_rtl_test.cpp LIBS cmnet_sim LABELS rtl)
cmnet_test(cm1_board_test SOURCES cm1_board_test.cpp LIBS cmnet_cm1_board LABELS host)
cmnet_test(cm1_golden_test SOURCES cm1_golden_test.cpp LIBS cmnet_flow cmnet_sim LABELS gen)
