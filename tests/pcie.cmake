# PCIe register access (host/pcie_regs.*, host/register_port.h): regular files in a temp dir stand
# in for the XDMA character devices, the sysfs BAR file and the sysfs device tree.
cmnet_test(pcie_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/pcie_test.cpp
           LIBS cmnet_cm1_board cmnet_host LABELS host)
