#!/usr/bin/env python3
"""Side-by-side benchmark of this library and the real oneDNN.

Builds tests/benchdnn from the same sources against this project's library
and against one or more real oneDNN installations (the references: by
default the one of scripts/ref-onednn.sh; --ref NAME=PREFIX, repeated, for
several, e.g. oneDNN 3.13 and 3.2), runs a suite on all, alternating for
several rounds, and reports the median over rounds of each problem's median
time with the ratio ours / reference (below 1: ours is faster). With several
references each problem's ratio is against the faster of them on that
problem, which the table names. Writes a CSV, a Markdown table and a PNG
chart (matplotlib from a cached virtual environment).

Driven by scripts/bench-vs-onednn; see `scripts/bench-vs-onednn --help`.
Standard library only (the chart runs in its own venv, scripts/bench_chart.py).
"""
import argparse
import csv
import datetime
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCHDNN_SRC = os.path.join(ROOT, "tests", "benchdnn")
INPUTS = os.path.join(BENCHDNN_SRC, "inputs")


def log(msg):
    print("bench-vs-onednn: " + msg, file=sys.stderr, flush=True)


def run(cmd, **kw):
    """Runs a command, failing loudly with its output on error."""
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)
    if r.returncode != 0:
        sys.stderr.write(r.stdout[-4000:])
        raise SystemExit("bench-vs-onednn: command failed (%d): %s" % (r.returncode, " ".join(cmd)))
    return r.stdout


def machine_description():
    model, cores, sockets, threads = "unknown CPU", None, 1, None
    try:
        out = subprocess.run(["lscpu"], stdout=subprocess.PIPE, text=True).stdout
        for line in out.splitlines():
            k, _, v = line.partition(":")
            v = v.strip()
            if k == "Model name":
                model = v
            elif k == "Core(s) per socket":
                cores = int(v)
            elif k == "Socket(s)":
                sockets = int(v)
            elif k == "CPU(s)":
                threads = int(v)
    except (OSError, ValueError):
        pass
    total = cores * sockets if cores else os.cpu_count()
    desc = "%s, %s cores" % (model, total)
    if threads and threads != total:
        desc += " (%d threads)" % threads
    return desc


def default_reference_prefix(args):
    """The single reference of the old usage: --ref-prefix / $DNNL_REF_PREFIX,
    else scripts/ref-onednn.sh (its exit status 77: unavailable, skip)."""
    prefix = args.ref_prefix or os.environ.get("DNNL_REF_PREFIX")
    if prefix:
        return os.path.abspath(prefix)
    r = subprocess.run([os.path.join(ROOT, "scripts", "ref-onednn.sh")], stdout=subprocess.PIPE, text=True)
    if r.returncode == 77:
        log("SKIPPED: the reference oneDNN is unavailable")
        sys.exit(77)
    if r.returncode != 0:
        raise SystemExit("bench-vs-onednn: scripts/ref-onednn.sh failed (%d)" % r.returncode)
    return r.stdout.strip().splitlines()[-1]


def header_defines(prefix, header):
    """#define NAME VALUE lines of PREFIX/include/oneapi/dnnl/HEADER."""
    out = {}
    try:
        with open(os.path.join(prefix, "include", "oneapi", "dnnl", header)) as f:
            for line in f:
                m = re.match(r"\s*#\s*define\s+(\w+)\s+(\S+)", line)
                if m:
                    out[m.group(1)] = m.group(2)
    except OSError:
        pass
    return out


def describe_prefix(prefix):
    """(version "3.13" or "?", CPU runtime "SYCL", "OMP", ...) of an install."""
    v = header_defines(prefix, "dnnl_version.h")
    version = "%s.%s" % (v["DNNL_VERSION_MAJOR"], v["DNNL_VERSION_MINOR"]) if "DNNL_VERSION_MINOR" in v else "?"
    runtime = header_defines(prefix, "dnnl_config.h").get("DNNL_CPU_RUNTIME", "?").replace("DNNL_RUNTIME_", "")
    return version, runtime


