#!/usr/bin/env python3
"""Writes the public C headers under include/oneapi/dnnl from the interface
table api/pinned_api.tsv (see scripts/extract_api.py).  The table holds only
names, values and signatures; the layout and every comment of the generated
headers come from this script.

Usage: scripts/gen_headers.py [REPO_ROOT]
"""
import collections
import os
import sys

ROOT = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(
    os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "include", "oneapi", "dnnl")

# What each generated header pulls in before its own declarations.
INCLUDES = {
    "dnnl_common_types.h": ["<stddef.h>", "<stdint.h>",
                            '"oneapi/dnnl/dnnl_config.h"'],
    "dnnl_types.h": ['"oneapi/dnnl/dnnl_common_types.h"'],
    "dnnl_common.h": ['"oneapi/dnnl/dnnl_common_types.h"',
                      '"oneapi/dnnl/dnnl_config.h"',
                      '"oneapi/dnnl/dnnl_version.h"'],
    "dnnl.h": ['"oneapi/dnnl/dnnl_common.h"', '"oneapi/dnnl/dnnl_config.h"',
               '"oneapi/dnnl/dnnl_types.h"', '"oneapi/dnnl/dnnl_version.h"'],
    "dnnl_debug.h": ['"oneapi/dnnl/dnnl_config.h"',
                     '"oneapi/dnnl/dnnl_types.h"'],
    "dnnl_ocl_types.h": [],
    "dnnl_ocl.h": ['"oneapi/dnnl/dnnl.h"', '"oneapi/dnnl/dnnl_ocl_types.h"',
                   "<CL/cl.h>"],
    "dnnl_graph_types.h": ["<stddef.h>", "<stdint.h>",
                           '"oneapi/dnnl/dnnl_common_types.h"'],
    "dnnl_graph.h": ['"oneapi/dnnl/dnnl_common.h"',
                     '"oneapi/dnnl/dnnl_graph_types.h"'],
}

HEADER_DOCS = {
    "dnnl_common_types.h": "Types shared by every part of the API: status codes, data types, "
                           "dimensions, engines, streams and version information.",
    "dnnl_types.h": "Types of the primitive API: memory formats and format tags, primitive, "
                    "algorithm, propagation and query kinds, argument indices and handles.",
    "dnnl_common.h": "Functions shared by every part of the API: engines, streams, "
                     "threading, version and fpmath defaults.",
    "dnnl.h": "The C API of the primitive library: memory descriptors and memory "
              "objects, attributes, primitive descriptors, primitives and their creators.",
    "dnnl_debug.h": "Printable names of the API's enumerations.",
    "dnnl_ocl_types.h": "Types of the OpenCL interoperability API.",
    "dnnl_ocl.h": "OpenCL interoperability: engines, streams and memory objects built "
                  "from, or giving access to, OpenCL objects.",
    "dnnl_graph_types.h": "Types of the graph API: logical tensors, operations and their "
                          "attributes, graphs, partitions and allocators.",
    "dnnl_graph.h": "The C API of oneDNN's graph extension. This library declares and "
                    "exports it so that programs built for oneDNN link and load; every "
                    "function answers dnnl_unimplemented (doc/conformance.md).",
}

# One line of our own for each enumeration type.
ENUM_DOCS = {
    "dnnl_status_t": "Result of every API call; dnnl_success is zero.",
    "dnnl_data_type_t": "Element data types.",
    "dnnl_fpmath_mode_t": "How far a primitive may lower floating-point precision internally.",
    "dnnl_accumulation_mode_t": "Data type a primitive may accumulate in.",
    "dnnl_engine_kind_t": "Kinds of engines (devices).",
    "dnnl_stream_flags_t": "Stream creation flags.",
    "dnnl_format_kind_t": "Families of memory formats.",
    "dnnl_sparse_encoding_t": "Encodings of sparse memory.",
    "dnnl_profiling_data_kind_t": "Kinds of profiling data.",
    "dnnl_format_tag_t": "Memory format tags.  A tag's name spells its layout: lower-case "
                         "letters are dimensions from outermost to innermost, an upper-case "
                         "letter is a blocked dimension and each <N><letter> suffix an inner block.",
    "dnnl_prop_kind_t": "Propagation kinds.",
    "dnnl_primitive_kind_t": "Kinds of primitives.",
    "dnnl_alg_kind_t": "Algorithms of the primitives.",
    "dnnl_normalization_flags_t": "Flags of the normalization primitives.",
    "dnnl_rnn_flags_t": "Flags of the recurrent primitives.",
    "dnnl_rnn_direction_t": "Directions of the recurrent primitives.",
    "dnnl_scratchpad_mode_t": "Who owns a primitive's scratchpad memory.",
    "dnnl_rounding_mode_t": "Rounding modes of a primitive's destination.",
    "dnnl_quantization_mode_t": "Quantization modes of scales.",
    "dnnl_query_t": "Things a primitive descriptor can be asked about.",
    "dnnl_cpu_isa_t": "CPU instruction set architectures, each a superset of the bits of "
                      "the ones it extends.",
    "dnnl_cpu_isa_hints_t": "Hints on how to use a CPU instruction set.",
    "dnnl_ocl_interop_memory_kind_t": "How an OpenCL memory object holds its data.",
    "dnnl_graph_layout_type_t": "How a logical tensor's layout is given.",
    "dnnl_graph_tensor_property_t": "Whether a logical tensor's contents may change between runs.",
    "dnnl_graph_op_kind_t": "Kinds of graph operations.",
    "dnnl_graph_op_attr_t": "Attributes of graph operations.",
    "dnnl_graph_partition_policy_t": "How a graph is split into partitions.",
    "dnnl_graph_dump_mode_t": "What graph dumps contain.",
}

