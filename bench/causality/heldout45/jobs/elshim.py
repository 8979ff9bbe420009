# Shim for torch 1.13 elastic launchers on Python 3.11: Std.from_str("0") and ("3") return None
# there (iterating an IntFlag skips NONE/ALL), so stock launch/torchrun crash in to_map unless
# --redirects and --tee are 1 or 2. Patch from_str, then run the named launcher module as __main__.
# usage: python3 elshim.py torch.distributed.launch|torch.distributed.run [launcher args...]
import re, runpy, sys
from torch.distributed.elastic.multiprocessing import api as _api

def _std_from_str(vm):
    if re.match(_api._VALUE_REGEX, vm):
        return _api.Std(int(vm))
    if re.match(_api._MAPPING_REGEX, vm):
        return {int(k): _api.Std(int(v)) for k, v in (kv.split(":") for kv in vm.split(","))}
    raise ValueError(f"{vm} does not match <{_api._VALUE_REGEX}> or <{_api._MAPPING_REGEX}>")

_api.Std.from_str = staticmethod(_std_from_str)
mod = sys.argv.pop(1)
sys.argv[0] = mod
runpy.run_module(mod, run_name="__main__", alter_sys=True)
