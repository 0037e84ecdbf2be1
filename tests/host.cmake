# Host link tests (owned by the host area): protocol codec, transport URIs, client + board server.
cmnet_test(protocol_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/protocol_test.cpp
           LIBS cmnet_host LABELS host)
cmnet_test(transport_uri_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/transport_uri_test.cpp
           LIBS cmnet_host LABELS host)
cmnet_test(board_client_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/board_client_test.cpp
           LIBS cmnet_board_server cmnet_host LABELS host)
# The "board vanished" tests run cmnet-fakeboard as a child process and kill it.
target_compile_definitions(board_client_test PRIVATE CMNET_FAKEBOARD="$<TARGET_FILE:cmnet-fakeboard>")
add_dependencies(board_client_test cmnet-fakeboard)

# libFuzzer target for the frame decoder. libFuzzer needs clang, the project builds with the default
# compiler (g++), so it is compiled by a custom command: host/protocol.cpp has no dependencies.
find_program(CMNET_CLANGXX NAMES clang++ clang++-14)
if(CMNET_CLANGXX)
  file(MAKE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/fuzz)
  set(_cmnet_fuzz_exe ${CMAKE_CURRENT_BINARY_DIR}/fuzz/fuzz_frame_decoder)
  set(_cmnet_fuzz_srcs ${PROJECT_SOURCE_DIR}/host/protocol.cpp ${CMAKE_CURRENT_SOURCE_DIR}/fuzz_frame_decoder.cpp)
  add_custom_command(
    OUTPUT ${_cmnet_fuzz_exe}
    COMMAND ${CMNET_CLANGXX} -std=c++20 -g -O1 -Wall -Wextra
            -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
            -I${PROJECT_SOURCE_DIR} ${_cmnet_fuzz_srcs} -o ${_cmnet_fuzz_exe}
    DEPENDS ${_cmnet_fuzz_srcs} ${PROJECT_SOURCE_DIR}/host/protocol.h
    COMMENT "Building the libFuzzer target fuzz_frame_decoder with ${CMNET_CLANGXX}"
    VERBATIM)
  add_custom_target(fuzz_frame_decoder ALL DEPENDS ${_cmnet_fuzz_exe})
  # New inputs go to a scratch directory (emptied each run, so -seed=1 is reproducible); the
  # committed seed corpus is only read.
  set(_cmnet_fuzz_work ${CMAKE_CURRENT_BINARY_DIR}/fuzz/frame_work)
  add_test(NAME fuzz_frame_decoder
           COMMAND sh -c "rm -rf '${_cmnet_fuzz_work}' && mkdir -p '${_cmnet_fuzz_work}' && exec '${_cmnet_fuzz_exe}' -runs=20000 -seed=1 -artifact_prefix='${_cmnet_fuzz_work}/' '${_cmnet_fuzz_work}' '${CMAKE_CURRENT_SOURCE_DIR}/fuzz_corpus/frame'")
  set_tests_properties(fuzz_frame_decoder PROPERTIES LABELS "host;fuzz" TIMEOUT 300)
else()
  message(STATUS "cmnet: clang++ not found: the libFuzzer target fuzz_frame_decoder is not built or tested")
endif()

# cmnet-linkbench runs end to end (driver and raw link against the in-process board, both
# checking the burst data came back) and writes the raw baseline and the driver's cost. A smoke
# test: the numbers themselves are for the benchmark, not asserted here.
add_test(NAME linkbench_smoke
         COMMAND sh -c "'$<TARGET_FILE:cmnet-linkbench>' --seconds 0.05 --rounds 2 --burst-words 300 --json '${CMAKE_CURRENT_BINARY_DIR}/linkbench_smoke.json' && grep -q '\"driver_cost\"' '${CMAKE_CURRENT_BINARY_DIR}/linkbench_smoke.json' && grep -q '\"raw\"' '${CMAKE_CURRENT_BINARY_DIR}/linkbench_smoke.json'")
set_tests_properties(linkbench_smoke PROPERTIES LABELS host TIMEOUT 120)