# Comments for groups of functions, chosen by the longest matching prefix.
FUNCTION_GROUPS = [
    ("dnnl_engine", "Engines"), ("dnnl_stream", "Streams"),
    ("dnnl_memory_desc", "Memory descriptors"), ("dnnl_memory", "Memory objects"),
    ("dnnl_primitive_desc", "Primitive descriptors"),
    ("dnnl_primitive_attr", "Primitive attributes"),
    ("dnnl_post_ops", "Post-operations"), ("dnnl_primitive", "Primitives"),
    ("dnnl_reorder", "Reorder"), ("dnnl_concat", "Concat"), ("dnnl_sum", "Sum"),
    ("dnnl_binary", "Binary"), ("dnnl_convolution", "Convolution"),
    ("dnnl_deconvolution", "Deconvolution"), ("dnnl_shuffle", "Shuffle"),
    ("dnnl_eltwise", "Eltwise"), ("dnnl_softmax", "Softmax"),
    ("dnnl_pooling", "Pooling"), ("dnnl_prelu", "PReLU"), ("dnnl_lrn", "LRN"),
    ("dnnl_batch_normalization", "Batch normalization"),
    ("dnnl_group_normalization", "Group normalization"),
    ("dnnl_layer_normalization", "Layer normalization"),
    ("dnnl_inner_product", "Inner product"), ("dnnl_vanilla_rnn", "Vanilla RNN"),
    ("dnnl_lstm", "LSTM"), ("dnnl_gru", "GRU"), ("dnnl_lbr_gru", "Linear-before-reset GRU"),
    ("dnnl_augru", "AUGRU"), ("dnnl_lbr_augru", "Linear-before-reset AUGRU"),
    ("dnnl_matmul", "Matmul"), ("dnnl_resampling", "Resampling"),
    ("dnnl_reduction", "Reduction"), ("dnnl_ocl_interop", "OpenCL interoperability"),
    ("dnnl_set_primitive_cache", "Primitive cache"),
    ("dnnl_get_primitive_cache", "Primitive cache"),
    ("dnnl_set_jit", "JIT profiling and dumps"), ("dnnl_set_verbose", "Verbose output"),
    ("dnnl_graph_allocator", "Graph allocators"),
    ("dnnl_graph_make_engine", "Graph allocators"),
    ("dnnl_graph_logical_tensor", "Logical tensors"), ("dnnl_graph_tensor", "Tensors"),
    ("dnnl_graph_op", "Graph operations"), ("dnnl_graph_partition", "Partitions"),
    ("dnnl_graph_compiled_partition", "Compiled partitions"),
    ("dnnl_graph_graph", "Graphs"), ("dnnl_graph_add_op", "Graphs"),
    ("dnnl_graph_get", "Graph caches"), ("dnnl_graph_set", "Graph caches"),
]


def group_of(name):
    best = ("", "Service functions")
    for prefix, title in FUNCTION_GROUPS:
        if name.startswith(prefix) and len(prefix) > len(best[0]):
            best = (prefix, title)
    if name.endswith("2str"):
        return "Printable names"
    return best[1]


def load():
    rows = collections.defaultdict(list)
    with open(os.path.join(ROOT, "api", "pinned_api.tsv")) as f:
        for line in f:
            header, kind, name, payload = line.rstrip("\n").split("\t")
            rows[header].append((kind, name, payload))
    return rows


def emit_header(header, rows):
    guard = "ONEAPI_DNNL_" + header.upper().replace(".", "_")
    out = ["/* Generated by scripts/gen_headers.py from api/pinned_api.tsv; do not edit. */",
           "/* " + HEADER_DOCS[header] + " */", "",
           "#ifndef " + guard, "#define " + guard, ""]
    out += ["#include " + inc for inc in INCLUDES[header]]
    out += ["", "/* clang-format off */", ""]
    defines = [r for r in rows if r[0] == "define"]
    if defines:
        out.append("/* Constants and argument indices. */")
        for _, name, value in defines:
            out.append("#define %s %s" % (name, value))
        out.append("")
    out += ["#ifdef __cplusplus", 'extern "C" {', "#endif", ""]
    i = 0
    last_group = None
    while i < len(rows):
        kind, name, payload = rows[i]
        if kind == "enum":
            members = []
            while i < len(rows) and rows[i][0] == "enum" and rows[i][1] == name:
                members.append(rows[i][2].split("="))
                i += 1
            out.append("/** " + ENUM_DOCS.get(name, "Enumeration " + name + ".") + " */")
            out.append("typedef enum {")
            for m in members:
                value = m[2] if len(m) > 2 else m[1]
                out.append("    %s = %s," % (m[0], value))
            out.append("} %s;" % name)
            out.append("")
            continue
        if kind == "typedef":
            out.append(payload + ";")
        elif kind == "function":
            group = group_of(name)
            if group != last_group:
                out += ["", "/* " + group + ". */"]
                last_group = group
            ret, params = payload.split("|", 1)
            if ret.endswith("*"):
                out.append("%s DNNL_API *%s(%s);" % (ret.rstrip("* "), name, params))
            else:
                out.append("%s DNNL_API %s(%s);" % (ret, name, params))
        i += 1
    out += ["", "#ifdef __cplusplus", "}", "#endif", "", "/* clang-format on */", "",
            "#endif /* " + guard + " */", ""]
    return "\n".join(out)


def main():
    rows = load()
    os.makedirs(OUT, exist_ok=True)
    for header in INCLUDES:
        with open(os.path.join(OUT, header), "w") as f:
            f.write(emit_header(header, rows[header]))


if __name__ == "__main__":
    main()
