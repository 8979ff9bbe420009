# stock torchrun (torch.distributed.run.main) with one fix for Debian torch 1.13 on Python 3.11:
# Std.from_str's to_std() iterates the IntFlag, which on 3.11 skips NONE/ALL and returns None.
import re, sys
from torch.distributed.elastic.multiprocessing import api
def _from_str(vm):
    if re.match(api._VALUE_REGEX, vm):
        return api.Std(int(vm))
    if re.match(api._MAPPING_REGEX, vm):
        return {int(i): api.Std(int(v)) for i, v in (m.split(":") for m in vm.split(","))}
    raise ValueError(vm)
api.Std.from_str = staticmethod(_from_str)
from torch.distributed.run import main
if __name__ == "__main__":
    main()
