# Per-ISA kernel sources: the one way code is compiled for an ISA.
#
# A source under src/cpu that opens with a line
#     // dnnl-isa: base avx2 avx512_core
# is plain C++ compiled once per ISA listed, with that ISA's flags below
# (the same for GCC and clang), DNNL_ISA=<isa> defined, and nothing else
# of the library's sources around it. The file names its entry points
# with DNNL_ISA_NAME (cpu/isa_unit.hpp) and the family's kernel table
# lists one entry per ISA (cpu/isa_table.hpp). Intrinsics, where a file
# needs them, sit under the compiler's own macros (__AVX512F__, ...).
#
# Each ISA's objects form one object library, linked after the library's
# baseline objects and in rising ISA order: an inline function or template
# that several objects emit is then kept from the lowest ISA that uses it,
# so code that runs on more machines never calls a copy compiled for
# fewer.
#
# Every kernel file also gets -fno-trapping-math (selects become blends)
# and -fno-math-errno (sqrt vectorises), for every ISA including `base`.

set(DNNL_ISA_ORDER base sse41 avx2 avx2_vnni avx512_core avx512_core_vnni avx512_core_bf16)
set(DNNL_ISA_FLAGS_base "")
set(DNNL_ISA_FLAGS_sse41 -msse4.1)
set(DNNL_ISA_FLAGS_avx2 -mavx2 -mfma -mf16c)
set(DNNL_ISA_FLAGS_avx2_vnni ${DNNL_ISA_FLAGS_avx2} -mavxvnni)
set(DNNL_ISA_FLAGS_avx512_core ${DNNL_ISA_FLAGS_avx2} -mavx512f -mavx512bw -mavx512vl -mavx512dq)
set(DNNL_ISA_FLAGS_avx512_core_vnni ${DNNL_ISA_FLAGS_avx512_core} -mavx512vnni)
set(DNNL_ISA_FLAGS_avx512_core_bf16 ${DNNL_ISA_FLAGS_avx512_core_vnni} -mavx512bf16)
set(DNNL_KERNEL_MATH_FLAGS -fno-trapping-math -fno-math-errno)

# dnnl_isa_sources(<target> <sources-var>), before add_library(<target>):
# replaces the marked files of the list in <sources-var> by their per-ISA
# objects (the target's settings are read when the build is generated).
function(dnnl_isa_sources target sources_var)
    set(plain "")
    foreach(isa ${DNNL_ISA_ORDER})
        set(files_${isa} "")
    endforeach()
    foreach(src ${${sources_var}})
        set(isas "")
        if(src MATCHES "/cpu/.*\\.cpp$")
            file(STRINGS ${src} marker LIMIT_COUNT 1 REGEX "^// dnnl-isa:")
            if(marker)
                string(REGEX REPLACE "^// dnnl-isa:[ ]*" "" isas "${marker}")
                string(REPLACE " " ";" isas "${isas}")
            endif()
        endif()
        if(NOT isas)
            list(APPEND plain ${src})
            continue()
        endif()
        foreach(isa ${isas})
            if(NOT isa IN_LIST DNNL_ISA_ORDER)
                message(FATAL_ERROR "${src}: unknown ISA '${isa}' (known: ${DNNL_ISA_ORDER})")
            endif()
            list(APPEND files_${isa} ${src})
        endforeach()
    endforeach()
    foreach(isa ${DNNL_ISA_ORDER})
        if(NOT files_${isa})
            continue()
        endif()
        set(lib ${target}_isa_${isa})
        add_library(${lib} OBJECT ${files_${isa}})
        # The library's own settings (include paths, definitions, options),
        # then the ISA's.
        target_include_directories(${lib} PRIVATE $<TARGET_PROPERTY:${target},INCLUDE_DIRECTORIES>)
        target_compile_definitions(${lib} PRIVATE $<TARGET_PROPERTY:${target},COMPILE_DEFINITIONS> DNNL_ISA=${isa})
        target_compile_options(${lib} PRIVATE $<TARGET_PROPERTY:${target},COMPILE_OPTIONS>
            ${DNNL_ISA_FLAGS_${isa}} ${DNNL_KERNEL_MATH_FLAGS})
        set_target_properties(${lib} PROPERTIES POSITION_INDEPENDENT_CODE ON
            CXX_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON)
        list(APPEND plain $<TARGET_OBJECTS:${lib}>)
    endforeach()
    set(${sources_var} ${plain} PARENT_SCOPE)
endfunction()