def references(args):
    """[(name, prefix)]: each --ref [NAME=]PREFIX (no NAME: oneDNN-X.Y), plus
    --ref-prefix as "oneDNN" when given too; without --ref, the single
    reference "oneDNN" of default_reference_prefix."""
    if not args.ref:
        return [("oneDNN", default_reference_prefix(args))]
    refs = [("oneDNN", os.path.abspath(args.ref_prefix))] if args.ref_prefix else []
    for spec in args.ref:
        name, sep, prefix = spec.partition("=")
        if not sep:
            name, prefix = "oneDNN-" + describe_prefix(spec)[0], spec
        if not re.fullmatch(r"[A-Za-z0-9_.-]+", name) or name == "ours":
            raise SystemExit("bench-vs-onednn: bad reference name %r (letters, digits, _.-; not 'ours')" % name)
        if any(n == name for n, _ in refs):
            raise SystemExit("bench-vs-onednn: reference name %s given twice" % name)
        refs.append((name, os.path.abspath(prefix)))
    return refs


def reference_env(prefix):
    """Environment to run a program on a oneDNN install: its lib/ first on
    the library path (an inherited path must not bring in another
    libdnnl.so.3); for a SYCL build (the PyPI oneDNN, as its ref-env.sh
    does) also the OpenCL CPU device that runs its CPU engine."""
    env = dict(os.environ)
    lib = os.path.join(prefix, "lib")
    env["LD_LIBRARY_PATH"] = lib
    if describe_prefix(prefix)[1] != "SYCL":
        return env
    paths = [lib]
    # The OpenCL adapter of the SYCL runtime; until the reference venv ships
    # it, a copy unpacked from PyPI intel-cmplr-lib-ur may be used instead.
    if not os.path.exists(os.path.join(lib, "libur_adapter_opencl.so.0")):
        extra = os.environ.get("DNNL_REF_UR_LIB", "/tmp/h1ur/lib")
        if os.path.exists(os.path.join(extra, "libur_adapter_opencl.so.0")):
            paths.insert(0, extra)
    env["LD_LIBRARY_PATH"] = ":".join(paths)
    env["OCL_ICD_FILENAMES"] = os.path.join(lib, "libintelocl.so")
    return env


def cmake_build(src, build, defs, target=None, jobs=2):
    if not os.path.exists(os.path.join(build, "CMakeCache.txt")) or defs:
        run(["cmake", "-S", src, "-B", build, "-DCMAKE_BUILD_TYPE=Release"] + ["-D%s=%s" % kv for kv in defs.items()])
    cmd = ["cmake", "--build", build, "-j", str(jobs)]
    if target:
        cmd += ["--target", target]
    run(cmd)


def build_drivers(args, out):
    """{library name: (benchdnn, environment)}, ours first, then the
    references. With several references, one whose driver does not build is
    reported and left out."""
    refs = references(args)
    drivers = {}
    for name, prefix in refs:
        version, runtime = describe_prefix(prefix)
        log("reference %s: %s (oneDNN %s, CPU runtime %s)" % (name, prefix, version, runtime))
        log("building benchdnn against %s ..." % name)
        ref_build = os.path.join(out, "benchdnn-onednn" if not args.ref else "benchdnn-ref-" + name)
        try:
            cmake_build(BENCHDNN_SRC, ref_build, {"BENCHDNN_DNNL_ROOT": prefix}, jobs=args.jobs)
        except SystemExit as e:
            if len(refs) == 1:
                raise
            log("reference %s left out: %s" % (name, e))
            continue
        drivers[name] = (os.path.join(ref_build, "benchdnn"), reference_env(prefix), "oneDNN %s, %s" % (version, runtime))
    if not drivers:
        raise SystemExit("bench-vs-onednn: no reference driver built")

    if args.ours_prefix:
        ours_inc, ours_lib = [os.path.join(args.ours_prefix, "include")], os.path.join(args.ours_prefix, "lib", "libdnnl.so.3")
    else:
        build = os.path.abspath(args.build_dir)
        log("building this library in %s ..." % build)
        cmake_build(ROOT, build, {} if os.path.exists(os.path.join(build, "CMakeCache.txt")) else {"ONEDNN_BUILD_TESTS": "OFF", "ONEDNN_BUILD_EXAMPLES": "OFF"}, target="dnnl", jobs=args.jobs)
        ours_inc = [os.path.join(ROOT, "include"), os.path.join(build, "include")]
        libs = [os.path.join(dp, f) for dp, _, fs in os.walk(os.path.join(build, "src")) for f in fs if f == "libdnnl.so.3"]
        if not libs:
            raise SystemExit("bench-vs-onednn: no libdnnl.so.3 under %s/src" % build)
        ours_lib = libs[0]
    if not os.path.exists(ours_lib):
        raise SystemExit("bench-vs-onednn: %s not found" % ours_lib)
    log("building benchdnn against this library (%s) ..." % ours_lib)
    ours_build = os.path.join(out, "benchdnn-ours")
    cmake_build(BENCHDNN_SRC, ours_build, {"BENCHDNN_DNNL_ROOT": os.path.dirname(os.path.dirname(ours_lib)) if args.ours_prefix else ROOT,
                                            "BENCHDNN_DNNL_INCLUDE_DIRS": ";".join(ours_inc),
                                            "BENCHDNN_DNNL_LIBRARY": ours_lib}, jobs=args.jobs)
    ours_env = dict(os.environ)
    ours_env["LD_LIBRARY_PATH"] = os.path.dirname(ours_lib)
    return dict([("ours", (os.path.join(ours_build, "benchdnn"), ours_env, "this library"))] + list(drivers.items()))


