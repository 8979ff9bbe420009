"""fastrec: zero-copy reader for paged record files (.rec + .idx).

A stand-in for the C extension the pipeline uses: the .rec file is mapped page by page,
a page table maps page numbers to addresses, and records are read straight from memory
with ctypes.string_at, with no bounds checks (that is the point of the fast path).
"""
import ctypes
import mmap
import os

import numpy as np

PAGE = 4096


class RecReader:
    def __init__(self, path):
        self._f = open(path + ".rec", "rb")
        size = os.fstat(self._f.fileno()).st_size
        self._mm = mmap.mmap(self._f.fileno(), size, access=mmap.ACCESS_READ)
        self._buf = (ctypes.c_char * size).from_buffer_copy(self._mm) if size else None
        base = ctypes.addressof(self._buf) if size else 0
        self._pages = {p: base + p * PAGE for p in range((size + PAGE - 1) // PAGE)}
        self.index = np.fromfile(path + ".idx", dtype=np.int64).reshape(-1, 2)  # (offset, length)

    def __len__(self):
        return len(self.index)

    def get(self, i):
        off, n = (int(v) for v in self.index[i])
        ptr = self._pages.get(off // PAGE, 0) + off % PAGE  # NULL page for a missing page
        return ctypes.string_at(ptr, n)
