# Finds what the library builds with: the CPU threading runtime (OpenMP,
# oneTBB or none), Xbyak (header only), OpenCL.
#
# DNNL_CPU_RUNTIME_VALUE: the dnnl_config.h value of the threading runtime.
#
# Only the threading layer's runtime file (and a test that calls the runtime)
# is compiled with the runtime's flags; every other object gets the same
# command line under OMP, TBB and SEQ, so that builds of the three runtimes
# share their ccache entries (CI builds all three). The kernels' `#pragma omp
# simd` hints take effect through -fopenmp-simd, which needs no runtime.
string(TOUPPER "${ONEDNN_CPU_RUNTIME}" ONEDNN_CPU_RUNTIME)
if(ONEDNN_CPU_RUNTIME STREQUAL "OMP")
    find_package(OpenMP REQUIRED)
    set(DNNL_CPU_RUNTIME_VALUE DNNL_RUNTIME_OMP)
elseif(ONEDNN_CPU_RUNTIME STREQUAL "TBB")
    find_package(TBB REQUIRED)
    set(DNNL_CPU_RUNTIME_VALUE DNNL_RUNTIME_TBB)
elseif(ONEDNN_CPU_RUNTIME STREQUAL "SEQ")
    set(DNNL_CPU_RUNTIME_VALUE DNNL_RUNTIME_SEQ)
else()
    message(FATAL_ERROR "ONEDNN_CPU_RUNTIME must be OMP, TBB or SEQ (got '${ONEDNN_CPU_RUNTIME}')")
endif()
string(TOLOWER "${ONEDNN_CPU_RUNTIME}" DNNL_CPU_RUNTIME_LOWER)
# The threading layer's file for the chosen runtime.
set(DNNL_CPU_RUNTIME_SOURCE ${PROJECT_SOURCE_DIR}/src/cpu/threading/runtime_${DNNL_CPU_RUNTIME_LOWER}.cpp)

# dnnl_use_cpu_runtime(<target> [SOURCES <file>...]): links <target> with
# the runtime and compiles the named files (those that call the runtime
# themselves) with its flags; the target's other files keep their flags.
function(dnnl_use_cpu_runtime target)
    cmake_parse_arguments(RT "" "" "SOURCES" ${ARGN})
    if(ONEDNN_CPU_RUNTIME STREQUAL "OMP")
        separate_arguments(flags UNIX_COMMAND "${OpenMP_CXX_FLAGS}")
        target_link_options(${target} PRIVATE ${flags})
        target_link_libraries(${target} PRIVATE ${OpenMP_CXX_LIBRARIES})
        if(RT_SOURCES)
            # Source properties belong to the calling directory: call this
            # where <target> is defined.
            set_property(SOURCE ${RT_SOURCES} APPEND PROPERTY COMPILE_OPTIONS ${flags})
        endif()
    elseif(ONEDNN_CPU_RUNTIME STREQUAL "TBB")
        # TBB's headers live in the system include directory.
        target_link_libraries(${target} PRIVATE TBB::tbb)
    endif()
endfunction()
message(STATUS "CPU runtime: ${ONEDNN_CPU_RUNTIME}")
find_package(Threads REQUIRED)
find_path(XBYAK_INCLUDE_DIR xbyak/xbyak.h)
if(NOT XBYAK_INCLUDE_DIR)
    message(FATAL_ERROR "Xbyak not found: install Debian's libxbyak-dev")
endif()

set(DNNL_WITH_OCL OFF)
if(ONEDNN_GPU_RUNTIME STREQUAL "OCL" OR ONEDNN_GPU_RUNTIME STREQUAL "AUTO")
    find_package(OpenCL QUIET)
    if(OpenCL_FOUND)
        set(DNNL_WITH_OCL ON)
    elseif(ONEDNN_GPU_RUNTIME STREQUAL "OCL")
        message(FATAL_ERROR "ONEDNN_GPU_RUNTIME=OCL but OpenCL was not found")
    endif()
endif()
message(STATUS "GPU runtime: ${DNNL_WITH_OCL}")
