#!/usr/bin/env python3
"""trace_check: a program traced by hl_trace_tool (HSA_TOOLS_LIB) under
kfdemu, on hsalite and optionally on a peer ROCr, and the summaries checked.

On hsalite: the program exits 0; the tool was told runtime_version 3 and
one failed library, hl_no_onload's (listed first in HSA_TOOLS_LIB); the
tables have ROCr 1.18's versions; hsa_shut_down went through the table once
per call the program made after hsa_init.  With --peer DIR the same program
runs on the ROCr in DIR and every function whose count differs between the
two is listed: the test fails on any difference not in KNOWN below, each
of which says why.

Exit 0: pass, 1: fail, 77: the peer's library is missing.
"""
import argparse
import os
import subprocess
import sys

# function -> why its count may differ between hsalite and ROCr
KNOWN = {
}


def run(args, libdir, out, extra_env):
    env = dict(os.environ)
    env["LD_LIBRARY_PATH"] = libdir + (":" + env["LD_LIBRARY_PATH"]
                                       if env.get("LD_LIBRARY_PATH") else "")
    env["HSA_TOOLS_LIB"] = "%s %s" % (args.no_onload, args.tool)
    env["HL_TRACE_OUT"] = out
    env.update(extra_env)
    if os.path.exists(out):
        os.remove(out)
    cmd = [args.kfdemu, "--preset", args.preset, "--"] + args.program
    res = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=args.timeout)
    sys.stdout.write(res.stdout[-2000:])
    sys.stderr.write(res.stderr[-4000:])
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
        elif f[0] == "runtime_version":
            summary["version"] = int(f[1])
        elif f[0] == "failed":
            summary["failed"] = f[2:]
    print("trace_check: %s on %s: %d functions, %d calls" %
          (os.path.basename(args.program[0]), libdir, len(summary["calls"]),
           sum(summary["calls"].values())))
    return summary


def check_hsalite(s):
    bad = []
    if s.get("version") != 3:
        bad.append("runtime_version %s, wanted 3 (ROCr 1.18's table major)" % s.get("version"))
    if s.get("failed") != [os.path.basename(ARGS.no_onload)]:
        bad.append("failed %s, wanted [%s]" % (s.get("failed"), os.path.basename(ARGS.no_onload)))
    want = {"CoreApiTable": (2, 1016, 0), "AmdExtTable": (2, 608, 7),
            "FinalizerExtTable": (0, 0, 0), "ImageExtTable": (2, 128, 1),
            "PcSamplingExtTable": (1, 72, 0)}
    for t, v in want.items():
        if s["tables"].get(t) != v:
            bad.append("table %s: %s, wanted %s" % (t, s["tables"].get(t), v))
    if s["calls"].get("hsa_shut_down", 0) < 1:
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
        names = sorted(set(ours["calls"]) | set(theirs["calls"]))
        for n in names:
            a, b = ours["calls"].get(n, 0), theirs["calls"].get(n, 0)
            if a != b:
                why = KNOWN.get(n)
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
