# shim: torch 1.13's Std.from_str misses Std.NONE/Std.ALL on Python 3.11 (IntFlag iteration
# skips 0 and aliases); fix it, then run the given launcher module (default torch.distributed.run)
import re, runpy, sys
from torch.distributed.elastic.multiprocessing import api as _api
def _from_str(vm):
    if re.match(_api._VALUE_REGEX, vm):
        return _api.Std(int(vm))
    if re.match(_api._MAPPING_REGEX, vm):
        return {int(i): _api.Std(int(v)) for i, v in (m.split(":") for m in vm.split(","))}
    raise ValueError(f"{vm} does not match: <{_api._VALUE_REGEX}> or <{_api._MAPPING_REGEX}>")
_api.Std.from_str = staticmethod(_from_str)
mod = "torch.distributed.run"
if len(sys.argv) > 1 and sys.argv[1] == "--module":
    mod = sys.argv[2]; del sys.argv[1:3]
sys.argv[0] = mod
runpy.run_module(mod, run_name="__main__", alter_sys=True)
