# torchrun shim: on Python 3.11 Std.from_str("0"/"3") returns None in torch 1.13; fix it, then run stock torchrun
import re
import runpy
from torch.distributed.elastic.multiprocessing import api


def _from_str(cls, vm):
    if re.fullmatch(r"[0-3]", vm):
        return cls(int(vm))
    return {int(i): cls(int(v)) for i, v in (m.split(":") for m in vm.split(","))}


api.Std.from_str = classmethod(_from_str)
runpy.run_module("torch.distributed.run", run_name="__main__", alter_sys=True)
