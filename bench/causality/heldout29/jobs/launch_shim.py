#!/usr/bin/env python3
"""Same Std.from_str fix as heldout13/jobs/trun.py, but runs the legacy
torch.distributed.launch module (as `python -m torch.distributed.launch` would)."""
import re
import runpy
import sys

from torch.distributed.elastic.multiprocessing import api as _api

_orig = _api.Std.from_str


def _from_str(vm):
    if re.match(_api._VALUE_REGEX, vm):
        return _api.Std(int(vm))
    if re.match(_api._MAPPING_REGEX, vm):
        return {int(i): _api.Std(int(v)) for i, v in (m.split(":") for m in vm.split(","))}
    return _orig(vm)


_api.Std.from_str = staticmethod(_from_str)
sys.argv[0] = "torch/distributed/launch.py"
runpy.run_module("torch.distributed.launch", run_name="__main__", alter_sys=True)
