# the scratch dir of rank 1 sits on a full volume: stand in /dev/full for its epoch-1 file
mkdir -p scratch
ln -sf /dev/full scratch/feat-e1-r1.bin