LINE_RE = re.compile(r"^(\d+):(PASSED|FAILED|SKIPPED|LISTED)(?: \((.*)\))? __REPRO: (.*)$")


def parse_csv_line(line):
    return next(csv.reader([line]))


class Results:
    """Per library: problem -> metric -> list of values over rounds; status."""

    def __init__(self):
        self.values = {}  # (prb, metric) -> [values]
        self.status = {}  # prb -> status text
        self.order = []  # (prb, metric) in first-seen order
        self.impl = {}

    def add(self, prb, metric, value):
        key = (prb, metric)
        if key not in self.values:
            self.values[key] = []
            if key not in self.order:
                self.order.append(key)
        self.values[key].append(value)


_last_progress = [0.0]
_name_width = [7]  # of the library names in progress lines


def progress(round_no, rounds, name, done, total, t0, final=False):
    """One progress line: rewritten in place on a terminal, else printed
    every 10 seconds and at the end of each run."""
    msg = "  round %d/%d  %-*s %4d/%d problems  %5.0fs" % (round_no, rounds, _name_width[0], name, done, total, time.time() - t0)
    if sys.stderr.isatty():
        sys.stderr.write("\r" + msg + ("\n" if final else ""))
    elif final or time.time() - _last_progress[0] > 10:
        sys.stderr.write(msg + "\n")
        _last_progress[0] = time.time()
    sys.stderr.flush()


def run_suite(name, exe, env, base_args, total, round_no, rounds, results):
    cmd = [exe] + base_args
    t0 = time.time()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, cwd=ROOT)
    done = 0
    tail = []
    for line in proc.stdout:
        line = line.rstrip("\n")
        tail = (tail + [line])[-20:]
        if line.startswith("perf,"):
            f = parse_csv_line(line)
            prb = f[3]
            results.impl[prb] = f[2]
            results.add(prb, "time_ms", float(f[7]))
            results.status.setdefault(prb, "ok")
            done += 1
        elif line.startswith("create,"):
            f = parse_csv_line(line)
            prb = f[3]
            results.impl[prb] = f[2]
            for metric, v in zip(["pd_ms", "prim_miss_ms", "prim_hit_ms", "total_miss_ms", "total_hit_ms"], f[4:9]):
                results.add(prb, metric, float(v))
            results.status.setdefault(prb, "ok")
            done += 1
        else:
            m = LINE_RE.match(line)
            if m:
                status, reason, prb = m.group(2), m.group(3), m.group(4)
                if status == "PASSED":
                    results.status[prb] = "passed"
                    results.add(prb, "status", 1)
                elif status == "SKIPPED":
                    results.status[prb] = "skipped (%s)" % reason
                    results.add(prb, "status", 0)
                elif status == "FAILED":
                    results.status[prb] = "FAILED (%s)" % reason
                    results.add(prb, "status", -1)
                done += 1
        progress(round_no, rounds, name, done, total, t0)
    rc = proc.wait()
    progress(round_no, rounds, name, done, total, t0, final=True)
    if rc not in (0, 1):  # 1: some problem failed, reported in the table
        sys.stderr.write("\n".join(tail) + "\n")
        raise SystemExit("bench-vs-onednn: %s benchdnn exited with %d" % (name, rc))


