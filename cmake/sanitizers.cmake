# ONEDNN_SANITIZER=address-undefined builds everything with ASan+UBSan;
# ONEDNN_SANITIZER=thread with TSan (use clang with libomp, libgomp is not TSan-aware).
if(ONEDNN_SANITIZER STREQUAL "address-undefined")
    add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
    add_link_options(-fsanitize=address,undefined)
elseif(ONEDNN_SANITIZER STREQUAL "thread")
    add_compile_options(-fsanitize=thread -fno-omit-frame-pointer)
    add_link_options(-fsanitize=thread)
elseif(NOT ONEDNN_SANITIZER STREQUAL "")
    message(FATAL_ERROR "Unknown ONEDNN_SANITIZER '${ONEDNN_SANITIZER}'")
endif()
