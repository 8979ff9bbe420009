"""Thin ctypes wrapper over a native tokenizer handle (stand-in for a C++ tokenizer
binding).  The handle is a malloc'd block holding the model name."""
import ctypes

_libc = ctypes.CDLL(None)
_libc.malloc.restype = ctypes.c_void_p
_libc.malloc.argtypes = [ctypes.c_size_t]
_libc.free.argtypes = [ctypes.c_void_p]


class NativeTokenizer:
    def __init__(self, model):
        self.model = model
        self._h = _libc.malloc(256)
        ctypes.memmove(self._h, model.encode()[:255] + b"\0", min(len(model), 255) + 1)

    def encode(self, text, vocab):
        return [hash((self.model, w)) % vocab for w in text.split()]

    def close(self):
        _libc.free(self._h)

    def __del__(self):
        if self._h:
            _libc.free(self._h)
