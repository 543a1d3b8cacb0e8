#!/usr/bin/env python3
"""trace_check: a program traced by hl_trace_tool (HSA_TOOLS_LIB) under
kfdemu, on hsalite and optionally on a peer ROCr, and the summaries checked.

On hsalite: the program exits 0; the tool was told runtime_version 3 and
one failed library, hl_no_onload's (listed first in HSA_TOOLS_LIB); the
tables have ROCr 1.18's versions; hsa_shut_down went through the table;
every kernel dispatch went through the tool's intercept queue and has a
positive kernel time inside the window the host saw it run in (from the
interceptor passing the packet on to its completion signal read at 0, on
the system timestamp clock hsa_amd_profiling_get_dispatch_time converts to).  With --peer DIR the same program
runs on the ROCr in DIR and every function whose count differs between the
two is listed: the test fails on any difference not in KNOWN below, each
of which says why (functions in POLLED are compared as called or not).

"@LIB@" in the program's arguments becomes the runtime's library path
(test/python/run.sh takes it).  Exit 0: pass, 1: fail, 77: the peer's
library is missing or the program skipped (77).
"""
import argparse
import os
import subprocess
import sys

# Functions a program may call any number of times for one result (a wait
# with a timeout retried until the GPU is done, a poll of a value or an
# index): their counts follow timing, so only "called or not" is compared.
POLLED = ("hsa_signal_wait_", "hsa_signal_load_", "hsa_queue_load_read_index_",
          "hsa_amd_signal_wait_any", "hsa_signal_group_wait_any_")

# peer runtime_version -> {function: why its count may differ from hsalite's}
KNOWN = {
    1: {    # ROCr 5.2.3
        "hsa_amd_agent_iterate_memory_pools": "ROCr's image library, set up at a program's "
                                              "first image query (HIP's device "
                                              "properties), looks for the kernarg pool "
                                              "through the exported, traced function "
                                              "(image_runtime.cpp); hsalite's image module "
                                              "calls nothing through the table",
    },
    3: {    # ROCr 1.18
        "hsa_signal_create": "ROCr 1.18's hsa_amd_profiling_set_profiler_enabled (the tool "
                             "turns profiling on) submits a PM4 packet and waits for it on a "
                             "signal made through the exported, traced functions "
                             "(amd_aql_queue.cpp ExecutePM4)",
        "hsa_signal_destroy": "the same ExecutePM4 signal",
        "hsa_signal_wait_scacquire": "the same ExecutePM4 wait",
        "hsa_amd_memory_pool_get_info": "ROCr 1.18 lists more memory pools than 5.2.3 and "
                                        "hsalite (vector_add asks three things of each)",
        "hsa_amd_agent_iterate_memory_pools": "ROCr's image library (as 5.2.3's)",
    },
}


# A peer without the image extension (ImageExtTable major 0: a ROCr built
# without its image library, as the ROCr 1.18 built here): HIP 6.3 asks the
# image limits and builds its five image blit kernels only where
# HSA_EXTENSION_IMAGES is listed (rocdevice.cpp, rocblit.hpp
# FillImage..BlitCopyBufferToImage), which hsalite lists.
KNOWN_NO_IMAGES = {
    "hsa_agent_get_info": "HIP 6.3 asks the image limits only of an agent with images",
    "hsa_executable_get_symbol_by_name": "HIP 6.3's five image blit kernels",
    "hsa_executable_iterate_symbols": "HIP 6.3's five image blit kernels",
    "hsa_executable_symbol_get_info": "HIP 6.3's five image blit kernels",
}


def known(peer, name):
    """Why NAME's count may differ between hsalite and PEER's summary, or None."""
    why = [KNOWN.get(peer.get("version"), {}).get(name)]
    if peer["tables"].get("ImageExtTable", (0,))[0] == 0:
        why.append(KNOWN_NO_IMAGES.get(name))
    why = [w for w in why if w]
    return "; ".join(why) if why else None


def run(args, libdir, out, extra_env):
    env = dict(os.environ)
    env["LD_LIBRARY_PATH"] = libdir + (":" + env["LD_LIBRARY_PATH"]
                                       if env.get("LD_LIBRARY_PATH") else "")
    env["HSA_TOOLS_LIB"] = "%s %s" % (args.no_onload, args.tool)
    env["HL_TRACE_OUT"] = out
    # the Python package (python/hsalite) loads the library it is told to
    env["HSALITE_LIBRARY"] = os.path.join(libdir, "libhsa-runtime64.so.1")
    env.update(extra_env)
    if os.path.exists(out):
        os.remove(out)
    lib = os.path.join(libdir, "libhsa-runtime64.so.1")
    cmd = [args.kfdemu, "--preset", args.preset, "--"] + [a.replace("@LIB@", lib)
                                                          for a in args.program]
    res = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=args.timeout)
    sys.stdout.write(res.stdout[-2000:])
    sys.stderr.write(res.stderr[-4000:])
    if res.returncode == 77:
        print("trace_check: %s skipped (77)" % args.program[0])
        sys.exit(77)
    if res.returncode != 0:
        sys.exit("trace_check: %s exited %d on %s" % (args.program[0], res.returncode, libdir))
    if not os.path.exists(out):
        sys.exit("trace_check: no summary %s: the tool's OnUnload did not run" % out)
    summary = {"calls": {}, "tables": {}}
    for line in open(out):
        f = line.split()
        if f[0] == "call":
            summary["calls"][f[1]] = int(f[2])
        elif f[0] == "table":
            summary["tables"][f[1]] = (int(f[3]), int(f[5]), int(f[7]))
        elif f[0] == "extension_table":
            summary.setdefault("extensions", {})[int(f[1])] = int(f[2], 16)
        elif f[0] == "runtime_version":
            summary["version"] = int(f[1])
        elif f[0] == "end":
            summary["end"] = f[1]
        elif f[0] == "failed":
            summary["failed"] = f[2:]
        elif f[0] == "dispatches":
            summary["dispatches"], summary["timed"] = int(f[1]), int(f[3])
        elif f[0] == "dispatch":
            summary.setdefault("ticks", []).append(int(f[5]) if f[4] == "ticks" else None)
            if f[4] == "ticks":
                kv = dict(zip(f[6::2], (int(x) for x in f[7::2])))
                summary.setdefault("windows", []).append(
                    (int(f[1]), kv["host_before"], kv["start"], kv["end"], kv["host_after"]))
    print("trace_check: %s on %s: %d functions, %d calls, %s dispatches, %s timed, ticks %s" %
          (os.path.basename(args.program[0]), libdir, len(summary["calls"]),
           sum(summary["calls"].values()), summary.get("dispatches"), summary.get("timed"),
           summary.get("ticks", [])[:8]))
    return summary


