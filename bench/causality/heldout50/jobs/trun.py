# torchrun (python3 -m torch.distributed.run) with one fix for Debian's torch 1.13 on Python 3.11:
# Std.from_str("0") returns None there (zero-valued IntFlag members are not iterated), which makes
# the default --redirects/--tee crash in to_map(). Everything else is torch's own launcher.
import runpy
from torch.distributed.elastic.multiprocessing.api import Std
_orig = Std.from_str.__func__
def _from_str(cls, vm):
    r = _orig(cls, vm)
    return Std.NONE if r is None else r
Std.from_str = classmethod(_from_str)
runpy.run_module("torch.distributed.run", run_name="__main__", alter_sys=True)
