#!/usr/bin/env python3
"""torchrun shim for Debian's torch 1.13 on Python 3.11.

On 3.11, iterating an enum.IntFlag no longer yields the zero member (Std.NONE) or
composite members (Std.ALL), so torch.distributed.elastic's Std.from_str("0")
returns None and torchrun dies in to_map() before starting any worker.  This shim
fixes Std.from_str and then runs torch.distributed.run exactly as
`python -m torch.distributed.run` would.  All other torchrun behaviour is unchanged.
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
sys.argv[0] = "torchrun"
runpy.run_module("torch.distributed.run", run_name="__main__", alter_sys=True)
