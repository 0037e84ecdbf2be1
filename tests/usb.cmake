# usb:// transport tests (owned by the host area): host/usb_ftdi_transport.* against a fake FT2232H
# (tests/fake_ft2232h.*) made with umockdev, bridged to the simulated CM-1 board. The test process
# needs libumockdev-preload, so it runs under umockdev-wrapper (scripts/install-deps.sh installs
# umockdev and libumockdev-dev); without them the test is not registered.
find_program(CMNET_UMOCKDEV_WRAPPER umockdev-wrapper)
pkg_check_modules(UMOCKDEV QUIET IMPORTED_TARGET umockdev-1.0 gobject-2.0)
if(NOT CMNET_UMOCKDEV_WRAPPER OR NOT UMOCKDEV_FOUND)
  message(STATUS "cmnet: umockdev-wrapper or umockdev-1.0 not found: usb_transport_test is not built "
                 "(scripts/install-deps.sh installs umockdev libumockdev-dev)")
  return()
endif()

add_executable(usb_transport_test
  ${CMAKE_CURRENT_SOURCE_DIR}/usb_transport_test.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/fake_ft2232h.cpp)
target_link_libraries(usb_transport_test PRIVATE cmnet_options GTest::gtest_main cmnet_cm1_board cmnet_host
                      PkgConfig::UMOCKDEV PkgConfig::LIBUSB)
# One ctest entry: the whole binary under the wrapper (gtest_discover_tests would run it bare).
add_test(NAME usb_transport_test COMMAND ${CMNET_UMOCKDEV_WRAPPER} $<TARGET_FILE:usb_transport_test>)
set_tests_properties(usb_transport_test PROPERTIES
  LABELS "host;usb" TIMEOUT 180
  # The wrapper preloads libumockdev-preload ahead of the ASan runtime in the sanitized build;
  # ASan still works, it only refuses to start unless told the order is intended.
  ENVIRONMENT "CMNET_CACHE=${CMAKE_BINARY_DIR}/rtl-cache;ASAN_OPTIONS=verify_asan_link_order=0")
