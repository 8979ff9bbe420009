# site profile for cn02 (batch partition)
export OMP_NUM_THREADS=1
umask 022
