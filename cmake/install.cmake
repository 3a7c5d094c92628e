# Installs the library, the public headers (generated ones included), a CMake
# package (find_package(dnnl CONFIG) -> DNNL::dnnl) and a pkg-config file.
# Everything installed is relocatable: the prefix is found from the files'
# own location, so `cmake --install build --prefix P` works for any P.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# Same name inside this build as for consumers of the installed package.
if(NOT TARGET DNNL::dnnl)
    add_library(DNNL::dnnl ALIAS dnnl)
endif()

install(TARGETS dnnl EXPORT dnnlTargets
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
    FILES_MATCHING PATTERN "*.h" PATTERN "*.hpp")
install(DIRECTORY ${DNNL_GEN_INCLUDE_DIR}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

# CMake package: <libdir>/cmake/dnnl/dnnl{Config,ConfigVersion,Targets}.cmake
set(DNNL_CMAKE_PACKAGE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/dnnl)
set(DNNL_CMAKE_PACKAGE_BUILD_DIR ${PROJECT_BINARY_DIR}/cmake/package)
if(DNNL_WITH_OCL)
    set(DNNL_PACKAGE_GPU_RUNTIME "OCL")
else()
    set(DNNL_PACKAGE_GPU_RUNTIME "NONE")
endif()
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/dnnlConfig.cmake.in
    ${DNNL_CMAKE_PACKAGE_BUILD_DIR}/dnnlConfig.cmake
    INSTALL_DESTINATION ${DNNL_CMAKE_PACKAGE_DIR})
write_basic_package_version_file(${DNNL_CMAKE_PACKAGE_BUILD_DIR}/dnnlConfigVersion.cmake
    VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(EXPORT dnnlTargets NAMESPACE DNNL:: DESTINATION ${DNNL_CMAKE_PACKAGE_DIR})
install(FILES
    ${DNNL_CMAKE_PACKAGE_BUILD_DIR}/dnnlConfig.cmake
    ${DNNL_CMAKE_PACKAGE_BUILD_DIR}/dnnlConfigVersion.cmake
    DESTINATION ${DNNL_CMAKE_PACKAGE_DIR})

# pkg-config: <libdir>/pkgconfig/dnnl.pc, with prefix relative to ${pcfiledir}.
set(DNNL_PC_DIR ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}" OR IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
    # Absolute directories: no relocation possible, write them as they are.
    set(DNNL_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
    set(DNNL_PC_LIBDIR "${CMAKE_INSTALL_FULL_LIBDIR}")
    set(DNNL_PC_INCLUDEDIR "${CMAKE_INSTALL_FULL_INCLUDEDIR}")
else()
    file(RELATIVE_PATH _dnnl_pc_up "/prefix/${DNNL_PC_DIR}" "/prefix")
    string(REGEX REPLACE "/$" "" _dnnl_pc_up "${_dnnl_pc_up}")
    set(DNNL_PC_PREFIX "\${pcfiledir}/${_dnnl_pc_up}")
    set(DNNL_PC_LIBDIR "\${prefix}/${CMAKE_INSTALL_LIBDIR}")
    set(DNNL_PC_INCLUDEDIR "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
endif()
configure_file(${PROJECT_SOURCE_DIR}/cmake/dnnl.pc.in ${PROJECT_BINARY_DIR}/dnnl.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/dnnl.pc DESTINATION ${DNNL_PC_DIR})
