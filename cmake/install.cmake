# `cmake --install build --prefix P`: headers under P/include/dropsim/, the
# libraries, the dropsim executable and a package config, so that another
# CMake project writes find_package(dropsim) and links dropsim::sim (physics
# and integrators: Boost headers, Eigen and threads only) or, with
# find_package(dropsim COMPONENTS io), dropsim::io.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(DROPSIM_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/dropsim)

# sundials_solvers.hpp is the SUNDIALS sources' own: it includes SUNDIALS' headers.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/integrators ${PROJECT_SOURCE_DIR}/sim
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/dropsim FILES_MATCHING PATTERN "*.hpp"
        PATTERN "sundials_solvers.hpp" EXCLUDE)
install(TARGETS dropsim_integrators dropsim_sundials dropsim_sim EXPORT dropsimSimTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT dropsimSimTargets NAMESPACE dropsim:: DESTINATION ${DROPSIM_CMAKE_DIR})

if(DROPSIM_WITH_IO)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/io DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/dropsim
          FILES_MATCHING PATTERN "*.hpp")
  install(TARGETS dropsim_io EXPORT dropsimIoTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(EXPORT dropsimIoTargets NAMESPACE dropsim:: DESTINATION ${DROPSIM_CMAKE_DIR})
  install(TARGETS dropsim RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()

configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/dropsimConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/dropsimConfig.cmake INSTALL_DESTINATION ${DROPSIM_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/dropsimConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/dropsimConfig.cmake ${PROJECT_BINARY_DIR}/dropsimConfigVersion.cmake
        DESTINATION ${DROPSIM_CMAKE_DIR})