def list_problems(exe, env, suite_args):
    """The suite's problems (repro lines) in order, from --mode=L."""
    out = subprocess.run([exe, "--mode=L"] + suite_args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env, cwd=ROOT).stdout
    return [m.group(4) for m in map(LINE_RE.match, out.splitlines()) if m]


def fmt_num(v):
    if v is None:
        return "-"
    if v >= 100:
        return "%.1f" % v
    if v >= 1:
        return "%.3f" % v
    return "%.4g" % v


def table_rows(args, libs, results, listed):
    """One row per (problem, metric): each library's median over rounds,
    statuses, implementations; with one reference the ratio ours / it, with
    several the faster reference ("best") and the ratio ours / best."""
    refs = libs[1:]
    keys = []
    for lib in libs:
        for k in results[lib].order:
            if k not in keys:
                keys.append(k)
    for lib in libs:
        for prb in results[lib].status:
            if not any(k[0] == prb for k in keys):
                keys.append((prb, "status"))
    # Suite order (as listed), metrics in first-seen order within a problem.
    pos = {p: i for i, p in enumerate(listed)}
    keys.sort(key=lambda k: pos.get(k[0], len(pos)))
    rows = []
    for prb, metric in keys:
        if args.mode != "C" and metric == "status":
            # Only problems that did not produce a number: show their status.
            if any(k[0] == prb and k[1] != "status" for k in keys):
                continue
        row = {"problem": prb, "metric": metric, "value": {}, "rounds": {}, "status": {}, "impl": {}}
        for lib in libs:
            vals = results[lib].values.get((prb, metric), [])
            row["value"][lib] = statistics.median(vals) if vals and metric != "status" else None
            row["rounds"][lib] = " ".join("%.6g" % v for v in vals) if metric != "status" else ""
            row["status"][lib] = results[lib].status.get(prb, "-")
            row["impl"][lib] = results[lib].impl.get(prb, "")
        measured = [r for r in refs if row["value"][r]]
        row["best"] = min(measured, key=lambda r: row["value"][r]) if measured else None
        best = row["value"][row["best"]] if row["best"] else None
        row["ratio"] = row["value"]["ours"] / best if row["value"]["ours"] and best else None
        row["ratio_to"] = {r: row["value"]["ours"] / row["value"][r] for r in measured if row["value"]["ours"]}
        rows.append(row)
    return rows


def write_csv(path, libs, rows):
    """Columns problem, metric, ours, the references, ratio (ours / the
    faster reference), statuses, implementations, rounds; with one
    reference its columns are named onednn*, as they always were."""
    refs = libs[1:]
    col = {"ours": "ours"}
    col.update({r: ("onednn" if len(refs) == 1 else r) for r in refs})
    head = ["problem", "metric"] + [col[l] for l in libs] + ([] if len(refs) == 1 else ["best_ref"]) + ["ratio"]
    head += [col[l] + "_status" for l in libs] + [col[l] + "_impl" for l in libs] + [col[l] + "_rounds" for l in libs]
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(head)
        for r in rows:
            w.writerow([r["problem"], r["metric"]] + [r["value"][l] for l in libs] + ([] if len(refs) == 1 else [r["best"] or ""])
                       + [r["ratio"]] + [r["status"][l] for l in libs] + [r["impl"][l] for l in libs] + [r["rounds"][l] for l in libs])


