# site profile for cn03 (interactive/debug partition, shared with logins)
export OMP_NUM_THREADS=1
umask 022
ulimit -t 4    # CPU seconds per process on the debug partition
