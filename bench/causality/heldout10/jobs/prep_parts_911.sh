for e in 0 1 2; do mkdir -p parts/epoch$e; for r in 0 1 2 3; do
  touch parts/epoch$e/part-$r.pt
  [ "$e$r" = "13" ] || touch parts/epoch$e/part-$r.pt.ready
done; done
