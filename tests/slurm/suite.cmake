# A real single-node Slurm runs a job array of real PyTorch tasks through `denpex run`, and
# `denpex triage` sums them up (tests/slurm/run.sh). Skips (77) without slurm-wlm and munge on a
# developer machine, fails under CI=true. Labelled no-sanitizer: one run of it is enough.
add_test(NAME slurm.job_array_triage
  COMMAND ${CMAKE_CURRENT_LIST_DIR}/run.sh $<TARGET_FILE:denpex> ${CMAKE_SOURCE_DIR})
set_tests_properties(slurm.job_array_triage PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120 LABELS "slurm;no-sanitizer")
