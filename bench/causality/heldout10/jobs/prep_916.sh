mkdir -p scratch/node-a scratch/node-b
ln -sf /dev/full scratch/node-b/features.pt
