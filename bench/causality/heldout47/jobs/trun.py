# torchrun shim: Debian's torch 1.13 on Python 3.11 cannot parse --redirects/--tee "0" or "3"
# (Std.from_str iterates an IntFlag, which skips 0 and multi-bit members). Fix that, then run torchrun.
import re, runpy, sys
from torch.distributed.elastic.multiprocessing import api

def _from_str(vm):
    def to_std(v):
        return api.Std(int(v))
    if re.match(api._VALUE_REGEX, vm):
        return to_std(vm)
    return {int(i): to_std(v) for i, v in (m.split(":") for m in vm.split(","))}

api.Std.from_str = classmethod(lambda cls, vm: _from_str(vm))
sys.argv[0] = "torchrun"
runpy.run_module("torch.distributed.run", run_name="__main__")
