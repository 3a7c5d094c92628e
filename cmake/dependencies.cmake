# Finds what the library builds with: the CPU threading runtime (OpenMP,
# oneTBB or none), Xbyak (header only), OpenCL.
#
# DNNL_CPU_RUNTIME_TARGET: what a target that runs library code compiled into
# it links for threading (empty for SEQ). DNNL_CPU_RUNTIME_VALUE: the
# dnnl_config.h value. Without OpenMP the `#pragma omp simd` hints of the
# kernels still take effect through -fopenmp-simd (no runtime needed).
string(TOUPPER "${ONEDNN_CPU_RUNTIME}" ONEDNN_CPU_RUNTIME)
if(ONEDNN_CPU_RUNTIME STREQUAL "OMP")
    find_package(OpenMP REQUIRED)
    set(DNNL_CPU_RUNTIME_TARGET OpenMP::OpenMP_CXX)
    set(DNNL_CPU_RUNTIME_VALUE DNNL_RUNTIME_OMP)
elseif(ONEDNN_CPU_RUNTIME STREQUAL "TBB")
    find_package(TBB REQUIRED)
    set(DNNL_CPU_RUNTIME_TARGET TBB::tbb)
    set(DNNL_CPU_RUNTIME_VALUE DNNL_RUNTIME_TBB)
elseif(ONEDNN_CPU_RUNTIME STREQUAL "SEQ")
    set(DNNL_CPU_RUNTIME_TARGET "")
    set(DNNL_CPU_RUNTIME_VALUE DNNL_RUNTIME_SEQ)
else()
    message(FATAL_ERROR "ONEDNN_CPU_RUNTIME must be OMP, TBB or SEQ (got '${ONEDNN_CPU_RUNTIME}')")
endif()
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
