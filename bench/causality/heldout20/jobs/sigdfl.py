"""exec the command with SIGINT reset to its default (a background job of a
non-interactive shell starts with SIGINT ignored, and Python would then install no
KeyboardInterrupt handler)."""
import os
import signal
import sys

signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execvp(sys.argv[1], sys.argv[1:])
