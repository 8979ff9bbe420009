# Real PyTorch failures (Debian's python3-torch, CPU): their real output must be diagnosed right,
# from saved logs and live. Skipped (exit 77) where /usr/bin/python3 cannot import torch.
set(DENPEX_REALTORCH_SCENARIOS gloo_shape_mismatch rank_sigkill dataloader_worker_killed state_dict_keys
    autograd_inplace backward_twice)
foreach(scenario IN LISTS DENPEX_REALTORCH_SCENARIOS)
  add_test(NAME realtorch.${scenario}
    COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/check.py $<TARGET_FILE:denpex> ${scenario})
  set_tests_properties(realtorch.${scenario} PROPERTIES LABELS realtorch SKIP_RETURN_CODE 77 TIMEOUT 300)
endforeach()
