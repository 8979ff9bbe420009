# torchrun with one fix: on Python 3.11, Debian's torch 1.13 Std.from_str() iterates an IntFlag,
# which skips NONE (0) and ALL (3), so every --redirects/--tee value except 1 and 2 becomes None and
# the agent crashes. Replace to_std with Std(int(v)); everything else is stock torch.distributed.run.
import re, sys
from torch.distributed.elastic.multiprocessing import api as _api
from torch.distributed.elastic.multiprocessing.api import Std
def _from_str(vm):
    if re.match(_api._VALUE_REGEX, vm):
        return Std(int(vm))
    d = {}
    for m in vm.split(","):
        i, v = m.split(":")
        d[int(i)] = Std(int(v))
    return d
Std.from_str = staticmethod(_from_str)
from torch.distributed.run import main
if __name__ == "__main__":
    sys.exit(main())