def summary_lines(args, libs, rows, creation):
    """The geometric means and skip/fail counts under the table. With
    several references: ours / best (the faster reference of each problem),
    ours / each reference, and how often each reference was the faster."""
    refs = libs[1:]
    what = "figures" if creation else "problems"
    out = []
    ratios = [r["ratio"] for r in rows if r["ratio"] and args.mode != "C" and r["metric"] != "status"]
    if len(refs) == 1:
        if ratios:
            out.append("geometric mean of the ratios of %d %s measured on both: %.2f (below 1: ours faster)" % (
                len(ratios), what, statistics.geometric_mean(ratios)))
    elif ratios:
        out.append("geometric mean of ours / best (the faster reference of each problem) over %d %s: %.2f (below 1: ours faster)" % (
            len(ratios), what, statistics.geometric_mean(ratios)))
        for ref in refs:
            rr = [r["ratio_to"][ref] for r in rows if ref in r["ratio_to"] and args.mode != "C" and r["metric"] != "status"]
            if rr:
                out.append("geometric mean of ours / %s over %d %s: %.2f" % (ref, len(rr), what, statistics.geometric_mean(rr)))
        wins = [(ref, sum(1 for r in rows if r["ratio"] and r["best"] == ref)) for ref in refs]
        out.append("faster reference: " + ", ".join("%s on %d" % w for w in wins) + " of %d %s" % (len(ratios), what))
    counts = ["%s: %d skipped, %d failed" % (lib, sum(1 for r in rows if r["status"][lib].startswith("skipped")),
                                             sum(1 for r in rows if r["status"][lib].startswith("FAILED"))) for lib in libs]
    out.append("; ".join(counts))
    return out


