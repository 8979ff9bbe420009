"""exec wrapper: reset SIGINT to its default, then exec the command.  A background job of
a non-interactive shell starts with SIGINT ignored, and Python then installs no
KeyboardInterrupt handler; a terminal user's job would have the default."""
import os
import signal
import sys

signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execvp(sys.argv[1], sys.argv[1:])
