#!/usr/bin/env python3
"""torch.distributed.launch shim for Debian's torch 1.13 on Python 3.11.

Same fix as heldout13/jobs/trun.py (torch 1.13's Std.from_str returns None on 3.11, so the
elastic agent dies before starting workers), but runs the deprecated launcher
torch.distributed.launch, exactly as `python -m torch.distributed.launch` would.
"""
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
runpy.run_module("torch.distributed.launch", run_name="__main__", alter_sys=True)
