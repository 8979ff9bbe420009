# torchrun shim: torch 1.13's Std.from_str returns None on Python 3.11 (iterating an IntFlag
# no longer yields NONE/ALL), so plain torchrun dies unless --redirects and --tee are 1 or 2.
# Fix from_str, then run the stock torch.distributed.run as __main__.
import re, runpy, sys
from torch.distributed.elastic.multiprocessing import api

def _from_str(vm):
    if re.match(api._VALUE_REGEX, vm):
        return api.Std(int(vm))
    if re.match(api._MAPPING_REGEX, vm):
        return {int(i): api.Std(int(v)) for i, v in (m.split(":") for m in vm.split(","))}
    raise ValueError(f"{vm} does not match: <{api._VALUE_REGEX}> or <{api._MAPPING_REGEX}>")

api.Std.from_str = staticmethod(_from_str)
sys.argv[0] = "torchrun"
runpy.run_module("torch.distributed.run", run_name="__main__", alter_sys=True)
