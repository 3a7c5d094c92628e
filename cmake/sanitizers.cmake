# ONEDNN_SANITIZER=address-undefined builds everything with ASan+UBSan;
# ONEDNN_SANITIZER=thread with TSan (use clang with libomp, libgomp is not TSan-aware).
# ONEDNN_BUILD_FUZZERS=ON (clang only) builds the library with
# address-undefined plus libFuzzer's coverage instrumentation
# (fuzzer-no-link), so that the targets of tests/fuzz are guided by what
# the library's own code does.
if(ONEDNN_BUILD_FUZZERS)
    if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
        message(FATAL_ERROR "ONEDNN_BUILD_FUZZERS needs clang (-DCMAKE_CXX_COMPILER=clang++)")
    endif()
    if(ONEDNN_SANITIZER STREQUAL "")
        set(ONEDNN_SANITIZER "address-undefined")
    elseif(NOT ONEDNN_SANITIZER STREQUAL "address-undefined")
        message(FATAL_ERROR "ONEDNN_BUILD_FUZZERS goes with ONEDNN_SANITIZER=address-undefined")
    endif()
    add_compile_options(-fsanitize=fuzzer-no-link)
endif()
if(ONEDNN_SANITIZER STREQUAL "address-undefined")
    add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
    add_link_options(-fsanitize=address,undefined)
elseif(ONEDNN_SANITIZER STREQUAL "thread")
    add_compile_options(-fsanitize=thread -fno-omit-frame-pointer)
    add_link_options(-fsanitize=thread)
elseif(NOT ONEDNN_SANITIZER STREQUAL "")
    message(FATAL_ERROR "Unknown ONEDNN_SANITIZER '${ONEDNN_SANITIZER}'")
endif()
