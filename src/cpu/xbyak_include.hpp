// Xbyak as the library uses it: 64-bit code only, and without the
// operator-named mnemonics (and_, or_, ...) that clash with our code;
// xbyak_util.h brings the CPUID reader as well.
#pragma once

#ifndef XBYAK64
#define XBYAK64
#endif
#ifndef XBYAK_NO_OP_NAMES
#define XBYAK_NO_OP_NAMES
#endif

#include <xbyak/xbyak.h>
#include <xbyak/xbyak_util.h>