def main():
    ap = argparse.ArgumentParser(prog="bench-vs-onednn", description=__doc__.split("\n\n")[0])
    ap.add_argument("--suite", required=True, help="suite in tests/benchdnn/inputs (smoke, resnet50, bert, llama, eltwise, softmax, lnorm, pool, reorder, creation) or a batch file path")
    ap.add_argument("--rounds", type=int, default=3, help="rounds per library, alternating (default 3)")
    ap.add_argument("--mode", default="P", choices=["P", "I", "C"], help="P: execution time (default), I: creation times, C: correctness status")
    ap.add_argument("--max-ms-per-prb", type=int, default=200, help="time budget per problem and round (default 200 ms)")
    ap.add_argument("--build-dir", default=os.environ.get("BUILD_DIR", os.path.join(ROOT, "build")), help="this library's build directory (built if needed; default $BUILD_DIR or ./build)")
    ap.add_argument("--ref-prefix", help="the reference oneDNN prefix (include/, lib/) instead of scripts/ref-onednn.sh (default $DNNL_REF_PREFIX); named oneDNN")
    ap.add_argument("--ref", action="append", metavar="[NAME=]PREFIX", help="a reference oneDNN prefix, named NAME (default oneDNN-X.Y from its headers); repeat for several: each problem is then compared with the faster of them ($DNNL_REF_PREFIX and ref-onednn.sh are then not used)")
    ap.add_argument("--ours-prefix", help="use an installed copy of this library (PREFIX/include, PREFIX/lib) instead of --build-dir")
    ap.add_argument("--out", default=os.path.join(ROOT, "build-bench"), help="output directory (default ./build-bench)")
    ap.add_argument("--jobs", type=int, default=2, help="parallel build jobs (default 2)")
    ap.add_argument("--no-chart", action="store_true", help="do not draw the PNG chart")
    ap.add_argument("--build-only", action="store_true", help="build the drivers and stop (bench-loaded builds before it starts a load)")
    ap.add_argument("extra", nargs="*", help="extra benchdnn options placed before the suite (after --)")
    args = ap.parse_args()

    suite = args.suite
    suite_path = suite if os.path.exists(suite) else os.path.join(INPUTS, suite)
    if not os.path.exists(suite_path):
        raise SystemExit("bench-vs-onednn: no suite %s (see %s)" % (suite, INPUTS))
    suite_name = os.path.basename(suite_path)
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    machine = machine_description()
    load0 = os.getloadavg()[0]

    drivers = build_drivers(args, out)
    if args.build_only:
        return
    libs = list(drivers)  # ours, then the references
    refs = libs[1:]
    _name_width[0] = max([7] + [len(lib) for lib in libs])
    base = ["--mode=%s" % args.mode, "--max-ms-per-prb=%d" % args.max_ms_per_prb] + args.extra + ["--batch=%s" % os.path.abspath(suite_path)]
    listed = list_problems(*drivers["ours"][:2], args.extra + ["--batch=%s" % os.path.abspath(suite_path)])
    total = len(listed)
    log("suite %s: %d problems, %d rounds, mode %s, on %s" % (suite_name, total, args.rounds, args.mode, machine))
    results = {lib: Results() for lib in libs}
    for r in range(1, args.rounds + 1):
        for lib in libs:
            exe, env, _ = drivers[lib]
            run_suite(lib, exe, env, base, total, r, args.rounds, results[lib])

    rows = table_rows(args, libs, results, listed)
    stamp = datetime.datetime.now().strftime("%Y-%m-%d %H:%M")
    machine += ", load average %.1f -> %.1f" % (load0, os.getloadavg()[0])
    file_stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    base_name = os.path.join(out, "%s-%s-%s" % (suite_name, args.mode, file_stamp))
    write_csv(base_name + ".csv", libs, rows)

    creation = any(r["metric"] not in ("time_ms", "status") for r in rows)
    unit = "status" if args.mode == "C" else ("creation time, ms" if creation else "median time, ms")
    title = "suite %s, %s, %d rounds (%s), %s, %s" % (suite_name, unit, args.rounds, "median over rounds", machine, stamp)
    if len(refs) > 1:
        title += "; references %s; ratio: ours / the faster reference" % ", ".join("%s (%s)" % (r, drivers[r][2]) for r in refs)
    several = len(refs) > 1
    names = ["ours"] + refs + (["best", "ours/best"] if several else ["ratio"])
    md = [title, "", "| problem | " + " | ".join(names) + " |", "| --- |" + " ---: |" * len(names)]
    w0 = max([len(r["problem"]) + (len(r["metric"]) + 3 if r["metric"] not in ("time_ms", "status") else 0) for r in rows] + [7])
    w0 = min(w0, 90)
    cell = "%12s " * (len(names) - 1) + "%8s"
    text = ["", title, ("%-*s " % (w0, "problem")) + cell % tuple(names)]
    for r in rows:
        label = r["problem"] + (" [%s]" % r["metric"] if r["metric"] not in ("time_ms", "status") else "")
        if args.mode == "C" or r["metric"] == "status":
            cells = [r["status"][l] for l in libs] + (["-"] if several else []) + ["-"]
        else:
            cells = [fmt_num(r["value"][l]) if r["value"][l] is not None else r["status"][l] for l in libs]
            cells += ([r["best"] or "-"] if several else []) + ["%.2f" % r["ratio"] if r["ratio"] else "-"]
        text.append(("%-*s " % (w0, label if len(label) <= w0 else label[: w0 - 3] + "...")) + cell % tuple(cells))
        md.append("| `%s` | %s |" % (label, " | ".join(cells)))
    summary = summary_lines(args, libs, rows, creation)
    text += summary
    md += [""] + [line for s_ in summary for line in (s_, "")][:-1]
    print("\n".join(text))
    with open(base_name + ".md", "w") as f:
        f.write("\n".join(md) + "\n")
    log("wrote %s.csv and %s.md" % (base_name, base_name))

    if not args.no_chart and args.mode != "C":
        chart = os.path.join(ROOT, "scripts", "bench_chart.py")
        py = chart_python()
        if py:
            r = subprocess.run([py, chart, base_name + ".csv", base_name + ".png", title], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            if r.returncode == 0:
                log("wrote %s.png" % base_name)
            else:
                log("chart failed:\n" + r.stdout[-2000:])


def chart_python():
    """A Python with matplotlib: the cached venv, created on first use."""
    venv = os.environ.get("DNNL_BENCH_VENV", os.path.join(os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")), "dnnl-bench-venv"))
    py = os.path.join(venv, "bin", "python")
    ok = lambda p: os.path.exists(p) and subprocess.run([p, "-c", "import matplotlib"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0
    if ok(py):
        return py
    log("installing matplotlib into %s (once) ..." % venv)
    try:
        if not os.path.exists(py):
            run([sys.executable, "-m", "venv", venv])
        run([py, "-m", "pip", "install", "--disable-pip-version-check", "--no-input", "--quiet", "matplotlib"])
    except SystemExit as e:
        log("no chart: %s" % e)
        return None
    return py if ok(py) else None


if __name__ == "__main__":
    main()