def check_dispatches(s, who):
    """Every dispatch went through the intercept queue and was timed."""
    bad = []
    if not s.get("dispatches"):
        bad.append("%s: no dispatch seen through the intercept queue" % who)
    elif s.get("timed") != s["dispatches"]:
        bad.append("%s: %s of %s dispatches timed" % (who, s.get("timed"), s["dispatches"]))
    elif any(t is None or t <= 0 for t in s.get("ticks", [])):
        bad.append("%s: a kernel time is not positive: %s" % (who, s.get("ticks")))
    for index, before, start, end, after in s.get("windows", []):
        if not before <= start < end <= after:
            bad.append("%s: dispatch %d ran %d..%d, outside the host's window %d..%d "
                       "(start %+d, end %+d ns)" % (who, index, start, end, before, after,
                                                    start - before, after - end))
    return bad


def check_hsalite(s):
    bad = check_dispatches(s, "hsalite")
    if s.get("version") != 3:
        bad.append("runtime_version %s, wanted 3 (ROCr 1.18's table major)" % s.get("version"))
    if s.get("failed") != [os.path.basename(ARGS.no_onload)]:
        bad.append("failed %s, wanted [%s]" % (s.get("failed"), os.path.basename(ARGS.no_onload)))
    want = {"CoreApiTable": (2, 1016, 0), "AmdExtTable": (2, 744, 0x12),
            "FinalizerExtTable": (0, 0, 0), "ImageExtTable": (2, 128, 1),
            "PcSamplingExtTable": (1, 72, 0)}
    for t, v in want.items():
        if s["tables"].get(t) != v:
            bad.append("table %s: %s, wanted %s" % (t, s["tables"].get(t), v))
    # a tool's OnLoad asks for aqlprofile (0x202, no library here: ROCr's
    # HSA_STATUS_ERROR) and the loader (0x201: SUCCESS)
    if s.get("extensions") != {0x202: 0x1000, 0x201: 0}:
        bad.append("extension tables at OnLoad: %s, wanted {514: 0x1000, 513: 0}" %
                   s.get("extensions"))
    if s.get("end") == "OnUnload" and s["calls"].get("hsa_shut_down", 0) < 1:
        bad.append("hsa_shut_down never went through the table")
    return bad


def main():
    global ARGS
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--kfdemu", required=True)
    p.add_argument("--preset", default="mi210")
    p.add_argument("--tool", required=True)
    p.add_argument("--no-onload", required=True)
    p.add_argument("--hsalite", required=True, help="directory of hsalite's library")
    p.add_argument("--peer", help="directory of a ROCr libhsa-runtime64.so.1")
    p.add_argument("--work", required=True)
    p.add_argument("--name", required=True)
    p.add_argument("--timeout", type=int, default=240)
    p.add_argument("program", nargs="+")
    ARGS = args = p.parse_args()
    if args.peer and not os.path.exists(os.path.join(args.peer, "libhsa-runtime64.so.1")):
        print("trace_check: no ROCr in %s: skipped" % args.peer)
        sys.exit(77)

    ours = run(args, args.hsalite, os.path.join(args.work, args.name + ".hsalite.txt"), {})
    bad = check_hsalite(ours)
    if args.peer:
        theirs = run(args, args.peer, os.path.join(args.work, args.name + ".peer.txt"), {})
        bad += check_dispatches(theirs, "ROCr")
        if ours.get("end") != theirs.get("end"):
            bad.append("summary written at %s on hsalite, at %s on ROCr" %
                       (ours.get("end"), theirs.get("end")))
        if ours.get("extensions") != theirs.get("extensions"):
            bad.append("extension tables at OnLoad: hsalite %s, ROCr %s" %
                       (ours.get("extensions"), theirs.get("extensions")))
        if ours.get("dispatches") != theirs.get("dispatches"):
            bad.append("dispatches: hsalite %s, ROCr %s" % (ours.get("dispatches"),
                                                            theirs.get("dispatches")))
        names = sorted(set(ours["calls"]) | set(theirs["calls"]))
        for n in names:
            a, b = ours["calls"].get(n, 0), theirs["calls"].get(n, 0)
            if n.startswith(POLLED) and (a > 0) == (b > 0):
                if a != b:
                    print("polled: %s hsalite %d, ROCr %d (timing)" % (n, a, b))
                continue
            if a != b:
                why = known(theirs, n)
                print("difference: %s hsalite %d, ROCr %d%s" % (n, a, b,
                      " (known: %s)" % why if why else ""))
                if not why:
                    bad.append("%s: hsalite %d calls, ROCr %d" % (n, a, b))
        print("trace_check: %d functions compared, peer runtime_version %s" %
              (len(names), theirs.get("version")))
    for b in bad:
        print("FAIL: " + b)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
