# site profile for cn01 (batch partition)
export OMP_NUM_THREADS=1
umask 022
