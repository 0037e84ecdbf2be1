# Simulated board host-link server (owned by the host area): TCP server + RegisterBackend.
add_library(cmnet_board_server STATIC
  ${CMAKE_CURRENT_SOURCE_DIR}/board_server.cpp
)
target_link_libraries(cmnet_board_server PUBLIC cmnet_host)

# cmnet-fakeboard: serves a MemoryBackend; prints its port on stdout.
add_executable(cmnet-fakeboard ${CMAKE_CURRENT_SOURCE_DIR}/fakeboard_main.cpp)
target_link_libraries(cmnet-fakeboard PRIVATE cmnet_options cmnet_board_server CLI11::CLI11)
