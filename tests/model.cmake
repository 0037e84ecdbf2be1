# Reference model and traffic tests (sim/cm1_model.*, sim/traffic.*, gen/cm1_params.*).
cmnet_test(cm1_model_test SOURCES cm1_model_test.cpp LIBS cmnet_sim LABELS model)
cmnet_test(traffic_test SOURCES traffic_test.cpp LIBS cmnet_sim LABELS model)

# sim/cm1_figures.cpp (Figure 12 on the model) belongs in cmnet_sim; until sim/CMakeLists.txt
# lists it, the figures test compiles it itself.
get_target_property(_cmnet_sim_sources cmnet_sim SOURCES)
if(_cmnet_sim_sources MATCHES "cm1_figures")
  cmnet_test(cm1_figures_test SOURCES cm1_figures_test.cpp LIBS cmnet_sim LABELS model)
else()
  cmnet_test(cm1_figures_test SOURCES cm1_figures_test.cpp ${PROJECT_SOURCE_DIR}/sim/cm1_figures.cpp
             LIBS cmnet_sim LABELS model)
endif()
unset(_cmnet_sim_sources)
